/* The distributed time loop: velocity Verlet over owned particles, ghosts
 * refreshed every step, neighbour lists rebuilt (with migration) when the
 * global reduction says some particle may have moved half the skin, and the
 * step set from the global minimum of the contact bounds. */
#ifndef HDEM_ENGINE_H
#define HDEM_ENGINE_H

#include "engine/state.h"

/* The walls' force and torque over the last step (collective), 6 per wall (fx fy fz tx ty tz, the torque about the
 * rotating wall's axis point, else a plane's point or a mesh's centroid at the step's end), planes then meshes: the
 * same bits on any rank count.  Only after a step for which wall_sums_due was set. */
PETSC_EXTERN PetscErrorCode EngineWallTotals(Engine *, PetscReal *totals);
/* This rank's bodies as state files write them (allocated; EngineBodiesFree). */
PETSC_EXTERN PetscErrorCode EngineBodiesGet(const Engine *, SnapshotBodies *);
PETSC_EXTERN PetscErrorCode EngineBodiesFree(SnapshotBodies *);
PETSC_EXTERN PetscErrorCode EngineSetUp(Engine *); /* after grid, particles, model, walls are in place */
/* instead of EngineSetUp, after CheckpointRead filled particles, histories and state */
PETSC_EXTERN PetscErrorCode EngineResume(Engine *);
/* One step.  With ahead, the caller reads nothing of the state before the
 * next step (no output, no statistics, no checkpoint): a fixed step then
 * does the next step's first half in this one's second pass
 * (IntegratorCloseOpen), bitwise as apart, and sets opened. */
PETSC_EXTERN PetscErrorCode EngineStep(Engine *, PetscBool ahead);
/* Collective; reads the state and changes nothing (the health checks on them: EngineHealthStats). */
PETSC_EXTERN PetscErrorCode EngineGetStats(Engine *, EngineStats *);
/* Every interaction's histories into the store (stay: as InteractionOps gather). */
PETSC_EXTERN PetscErrorCode EngineGatherHistories(Engine *, RecordStore *, const unsigned char *stay);
/* after the last step: only the particle state, counters and stats remain */
PETSC_EXTERN PetscErrorCode EngineFinish(Engine *);
PETSC_EXTERN PetscErrorCode EngineDestroy(Engine *);

#endif
