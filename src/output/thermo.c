/* thermo.csv: one row of energies and counters at the thermo cadence. */
#include "output/output.h"
#include "io/atomicfile.h"
#include "decomp/collective.h"
#include <errno.h>
#include <string.h>

typedef struct {
  char     dir[PETSC_MAX_PATH_LEN];
  PetscInt interval;
  FILE    *fp; /* rank 0 */
} Thermo;

static PetscErrorCode ThermoRow(Thermo *th, Engine *e, PetscLogDouble wall)
{
  EngineStats s;

  PetscFunctionBeginUser;
  PetscCall(EngineGetStats(e, &s));
  if (th->fp) {
    PetscReal diss = e->e_initial + s.gravity - (s.ke + s.kr + s.elastic);
    fprintf(th->fp, "%lld,%.10e,%.6e,%.10e,%.10e,%.10e,%.10e,%.0f,%.6e,%d,%.3f\n", (long long)e->step, (double)e->t, (double)e->dt, (double)s.ke, (double)s.kr,
            (double)s.elastic, (double)diss, (double)s.contacts, (double)s.max_overlap_ratio, (int)e->rebuilds, (double)wall);
    PetscCheck(fflush(th->fp) == 0 && !ferror(th->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write %s/thermo.csv (step %" PetscInt64_FMT "): %s",
               th->dir, e->step, strerror(errno));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: thermo.csv, new, or on a restart cut back to the checkpoint's
 * step (an interrupted run may have written past it), put in place whole,
 * then appended to. */
static PetscErrorCode ThermoStart(Monitor m, Engine *e, PetscBool fresh)
{
  static const char header[] = "step,time,dt,ke_translational,ke_rotational,elastic,dissipated,contacts,max_overlap_ratio,rebuilds,wall_seconds\n";
  Thermo           *th       = (Thermo *)m->data;
  char              path[PETSC_MAX_PATH_LEN + 16], line[1024];
  AtomicFile        af;
  FILE             *in;

  PetscFunctionBeginUser;
  if (e->grid.rank == 0) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/thermo.csv", th->dir));
    PetscCall(AtomicFileOpen(path, &af));
    fputs(header, af.fp);
    if (!fresh && (in = fopen(path, "r"))) {
      while (fgets(line, sizeof(line), in)) {
        long long st;
        if (sscanf(line, "%lld,", &st) == 1 && st <= e->step && strchr(line, '\n')) fputs(line, af.fp);
      }
      fclose(in);
    }
    PetscCall(AtomicFileCommit(&af, PETSC_FALSE));
    th->fp = fopen(path, "a");
    PetscCheck(th->fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot append to %s: %s", path, strerror(errno));
  }
  if (fresh) PetscCall(ThermoRow(th, e, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool ThermoDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req, PetscLogDouble elapsed)
{
  (void)e, (void)t_prev, (void)t, (void)req, (void)elapsed;
  return step % ((Thermo *)m->data)->interval == 0 ? PETSC_TRUE : PETSC_FALSE;
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
  if (e->step % th->interval && !end->stopped) PetscCall(ThermoRow(th, e, end->wall));
  if (th->fp) {
    PetscBool bad = fclose(th->fp) ? PETSC_TRUE : PETSC_FALSE;
    th->fp        = NULL;
    PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write %s/thermo.csv: %s", th->dir, strerror(errno));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ThermoDestroy(Monitor m)
{
  Thermo *th = (Thermo *)m->data;

  PetscFunctionBeginUser;
  if (th->fp) fclose(th->fp);
  PetscCall(PetscFree(th));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MonitorOps ThermoOps = {"thermo", PETSC_TRUE, ThermoStart, NULL, ThermoDue, ThermoWrite, ThermoFinish, ThermoDestroy};

PetscErrorCode ThermoMonitorCreate(MPI_Comm comm, const char *dir, PetscInt interval, Monitor *m)
{
  Thermo *th;

  PetscFunctionBeginUser;
  (void)comm;
  PetscCall(PetscNew(&th));
  PetscCall(PetscStrncpy(th->dir, dir, sizeof(th->dir)));
  th->interval = interval;
  PetscCall(MonitorCreate(&ThermoOps, th, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
