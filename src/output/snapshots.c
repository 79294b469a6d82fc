/* Snapshots at a cadence of steps and/or simulated time, and the final
 * state: the particle store as io/snapshot.h writes it, with the walls. */
#include "output/output.h"
#include <math.h>

void OutputStateView(const Engine *e, const char *options, PetscReal wn[], PetscReal wp[], SnapshotView *v)
{
  for (PetscInt w = 0; w < e->planes.n; w++)
    for (int a = 0; a < 3; a++) wn[3 * w + a] = e->planes.w[w].n[a], wp[3 * w + a] = e->planes.w[w].p[a];
  v->st    = &e->p.st;
  v->nwall = e->grid.rank == 0 ? e->planes.n : 0, v->wall_normal = wn, v->wall_point = wp; /* replicated: rank 0's rows */
  v->time = e->t, v->dt = e->dt, v->step = e->step, v->options = options;
}

typedef struct {
  char           dir[PETSC_MAX_PATH_LEN];
  PetscInt       steps, fields;
  PetscReal      period;
  const char    *options;
  SnapshotSeries series;
  OutputTally   *tally;
} Snapshots;

/* A fresh run's first snapshot is its start; a restart keeps the series up
 * to its step. */
static PetscErrorCode SnapshotsStart(Monitor m, Engine *e, PetscBool fresh)
{
  Snapshots *sn = (Snapshots *)m->data;

  PetscFunctionBeginUser;
  PetscCall(SnapshotSeriesCreate(e->grid.comm, sn->dir, fresh ? -1 : e->step, &e->p.st, &sn->series));
  sn->tally->snapshots = sn->series.n;
  if (fresh) PetscCall(m->ops->write(m, e, ENGINE_REQUEST_NONE, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the step just taken crossed a multiple of the period: decided
 * from (t_prev, t], so a restart continues the same cadence. */
static PetscBool SnapshotsDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req, PetscLogDouble elapsed)
{
  Snapshots *sn = (Snapshots *)m->data;
  (void)e, (void)req, (void)elapsed;
  if (sn->steps > 0 && step % sn->steps == 0) return PETSC_TRUE;
  if (sn->period > 0.0 && floor(t / sn->period) > floor(t_prev / sn->period)) return PETSC_TRUE;
  return PETSC_FALSE;
}

static PetscErrorCode SnapshotsWrite(Monitor m, Engine *e, PetscInt req, PetscLogDouble elapsed)
{
  Snapshots   *sn = (Snapshots *)m->data;
  SnapshotView v;
  PetscReal    wn[3 * PLANES_MAX], wp[3 * PLANES_MAX];

  PetscFunctionBeginUser;
  (void)req, (void)elapsed;
  EngineCheckWhole(e);
  OutputStateView(e, sn->options, wn, wp, &v);
  PetscCall(SnapshotWrite(e->grid.comm, &sn->series, sn->fields, &v));
  sn->tally->snapshots = sn->series.n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SnapshotsDestroy(Monitor m)
{
  Snapshots *sn = (Snapshots *)m->data;

  PetscFunctionBeginUser;
  PetscCall(SnapshotSeriesDestroy(&sn->series));
  PetscCall(PetscFree(sn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MonitorOps SnapshotsOps = {"snapshots", PETSC_TRUE, SnapshotsStart, NULL, SnapshotsDue, SnapshotsWrite, NULL, SnapshotsDestroy};

PetscErrorCode SnapshotMonitorCreate(MPI_Comm comm, const char *dir, PetscInt steps, PetscReal period, PetscInt fields, const char *options, OutputTally *tally,
                                     Monitor *m)
{
  Snapshots *sn;

  PetscFunctionBeginUser;
  (void)comm;
  PetscCall(PetscNew(&sn));
  PetscCall(PetscStrncpy(sn->dir, dir, sizeof(sn->dir)));
  sn->steps = steps, sn->period = period, sn->fields = fields, sn->options = options, sn->tally = tally;
  PetscCall(MonitorCreate(&SnapshotsOps, sn, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  char         dir[PETSC_MAX_PATH_LEN];
  const char  *options;
  OutputTally *tally;
} Final;

/* What only stepping needs is released first, so the output does not stack
 * on the time loop's memory. */
static PetscErrorCode FinalFinish(Monitor m, Engine *e, const EngineRunEnd *end)
{
  Final       *fi = (Final *)m->data;
  SnapshotView v;
  PetscReal    wn[3 * PLANES_MAX], wp[3 * PLANES_MAX];

  PetscFunctionBeginUser;
  if (end->stopped) PetscFunctionReturn(PETSC_SUCCESS); /* continued from its checkpoint: no final state */
  PetscCall(EngineFinish(e));
  OutputStateView(e, fi->options, wn, wp, &v);
  /* a failed run's last state, for a look at what went wrong: never taken for a result */
  PetscCall(SnapshotWriteFinal(e->grid.comm, fi->dir, end->failed ? "failed" : "final", &v));
  fi->tally->final = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool FinalDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req, PetscLogDouble elapsed)
{
  (void)m, (void)e, (void)step, (void)t_prev, (void)t, (void)req, (void)elapsed;
  return PETSC_FALSE;
}

static PetscErrorCode FinalDestroy(Monitor m)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(m->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MonitorOps FinalOps = {"final", PETSC_FALSE, NULL, NULL, FinalDue, NULL, FinalFinish, FinalDestroy};

PetscErrorCode FinalMonitorCreate(MPI_Comm comm, const char *dir, const char *options, OutputTally *tally, Monitor *m)
{
  Final *fi;

  PetscFunctionBeginUser;
  (void)comm;
  PetscCall(PetscNew(&fi));
  PetscCall(PetscStrncpy(fi->dir, dir, sizeof(fi->dir)));
  fi->options = options, fi->tally = tally;
  PetscCall(MonitorCreate(&FinalOps, fi, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
