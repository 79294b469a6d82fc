/* What stops a run that went wrong, the same on every rank: a non-finite
 * position, velocity or force, a particle through a wall of the box, an
 * overlap beyond CONTACT_OVERLAP_LIMIT of a radius, or an adaptive step
 * below the floor (EngineStepFloor).  The checks ride on what the step
 * computes anyway: the rebuild test's exact branch sees non-finite values
 * (INTEGRATOR_NONFINITE in the step's reduction, with a full scan where that
 * test stops early), a list rebuild scans the owned particles before it
 * migrates them (a fault noted there rides on the next reduction), the
 * contact evaluations flag an overlap beyond the limit (InteractionStep
 * deep), and the reduced bound gives the
 * step: no collective of its own. */
#ifndef HDEM_HEALTH_H
#define HDEM_HEALTH_H

#include "engine/state.h"

#define ENGINE_STEP_FLOOR 1.0e-6 /* the adaptive step's floor, of the shortest contact's duration (EngineStepFloor) */

/* The floor of the adaptive step: ENGINE_STEP_FLOOR of the elastic duration
 * of a 1 m/s head-on impact of two of the smallest particles (collective). */
PETSC_EXTERN PetscErrorCode EngineStepFloor(Engine *);
/* The step's reduction carries these bits too (beside INTEGRATOR_NONFINITE). */
#define ENGINE_HEALTH_NOTED 16 /* a rank noted a fault (EngineHealthScan) */
#define ENGINE_HEALTH_DEEP  32 /* a rank's forces met an overlap beyond the limit */

/* Before a rebuild migrates particles, this rank's particle out of the box
 * through a face with walls (or non-finite) is noted, for the next reduction. */
PETSC_EXTERN void EngineHealthScan(Engine *);
/* The rebuild bits of a step with what the reduction must carry besides:
 * where the rebuild test may have left particles untested (all its bounds
 * already passed), a full scan for non-finite values; a noted fault. */
PETSC_EXTERN PetscInt EngineHealthBits(Engine *, PetscInt bits);
/* After the step's reduction: non-finite values, a noted fault, the step floor (collective). */
PETSC_EXTERN PetscErrorCode EngineHealthStep(Engine *, PetscInt bits, PetscReal local_bound, const PetscInt who[2],
                                             PetscBool kinematic);
/* The initial state's largest overlap against e->health.overlap_start_max: an
 * input error naming the pair (collective). */
PETSC_EXTERN PetscErrorCode EngineCheckStartOverlap(Engine *);
/* Liquid: no particle's below zero (it formed more bridges in one step
 * than liquid_bridge_fraction allows), and, where no particle was lost
 * through an open face, the total (particles + bridges) within
 * ENGINE_LIQUID_DRIFT of the start's plus what the streams brought less
 * what the outflows took (of the start's plus the streams'); the run has
 * failed otherwise
 * (collective; lmin, who: this rank's least liquid and its particle's id). */
#define ENGINE_LIQUID_DRIFT 1e-9
PETSC_EXTERN PetscErrorCode EngineHealthLiquid(Engine *, const EngineStats *, PetscReal lmin, PetscInt64 who);
/* Energy that grew without a source: kinetic + elastic above the sum of
 * the start's energy, gravity's work, the moving walls' and the flow's by
 * more than e->health.energy_growth of their magnitudes' sum.  The run has failed
 * (or, with -health_energy_action warn, a warning once).  Called with the
 * statistics (collective, the same exact sums on every rank). */
#define ENGINE_ENERGY_GROWTH 0.05
PETSC_EXTERN const char *const EngineEnergyActions[];
PETSC_EXTERN PetscErrorCode    EngineHealthEnergy(Engine *, const EngineStats *);
/* The exact check's sources as the step's check's base (collective): after each exact check, and at the start. */
PETSC_EXTERN PetscErrorCode EngineHealthEnergyBase(Engine *, const EngineStats *);
/* The step's check on the step's reduction: sum = the kinetic energy, work_gravity, the walls' and the flow's
 * energy since the base, each summed over the ranks (the same on every rank). */
PETSC_EXTERN PetscErrorCode EngineHealthEnergyStep(Engine *, const PetscReal sum[5], PetscReal dt);
/* This rank's particles' mass (health.mass), for the step's check's floor: after a rebuild or resume. */
PETSC_EXTERN void EngineHealthMass(Engine *);
/* The checks on a step's statistics: liquid (wet runs), then energy (collective). */
PETSC_EXTERN PetscErrorCode EngineHealthStats(Engine *, const EngineStats *);

#endif
