/* Streams pour particles in, outflows take them out, both at neighbour list
 * rebuilds (before the migration), so that a new particle reaches its owner
 * and its ghosts by the rebuild's own exchanges.
 *
 * Insertion does not depend on the rank count: a stream's batch is cut
 * into blocks fixed by the deck's values and the batch's size alone, its
 * candidates (insert/stream.h) shared among them in sequence order, and
 * each block is decided by the ranks near it: each flags the trials that
 * overlap one of its owned particles, the flags are or-ed among them, and
 * each walks the block's candidates alike, accepting the first trial of
 * each that no existing or newly accepted particle overlaps; the owner of
 * its position appends it, its id from the counts placed before it, made
 * global once per batch (engine/flow_blocks.h).  A particle that found no
 * room stays due: it is the stream's shortfall until it is placed.
 *
 * Removal is each rank's for its owned particles; the counts are integers
 * and the masses exact sums (decomp/exactsum.h), so totals are the same
 * bits on any rank count. */
#ifndef HDEM_FLOW_H
#define HDEM_FLOW_H

#include "engine/state.h"
#include "engine/flow_out.h"

/* The stream*, outflow* and flow_* keys into f, each checked on its own;
 * the counters at their start. */
PETSC_EXTERN PetscErrorCode FlowSetFromOptions(MPI_Comm, Flow *);
/* Streams' regions inside the domain, outflows' overlapping it. */
PETSC_EXTERN PetscErrorCode FlowCheckDomain(MPI_Comm, const Flow *, const PetscReal lo[3], const PetscReal hi[3]);
/* The largest radius a stream may make (0: no stream). */
PETSC_EXTERN PetscReal FlowRadiusMax(const Flow *);

/* Collective, from EngineSetUp (fresh) and EngineResume: the step cap of
 * insertion steps; fresh, the next id (the largest + 1); resumed, the
 * counters must have come from the checkpoint (flow.state). */
PETSC_EXTERN PetscErrorCode EngineFlowSetUp(Engine *, PetscBool fresh);
/* In a rebuild, before the migration (collective): the ghosts dropped,
 * outflows' particles removed, due streams' particles inserted, at the
 * positions' time e->clock.t + e->clock.dt. */
PETSC_EXTERN PetscErrorCode EngineFlowRebuild(Engine *);
/* After the step's reduction (every rank alike): the next step no longer
 * than a due stream's interval, and when a stream is due at its end, a
 * rebuild and a step no longer than the cap. */
PETSC_EXTERN PetscErrorCode EngineFlowDue(Engine *);

/* For a checkpoint.  FlowStateGlobal (collective): every rank's outflow
 * counters summed into every rank's (the streams' are alike already).
 * FlowStateLocal: the totals kept once, on rank 0 (the others' zeroed),
 * after FlowStateGlobal or after every rank read them from a checkpoint. */
PETSC_EXTERN PetscErrorCode FlowStateGlobal(Engine *);
PETSC_EXTERN PetscErrorCode FlowStateLocal(Engine *);
/* Collective: the state with the outflow counters summed, into tot (the engine's untouched). */
PETSC_EXTERN PetscErrorCode FlowStateTotals(Engine *, FlowState *tot);
/* Totals of a FlowStateTotals: particles inserted by every stream, removed by every outflow. */
PETSC_EXTERN PetscInt64 FlowInsertedAll(const Flow *, const FlowState *);
PETSC_EXTERN PetscInt64 FlowRemovedAll(const Flow *, const FlowState *);
/* Of a FlowStateTotals, wet runs: the liquid every stream brought, every removing outflow took [m^3]. */
PETSC_EXTERN void FlowLiquidTotals(const Flow *, const FlowState *, PetscReal *in, PetscReal *out);

#endif
