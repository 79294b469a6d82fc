/* thermo.csv: one row of energies and counters at the thermo cadence, and
 * the same as a table on rank 0's standard output; balance.csv: the ranks'
 * owned particles at the same rows. */
#include "output/output.h"
#include "io/csvlog.h"
#include "decomp/collective.h"
#include <math.h>
#include <string.h>

typedef struct {
  MPI_Comm   comm;
  char       path[PETSC_MAX_PATH_LEN + 16]; /* DIR/thermo.csv */
  PetscInt   interval;                      /* steps, 0: none */
  PetscReal  period;                        /* simulated seconds, 0: none */
  PetscBool  screen;
  PetscInt   rows;                           /* printed, for the header's repeats */
  PetscInt64 last_step;                      /* of the last row */
  FILE      *fp;                             /* rank 0 */
  char       bpath[PETSC_MAX_PATH_LEN + 16]; /* DIR/balance.csv */
  FILE      *fb;                             /* rank 0 */
} Thermo;

/* Collective: the fewest and most particles a rank owns, and their ratio of the most to the mean (which the
 * cuts decide, so unlike thermo.csv's it depends on the rank count and the balance). */
static PetscErrorCode ThermoBalanceRow(Thermo *th, const Engine *e)
{
  PetscReal                 v[3]  = {(PetscReal)e->p.n, (PetscReal)e->p.n, (PetscReal)e->p.n};
  static const CollectiveOp op[3] = {COLLECTIVE_MIN, COLLECTIVE_MAX, COLLECTIVE_SUM};

  PetscFunctionBeginUser;
  PetscCall(CollectiveReduceMixed(th->comm, 3, v, op));
  if (th->fb) {
    fprintf(th->fb, "%lld,%.10e,%.0f,%.0f,%.0f,%.6f,%d\n", (long long)e->clock.step, (double)e->clock.t, (double)v[2],
            (double)v[0], (double)v[1], v[2] > 0.0 ? (double)(v[1] * e->grid.size / v[2]) : 1.0, (int)e->balance.moves);
  }
  CollectiveShared(th->comm, th->fb ? CsvLogFlush(th->fb, th->bpath, e->clock.step) : PETSC_SUCCESS);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The table's columns, every 40 rows again. */
static PetscErrorCode ThermoScreenRow(Thermo *th, const Engine *e, const EngineStats *s, PetscLogDouble wall)
{
  PetscFunctionBeginUser;
  if (!th->screen) PetscFunctionReturn(PETSC_SUCCESS);
  if (th->rows % 40 == 0)
    PetscCall(PetscPrintf(th->comm, "%12s %12s %10s %11s %11s %11s %9s %9s %9s\n", "step", "time [s]", "dt [s]",
                          "KE [J]", "KE_rot [J]", "elastic [J]", "contacts", "overlap/r", "wall [s]"));
  PetscCall(PetscPrintf(th->comm, "%12" PetscInt64_FMT " %12.6g %10.4g %11.5g %11.5g %11.5g %9.0f %9.3g %9.1f\n",
                        e->clock.step, (double)e->clock.t, (double)e->clock.dt, (double)s->ke, (double)s->kr,
                        (double)s->elastic, (double)s->contacts, (double)s->max_overlap_ratio, (double)wall));
  th->rows++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ThermoRow(Thermo *th, Engine *e, PetscLogDouble wall)
{
  EngineStats s;

  PetscFunctionBeginUser;
  PetscCall(EngineGetStats(e, &s));
  PetscCall(ThermoScreenRow(th, e, &s, wall));
  PetscCall(ThermoBalanceRow(th, e));
  th->last_step = e->clock.step;
  if (th->fp) {
    PetscReal in   = e->health.e_initial + s.gravity + s.work[LEDGER_WALLS] + s.flow,
              diss = in - (s.ke + s.kr + s.elastic);
    PetscReal dn = s.work[LEDGER_NORMAL], dt = s.work[LEDGER_TANGENTIAL] - s.elastic_tangential,
              dr  = s.work[LEDGER_ROLLING] - s.elastic_rolling;
    PetscReal dl  = s.work[LEDGER_LIQUID] - s.energy_bridges;
    PetscReal res = (s.ke + s.kr + s.elastic + s.elastic_tangential + s.elastic_rolling + s.energy_bridges) - in +
                    (((dn + dt) + dr) + dl);
    fprintf(th->fp, "%lld,%.10e,%.6e,%.10e,%.10e,%.10e,%.10e,%.0f,%.6e,%d", (long long)e->clock.step,
            (double)e->clock.t, (double)e->clock.dt, (double)s.ke, (double)s.kr, (double)s.elastic, (double)diss,
            (double)s.contacts, (double)s.max_overlap_ratio, (int)e->clock.rebuilds);
    if (e->model.ledger)
      fprintf(th->fp, ",%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e", (double)dn,
              (double)dt, (double)dr, (double)dl, (double)s.gravity, (double)s.work[LEDGER_WALLS], (double)s.flow,
              (double)s.elastic, (double)s.elastic_tangential, (double)s.elastic_rolling, (double)s.energy_bridges,
              (double)res);
    fprintf(th->fp, ",%.17g,%.0f,%.3f\n", (double)s.liquid, (double)s.bridges, (double)wall);
  }
  CollectiveShared(th->comm, th->fp ? CsvLogFlush(th->fp, th->path, e->clock.step) : PETSC_SUCCESS);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: thermo.csv, new, or on a restart cut back to the checkpoint's
 * step (an interrupted run may have written past it), put in place whole,
 * then appended to; balance.csv alike, its row at the checkpoint's step
 * written again for the ranks now. */
static PetscErrorCode ThermoStart(Monitor m, Engine *e, PetscBool fresh)
{
  static const char
    ledger[] = "step,time,dt,ke_translational,ke_rotational,elastic,dissipated,contacts,max_overlap_ratio,rebuilds,"
               "diss_normal,diss_tangential,diss_rolling,diss_liquid,work_gravity,work_walls,energy_flow,"
               "elastic_normal,elastic_tangential,elastic_rolling,energy_bridges,residual,liquid_total,bridges,wall_"
               "seconds\n";
  static const char plain[] = "step,time,dt,ke_translational,ke_rotational,elastic,dissipated,contacts,max_overlap_"
                              "ratio,rebuilds,liquid_total,bridges,wall_seconds\n";
  Thermo           *th      = (Thermo *)m->data;

  PetscFunctionBeginUser;
  CollectiveShared(th->comm, e->grid.rank == 0
                               ? CsvLogStart(th->path, e->model.ledger ? ledger : plain, fresh, e->clock.step, &th->fp)
                               : PETSC_SUCCESS);
  CollectiveShared(th->comm, e->grid.rank == 0 ? CsvLogStart(th->bpath,
                                                             "step,time,particles,owned_min,owned_max,imbalance,"
                                                             "balance_moves\n",
                                                             fresh, e->clock.step - 1, &th->fb)
                                               : PETSC_SUCCESS);
  if (fresh) PetscCall(ThermoRow(th, e, 0.0));
  else PetscCall(ThermoBalanceRow(th, e)); /* the checkpoint's step again, on this run's ranks */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A multiple of the period crossed in (t_prev, t], as snapshots decide. */
static PetscBool ThermoDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req,
                           PetscLogDouble elapsed)
{
  Thermo *th = (Thermo *)m->data;
  (void)e, (void)req, (void)elapsed;
  if (th->interval > 0 && step % th->interval == 0) return PETSC_TRUE;
  if (th->period > 0.0 && floor(t / th->period) > floor(t_prev / th->period)) return PETSC_TRUE;
  return PETSC_FALSE;
}

static PetscErrorCode ThermoWrite(Monitor m, Engine *e, PetscInt req, PetscLogDouble elapsed)
{
  PetscFunctionBeginUser;
  (void)req;
  PetscCall(ThermoRow((Thermo *)m->data, e, elapsed));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The last row, where the cadence did not just write it (a stopped run's
 * state is its checkpoint's, whose row is there). */
static PetscErrorCode ThermoFinish(Monitor m, Engine *e, const EngineRunEnd *end)
{
  Thermo *th = (Thermo *)m->data;

  PetscFunctionBeginUser;
  if (!end->stopped && th->last_step != e->clock.step) PetscCall(ThermoRow(th, e, end->wall));
  CollectiveShared(th->comm, CsvLogClose(&th->fp, th->path));
  CollectiveShared(th->comm, CsvLogClose(&th->fb, th->bpath));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ThermoDestroy(Monitor m)
{
  Thermo *th = (Thermo *)m->data;

  PetscFunctionBeginUser;
  if (th->fp) fclose(th->fp);
  if (th->fb) fclose(th->fb);
  PetscCall(PetscFree(th));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MonitorOps ThermoOps = {"thermo",  PETSC_TRUE,  ThermoStart,  NULL,
                                     ThermoDue, ThermoWrite, ThermoFinish, ThermoDestroy};

PetscErrorCode ThermoMonitorCreate(MPI_Comm comm, const char *dir, PetscInt interval, PetscReal period,
                                   PetscBool screen, Monitor *m)
{
  Thermo *th;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&th));
  PetscCall(PetscSNPrintf(th->path, sizeof(th->path), "%s/thermo.csv", dir));
  PetscCall(PetscSNPrintf(th->bpath, sizeof(th->bpath), "%s/balance.csv", dir));
  th->comm = comm, th->interval = interval, th->period = period, th->screen = screen, th->last_step = -1;
  PetscCall(MonitorCreate(&ThermoOps, th, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
