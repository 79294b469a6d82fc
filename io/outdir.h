/* Output directories: created with their parents (mkdir -p) by rank 0, the
 * outcome shared, so a failure is one collective error naming the path. */
#ifndef HDEM_OUTDIR_H
#define HDEM_OUTDIR_H

#include "hdem.h"

PETSC_EXTERN PetscErrorCode OutputDirCreate(MPI_Comm, const char *what, const char *dir); /* what: how the error names it, e.g. "-output_dir " */

#endif
