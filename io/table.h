/* Reading numeric tables: rows of a fixed number of finite numbers
 * (whitespace or comma separated, '#' comments), such as a tabulated force
 * law or a multi-sphere body's spheres.  Rank 0 reads, every rank receives
 * the same numbers or the same error, which names the file and the line. */
#ifndef HDEM_TABLE_H
#define HDEM_TABLE_H

#include "hdem.h"

/* Rows of ncol numbers into *v (n ncol reals, PetscFree'd by the caller);
 * what: the row's form for messages ("two finite numbers (overlap [m],
 * force [N])"); at most maxrows rows.  Collective. */
PETSC_EXTERN PetscErrorCode TableReadRows(MPI_Comm, const char *path, PetscInt ncol, const char *what, PetscInt maxrows,
                                          PetscInt *n, PetscReal **v);
/* Two columns, into x and y (PetscFree2'd by the caller). */
PETSC_EXTERN PetscErrorCode TableRead(MPI_Comm, const char *path, PetscInt *n, PetscReal **x, PetscReal **y);

#endif
