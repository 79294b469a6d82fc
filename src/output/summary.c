/* summary.json: what the run did, machine-readable, at its end. */
#include "output/output.h"
#include "io/atomicfile.h"
#include "io/json.h"
#include "io/options.h"
#include "decomp/collective.h"
#include "engine/flow.h"
#include <sys/resource.h>

typedef struct {
  char dir[PETSC_MAX_PATH_LEN];
} Summary;

static void SummarySpread(JsonWriter *w, const char *key, const EngineSpread *s)
{
  JsonObjectBegin(w, key);
  JsonReal(w, "min", s->min);
  JsonReal(w, "mean", s->mean);
  JsonReal(w, "max", s->max);
  JsonObjectEnd(w);
}

/* Where the ranks' time went and what their exchanges sent (engine/counters.h). */
static void SummaryParallel(JsonWriter *w, const EngineCountersView *v)
{
  static const char *const what[4] = {"messages_sent", "messages_received", "bytes_sent", "bytes_received"};
  char                     key[64];

  JsonObjectBegin(w, "parallel");
  JsonInt(w, "ranks", v->ranks);
  JsonInt(w, "steps", v->steps);
  JsonInt(w, "rebuilds", v->rebuilds);
  JsonObjectBegin(w, "traffic");
  for (int k = 0; k < EXCHANGE_KINDS; k++) {
    const PetscInt64 n[4] = {v->total[k].sent, v->total[k].received, v->total[k].bytes_sent,
                             v->total[k].bytes_received};
    JsonObjectBegin(w, ExchangeKindNames[k]);
    for (int q = 0; q < 4; q++) JsonInt(w, what[q], n[q]);
    JsonObjectEnd(w);
  }
  JsonObjectEnd(w);
  JsonObjectBegin(w, "per_rank_per_step");
  for (int k = 0; k < EXCHANGE_KINDS; k++)
    for (int q = 0; q < 4; q++) {
      snprintf(key, sizeof(key), "%s_%s", ExchangeKindNames[k], what[q]);
      SummarySpread(w, key, &v->per_step[k][q]);
    }
  JsonObjectEnd(w);
  JsonObjectBegin(w, "time");
  for (int p = 0; p < ENGINE_PHASES; p++) SummarySpread(w, EnginePhaseNames[p], &v->time[p]);
  SummarySpread(w, "total", &v->time[ENGINE_PHASES]);
  JsonObjectEnd(w);
  /* the streams' batches: candidates in all, and per rank those it drew (its share of the blocks) */
  JsonInt(w, "stream_candidates", v->stream_candidates);
  SummarySpread(w, "stream_candidates_drawn", &v->stream_drawn);
  JsonObjectEnd(w);
}

/* What SummaryFinish gathers on rank 0. */
typedef struct {
  PetscMPIInt      size;
  const PetscReal *mem, *owned, *busy;
  PetscReal        lost;
  PetscInt64       inserted, removed;
  const FlowState *flow; /* the flow's totals */
} SummaryRanks;

/* Wet runs with streams or outflows: the liquid each stream brought and each outflow took [m^3], as flow.csv's
 * last row has it. */
static void SummaryFlowLiquid(JsonWriter *w, const Flow *f, const FlowState *st)
{
  char key[32];

  if (!f->on || !f->liquid) return;
  JsonObjectBegin(w, "flow_liquid");
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    if (!f->streams.s[k].on) continue;
    snprintf(key, sizeof(key), "stream%d", (int)k);
    JsonReal(w, key, ExactSumValue(&st->inserted_liquid[k]));
  }
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++) {
    if (!f->outflow[k].on) continue;
    snprintf(key, sizeof(key), "outflow%d", (int)k);
    JsonReal(w, key, ExactSumValue(&st->removed_liquid[k]));
  }
  JsonObjectEnd(w);
}

/* Rank 0: summary.json from what SummaryFinish gathered. */
static PetscErrorCode SummaryWriteRoot(Summary *su, Engine *e, const EngineRunEnd *end, const SummaryRanks *r)
{
  const PetscMPIInt size = r->size;
  const PetscReal  *mem = r->mem, *owned = r->owned, *busy = r->busy, lost = r->lost;
  const PetscInt64  inserted = r->inserted, removed = r->removed;
  char              path[PETSC_MAX_PATH_LEN + 16];
  AtomicFile        af;
  JsonWriter        w;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/summary.json", su->dir));
  PetscCall(AtomicFileOpen(path, &af));
  JsonBegin(&w, af.fp);
  JsonString(&w, "hdem_version", HDEM_VERSION);
  JsonString(&w, "deck", OptionsDeck());
  JsonInt(&w, "particles", e->nglobal - (PetscInt64)lost - removed);
  JsonInt(&w, "ranks", size);
  JsonString(&w, "status", end->failed ? "failed" : end->stopped ? "stopped_by_signal" : "completed");
  if (end->failed) JsonString(&w, "reason", e->health.fault.reason);
  JsonInt(&w, "steps", e->clock.step);
  JsonInt(&w, "steps_this_run", end->steps_run);
  JsonReal(&w, "simulated_time", e->clock.t);
  JsonReal(&w, "wall_seconds", end->wall);
  JsonReal(&w, "particle_steps_per_second", end->wall > 0.0 ? end->particle_steps / end->wall : 0.0);
  JsonReal(&w, "particle_steps", end->particle_steps);
  JsonReal(&w, "dt_min", e->clock.step ? e->clock.dt_min : 0.0);
  JsonReal(&w, "dt_max", e->clock.dt_max);
  JsonReal(&w, "dt_mean", e->clock.step ? e->clock.dt_sum / (PetscReal)e->clock.step : 0.0);
  JsonInt(&w, "rebuilds", e->clock.rebuilds);
  JsonInt(&w, "lost_particles", (PetscInt64)lost);
  JsonInt(&w, "inserted", inserted); /* by the streams */
  JsonInt(&w, "removed", removed);   /* by the outflows */
  SummaryFlowLiquid(&w, &e->flow, r->flow);
  JsonString(&w, "balance_mode", BalanceModes[e->balance.mode]);
  JsonInt(&w, "balance_moves", e->balance.moves);
  JsonReal(&w, "imbalance", e->balance.imbalance);
  JsonReal(&w, "imbalance_first", e->balance.imbalance_first); /* rcb: owned particles before the first tree */
  JsonInt(&w, "balance_tree", e->grid.tree ? (e->balance.restored ? 2 : 1) : 0); /* 2: restored from a checkpoint */
  fprintf(af.fp, ",\n  \"peak_memory_bytes\": [");
  for (PetscMPIInt r = 0; r < size; r++) fprintf(af.fp, "%s%.0f", r ? ", " : "", (double)mem[r]);
  fprintf(af.fp, "],\n  \"owned_particles\": [");
  for (PetscMPIInt r = 0; r < size; r++) fprintf(af.fp, "%s%.0f", r ? ", " : "", (double)owned[r]);
  fprintf(af.fp, "],\n  \"busy_seconds\": [");
  for (PetscMPIInt r = 0; r < size; r++) fprintf(af.fp, "%s%.6f", r ? ", " : "", (double)busy[r]);
  fprintf(af.fp, "]");
  SummaryParallel(&w, &e->counted);
  JsonEnd(&w);
  fprintf(af.fp, "\n");
  PetscCall(AtomicFileCommit(&af, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0 writes what every rank sends it: peak memory, owned particles,
 * busy seconds (wall clock outside the step's reduction). */
static PetscErrorCode SummaryFinish(Monitor m, Engine *e, const EngineRunEnd *end)
{
  Summary      *su = (Summary *)m->data;
  PetscMPIInt   rank, size;
  PetscReal     lost = (PetscReal)e->lost, *mem = NULL, *owned = NULL, *busy = NULL, rss;
  PetscInt64    inserted, removed;
  FlowState    *flow;
  struct rusage ru;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(e->grid.comm, &rank, &size));
  PetscCall(CollectiveSumAll(e->grid.comm, &lost, 1));
  PetscCall(PetscMalloc1(1, &flow));
  PetscCall(FlowStateTotals(e, flow));
  inserted = FlowInsertedAll(&e->flow, flow);
  removed  = FlowRemovedAll(&e->flow, flow);
  getrusage(RUSAGE_SELF, &ru);
  rss = (PetscReal)ru.ru_maxrss * 1024.0;
  if (rank == 0) PetscCall(PetscMalloc3(size, &mem, size, &owned, size, &busy));
  PetscCall(CollectiveGatherReal(e->grid.comm, rss, mem));
  PetscCall(CollectiveGatherReal(e->grid.comm, (PetscReal)e->p.n, owned));
  PetscCall(CollectiveGatherReal(e->grid.comm, end->wall - e->clock.wait_seconds, busy));
  PetscCall(EngineCountersGather(e->grid.comm, &e->counters, e->clock.rebuilds, end->steps_run, &e->counted));
  {
    SummaryRanks r = {size, mem, owned, busy, lost, inserted, removed, flow};
    CollectiveShared(e->grid.comm, rank == 0 ? SummaryWriteRoot(su, e, end, &r) : PETSC_SUCCESS);
  }
  PetscCall(PetscFree(flow));
  if (rank == 0) PetscCall(PetscFree3(mem, owned, busy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SummaryWriteFailed(const char *dir, const Engine *e, const char *reason, PetscMPIInt rank, PetscMPIInt size)
{
  char       path[PETSC_MAX_PATH_LEN + 16], tmp[PETSC_MAX_PATH_LEN + 40];
  FILE      *fp;
  JsonWriter w;
  int        bad;

  /* a temporary of this rank's own: ranks that fail together each write a whole file */
  snprintf(path, sizeof(path), "%s/summary.json", dir);
  snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)rank);
  if (!(fp = fopen(tmp, "w"))) return;
  JsonBegin(&w, fp);
  JsonString(&w, "hdem_version", HDEM_VERSION);
  JsonString(&w, "deck", OptionsDeck());
  JsonInt(&w, "ranks", size);
  JsonString(&w, "status", "failed");
  JsonString(&w, "reason", reason);
  JsonInt(&w, "steps", e->clock.step);
  JsonReal(&w, "simulated_time", e->clock.t);
  JsonEnd(&w);
  fprintf(fp, "\n");
  bad = ferror(fp) | fflush(fp);
  if (fclose(fp) || bad || rename(tmp, path)) (void)remove(tmp);
}

static PetscBool SummaryDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req,
                            PetscLogDouble elapsed)
{
  (void)m, (void)e, (void)step, (void)t_prev, (void)t, (void)req, (void)elapsed;
  return PETSC_FALSE;
}

static PetscErrorCode SummaryDestroy(Monitor m)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(m->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MonitorOps SummaryOps = {"summary",  PETSC_FALSE, NULL,          NULL,
                                      SummaryDue, NULL,        SummaryFinish, SummaryDestroy};

PetscErrorCode SummaryMonitorCreate(MPI_Comm comm, const char *dir, Monitor *m)
{
  Summary *su;

  PetscFunctionBeginUser;
  (void)comm;
  PetscCall(PetscNew(&su));
  PetscCall(PetscStrncpy(su->dir, dir, sizeof(su->dir)));
  PetscCall(MonitorCreate(&SummaryOps, su, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
