/* Outflows and counters (flow.h): their keys, the particles they remove or count at rebuilds, the statistics
 * binned along an axis and the residence times; the kinetic energy streams bring and outflows take. */
#ifndef HDEM_FLOW_OUT_H
#define HDEM_FLOW_OUT_H

#include "engine/state.h"

/* The outflowN_* keys, each checked on its own. */
PETSC_EXTERN PetscErrorCode FlowOutflowsSetFromOptions(MPI_Comm, Flow *);
/* The particle fields the deck needs (before any particle is made): the
 * insertion time with flow_residence, the counters' marks with a counter. */
PETSC_EXTERN PetscErrorCode FlowAddFields(Flow *, Particles *);
PETSC_EXTERN PetscErrorCode FlowDestroy(Flow *);
/* At a fresh set-up: what is in a counter at the start is not counted. */
PETSC_EXTERN void FlowMarkStart(Engine *);
/* In a rebuild, at the positions' time t: the outflows' particles removed,
 * the counters' counted, each into the counters and statistics. */
PETSC_EXTERN PetscErrorCode EngineFlowRemove(Engine *, PetscReal t);
/* A particle's kinetic energy (a body's, on its first member; 0 on its other rows). */
PETSC_EXTERN PetscReal FlowKinetic(const Particles *, PetscInt i);
/* The statistics' arrays, shaped by the deck; zeroed (no residence: least
 * +inf, largest -inf); freed. */
PETSC_EXTERN PetscErrorCode FlowStatsAlloc(const Flow *, FlowStats *);
PETSC_EXTERN PetscErrorCode FlowStatsZero(FlowStats *);
PETSC_EXTERN PetscErrorCode FlowStatsFree(FlowStats *);
/* Collective: every rank's src summed into dst (FlowStatsAlloc'ed alike). */
PETSC_EXTERN PetscErrorCode FlowStatsTotals(MPI_Comm, const FlowStats *src, FlowStats *dst);
/* The residence bin of a time t [s]: FLOW_RES_PER_DECADE a decade from 10^FLOW_RES_DECADE_LO s. */
PETSC_EXTERN PetscInt FlowResidenceBin(PetscReal t);

#endif
