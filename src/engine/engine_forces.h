/* The engine's pair forces: body-class memos of the pair constants, the
 * fused contact kernel and its lanes, accumulation in the canonical pair
 * order, the step bound.  Internal to the engine (engine.c). */
#ifndef HDEM_ENGINE_FORCES_H
#define HDEM_ENGINE_FORCES_H

#include "engine/engine.h"

/* Pair forces accumulated into the owned particles in pair order, then
 * gravity (with defer, left to the step's second half where the bound is
 * not wanted: e->gravity_pending); the rank's timestep bound into bound. */
PETSC_EXTERN PetscErrorCode EngineForces(Engine *, PetscReal dt, PetscBool defer, PetscReal *bound);
/* Adds this rank's elastic energy, contact count and max of its largest overlap over radius. */
PETSC_EXTERN void EngineContactStats(const Engine *, PetscReal *elastic, PetscReal *contacts, PetscReal *max_ratio);

#endif
