/* The engine's movers (movers/mover.h) called in their stated order: the
 * step's halves, the rebuild test and the hooks around a migration.
 * Internal to the engine. */
#ifndef HDEM_ENGINE_MOVERS_H
#define HDEM_ENGINE_MOVERS_H

#include "engine/state.h"

/* The movers a run needs: the spheres' always, the bodies' when the particle store has bodies. */
PETSC_EXTERN PetscErrorCode EngineMoversCreate(Engine *);
PETSC_EXTERN PetscErrorCode EngineMoversDestroy(Engine *);
PETSC_EXTERN void           EngineMoversSync(Engine *);
PETSC_EXTERN PetscErrorCode EngineMoversMigrated(Engine *);
/* The first half of a step (sets e->sums_zero). */
PETSC_EXTERN void EngineOpenStep(Engine *, PetscReal dt);
/* The second half and the rebuild bits, with the next step's first half where it may go along (EngineStep's ahead). */
PETSC_EXTERN PetscInt EngineCloseStep(Engine *, PetscReal dt, PetscBool ahead, PetscReal lo[3], PetscReal hi[3]);
/* The next step is no longer than this. */
PETSC_EXTERN PetscReal EngineNextLongest(const Engine *);
/* Which of the rebuild criterion's bounds (IntegratorRebuild) some particle may pass after a step no longer than
 * dt_up, and the displacements' ranges: known before that step. */
PETSC_EXTERN PetscInt EngineRebuildBits(Engine *, PetscReal dt_up, PetscReal lo[3], PetscReal hi[3]);
/* The force pass's end: the movers' sums completed and their kinematic bound (MoverBound). */
PETSC_EXTERN void EngineMoversComplete(Engine *, MoverBound *);
/* The largest acceleration of any owned row, kept if larger. */
PETSC_EXTERN void EngineMoversAccel(Engine *, PetscReal *amax);
PETSC_EXTERN void EngineMoversEnergy(Engine *, ExactSum *ke, ExactSum *kr);

#endif
