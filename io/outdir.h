/* Output directories: created with their parents (mkdir -p) by rank 0, the
 * outcome shared, so a failure is one collective error naming the path. */
#ifndef HDEM_OUTDIR_H
#define HDEM_OUTDIR_H

#include "hdem.h"

/* what: how the error names it, e.g. "-output_dir " */
PETSC_EXTERN PetscErrorCode OutputDirCreate(MPI_Comm, const char *what, const char *dir);
/* Whether OutputDirCreate would succeed, creating nothing: the path leaves room
 * for the names written in it, and exists as a writable directory, or its
 * nearest existing parent is one (hdem check). */
PETSC_EXTERN PetscErrorCode OutputDirCheck(MPI_Comm, const char *what, const char *dir);
#define OUTPUT_DIR_ROOM 64 /* characters of the longest name written under an output directory */

#endif
