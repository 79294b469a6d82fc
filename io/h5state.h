/* Parallel HDF5 particle state: every rank writes its owned particles into
 * one shared file, and any number of ranks can read it back.
 *
 * File layout (a public interface; N = global particle count, row order =
 * rank order of the writer, then local order):
 *   /particles/id                int64   [N]
 *   /particles/type              int32   [N]
 *   /particles/radius            double  [N]
 *   /particles/position          double  [N][3]
 *   /particles/velocity          double  [N][3]
 *   /particles/angular_velocity  double  [N][3]
 *   /particles/force             double  [N][3]
 *   attributes of /: time (double), step (int64), particles (int64, N),
 *                    hdem_version (fixed-length string, HDEM_VERSION)
 * The file appears under its final name only once complete: it is written
 * to "<path>.tmp" and renamed. */
#ifndef HDEM_H5STATE_H
#define HDEM_H5STATE_H

#include "hdem.h"

typedef struct { /* one rank's owned particles, plain arrays */
  PetscInt          n;
  const PetscInt64 *id; /* global ids */
  const int32_t    *type;
  const PetscReal  *radius;
  const PetscReal  *x, *v, *w, *f; /* 3n each: position, velocity, angular velocity, force */
} H5StateView;

/* Collective on comm. A rank may own no particles; N = 0 gives zero-size datasets. */
PETSC_EXTERN PetscErrorCode H5StateWrite(MPI_Comm comm, const char *path, const H5StateView *view, PetscReal time, PetscInt64 step);

/* Collective on comm. Reads a file written by H5StateWrite on ANY number of
 * ranks: rank r receives a contiguous block of the global rows, block sizes
 * as even as possible (the first N % size ranks get one more). The arrays
 * (3n for x, v, w, f) are allocated with PetscMalloc, owned by the caller
 * (PetscFree each), and NULL when n = 0. A missing, truncated or
 * inconsistent file is a PETSc error naming the file, on every rank. */
PETSC_EXTERN PetscErrorCode H5StateRead(MPI_Comm comm, const char *path, PetscInt *n, PetscInt64 **id, int32_t **type, PetscReal **radius, PetscReal **x, PetscReal **v, PetscReal **w, PetscReal **f, PetscReal *time, PetscInt64 *step);

#endif
