/* A text file of spheres, one a line: "x y z r" (blank lines and # comments
 * skipped), read on rank 0 and broadcast.  A line that is not four finite
 * numbers is an error naming the file and the line. */
#ifndef HDEM_SPHERELIST_H
#define HDEM_SPHERELIST_H

#include "hdem.h"

#define SPHERELIST_MAX 100000 /* spheres a file may hold */

/* *s: 4 *n numbers, PetscFree'd by the caller.  Collective. */
PETSC_EXTERN PetscErrorCode SphereListRead(MPI_Comm, const char *path, PetscInt *n, PetscReal **s);

#endif
