/* The progress line: where the run is and when it will end, on rank 0
 * every so many seconds of wall clock.  It reads no particle state, so it
 * may write after a step taken ahead. */
#include "output/output.h"

typedef struct {
  MPI_Comm        comm;
  PetscReal       seconds;
  EngineRunLimits lim;
  PetscLogDouble  last;
} Progress;

static PetscBool ProgressDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req, PetscLogDouble elapsed)
{
  Progress *pg = (Progress *)m->data;
  (void)e, (void)step, (void)t_prev, (void)t, (void)req;
  return elapsed - pg->last >= pg->seconds ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode ProgressWrite(Monitor m, Engine *e, PetscInt req, PetscLogDouble elapsed)
{
  Progress *pg   = (Progress *)m->data;
  PetscReal frac = PetscMax(pg->lim.steps < INT64_MAX ? (PetscReal)e->step / (PetscReal)pg->lim.steps : 0.0,
                            pg->lim.end_time < PETSC_MAX_REAL ? e->t / pg->lim.end_time : 0.0);

  PetscFunctionBeginUser;
  (void)req;
  PetscCall(PetscPrintf(pg->comm, "step %" PetscInt64_FMT "  t %.6e s  dt %.3e s  %.1f%%  ETA %.0f s\n", e->step, (double)e->t, (double)e->dt,
                        (double)(100.0 * frac), frac > 0.0 ? (double)(elapsed * (1.0 - frac) / frac) : 0.0));
  pg->last = elapsed;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ProgressDestroy(Monitor m)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(m->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MonitorOps ProgressOps = {"progress", PETSC_FALSE, NULL, NULL, ProgressDue, ProgressWrite, NULL, ProgressDestroy};

PetscErrorCode ProgressMonitorCreate(MPI_Comm comm, PetscReal seconds, const EngineRunLimits *lim, Monitor *m)
{
  Progress *pg;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&pg));
  pg->comm = comm, pg->seconds = seconds, pg->lim = *lim;
  PetscCall(MonitorCreate(&ProgressOps, pg, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
