/* The random fill (insert_mode random, insert.h): random sequential addition
 * in blocks of the region fixed by the deck alone, each rank filling only the
 * blocks that meet its subdomain. */
#ifndef HDEM_INSERT_RANDOM_H
#define HDEM_INSERT_RANDOM_H

#include "particles/particles.h"
#include "particles/random.h"
#include "decomp/grid.h"
#include "rigid/body_insert.h"

/* What InsertRandom needs of the insert_* keys (insert.h's Insertion). */
typedef struct {
  const RadiusDistribution *rd;
  const BodyChoice         *body;
  PetscInt64                count, seed;
  PetscReal                 v0[3], vrand; /* velocity and the amplitude of its random components */
  PetscInt                  type;
} InsertRandomKeys;

/* Collective.  The fill of [rlo, rhi] into p (this rank's particles); the
 * largest sphere radius of the fill into rmax. */
PETSC_INTERN PetscErrorCode InsertRandom(MPI_Comm, const InsertRandomKeys *, const ClumpTemplates *, const Grid *,
                                         const PetscReal rlo[3], const PetscReal rhi[3], PetscReal density,
                                         Particles *p, PetscReal *rmax);

#endif
