/* Checkpoints: at a cadence of steps and of wall clock, on a request (a
 * signal's: then the run stops) and at the end of a run with a cadence, in
 * DIR/checkpoints, the newest `keep` kept. */
#include "output/output.h"
#include "engine/checkpoint.h"
#include "io/ckptdir.h"

typedef struct {
  char           dir[PETSC_MAX_PATH_LEN];
  PetscInt       steps, keep;
  PetscReal      wall;
  const char    *options;
  PetscLogDouble last; /* wall clock of the last one */
  OutputTally   *tally;
} Checkpoints;

/* The directory, with temporaries a kill left removed; a fresh start
 * replaces the directory's run, checkpoints too (another run's would
 * outlive this one's under the pruning and be what -restart latest finds). */
static PetscErrorCode CheckpointsStart(Monitor m, Engine *e, PetscBool fresh)
{
  Checkpoints *ck = (Checkpoints *)m->data;

  PetscFunctionBeginUser;
  PetscCall(CheckpointDirCreate(e->grid.comm, ck->dir));
  if (fresh) {
    PetscInt nold;
    PetscCall(CheckpointDirClear(e->grid.comm, ck->dir, &nold));
    if (nold)
      PetscCall(
        PetscPrintf(e->grid.comm,
                    "hdem: fresh start: removed %" PetscInt_FMT
                    " checkpoint(s) of an earlier run from %s/checkpoints (continue a run with -restart latest)\n",
                    nold, ck->dir));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's wall clock asks for one (the step's reduction makes it every rank's). */
static PetscInt CheckpointsRequest(Monitor m, const Engine *e, PetscLogDouble elapsed)
{
  Checkpoints *ck = (Checkpoints *)m->data;
  (void)e;
  return ck->wall > 0.0 && elapsed - ck->last >= ck->wall ? ENGINE_REQUEST_CHECKPOINT : ENGINE_REQUEST_NONE;
}

static PetscBool CheckpointsDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t,
                                PetscInt req, PetscLogDouble elapsed)
{
  Checkpoints *ck = (Checkpoints *)m->data;
  (void)e, (void)t_prev, (void)t, (void)elapsed;
  return req >= ENGINE_REQUEST_CHECKPOINT || (ck->steps > 0 && step % ck->steps == 0) ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode CheckpointsWrite(Monitor m, Engine *e, PetscInt req, PetscLogDouble elapsed)
{
  Checkpoints *ck = (Checkpoints *)m->data;
  char         path[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  (void)req;
  PetscCall(CheckpointDirPath(ck->dir, e->clock.step, path, sizeof(path)));
  PetscCall(CheckpointWrite(e, path, ck->options));
  PetscCall(CheckpointDirPrune(e->grid.comm, ck->dir, ck->keep));
  ck->last = elapsed;
  ck->tally->checkpoints++;
  ck->tally->checkpoint_step = e->clock.step;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* With a cadence, the end too, to extend the run (unless just written). */
static PetscErrorCode CheckpointsFinish(Monitor m, Engine *e, const EngineRunEnd *end)
{
  Checkpoints *ck = (Checkpoints *)m->data;

  PetscFunctionBeginUser;
  if (end->stopped || end->failed || !(ck->steps > 0 || ck->wall > 0.0) ||
      (ck->steps > 0 && e->clock.step % ck->steps == 0))
    PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CheckpointsWrite(m, e, ENGINE_REQUEST_NONE, end->wall));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckpointsDestroy(Monitor m)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(m->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MonitorOps CheckpointsOps = {"checkpoints",  PETSC_TRUE,       CheckpointsStart,  CheckpointsRequest,
                                          CheckpointsDue, CheckpointsWrite, CheckpointsFinish, CheckpointsDestroy};

PetscErrorCode CheckpointMonitorCreate(MPI_Comm comm, const char *dir, PetscInt steps, PetscReal wall, PetscInt keep,
                                       const char *options, OutputTally *tally, Monitor *m)
{
  Checkpoints *ck;

  PetscFunctionBeginUser;
  (void)comm;
  PetscCall(PetscNew(&ck));
  PetscCall(PetscStrncpy(ck->dir, dir, sizeof(ck->dir)));
  ck->steps = steps, ck->wall = wall, ck->keep = keep, ck->options = options, ck->tally = tally;
  PetscCall(MonitorCreate(&CheckpointsOps, ck, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
