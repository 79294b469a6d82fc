/* SIGTERM and SIGUSR1 (what SLURM sends before a time limit with --signal)
 * ask a run to finish its step, write a checkpoint and exit with
 * HDEM_EXIT_CHECKPOINTED. The handler only records the signal; a second one
 * takes the default action (the process dies at once; the last complete
 * checkpoint stays valid, a half-written one never has its final name). */
#ifndef HDEM_SIGNALS_H
#define HDEM_SIGNALS_H

#include "engine/run.h"

PETSC_EXTERN PetscErrorCode SignalsInstall(void);
PETSC_EXTERN int            SignalsCaught(void); /* the signal number received, 0 if none */
/* A monitor that asks the run to stop (a checkpoint first) once a signal came. */
PETSC_EXTERN PetscErrorCode SignalsMonitorCreate(Monitor *);

#endif
