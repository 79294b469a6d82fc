/* What stops a run that went wrong, the same on every rank: a non-finite
 * position, velocity or force, a particle through a wall of the box, an
 * overlap beyond ENGINE_OVERLAP_LIMIT of a radius, or an adaptive step
 * below the floor (EngineStepFloor).  The checks ride on what the step
 * computes anyway: the rebuild test's exact branch sees non-finite values
 * (INTEGRATOR_NONFINITE in the step's reduction), a list rebuild scans every
 * owned particle before it migrates them, the thermo statistics give the
 * largest overlap, and the reduced bound gives the step. */
#ifndef HDEM_HEALTH_H
#define HDEM_HEALTH_H

#include "engine/engine.h"

#define ENGINE_OVERLAP_LIMIT 0.5    /* overlap over the smaller radius beyond which a run has failed */
#define ENGINE_STEP_FLOOR    1.0e-6 /* the adaptive step's floor, of the shortest contact's duration (EngineStepFloor) */

/* The floor of the adaptive step: ENGINE_STEP_FLOOR of the elastic duration
 * of a 1 m/s head-on impact of two of the smallest particles (collective). */
PETSC_EXTERN PetscErrorCode EngineStepFloor(Engine *);
/* Before a rebuild moves particles: a non-finite value or a particle out of
 * the box through a face with a wall fails the run (collective). */
PETSC_EXTERN PetscErrorCode EngineHealthScan(Engine *);
/* After the step's reduction: non-finite values, the step floor (collective). */
PETSC_EXTERN PetscErrorCode EngineHealthStep(Engine *, PetscInt bits, PetscReal local_bound, const PetscInt who[2], PetscBool kinematic);
/* The largest overlap ratio of the statistics: this rank's with its pair's
 * ids, and the global one (collective). */
PETSC_EXTERN PetscErrorCode EngineHealthOverlap(Engine *, PetscReal local, PetscReal ratio, const PetscInt64 who[2]);

/* The initial state's largest overlap against e->overlap_start_max: an
 * input error naming the pair (collective). */
PETSC_EXTERN PetscErrorCode EngineCheckStartOverlap(Engine *);
/* Energy that grew without a source (kinetic + elastic above the start's
 * plus gravity's work by more than ENGINE_ENERGY_GROWTH of them): a warning,
 * once, with the figures. */
#define ENGINE_ENERGY_GROWTH 0.05
PETSC_EXTERN PetscErrorCode EngineHealthEnergy(Engine *, const EngineStats *);

#endif
