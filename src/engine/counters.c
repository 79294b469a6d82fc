#include "engine/counters.h"
#include "decomp/collective.h"

const char *const EnginePhaseNames[] = {"force",     "halo",      "rebuild", "balance",
                                        "integrate", "reduction", "output",  "other"};

PetscErrorCode EngineCountersStart(EngineCounters *c, PetscInt rebuilds)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(PetscTime(&c->start));
  c->mark      = c->start;
  c->rebuilds0 = rebuilds;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's values: per step messages and bytes by kind, the phases' seconds, other and the total, then the
 * streams' candidates it drew. */
#define COUNTERS_TRAFFIC (4 * EXCHANGE_KINDS)
#define COUNTERS_TIMES   (COUNTERS_TRAFFIC + ENGINE_PHASES + 1)
#define COUNTERS_N       (COUNTERS_TIMES + 1)

static void EngineCountersLocal(const EngineCounters *c, PetscInt64 steps, PetscLogDouble now, PetscReal v[])
{
  PetscReal per = steps > 0 ? 1.0 / (PetscReal)steps : 0.0, named = 0.0;

  for (int k = 0; k < EXCHANGE_KINDS; k++) {
    const ExchangeTally *t = &c->traffic[k];
    v[4 * k + 0]           = (PetscReal)t->sent * per;
    v[4 * k + 1]           = (PetscReal)t->received * per;
    v[4 * k + 2]           = (PetscReal)t->bytes_sent * per;
    v[4 * k + 3]           = (PetscReal)t->bytes_received * per;
  }
  for (int p = 0; p < ENGINE_PHASE_OTHER; p++) {
    v[COUNTERS_TRAFFIC + p] = (PetscReal)c->seconds[p];
    named += (PetscReal)c->seconds[p];
  }
  v[COUNTERS_TRAFFIC + ENGINE_PHASE_OTHER]     = (PetscReal)(now - c->start) - named;
  v[COUNTERS_TRAFFIC + ENGINE_PHASE_OTHER + 1] = (PetscReal)(now - c->start);
  v[COUNTERS_TIMES]                            = (PetscReal)c->stream_drawn;
}

PetscErrorCode EngineCountersGather(MPI_Comm comm, const EngineCounters *c, PetscInt rebuilds, PetscInt64 steps,
                                    EngineCountersView *v)
{
  PetscReal      loc[COUNTERS_N], mx[2 * COUNTERS_N], sum[COUNTERS_N + COUNTERS_TRAFFIC];
  PetscLogDouble now;
  PetscMPIInt    rank;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(v, sizeof(*v)));
  PetscCall(CollectiveRank(comm, &rank, &v->ranks));
  PetscCall(PetscTime(&now));
  EngineCountersLocal(c, steps, now, loc);
  for (int i = 0; i < COUNTERS_N; i++) mx[i] = loc[i], mx[COUNTERS_N + i] = -loc[i], sum[i] = loc[i];
  for (int k = 0; k < EXCHANGE_KINDS; k++) { /* whole counts below 2^53: their sums are exact */
    const ExchangeTally *t      = &c->traffic[k];
    sum[COUNTERS_N + 4 * k + 0] = (PetscReal)t->sent;
    sum[COUNTERS_N + 4 * k + 1] = (PetscReal)t->received;
    sum[COUNTERS_N + 4 * k + 2] = (PetscReal)t->bytes_sent;
    sum[COUNTERS_N + 4 * k + 3] = (PetscReal)t->bytes_received;
  }
  PetscCall(CollectiveMaxAll(comm, mx, 2 * COUNTERS_N));
  PetscCall(CollectiveSumAll(comm, sum, COUNTERS_N + COUNTERS_TRAFFIC));
  for (int i = 0; i < COUNTERS_N; i++) {
    EngineSpread *s = i < COUNTERS_TRAFFIC ? &v->per_step[i / 4][i % 4]
                    : i < COUNTERS_TIMES   ? &v->time[i - COUNTERS_TRAFFIC]
                                           : &v->stream_drawn;
    s->min          = -mx[COUNTERS_N + i];
    s->max          = mx[i];
    s->mean         = sum[i] / (PetscReal)v->ranks;
  }
  for (int k = 0; k < EXCHANGE_KINDS; k++) {
    const PetscReal *t         = sum + COUNTERS_N + 4 * k;
    v->total[k].sent           = (PetscInt64)t[0];
    v->total[k].received       = (PetscInt64)t[1];
    v->total[k].bytes_sent     = (PetscInt64)t[2];
    v->total[k].bytes_received = (PetscInt64)t[3];
  }
  v->stream_candidates = c->stream_candidates; /* every rank's alike */
  v->steps             = steps;
  v->rebuilds          = rebuilds - c->rebuilds0;
  v->valid             = PETSC_TRUE;
  (void)rank;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EngineStage(const char *name, PetscLogStage *stage)
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogStageGetId(name, stage));
  if (*stage < 0) PetscCall(PetscLogStageRegister(name, stage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EngineEvent(const char *name, PetscLogEvent *ev)
{
  static PetscClassId cid = 0;

  PetscFunctionBeginUser;
  if (!cid) PetscCall(PetscClassIdRegister("hdem engine", &cid));
  PetscCall(PetscLogEventGetId(name, ev));
  if (*ev < 0) PetscCall(PetscLogEventRegister(name, cid, ev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineLogRegister(EngineLog *log)
{
  PetscFunctionBeginUser;
  PetscCall(EngineStage("Neighbour", &log->neigh));
  PetscCall(EngineStage("Halo", &log->comm));
  PetscCall(EngineStage("Force", &log->force));
  PetscCall(EngineStage("Integrate", &log->integrate));
  PetscCall(EngineEvent("HistoryGather", &log->gather));
  PetscCall(EngineEvent("Migrate", &log->migrate));
  PetscCall(EngineEvent("Borders", &log->borders));
  PetscCall(EngineEvent("ListBuild", &log->build));
  PetscCall(EngineEvent("HistoryAttach", &log->attach));
  PetscFunctionReturn(PETSC_SUCCESS);
}
