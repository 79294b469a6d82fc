/* The hdem sub-commands. */
#ifndef HDEM_COMMANDS_H
#define HDEM_COMMANDS_H

#include "hdem.h"

PETSC_EXTERN PetscErrorCode CommandImpact(MPI_Comm, PetscBool help);
/* status 1: they differ */
PETSC_EXTERN PetscErrorCode CommandDiff(MPI_Comm, const char *a, const char *b, int *status);
PETSC_EXTERN PetscErrorCode CommandRun(MPI_Comm, const char *deck, PetscBool help, PetscBool check_only, int argc,
                                       char **argv,
                                       /* status: the exit code (HDEM_EXIT_CHECKPOINTED after a signal) */
                                       int *status);
/* An error raised while a run is in its time loop (a full disk): its
 * summary.json says failed with the error's message, written by the rank
 * that met it (rank 0 when every rank raised it) before any abort. Called
 * from the error handler: no collectives. */
PETSC_EXTERN void CommandRunFailed(const char *reason, PetscBool collective);

#endif
