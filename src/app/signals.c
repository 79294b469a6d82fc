#include "app/signals.h"
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t caught = 0;

static void SignalsRecord(int sig)
{
  caught = sig;
}

PetscErrorCode SignalsInstall(void)
{
  static const int sigs[2] = {SIGTERM, SIGUSR1};
  struct sigaction sa;

  PetscFunctionBeginUser;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = SignalsRecord;
  sa.sa_flags   = SA_RESTART | SA_RESETHAND; /* the second signal is not caught */
  sigemptyset(&sa.sa_mask);
  for (int k = 0; k < 2; k++)
    PetscCheck(!sigaction(sigs[k], &sa, NULL), PETSC_COMM_SELF, PETSC_ERR_SYS,
               "cannot install the handler of signal %d", sigs[k]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int SignalsCaught(void)
{
  return (int)caught;
}

static PetscInt SignalsRequest(Monitor m, const Engine *e, PetscLogDouble elapsed)
{
  (void)m, (void)e, (void)elapsed;
  return caught ? ENGINE_REQUEST_STOP : ENGINE_REQUEST_NONE;
}

static PetscBool SignalsDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req,
                            PetscLogDouble elapsed)
{
  (void)m, (void)e, (void)step, (void)t_prev, (void)t, (void)req, (void)elapsed;
  return PETSC_FALSE;
}

static PetscErrorCode SignalsDestroy(Monitor m)
{
  (void)m;
  return PETSC_SUCCESS;
}

static const MonitorOps SignalsOps = {"signals",  PETSC_FALSE, NULL, SignalsRequest,
                                      SignalsDue, NULL,        NULL, SignalsDestroy};

PetscErrorCode SignalsMonitorCreate(Monitor *m)
{
  PetscFunctionBeginUser;
  PetscCall(MonitorCreate(&SignalsOps, NULL, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
