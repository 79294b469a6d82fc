/* flow.csv: the streams' and outflows' cumulative counters, summed over the
 * ranks exactly (engine/flow.h), so a row is the same bits on any rank
 * count. */
#include "output/flow.h"
#include "engine/flow.h"
#include "io/csvlog.h"
#include "decomp/collective.h"
#include "output/flow_bins.h"
#include <math.h>

typedef struct {
  char         path[PETSC_MAX_PATH_LEN + 16]; /* DIR/flow.csv */
  char         dir[PETSC_MAX_PATH_LEN];
  FlowStatsLog stats; /* flow_bins.csv, residence.csv: rows with flow.csv's */
  PetscInt     thermo_interval;
  PetscReal    thermo_period;
  PetscBool    on;        /* the deck has a stream or an outflow */
  PetscInt64   last_step; /* of the last row */
  FlowState   *tot;       /* a row's totals */
  FILE        *fp;        /* rank 0 */
} FlowLog;

PetscBool FlowRowDue(const FlowSettings *fs, PetscInt thermo_interval, PetscReal thermo_period, PetscInt64 step,
                     PetscReal t_prev, PetscReal t)
{
  if (fs->interval_steps > 0) return step % fs->interval_steps == 0 ? PETSC_TRUE : PETSC_FALSE;
  if (thermo_interval > 0 && step % thermo_interval == 0) return PETSC_TRUE;
  if (thermo_period > 0.0 && floor(t / thermo_period) > floor(t_prev / thermo_period)) return PETSC_TRUE;
  return PETSC_FALSE;
}

static PetscErrorCode FlowLogHeader(const Engine *e, char **header)
{
  const Flow *f   = &e->flow;
  size_t      len = 64 + 64 * (STREAMS_MAX * 4 + OUTFLOWS_MAX * (3 + 2 * FLOW_CLASSES_MAX));
  char        b[64];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(len, header));
  PetscCall(PetscStrncpy(*header, "step,time", len));
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    if (!f->streams.s[k].on) continue;
    PetscCall(PetscSNPrintf(b, sizeof(b),
                            ",stream%" PetscInt_FMT "_inserted,stream%" PetscInt_FMT "_mass,stream%" PetscInt_FMT
                            "_short",
                            k, k, k));
    PetscCall(PetscStrlcat(*header, b, len));
  }
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++) {
    if (!f->outflow[k].on) continue;
    PetscCall(PetscSNPrintf(b, sizeof(b), ",outflow%" PetscInt_FMT "_removed,outflow%" PetscInt_FMT "_mass", k, k));
    PetscCall(PetscStrlcat(*header, b, len));
    for (PetscInt c = 0; f->settings.nedges && c <= f->settings.nedges; c++) {
      PetscCall(PetscSNPrintf(b, sizeof(b),
                              ",outflow%" PetscInt_FMT "_removed_d%" PetscInt_FMT ",outflow%" PetscInt_FMT
                              "_mass_d%" PetscInt_FMT,
                              k, c, k, c));
      PetscCall(PetscStrlcat(*header, b, len));
    }
  }
  for (PetscInt k = 0; f->liquid && k < STREAMS_MAX + OUTFLOWS_MAX; k++) {
    PetscBool on = k < STREAMS_MAX ? f->streams.s[k].on : f->outflow[k - STREAMS_MAX].on;
    if (!on) continue;
    if (k < STREAMS_MAX) PetscCall(PetscSNPrintf(b, sizeof(b), ",stream%" PetscInt_FMT "_liquid", k));
    else PetscCall(PetscSNPrintf(b, sizeof(b), ",outflow%" PetscInt_FMT "_liquid", k - STREAMS_MAX));
    PetscCall(PetscStrlcat(*header, b, len));
  }
  PetscCall(PetscStrlcat(*header, "\n", len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the row of the totals st. */
static PetscErrorCode FlowLogPrint(FlowLog *fl, const Engine *e, FlowState *st)
{
  const Flow *f = &e->flow;

  PetscFunctionBeginUser;
  fprintf(fl->fp, "%lld,%.10e", (long long)e->clock.step, (double)e->clock.t);
  for (PetscInt k = 0; k < STREAMS_MAX; k++)
    if (f->streams.s[k].on)
      fprintf(fl->fp, ",%lld,%.17g,%lld", (long long)st->inserted[k], (double)ExactSumValue(&st->inserted_mass[k]),
              (long long)st->shortfall[k]);
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++) {
    PetscInt64 n = 0;
    ExactSum   m;
    if (!f->outflow[k].on) continue;
    ExactSumZero(&m);
    for (PetscInt c = 0; c <= f->settings.nedges; c++)
      n += st->removed[k][c], ExactSumAddSum(&m, &st->removed_mass[k][c]);
    fprintf(fl->fp, ",%lld,%.17g", (long long)n, (double)ExactSumValue(&m));
    for (PetscInt c = 0; f->settings.nedges && c <= f->settings.nedges; c++)
      fprintf(fl->fp, ",%lld,%.17g", (long long)st->removed[k][c], (double)ExactSumValue(&st->removed_mass[k][c]));
  }
  /* wet runs: the liquid, after every other column */
  for (PetscInt k = 0; f->liquid && k < STREAMS_MAX; k++)
    if (f->streams.s[k].on) fprintf(fl->fp, ",%.17g", (double)ExactSumValue(&st->inserted_liquid[k]));
  for (PetscInt k = 0; f->liquid && k < OUTFLOWS_MAX; k++)
    if (f->outflow[k].on) fprintf(fl->fp, ",%.17g", (double)ExactSumValue(&st->removed_liquid[k]));
  fputc('\n', fl->fp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: the totals, written by rank 0. */
static PetscErrorCode FlowLogRow(FlowLog *fl, Engine *e)
{
  FlowState *st = fl->tot;

  PetscFunctionBeginUser;
  PetscCall(FlowStateTotals(e, st));
  PetscCall(FlowStatsLogRow(fl->stats, e));
  fl->last_step = e->clock.step;
  if (fl->fp) PetscCall(FlowLogPrint(fl, e, st));
  CollectiveShared(e->grid.comm, fl->fp ? CsvLogFlush(fl->fp, fl->path, e->clock.step) : PETSC_SUCCESS);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FlowLogStart(Monitor m, Engine *e, PetscBool fresh)
{
  FlowLog *fl = (FlowLog *)m->data;

  PetscFunctionBeginUser;
  fl->on = e->flow.on;
  if (!fl->on) PetscFunctionReturn(PETSC_SUCCESS); /* no stream, no outflow: no file */
  PetscCall(PetscMalloc1(1, &fl->tot));
  {
    char *header = NULL;
    if (e->grid.rank == 0) PetscCall(FlowLogHeader(e, &header));
    CollectiveShared(e->grid.comm,
                     e->grid.rank == 0 ? CsvLogStart(fl->path, header, fresh, e->clock.step, &fl->fp) : PETSC_SUCCESS);
    PetscCall(PetscFree(header));
  }
  PetscCall(FlowStatsLogStart(e, fl->dir, fresh, &fl->stats));
  if (fresh) PetscCall(FlowLogRow(fl, e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool FlowLogDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req,
                            PetscLogDouble elapsed)
{
  FlowLog *fl = (FlowLog *)m->data;
  (void)req, (void)elapsed;
  return fl->on && FlowRowDue(FlowSettingsOf(e), fl->thermo_interval, fl->thermo_period, step, t_prev, t) ? PETSC_TRUE
                                                                                                          : PETSC_FALSE;
}

static PetscErrorCode FlowLogWrite(Monitor m, Engine *e, PetscInt req, PetscLogDouble elapsed)
{
  PetscFunctionBeginUser;
  (void)req, (void)elapsed;
  PetscCall(FlowLogRow((FlowLog *)m->data, e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The last row, where the cadence did not just write it (a stopped run's
 * state is its checkpoint's, whose row is there or comes on the restart). */
static PetscErrorCode FlowLogFinish(Monitor m, Engine *e, const EngineRunEnd *end)
{
  FlowLog *fl = (FlowLog *)m->data;

  PetscFunctionBeginUser;
  if (!fl->on) PetscFunctionReturn(PETSC_SUCCESS);
  if (!end->stopped && fl->last_step != e->clock.step) PetscCall(FlowLogRow(fl, e));
  CollectiveShared(e->grid.comm, CsvLogClose(&fl->fp, fl->path));
  PetscCall(FlowStatsLogClose(e->grid.comm, fl->stats));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FlowLogDestroy(Monitor m)
{
  FlowLog *fl = (FlowLog *)m->data;

  PetscFunctionBeginUser;
  if (fl->fp) fclose(fl->fp);
  PetscCall(FlowStatsLogDestroy(&fl->stats));
  PetscCall(PetscFree(fl->tot));
  PetscCall(PetscFree(fl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MonitorOps FlowLogOps = {"flow",     PETSC_FALSE,  FlowLogStart,  NULL,
                                      FlowLogDue, FlowLogWrite, FlowLogFinish, FlowLogDestroy};

PetscErrorCode FlowMonitorCreate(const char *dir, PetscInt thermo_interval, PetscReal thermo_period, Monitor *m)
{
  FlowLog *fl;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&fl));
  PetscCall(PetscSNPrintf(fl->path, sizeof(fl->path), "%s/flow.csv", dir));
  PetscCall(PetscStrncpy(fl->dir, dir, sizeof(fl->dir)));
  fl->thermo_interval = thermo_interval, fl->thermo_period = thermo_period, fl->last_step = -1;
  PetscCall(MonitorCreate(&FlowLogOps, fl, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
