/* The hdem sub-commands. */
#ifndef HDEM_COMMANDS_H
#define HDEM_COMMANDS_H

#include "hdem.h"

PETSC_EXTERN PetscErrorCode CommandImpact(MPI_Comm, PetscBool help);

#endif
