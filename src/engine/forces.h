/* The step's forces: every interaction in the engine's order, then
 * gravity, and the rank's step bound (the interactions' and the kinematic
 * limit's).  Internal to the engine (engine.c). */
#ifndef HDEM_ENGINE_FORCES_H
#define HDEM_ENGINE_FORCES_H

#include "engine/state.h"

/* The interactions' forces accumulated into the owned particles, then
 * gravity (with defer, left to the step's second half where the bound is
 * not wanted: e->gravity_pending); the rank's timestep bound into bound. */
PETSC_EXTERN PetscErrorCode EngineForces(Engine *, PetscReal dt, PetscBool defer, PetscReal *bound);
/* e->a_reach from the forces a checkpoint kept, as the step that wrote it
 * reduced it (collective): a restart bounds its first step as the run did. */
PETSC_EXTERN PetscErrorCode EngineAccelReach(Engine *);

#endif
