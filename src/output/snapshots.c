/* Snapshots at a cadence of steps and/or simulated time, and the final
 * state: the particle store as io/snapshot.h writes it, with the walls. */
#include "output/output.h"
#include "geometry/wear.h"
#include <math.h>

void OutputMeshTable(const Engine *e, SnapshotMeshTable *t)
{
  PetscMemzero(t, sizeof(*t));
  t->n = e->meshes.n;
  for (PetscInt k = 0; k < e->meshes.n; k++) {
    PetscStrncpy(t->name[k], e->meshes.m[k].name, sizeof(t->name[k]));
    t->nv[k] = e->meshes.m[k].nv_total, t->nt[k] = e->meshes.m[k].nt_total;
    t->ncell[k] = e->meshes.m[k].wear ? WEAR_CELLS : 0;
    for (PetscInt c = 0; c < t->ncell[k]; c++) PetscStrncpy(t->cell[k][c], WearCellNames[c], sizeof(t->cell[k][c]));
  }
}

/* Each rank its share of every mesh's rows (a whole mesh: rank 0 all of them), and its bodies. */
PetscErrorCode OutputExtrasGet(const Engine *e, OutputExtras *om)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(om, sizeof(*om)));
  PetscCall(EngineBodiesGet(e, &om->bodies));
  OutputMeshTable(e, &om->table);
  for (PetscInt k = 0; k < e->meshes.n; k++) {
    const Mesh *m = &e->meshes.m[k];
    PetscInt    nv, nt;
    PetscReal  *x;
    PetscInt64 *tri;
    WallPose    ps;
    om->data[k].present = WallMotionPresent(&m->motion, e->clock.t);
    if (!om->data[k].present) continue;
    nv = m->whole ? (e->grid.rank == 0 ? m->nv : 0) : m->hnv;
    nt = m->whole ? (e->grid.rank == 0 ? m->nt : 0) : m->hnt;
    PetscCall(PetscMalloc1(3 * nv + 1, &x));
    PetscCall(PetscMalloc1(3 * nt + 1, &tri));
    WallMotionPose(&m->motion, e->clock.t, &ps);
    for (PetscInt v = 0; v < nv; v++) WallPoseApply(&ps, (m->whole ? m->x : m->hx) + 3 * v, x + 3 * v);
    for (PetscInt t = 0; t < nt; t++)
      for (int c = 0; c < 3; c++)
        tri[3 * t + c] = m->whole ? m->tvid[3 * t + c] : (PetscInt64)m->hrec[(size_t)MESH_RECORD_WIDTH * t + 1 + c];
    om->data[k].nv = nv, om->data[k].nt = nt;
    om->data[k].points = x, om->data[k].tri = tri;
    if (m->wear) { /* collective: every rank's sums to the shares' owners */
      PetscReal *cells[WEAR_CELLS];
      PetscCall(MeshWearCells(e->grid.comm, m, e->clock.t, cells));
      for (int c = 0; c < WEAR_CELLS; c++) om->data[k].cell[c] = cells[c];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OutputExtrasFree(OutputExtras *om)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < om->table.n; k++) {
    PetscReal  *x   = (PetscReal *)om->data[k].points;
    PetscInt64 *tri = (PetscInt64 *)om->data[k].tri;
    PetscCall(PetscFree(x));
    PetscCall(PetscFree(tri));
    om->data[k].points = NULL, om->data[k].tri = NULL;
    for (int c = 0; c < SNAPSHOT_MESH_CELLS; c++) {
      PetscReal *cell = (PetscReal *)om->data[k].cell[c];
      PetscCall(PetscFree(cell));
      om->data[k].cell[c] = NULL;
    }
  }
  PetscCall(EngineBodiesFree(&om->bodies));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void OutputStateView(const Engine *e, const char *options, PetscReal wn[], PetscReal wp[], const OutputExtras *om,
                     SnapshotView *v)
{
  for (PetscInt w = 0; w < e->planes.n; w++)
    for (int a = 0; a < 3; a++) wn[3 * w + a] = e->planes.w[w].n[a], wp[3 * w + a] = e->planes.w[w].p[a];
  v->st = &e->p.st;
  /* replicated: rank 0's rows */
  v->nwall = e->grid.rank == 0 ? e->planes.n : 0, v->wall_normal = wn, v->wall_point = wp;
  v->time = e->clock.t, v->dt = e->clock.dt, v->step = e->clock.step, v->options = options;
  v->meshes = om && om->table.n ? &om->table : NULL, v->mesh = om ? om->data : NULL;
  v->bodies = om ? &om->bodies : NULL;
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
  {
    SnapshotMeshTable mt;
    OutputMeshTable(e, &mt);
    PetscCall(SnapshotSeriesCreate(e->grid.comm, sn->dir, fresh ? -1 : e->clock.step, &e->p.st, &mt, &sn->series));
  }
  sn->tally->snapshots = sn->series.n;
  if (fresh) PetscCall(m->ops->write(m, e, ENGINE_REQUEST_NONE, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the step just taken crossed a multiple of the period: decided
 * from (t_prev, t], so a restart continues the same cadence. */
static PetscBool SnapshotsDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req,
                              PetscLogDouble elapsed)
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
  OutputExtras om;

  PetscFunctionBeginUser;
  (void)req, (void)elapsed;
  EngineCheckWhole(e);
  PetscCall(OutputExtrasGet(e, &om));
  OutputStateView(e, sn->options, wn, wp, &om, &v);
  PetscCall(SnapshotWrite(e->grid.comm, &sn->series, sn->fields, &v));
  PetscCall(OutputExtrasFree(&om));
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

static const MonitorOps SnapshotsOps = {"snapshots",  PETSC_TRUE,     SnapshotsStart, NULL,
                                        SnapshotsDue, SnapshotsWrite, NULL,           SnapshotsDestroy};

PetscErrorCode SnapshotMonitorCreate(MPI_Comm comm, const char *dir, PetscInt steps, PetscReal period, PetscInt fields,
                                     const char *options, OutputTally *tally, Monitor *m)
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
  OutputExtras om;

  PetscFunctionBeginUser;
  if (end->stopped) PetscFunctionReturn(PETSC_SUCCESS); /* continued from its checkpoint: no final state */
  PetscCall(EngineFinish(e));
  PetscCall(OutputExtrasGet(e, &om));
  OutputStateView(e, fi->options, wn, wp, &om, &v);
  /* a failed run's last state, for a look at what went wrong: never taken for a result */
  PetscCall(SnapshotWriteFinal(e->grid.comm, fi->dir, end->failed ? "failed" : "final", &v));
  PetscCall(OutputExtrasFree(&om));
  fi->tally->final = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool FinalDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req,
                          PetscLogDouble elapsed)
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
