/* The progress line: where the run is and when it will end, on rank 0
 * every so many seconds of wall clock.  It reads no particle state, so it
 * may write after a step taken ahead.  The time left is from the rate of
 * the last samples: the whole run's rate misleads where the step changes. */
#include "output/output.h"

#define PROGRESS_WINDOW 8 /* samples: the rate over the last minute or so at the default 10 s */

typedef struct {
  MPI_Comm        comm;
  PetscReal       seconds;
  EngineRunLimits lim;
  PetscLogDouble  last;
  /* the last samples of (wall clock, step, simulated time), oldest first */
  PetscInt       ns;
  PetscLogDouble wall[PROGRESS_WINDOW];
  PetscReal      step[PROGRESS_WINDOW], t[PROGRESS_WINDOW];
} Progress;

static PetscBool ProgressDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req,
                             PetscLogDouble elapsed)
{
  Progress *pg = (Progress *)m->data;
  (void)e, (void)step, (void)t_prev, (void)t, (void)req;
  return pg->seconds > 0.0 && elapsed - pg->last >= pg->seconds ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode ProgressStart(Monitor m, Engine *e, PetscBool fresh)
{
  Progress *pg = (Progress *)m->data;

  PetscFunctionBeginUser;
  (void)fresh;
  pg->ns = 1, pg->wall[0] = 0.0, pg->step[0] = (PetscReal)e->clock.step, pg->t[0] = e->clock.t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Seconds left at the rate of the window: of steps towards a step limit,
 * of simulated time towards an end time, whichever ends the run first
 * (an adaptive step changes the one's rate against the other). */
static PetscReal ProgressLeft(const Progress *pg)
{
  PetscInt       o = 0, k = pg->ns - 1;
  PetscLogDouble dw   = pg->wall[k] - pg->wall[o];
  PetscReal      left = PETSC_MAX_REAL;

  if (!(dw > 0.0)) return -1.0;
  if (pg->lim.steps < INT64_MAX && pg->step[k] > pg->step[o])
    left = PetscMin(left, ((PetscReal)pg->lim.steps - pg->step[k]) * dw / (pg->step[k] - pg->step[o]));
  if (pg->lim.end_time < PETSC_MAX_REAL && pg->t[k] > pg->t[o])
    left = PetscMin(left, (pg->lim.end_time - pg->t[k]) * dw / (pg->t[k] - pg->t[o]));
  return left < PETSC_MAX_REAL ? PetscMax(left, 0.0) : -1.0;
}

static void ProgressClock(char *buf, size_t len, PetscReal s)
{
  if (s < 0.0) snprintf(buf, len, "?");
  else if (s < 120.0) snprintf(buf, len, "%.0f s", (double)s);
  else if (s < 7200.0) snprintf(buf, len, "%.0f min", (double)(s / 60.0));
  else snprintf(buf, len, "%.1f h", (double)(s / 3600.0));
}

static PetscErrorCode ProgressWrite(Monitor m, Engine *e, PetscInt req, PetscLogDouble elapsed)
{
  Progress *pg   = (Progress *)m->data;
  PetscReal frac = PetscMax(pg->lim.steps < INT64_MAX ? (PetscReal)e->clock.step / (PetscReal)pg->lim.steps : 0.0,
                            pg->lim.end_time < PETSC_MAX_REAL ? e->clock.t / pg->lim.end_time : 0.0);
  char eta[32], took[32];

  PetscFunctionBeginUser;
  (void)req;
  if (pg->ns == PROGRESS_WINDOW) {
    for (PetscInt k = 1; k < PROGRESS_WINDOW; k++)
      pg->wall[k - 1] = pg->wall[k], pg->step[k - 1] = pg->step[k], pg->t[k - 1] = pg->t[k];
    pg->ns--;
  }
  pg->wall[pg->ns] = elapsed, pg->step[pg->ns] = (PetscReal)e->clock.step, pg->t[pg->ns] = e->clock.t, pg->ns++;
  ProgressClock(eta, sizeof(eta), ProgressLeft(pg));
  ProgressClock(took, sizeof(took), elapsed);
  PetscCall(PetscPrintf(pg->comm,
                        "progress: step %" PetscInt64_FMT ", t %.6g s, dt %.3g s, %.1f%% done, %s elapsed, %s left\n",
                        e->clock.step, (double)e->clock.t, (double)e->clock.dt, (double)(100.0 * frac), took, eta));
  pg->last = elapsed;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ProgressDestroy(Monitor m)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(m->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MonitorOps ProgressOps = {"progress",  PETSC_FALSE,   ProgressStart, NULL,
                                       ProgressDue, ProgressWrite, NULL,          ProgressDestroy};

PetscErrorCode ProgressMonitorCreate(MPI_Comm comm, PetscReal seconds, const EngineRunLimits *lim, Monitor *m)
{
  Progress *pg;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&pg));
  pg->comm = comm, pg->seconds = seconds, pg->lim = *lim;
  PetscCall(MonitorCreate(&ProgressOps, pg, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
