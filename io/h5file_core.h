/* What the parts of io/h5file.h that hold an open file share (h5file_core.c,
 * h5file_rows.c, h5file_attr.c); internal to io/. */
#ifndef HDEM_H5FILE_CORE_H
#define HDEM_H5FILE_CORE_H

#include "io/h5file.h"
#include <errno.h>
#include <hdf5.h>

#if !defined(PETSC_USE_REAL_DOUBLE)
  #error "h5file: PetscReal must be double"
#endif
#if defined(PETSC_USE_64BIT_INDICES)
  #define H5FILE_NATIVE_INT H5T_NATIVE_INT64
#else
  #define H5FILE_NATIVE_INT H5T_NATIVE_INT32
#endif

struct _p_H5File {
  MPI_Comm  comm;
  hid_t     file, dxpl;
  PetscBool writing, failed; /* failed: a write failed, on every rank alike (H5FileAgree) */
  char      path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 8];
};

/* The most specific message on HDF5's error stack (e.g. "truncated file"), or "". */
PETSC_INTERN void H5FileLastError(char *buf, size_t len);

/* A negative HDF5 return becomes a PETSc error naming the file and the call. */
/* A full disk (or quota) is said as such: MPI-IO reports only "input/output
 * error", but the write's errno is still there. */
#define PetscCallHDF5(path, call) \
  do { \
    errno = 0; \
    if ((call) < 0) { \
      int  h5file_errno_ = errno; \
      char h5file_msg_[512]; \
      H5FileLastError(h5file_msg_, sizeof(h5file_msg_)); \
      PetscCheck(h5file_errno_ != ENOSPC && h5file_errno_ != EDQUOT, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, \
                 "cannot write %s: %s", path, \
                 h5file_errno_ == ENOSPC ? "no space left on device" : "disk quota exceeded"); \
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s: HDF5 call %s failed%s", path, #call, h5file_msg_); \
    } \
  } while (0)

/* Collective, after this rank's part ierr of a write: nothing when no rank
 * failed; else the file is marked failed and every rank raises the same
 * error, that of a rank whose disk was full if any (it names the cause).
 * Run the part under PetscReturnErrorHandler: only the agreed error is said. */
PETSC_INTERN PetscErrorCode H5FileAgree(H5File f, PetscErrorCode ierr);

/* The memory and the on-disk HDF5 types of t. */
PETSC_INTERN hid_t H5FileMemType(H5FileType t);
PETSC_INTERN hid_t H5FileDiskType(H5FileType t);
/* Whether the link path (a/b/c) exists. */
PETSC_INTERN PetscErrorCode H5FileLinkExists(H5File f, const char *path, htri_t *exists);
/* The group holding name, created when writing; *leaf the last component. */
PETSC_INTERN PetscErrorCode H5FileParent(H5File f, const char *name, PetscBool create, hid_t *group, const char **leaf);
/* Rows [off, off + n) of an N x ncomp dataset: its file and memory spaces. */
PETSC_INTERN PetscErrorCode H5FileSelect(H5File f, PetscInt64 N, PetscInt64 off, PetscInt n, PetscInt ncomp,
                                         hid_t *fspace, hid_t *mspace);

#endif
