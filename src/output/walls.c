/* walls.csv: the force and torque the particles exert on every plane wall
 * and mesh over a step, at the thermo cadence (or every interval steps).
 * The engine sums every rank's contacts exactly (EngineWallTotals) for the
 * steps this monitor asks (wants_wall_forces), so a row is the same bits on
 * any rank count.
 * The torque is about a rotating wall's axis point, else about a plane's
 * point or a mesh's centroid where the wall is at the row's time.  Rows
 * come at flow.csv's cadence (flow_interval_steps, else the thermo's).
 * A mesh that keeps wear (docs/deck/wear.md) adds its totals since the
 * run's start after the forces: meshN_normal_impulse, _friction_work,
 * _wear_volume, _impact_energy, _contacts. */
#include "output/output.h"
#include "output/flow.h"
#include "io/csvlog.h"
#include "decomp/collective.h"
#include "geometry/wear.h"
#include <string.h>

typedef struct {
  char       path[PETSC_MAX_PATH_LEN + 16]; /* DIR/walls.csv */
  PetscInt   interval;                      /* steps, 0: none */
  PetscReal  period;                        /* simulated seconds, 0: none */
  PetscInt   nw;
  PetscReal *totals; /* 6 per wall */
  PetscReal  wear[WEAR_TOTALS * MESHES_MAX];
  FILE      *fp; /* rank 0 */
} Walls;

static PetscErrorCode WallsStart(Monitor m, Engine *e, PetscBool fresh)
{
  Walls *wl = (Walls *)m->data;
  char  *header;
  size_t len;

  PetscFunctionBeginUser;
  wl->nw = e->planes.n + e->meshes.n;
  if (!wl->nw) PetscFunctionReturn(PETSC_SUCCESS); /* no walls: no file */
  PetscCall(PetscCalloc1(6 * wl->nw + 1, &wl->totals));
  if (e->grid.rank == 0) {
    len = 32 + (size_t)wl->nw * (6 + WEAR_TOTALS) * 40;
    PetscCall(PetscMalloc1(len, &header));
    PetscCall(PetscStrncpy(header, "step,time", len));
    for (PetscInt k = 0; k < wl->nw; k++) {
      const char              *name   = k < e->planes.n ? e->planes.w[k].name : e->meshes.m[k - e->planes.n].name;
      static const char *const col[6] = {"fx", "fy", "fz", "tx", "ty", "tz"};
      for (int c = 0; c < 6; c++) {
        char b[40];
        PetscCall(PetscSNPrintf(b, sizeof(b), ",%s_%s", name, col[c]));
        PetscCall(PetscStrlcat(header, b, len));
      }
    }
    for (PetscInt q = 0; q < e->meshes.n; q++)
      for (int c = 0; c < WEAR_TOTALS && e->meshes.m[q].wear; c++) {
        char b[64];
        PetscCall(PetscSNPrintf(b, sizeof(b), ",%s_%s", e->meshes.m[q].name, WearTotalNames[c]));
        PetscCall(PetscStrlcat(header, b, len));
      }
    PetscCall(PetscStrlcat(header, "\n", len));
  }
  CollectiveShared(e->grid.comm,
                   e->grid.rank == 0 ? CsvLogStart(wl->path, header, fresh, e->clock.step, &wl->fp) : PETSC_SUCCESS);
  if (e->grid.rank == 0) PetscCall(PetscFree(header));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool WallsDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req,
                          PetscLogDouble elapsed)
{
  Walls *wl = (Walls *)m->data;
  (void)req, (void)elapsed;
  if (!wl->nw) return PETSC_FALSE;
  return FlowRowDue(FlowSettingsOf(e), wl->interval, wl->period, step, t_prev, t);
}

static PetscErrorCode WallsWrite(Monitor m, Engine *e, PetscInt req, PetscLogDouble elapsed)
{
  Walls *wl = (Walls *)m->data;

  PetscFunctionBeginUser;
  (void)req, (void)elapsed;
  PetscCall(EngineWallTotals(e, wl->totals));
  for (PetscInt q = 0; q < e->meshes.n; q++) /* collective */
    if (e->meshes.m[q].wear) PetscCall(MeshWearTotals(e->grid.comm, &e->meshes.m[q], wl->wear + WEAR_TOTALS * q));
  if (wl->fp) {
    fprintf(wl->fp, "%lld,%.10e", (long long)e->clock.step, (double)e->clock.t);
    for (PetscInt k = 0; k < 6 * wl->nw; k++) fprintf(wl->fp, ",%.17g", (double)wl->totals[k]);
    for (PetscInt q = 0; q < e->meshes.n; q++)
      for (int c = 0; c < WEAR_TOTALS && e->meshes.m[q].wear; c++)
        fprintf(wl->fp, ",%.17g", (double)wl->wear[WEAR_TOTALS * q + c]);
    fputc('\n', wl->fp);
  }
  CollectiveShared(e->grid.comm, wl->fp ? CsvLogFlush(wl->fp, wl->path, e->clock.step) : PETSC_SUCCESS);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WallsFinish(Monitor m, Engine *e, const EngineRunEnd *end)
{
  Walls *wl = (Walls *)m->data;

  PetscFunctionBeginUser;
  (void)end;
  e->wall_sums_due = PETSC_FALSE;
  CollectiveShared(e->grid.comm, CsvLogClose(&wl->fp, wl->path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WallsDestroy(Monitor m)
{
  Walls *wl = (Walls *)m->data;

  PetscFunctionBeginUser;
  if (wl->fp) fclose(wl->fp);
  PetscCall(PetscFree(wl->totals));
  PetscCall(PetscFree(wl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MonitorOps WallsOps = {"walls",  PETSC_FALSE, WallsStart,  NULL,
                                    WallsDue, WallsWrite,  WallsFinish, WallsDestroy};

PetscErrorCode WallsMonitorCreate(const char *dir, PetscInt interval, PetscReal period, Monitor *m)
{
  Walls *wl;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&wl));
  PetscCall(PetscSNPrintf(wl->path, sizeof(wl->path), "%s/walls.csv", dir));
  wl->interval = interval, wl->period = period;
  PetscCall(MonitorCreate(&WallsOps, wl, m));
  (*m)->wants_wall_forces = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
