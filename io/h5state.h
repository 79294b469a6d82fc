/* Reading a particle state (final.h5, a snapshot: io/snapshot.h writes
 * them) on any number of ranks, for comparisons and tools.  It needs
 *   /particles/id int64 [N], type int32 [N], radius double [N],
 *   position, velocity, angular_velocity, force double [N][3],
 *   attributes time (double), step (int64)
 * as a final state (every snapshot field) holds them. */
#ifndef HDEM_H5STATE_H
#define HDEM_H5STATE_H

#include "hdem.h"
#include <stdint.h>

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

/* One rank's block of a particle state's rows for a run's initial state
 * (H5StateReadBlock): the rows [off, off + n) of the file's N, each rank
 * its even share (H5FileBlock), so no rank holds more than its block. */
typedef struct {
  PetscInt64  N, off;
  PetscInt    n;
  PetscInt64 *id;
  int32_t    *type;
  PetscReal  *radius, *x, *v, *w; /* x, v, w: 3 n */
  PetscBool   has_liquid;         /* a wet run's state: /particles/liquid */
  PetscReal  *liquid;             /* NULL without it */
  PetscInt64  bodies;             /* rows of /bodies/id: multi-sphere bodies in the file */
  int         changed;            /* the first dataset (H5StateBlockName) whose checksum fails, or -1 */
  uint64_t    stored, sum;        /* its checksum stored and the data's */
} H5StateBlock;

/* The names of the datasets a block is read from (particles/id, ...), in
 * the order id, type, radius, position, velocity, angular_velocity, and
 * liquid (a wet run's; the others every state's). */
#define H5STATE_SETS   7
#define H5STATE_LIQUID 6
PETSC_EXTERN const char *const H5StateBlockName[H5STATE_SETS];

/* Collective on comm: this rank's block of the state at path.  A file that
 * is no particle state (a checkpoint, a fields file, no /particles/id), a
 * missing or misshapen dataset and row counts that disagree are errors
 * raised together on comm, naming the file and the dataset.  b's arrays
 * are the caller's (H5StateBlockFree). */
PETSC_EXTERN PetscErrorCode H5StateReadBlock(MPI_Comm comm, const char *path, H5StateBlock *b);
/* Collective: an error on comm, naming the file and the dataset, when the
 * data of b's file no longer matches the checksums its writer stored
 * (io/h5file.h); called once the caller has checked the values, so that
 * a bad value is said with its row first. */
PETSC_EXTERN PetscErrorCode H5StateBlockVerified(MPI_Comm comm, const char *path, const H5StateBlock *b);
PETSC_EXTERN PetscErrorCode H5StateBlockFree(H5StateBlock *b);
/* Collective: the box around the finite positions of this rank's block of
 * path's /particles/position (lo > hi when it holds none); *found false,
 * and nothing read, when the file has no such dataset. */
PETSC_EXTERN PetscErrorCode H5StateExtent(MPI_Comm comm, const char *path, PetscReal lo[3], PetscReal hi[3],
                                          PetscBool *found);

#endif
