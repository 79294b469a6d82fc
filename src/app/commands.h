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

#endif
