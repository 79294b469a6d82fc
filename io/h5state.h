/* Reading a particle state (final.h5, a snapshot: io/snapshot.h writes
 * them) on any number of ranks, for comparisons and tools.  It needs
 *   /particles/id int64 [N], type int32 [N], radius double [N],
 *   position, velocity, angular_velocity, force double [N][3],
 *   attributes time (double), step (int64)
 * as a final state (every snapshot field) holds them. */
#ifndef HDEM_H5STATE_H
#define HDEM_H5STATE_H

#include "hdem.h"

/* Collective on comm. Reads a state written on ANY number of
 * ranks: rank r receives a contiguous block of the global rows, block sizes
 * as even as possible (the first N % size ranks get one more). The arrays
 * (3n for x, v, w, f) are allocated with PetscMalloc, owned by the caller
 * (PetscFree each), and NULL when n = 0. A missing, truncated or
 * inconsistent file is a PETSc error naming the file, on every rank, and so
 * is data that no longer matches the checksums its writer stored with each
 * dataset (h5file.h; files written before checksums are read unverified). */
PETSC_EXTERN PetscErrorCode H5StateRead(MPI_Comm comm, const char *path, PetscInt *n, PetscInt64 **id, int32_t **type,
                                        PetscReal **radius, PetscReal **x, PetscReal **v, PetscReal **w, PetscReal **f,
                                        PetscReal *time, PetscInt64 *step);

#endif
