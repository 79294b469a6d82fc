/* Particles' liquid as they are inserted, from their material's liquid
 * volume or its moisture content (contact/liquid.h LiquidOfParticle), and
 * the largest bridge a run with moisture contents forms. */
#ifndef HDEM_MOISTURE_H
#define HDEM_MOISTURE_H

#include "engine/state.h"
#include "insert/insert.h"

/* The liquid of owned rows i0 .. i1 - 1, new from a fill or a stream: a
 * sphere's from its mass; a body's from its mass, shared among its rows
 * (consecutive, as inserted) in proportion to their spheres' volumes, so
 * that the body holds its mass's liquid and each row at most its own
 * sphere's.  Their liquid is added to *total, when given. */
PETSC_EXTERN PetscErrorCode EngineLiquidFill(Engine *, PetscInt i0, PetscInt i1, ExactSum *total);
/* With a moisture content and no liquid_bridge_max: the largest bridge and
 * its reach from the largest sphere the deck can make, the same on a
 * restart: the fill's (fill: the deck has one) distribution's largest (a body's largest sphere) and
 * every stream's; a data file's largest sphere (fresh: read, this rank's in
 * e->rmax).  Collective. */
PETSC_EXTERN PetscErrorCode EngineMoistureSetUp(MPI_Comm, Engine *, const Insertion *, PetscBool fill, PetscBool fresh);

#endif
