/* Datasets of rows (io/h5file.h): written with their checksums, opened,
 * read and verified. */
#include "io/h5file_core.h"
#include "decomp/collective.h"
#include <string.h>

/* This rank's part of H5FileWriteRows up to the transfer: the dataset created
 * and its rows written (*dset, *group for the rest). */
static PetscErrorCode H5FileWriteData(H5File f, const char *name, H5FileType type, PetscInt ncomp, PetscInt64 N,
                                      PetscInt64 off, PetscInt n, const void *buf, hid_t *group, hid_t *dset)
{
  hid_t       fspace, mspace;
  const char *leaf;
  double      dummy = 0; /* HDF5 rejects a NULL buffer even with nothing selected */

  PetscFunctionBeginUser;
  PetscCall(H5FileParent(f, name, PETSC_TRUE, group, &leaf));
  PetscCall(H5FileSelect(f, N, off, n, ncomp, &fspace, &mspace));
  PetscCallHDF5(f->path,
                *dset = H5Dcreate2(*group, leaf, H5FileDiskType(type), fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  /* A zero-size dataset has no storage and HDF5 1.10 refuses even an empty
   * transfer into it; N is global, so every rank skips together. */
  if (N)
    PetscCallHDF5(f->path,
                  H5Dwrite(*dset, H5FileMemType(type), mspace, fspace, f->dxpl, buf && n ? buf : (const void *)&dummy));
  PetscCallHDF5(f->path, H5Sclose(mspace));
  PetscCallHDF5(f->path, H5Sclose(fspace));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The rest: the checksum (the same on every rank: attribute writes are collective). */
static PetscErrorCode H5FileWriteChecksum(H5File f, hid_t group, hid_t dset, uint64_t sum)
{
  hid_t aspace, attr;

  PetscFunctionBeginUser;
  PetscCallHDF5(f->path, aspace = H5Screate(H5S_SCALAR));
  PetscCallHDF5(f->path, attr = H5Acreate2(dset, "checksum", H5T_STD_U64LE, aspace, H5P_DEFAULT, H5P_DEFAULT));
  PetscCallHDF5(f->path, H5Awrite(attr, H5T_NATIVE_UINT64, &sum));
  PetscCallHDF5(f->path, H5Aclose(attr));
  PetscCallHDF5(f->path, H5Sclose(aspace));
  PetscCallHDF5(f->path, H5Dclose(dset));
  PetscCallHDF5(f->path, H5Gclose(group));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The collectives first (offsets, checksum), then the file's calls, each
 * part's outcome agreed by the ranks: a write that fails on one rank fails
 * on all, where they stand together (H5FileAgree). */
PetscErrorCode H5FileWriteRows(H5File f, const char *name, H5FileType type, PetscInt ncomp, PetscInt n, const void *buf)
{
  PetscInt64     off, N;
  hid_t          group = -1, dset = -1;
  uint64_t       sum = 0;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(CollectiveOffset(f->comm, (PetscInt64)n, &off, &N));
  PetscCall(H5FileChecksumRows(type, ncomp, off, n, buf, &sum));
  PetscCall(H5FileChecksumCombine(f->comm, 1, &N, &sum));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = H5FileWriteData(f, name, type, ncomp, N, off, n, buf, &group, &dset);
  PetscCall(PetscPopErrorHandler());
  PetscCall(H5FileAgree(f, ierr));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = H5FileWriteChecksum(f, group, dset, sum);
  PetscCall(PetscPopErrorHandler());
  PetscCall(H5FileAgree(f, ierr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Opens dataset name and checks its class and shape; the metadata is the same
 * on every rank, so every rank fails these checks together. */
static PetscErrorCode H5FileOpenDataset(H5File f, const char *name, H5FileType type, PetscInt ncomp, hid_t *dset,
                                        PetscInt64 *N, PetscBool *found)
{
  hid_t       group, space, dtype;
  int         ndims;
  hsize_t     dims[2] = {0, 0};
  H5T_class_t got, want = type == H5FILE_REAL ? H5T_FLOAT : H5T_INTEGER;
  htri_t      exists = 0;
  const char *leaf;

  PetscFunctionBeginUser;
  *dset = -1;
  if (found) {
    const char *slash      = strrchr(name, '/');
    char        gname[256] = "/";
    if (slash) {
      memcpy(gname, name, (size_t)(slash - name));
      gname[slash - name] = 0;
    }
    PetscCall(H5FileLinkExists(f, gname, &exists));
    if (exists > 0) PetscCall(H5FileLinkExists(f, name, &exists));
    *found = exists > 0 ? PETSC_TRUE : PETSC_FALSE;
    if (!*found) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(H5FileParent(f, name, PETSC_FALSE, &group, &leaf));
  PetscCallHDF5(f->path, exists = H5Lexists(group, leaf, H5P_DEFAULT));
  PetscCheck(exists > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s has no dataset /%s", f->path, name);
  PetscCallHDF5(f->path, *dset = H5Dopen2(group, leaf, H5P_DEFAULT));
  PetscCallHDF5(f->path, H5Gclose(group));
  PetscCallHDF5(f->path, dtype = H5Dget_type(*dset));
  PetscCallHDF5(f->path, got = H5Tget_class(dtype));
  PetscCallHDF5(f->path, H5Tclose(dtype));
  PetscCheck(got == want, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: /%s is not %s", f->path, name,
             want == H5T_INTEGER ? "an integer dataset" : "a floating-point dataset");
  PetscCallHDF5(f->path, space = H5Dget_space(*dset));
  PetscCallHDF5(f->path, ndims = H5Sget_simple_extent_ndims(space));
  PetscCheck(ndims == (ncomp > 1 ? 2 : 1), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: /%s has %d dimensions, expected %d", f->path, name, ndims, ncomp > 1 ? 2 : 1);
  PetscCallHDF5(f->path, H5Sget_simple_extent_dims(space, dims, NULL));
  PetscCallHDF5(f->path, H5Sclose(space));
  PetscCheck(ncomp == 1 || dims[1] == (hsize_t)ncomp, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: /%s has %llu columns, expected %" PetscInt_FMT, f->path, name, (unsigned long long)dims[1], ncomp);
  *N = (PetscInt64)dims[0];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileRows(H5File f, const char *name, H5FileType type, PetscInt ncomp, PetscInt64 *N, PetscBool *exists)
{
  hid_t dset;

  PetscFunctionBeginUser;
  *N = 0;
  PetscCall(H5FileOpenDataset(f, name, type, ncomp, &dset, N, exists));
  if (dset >= 0) PetscCallHDF5(f->path, H5Dclose(dset));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileReadRows(H5File f, const char *name, H5FileType type, PetscInt ncomp, PetscInt64 off, PetscInt n,
                              void *buf)
{
  hid_t      dset, fspace, mspace;
  PetscInt64 N;
  double     dummy; /* see H5FileWriteRows */

  PetscFunctionBeginUser;
  PetscCall(H5FileOpenDataset(f, name, type, ncomp, &dset, &N, NULL));
  PetscCheck(off >= 0 && n >= 0 && off + n <= N, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: /%s has %" PetscInt64_FMT " rows, rows %" PetscInt64_FMT "..%" PetscInt64_FMT " were asked for",
             f->path, name, N, off, off + n);
  PetscCall(H5FileSelect(f, N, off, n, ncomp, &fspace, &mspace));
  if (N)
    PetscCallHDF5(f->path,
                  H5Dread(dset, H5FileMemType(type), mspace, fspace, f->dxpl, buf && n ? buf : (void *)&dummy));
  PetscCallHDF5(f->path, H5Sclose(mspace));
  PetscCallHDF5(f->path, H5Sclose(fspace));
  PetscCallHDF5(f->path, H5Dclose(dset));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileReadChecksum(H5File f, const char *name, uint64_t *sum, PetscBool *exists)
{
  hid_t    dset, attr, space, atype;
  htri_t   e;
  hssize_t npoints;

  PetscFunctionBeginUser;
  *sum    = 0;
  *exists = PETSC_FALSE;
  {
    const char *slash      = strrchr(name, '/');
    char        gname[256] = "/";
    if (slash) {
      PetscCheck((size_t)(slash - name) < sizeof(gname), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "HDF5 name %s is too long",
                 name);
      memcpy(gname, name, (size_t)(slash - name));
      gname[slash - name] = 0;
    }
    PetscCallHDF5(f->path, e = H5Lexists(f->file, gname, H5P_DEFAULT));
    if (e > 0) PetscCallHDF5(f->path, e = H5Lexists(f->file, name, H5P_DEFAULT));
    if (e <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallHDF5(f->path, dset = H5Dopen2(f->file, name, H5P_DEFAULT));
  PetscCallHDF5(f->path, e = H5Aexists(dset, "checksum"));
  if (e > 0) {
    H5T_class_t cls;
    PetscCallHDF5(f->path, attr = H5Aopen(dset, "checksum", H5P_DEFAULT));
    PetscCallHDF5(f->path, space = H5Aget_space(attr));
    PetscCallHDF5(f->path, npoints = H5Sget_simple_extent_npoints(space));
    PetscCallHDF5(f->path, H5Sclose(space));
    PetscCallHDF5(f->path, atype = H5Aget_type(attr));
    PetscCallHDF5(f->path, cls = H5Tget_class(atype));
    PetscCallHDF5(f->path, H5Tclose(atype));
    PetscCheck(npoints == 1 && cls == H5T_INTEGER, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s: /%s: its checksum attribute is not one integer", f->path, name);
    PetscCallHDF5(f->path, H5Aread(attr, H5T_NATIVE_UINT64, sum));
    PetscCallHDF5(f->path, H5Aclose(attr));
    *exists = PETSC_TRUE;
  }
  PetscCallHDF5(f->path, H5Dclose(dset));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileVerifyRows(H5File f, const char *name, H5FileType type, PetscInt ncomp, PetscInt64 N,
                                PetscInt64 off, PetscInt n, const void *buf, PetscBool replicated, PetscBool *present)
{
  uint64_t    stored, sum = 0;
  PetscBool   has;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCall(H5FileReadChecksum(f, name, &stored, &has));
  if (present) *present = has;
  if (!has) PetscFunctionReturn(PETSC_SUCCESS); /* the same on every rank */
  PetscCall(CollectiveRank(f->comm, &rank, NULL));
  if (!replicated || rank == 0)
    PetscCall(H5FileChecksumRows(type, ncomp, replicated ? 0 : off, replicated ? (PetscInt)N : n, buf, &sum));
  PetscCall(H5FileChecksumCombine(f->comm, 1, &N, &sum));
  PetscCheck(sum == stored, f->comm, PETSC_ERR_FILE_UNEXPECTED,
             "%s: /%s: " H5FILE_CHECKSUM_MISMATCH " (stored checksum %016llx, the data's %016llx)", f->path, name,
             (unsigned long long)stored, (unsigned long long)sum);
  PetscFunctionReturn(PETSC_SUCCESS);
}
