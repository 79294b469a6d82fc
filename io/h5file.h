/* A shared HDF5 file opened collectively by every rank of a communicator:
 * row-distributed datasets (each rank its own contiguous rows, in rank order),
 * scalar and string attributes, and the write-to-temporary-then-rename rule.
 *
 * Written files appear under their final name only once complete: created as
 * "<path>.tmp", renamed by H5FileCommit after every rank has closed it. A
 * crash or a kill at any moment leaves at most a stale .tmp file behind.
 * Names may contain groups ("particles/id"); groups are created on demand.
 * Every call is collective on the file's communicator. */
#ifndef HDEM_H5FILE_H
#define HDEM_H5FILE_H

#include "hdem.h"
#include <stdint.h>

typedef enum {
  H5FILE_INT64, /* PetscInt64 in memory, int64 on disk */
  H5FILE_INT,   /* PetscInt in memory, int32 on disk */
  H5FILE_INT32, /* int32_t in memory (LocalInt), int32 on disk */
  H5FILE_REAL   /* PetscReal in memory, float64 on disk */
} H5FileType;

typedef struct _p_H5File *H5File;

PETSC_EXTERN PetscErrorCode H5FileCreate(MPI_Comm, const char *path, H5File *);
/* read-only; a missing, truncated or corrupt file is an error naming it */
PETSC_EXTERN PetscErrorCode H5FileOpen(MPI_Comm, const char *path, H5File *);
/* close a created file and give it its final name */
PETSC_EXTERN PetscErrorCode H5FileCommit(H5File *);
/* close an opened file, or abandon a created one (its .tmp is removed) */
PETSC_EXTERN PetscErrorCode H5FileClose(H5File *);
/* After ierr from this rank's part of a collective read or write: nothing if
 * 0. A write's error is the same on every rank (each H5FileWrite* call has
 * the ranks agree on its outcome): all close the file, its .tmp is removed
 * (nothing committed is touched) and every rank returns ierr. Any other
 * error, with other ranks, which may be waiting inside one of its
 * collectives where no cleanup reaches them, aborts the run; alone, the file
 * is closed (a created one abandoned) and ierr returned. */
PETSC_EXTERN PetscErrorCode H5FileAbandon(H5File *, PetscErrorCode ierr);
PETSC_EXTERN const char    *H5FilePath(H5File);

/* Writing: n local rows of ncomp values; the global row offset is the sum of
 * the lower ranks' n. Replicated data (the same on every rank) is written with
 * n = its row count on rank 0 and 0 elsewhere. */
PETSC_EXTERN PetscErrorCode H5FileWriteRows(H5File, const char *name, H5FileType, PetscInt ncomp, PetscInt n,
                                            const void *buf);
PETSC_EXTERN PetscErrorCode H5FileWriteAttrReal(H5File, const char *name, PetscReal);
PETSC_EXTERN PetscErrorCode H5FileWriteAttrInt64(H5File, const char *name, PetscInt64);
PETSC_EXTERN PetscErrorCode H5FileWriteAttrString(H5File, const char *name, const char *);

/* Reading: the global row count of a dataset (checked to be of the type's
 * class and ncomp columns; error if missing unless exists is given), then any
 * rows [off, off + n) of it into buf. */
PETSC_EXTERN PetscErrorCode H5FileRows(H5File, const char *name, H5FileType, PetscInt ncomp, PetscInt64 *N,
                                       PetscBool *exists);
PETSC_EXTERN PetscErrorCode H5FileReadRows(H5File, const char *name, H5FileType, PetscInt ncomp, PetscInt64 off,
                                           PetscInt n, void *buf);
PETSC_EXTERN PetscErrorCode H5FileReadAttrReal(H5File, const char *name, PetscReal *, PetscBool *exists);
PETSC_EXTERN PetscErrorCode H5FileReadAttrInt64(H5File, const char *name, PetscInt64 *, PetscBool *exists);
/* PetscFree the string */
PETSC_EXTERN PetscErrorCode H5FileReadAttrString(H5File, const char *name, char **, PetscBool *exists);

/* Checksums.  Every dataset H5FileWriteRows writes carries a uint64
 * attribute "checksum": over the N rows in file order,
 *   sum (mod 2^64) of RowHash(r, row r) for r < N, plus Fmix(N + 0x5851f42d4c957f2d)
 * where Fmix is MurmurHash3's 64-bit finaliser and
 *   RowHash(r, e_0..e_{k-1}) = h_k, h_0 = Fmix(r * 0x9e3779b97f4a7c15 + k),
 *   h_{c+1} = Fmix(h_c ^ e_c),
 * each element e_c taken as its on-disk value in 64 bits: a float64's bit
 * pattern, an int64's two's complement, an int32's zero-extended 32 bits.
 * A sum of row hashes keyed by the row index: independent of how the rows
 * were split over ranks, and any change to one row (each step of a row's
 * chain is a bijection) always changes it.
 *
 * H5FileChecksumRows adds (mod 2^64) the hashes of n rows of buf, the first
 * being global row row0, to *sum (local); H5FileChecksumCombine sums k such
 * partial sums over the ranks (exactly: 16-bit limbs in a real reduction)
 * and finishes each with its dataset's length N[j] (collective). */
PETSC_EXTERN PetscErrorCode H5FileChecksumRows(H5FileType, PetscInt ncomp, PetscInt64 row0, PetscInt n, const void *buf,
                                               uint64_t *sum);
PETSC_EXTERN PetscErrorCode H5FileChecksumCombine(MPI_Comm, PetscInt k, const PetscInt64 N[], uint64_t sum[]);
/* The checksum stored with dataset name (*exists false, *sum 0 if it has
 * none: written before checksums were kept, or rewritten by another tool). */
PETSC_EXTERN PetscErrorCode H5FileReadChecksum(H5File, const char *name, uint64_t *sum, PetscBool *exists);
/* Collective: the ranks' rows [off, off + n) of buf (read with
 * H5FileReadRows) must together be the whole dataset, each row once
 * (H5FileBlock), or replicated: every rank holds all N rows.  A mismatch is
 * an error on comm naming the file and the dataset; *present (optional)
 * tells whether there was a checksum to compare with. */
PETSC_EXTERN PetscErrorCode H5FileVerifyRows(H5File, const char *name, H5FileType, PetscInt ncomp, PetscInt64 N,
                                             PetscInt64 off, PetscInt n, const void *buf, PetscBool replicated,
                                             PetscBool *present);
#define H5FILE_CHECKSUM_MISMATCH "checksum mismatch: the data was changed or corrupted"

/* This rank's even share [off, off + n) of N rows (the first N % size ranks one more). */
PETSC_EXTERN PetscErrorCode H5FileBlock(MPI_Comm, PetscInt64 N, PetscInt64 *off, PetscInt *n);

#endif
