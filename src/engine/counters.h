/* What a run measures of itself: the -log_view stages and events, and the counters summary.json and the closing
 * block give (where each rank's time went, by phase of the step, and what its exchanges sent).  The counters only
 * observe: a timer call at each phase's end, plain integer adds where messages go (decomp/exchange_common.h). */
#ifndef HDEM_ENGINE_COUNTERS_H
#define HDEM_ENGINE_COUNTERS_H

#include "decomp/exchange.h"

/* The -log_view stages of a step and the phases of a rebuild. */
typedef struct {
  PetscLogStage neigh, comm, force, integrate;
  PetscLogEvent gather, migrate, borders, build, attach;
} EngineLog;

/* The phases a rank's time goes to.  rebuild: the neighbour build with its migration and borders, less the
 * balance; output: the outputs' starts, their writes after steps (with the statistics they need) and at the end;
 * other: the loop's own bookkeeping (the step's decisions after the reduction, the outputs' scheduling), lapped
 * but reported as what the named phases leave of the total. */
typedef enum {
  ENGINE_PHASE_FORCE,
  ENGINE_PHASE_HALO,
  ENGINE_PHASE_REBUILD,
  ENGINE_PHASE_BALANCE,
  ENGINE_PHASE_INTEGRATE,
  ENGINE_PHASE_REDUCTION,
  ENGINE_PHASE_OUTPUT,
  ENGINE_PHASE_OTHER,
  ENGINE_PHASES
} EnginePhase;
PETSC_EXTERN const char *const EnginePhaseNames[];

typedef struct {
  PetscLogDouble seconds[ENGINE_PHASES];
  PetscLogDouble start, mark; /* the time loop's start, the last lap */
  PetscInt       rebuilds0;   /* the engine's rebuilds at the start */
  ExchangeTally  traffic[EXCHANGE_KINDS];
  /* the streams' candidates of the batches: in all, and those this rank drew (engine/flow_insert.h) */
  PetscInt64 stream_candidates, stream_drawn;
} EngineCounters;

/* Zero, from now: the time loop's start (the set-up is not counted). */
PETSC_EXTERN PetscErrorCode EngineCountersStart(EngineCounters *, PetscInt rebuilds);

/* The time since the last lap goes to phase. */
static inline PetscErrorCode EngineLap(EngineCounters *c, EnginePhase phase)
{
  PetscLogDouble now;

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&now));
  c->seconds[phase] += now - c->mark;
  c->mark = now;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The least, mean and largest of a value over the ranks. */
typedef struct {
  PetscReal min, mean, max;
} EngineSpread;

/* What the ranks' counters say, gathered once at the end. */
typedef struct {
  PetscBool   valid;
  PetscMPIInt ranks;
  PetscInt64  steps, rebuilds; /* of this run */
  /* all ranks' messages and bytes over the run, by kind */
  ExchangeTally total[EXCHANGE_KINDS];
  /* per rank per step: messages and bytes sent and received, by kind (order: as ExchangeTally's members) */
  EngineSpread per_step[EXCHANGE_KINDS][4];
  /* per rank [s]: each phase but other, then other (the total less the phases) and the total */
  EngineSpread time[ENGINE_PHASES + 1];
  /* the streams' candidates in all, and per rank those it drew */
  PetscInt64   stream_candidates;
  EngineSpread stream_drawn;
} EngineCountersView;

/* Collective: the counters of every rank over steps steps, into v; once, at the end. */
PETSC_EXTERN PetscErrorCode EngineCountersGather(MPI_Comm, const EngineCounters *, PetscInt rebuilds, PetscInt64 steps,
                                                 EngineCountersView *v);
/* The -log_view stages and events, registered once per process (an engine may be set up again). */
PETSC_EXTERN PetscErrorCode EngineLogRegister(EngineLog *);

#endif
