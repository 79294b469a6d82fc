/* Reading two-column numeric tables (whitespace or comma separated, '#'
 * comments) such as a tabulated force law. */
#ifndef HDEM_TABLE_H
#define HDEM_TABLE_H

#include "hdem.h"

PETSC_EXTERN PetscErrorCode TableRead(MPI_Comm, const char *path, PetscInt *n, PetscReal **x, PetscReal **y);

#endif
