#include "h5state.h"
#include "../decomp/collective.h"
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <string.h>

/* This file alone in io/ calls MPI: the offsets, the global count, and the
 * ordering of rank 0's remove/rename against the other ranks' opens. */

#if defined(PETSC_USE_REAL_DOUBLE)
  #define H5STATE_NATIVE_REAL H5T_NATIVE_DOUBLE
#elif defined(PETSC_USE_REAL_SINGLE)
  #define H5STATE_NATIVE_REAL H5T_NATIVE_FLOAT
#else
  #error "h5state: PetscReal must be float or double"
#endif
#if defined(PETSC_USE_64BIT_INDICES)
  #define H5STATE_NATIVE_INT H5T_NATIVE_INT64
#else
  #define H5STATE_NATIVE_INT H5T_NATIVE_INT32
#endif

/* The most specific message on HDF5's error stack (e.g. "truncated file"),
 * as ": message", then the stack is cleared. */
typedef struct {
  char  *buf;
  size_t len;
} H5StateMessage;

static herr_t H5StateWalk(unsigned n, const H5E_error2_t *err, void *ctx)
{
  H5StateMessage *m = (H5StateMessage *)ctx;
  if (n == 0 && err->desc && err->desc[0]) snprintf(m->buf, m->len, ": %s", err->desc);
  return 0;
}

static void H5StateLastError(char *buf, size_t len)
{
  H5StateMessage m = {buf, len};
  buf[0]           = 0;
  (void)H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, H5StateWalk, &m);
  (void)H5Eclear2(H5E_DEFAULT);
}

/* A negative HDF5 return becomes a PETSc error naming the file and the call. */
#define PetscCallHDF5(path, call) \
  do { \
    if ((call) < 0) { \
      char h5state_msg_[512]; \
      H5StateLastError(h5state_msg_, sizeof(h5state_msg_)); \
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s: HDF5 call %s failed%s", path, #call, h5state_msg_); \
    } \
  } while (0)

/* HDF5 prints its whole error stack by default: silence it so the user sees
 * only the PETSc message, and give the previous handler back afterwards. */
typedef struct {
  H5E_auto2_t func;
  void       *data;
} H5StateErrorPrint;

static void H5StateQuiet(H5StateErrorPrint *saved)
{
  if (H5Eget_auto2(H5E_DEFAULT, &saved->func, &saved->data) < 0) saved->func = NULL, saved->data = NULL;
  (void)H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static void H5StateLoud(const H5StateErrorPrint *saved)
{
  (void)H5Eset_auto2(H5E_DEFAULT, saved->func, saved->data);
}

/* Strong close degree: H5Fclose also closes every group, dataset and
 * attribute still open, so an error part way never leaks the file. */
static PetscErrorCode H5StateFileAccess(MPI_Comm comm, const char *path, hid_t *fapl)
{
  PetscFunctionBeginUser;
  PetscCallHDF5(path, *fapl = H5Pcreate(H5P_FILE_ACCESS));
  PetscCallHDF5(path, H5Pset_fapl_mpio(*fapl, comm, MPI_INFO_NULL));
  PetscCallHDF5(path, H5Pset_fclose_degree(*fapl, H5F_CLOSE_STRONG));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's rows [off, off + n) of an N x ncomp dataset (ncomp 1: rank 1);
 * an empty rank still takes part in the collective transfer. */
static PetscErrorCode H5StateSelect(const char *path, hsize_t N, hsize_t off, hsize_t n, int ncomp, hid_t *fspace, hid_t *mspace)
{
  int     ndims     = ncomp > 1 ? 2 : 1;
  hsize_t dims[2]   = {N, (hsize_t)ncomp};
  hsize_t start[2]  = {off, 0};
  hsize_t count[2]  = {n, (hsize_t)ncomp};

  PetscFunctionBeginUser;
  PetscCallHDF5(path, *fspace = H5Screate_simple(ndims, dims, NULL));
  PetscCallHDF5(path, *mspace = H5Screate_simple(ndims, count, NULL));
  if (n) PetscCallHDF5(path, H5Sselect_hyperslab(*fspace, H5S_SELECT_SET, start, NULL, count, NULL));
  else {
    PetscCallHDF5(path, H5Sselect_none(*fspace));
    PetscCallHDF5(path, H5Sselect_none(*mspace));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5StateWriteDataset(const char *path, hid_t group, const char *name, hid_t ftype, hid_t mtype, int ncomp, hsize_t N, hsize_t off, hsize_t n, const void *buf, hid_t dxpl)
{
  hid_t  fspace, mspace, dset;
  double dummy = 0; /* HDF5 rejects a NULL buffer even with nothing selected */

  PetscFunctionBeginUser;
  PetscCall(H5StateSelect(path, N, off, n, ncomp, &fspace, &mspace));
  PetscCallHDF5(path, dset = H5Dcreate2(group, name, ftype, fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  /* A zero-size dataset has no storage and HDF5 1.10 refuses even an empty
   * transfer into it; N is global, so every rank skips together. */
  if (N) PetscCallHDF5(path, H5Dwrite(dset, mtype, mspace, fspace, dxpl, buf ? buf : (const void *)&dummy));
  PetscCallHDF5(path, H5Dclose(dset));
  PetscCallHDF5(path, H5Sclose(mspace));
  PetscCallHDF5(path, H5Sclose(fspace));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every rank writes the same attribute value: attribute writes are collective. */
static PetscErrorCode H5StateWriteAttribute(const char *path, hid_t obj, const char *name, hid_t ftype, hid_t mtype, const void *value)
{
  hid_t space, attr;

  PetscFunctionBeginUser;
  PetscCallHDF5(path, space = H5Screate(H5S_SCALAR));
  PetscCallHDF5(path, attr = H5Acreate2(obj, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT));
  PetscCallHDF5(path, H5Awrite(attr, mtype, value));
  PetscCallHDF5(path, H5Aclose(attr));
  PetscCallHDF5(path, H5Sclose(space));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5StateWriteFile(const char *path, hid_t file, const H5StateView *view, hsize_t N, hsize_t off, PetscReal time, PetscInt64 step)
{
  static const char *vec_name[4] = {"position", "velocity", "angular_velocity", "force"};
  const PetscReal   *vec[4]      = {view->x, view->v, view->w, view->f};
  PetscInt64         count       = (PetscInt64)N;
  hsize_t            n           = (hsize_t)view->n;
  hid_t              dxpl, group, str;

  PetscFunctionBeginUser;
  PetscCall(H5StateWriteAttribute(path, file, "time", H5T_IEEE_F64LE, H5STATE_NATIVE_REAL, &time));
  PetscCall(H5StateWriteAttribute(path, file, "step", H5T_STD_I64LE, H5T_NATIVE_INT64, &step));
  PetscCall(H5StateWriteAttribute(path, file, "particles", H5T_STD_I64LE, H5T_NATIVE_INT64, &count));
  PetscCallHDF5(path, str = H5Tcopy(H5T_C_S1));
  PetscCallHDF5(path, H5Tset_size(str, sizeof(HDEM_VERSION)));
  PetscCallHDF5(path, H5Tset_strpad(str, H5T_STR_NULLTERM));
  PetscCall(H5StateWriteAttribute(path, file, "hdem_version", str, str, HDEM_VERSION));
  PetscCallHDF5(path, H5Tclose(str));

  PetscCallHDF5(path, dxpl = H5Pcreate(H5P_DATASET_XFER));
  PetscCallHDF5(path, H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
  PetscCallHDF5(path, group = H5Gcreate2(file, "particles", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  PetscCall(H5StateWriteDataset(path, group, "id", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, N, off, n, view->id, dxpl));
  PetscCall(H5StateWriteDataset(path, group, "type", H5T_STD_I32LE, H5STATE_NATIVE_INT, 1, N, off, n, view->type, dxpl));
  PetscCall(H5StateWriteDataset(path, group, "radius", H5T_IEEE_F64LE, H5STATE_NATIVE_REAL, 1, N, off, n, view->radius, dxpl));
  for (int k = 0; k < 4; k++) PetscCall(H5StateWriteDataset(path, group, vec_name[k], H5T_IEEE_F64LE, H5STATE_NATIVE_REAL, 3, N, off, n, vec[k], dxpl));
  PetscCallHDF5(path, H5Gclose(group));
  PetscCallHDF5(path, H5Pclose(dxpl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Create (for writing) or open read-only, collectively, with HDF5's own
 * reason in the message when it fails. */
static PetscErrorCode H5StateFileOpen(MPI_Comm comm, const char *path, PetscBool create, hid_t *file)
{
  hid_t fapl;
  char  msg[512];

  PetscFunctionBeginUser;
  PetscCall(H5StateFileAccess(comm, path, &fapl));
  *file = create ? H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : H5Fopen(path, H5F_ACC_RDONLY, fapl);
  H5StateLastError(msg, sizeof(msg));
  PetscCallHDF5(path, H5Pclose(fapl));
  PetscCheck(*file >= 0 || !create, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot create particle state file %s%s", path, msg);
  PetscCheck(*file >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "cannot open particle state file %s: not a complete HDF5 file (truncated or corrupt?)%s", path, msg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5StateWrite(MPI_Comm comm, const char *path, const H5StateView *view, PetscReal time, PetscInt64 step)
{
  char              tmp[PETSC_MAX_PATH_LEN];
  PetscMPIInt       rank;
  PetscInt64        n, off = 0, N = 0;
  char              msg[512] = "";
  hid_t             file     = -1;
  herr_t            closed   = 0;
  PetscInt          renamed  = 0;
  H5StateErrorPrint saved;
  PetscErrorCode    ierr;

  PetscFunctionBeginUser;
  PetscCheck(view && view->n >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "particle state %s: negative or missing particle count", path);
  PetscCheck(view->n == 0 || (view->id && view->type && view->radius && view->x && view->v && view->w && view->f), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "particle state %s: a particle array is NULL", path);
  PetscCheck(strlen(path) + 5 <= sizeof(tmp), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "particle state path %s is too long", path);
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", path));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  n = view->n;
  PetscCall(CollectiveOffset(comm, n, &off, &N));

  /* A stale file that cannot be removed makes the collective create fail on
   * every rank; the barrier keeps any rank from opening it meanwhile. */
  if (rank == 0) (void)remove(tmp);
  PetscCall(CollectiveBarrier(comm));

  H5StateQuiet(&saved);
  ierr = H5StateFileOpen(comm, tmp, PETSC_TRUE, &file);
  if (!ierr) {
    ierr = H5StateWriteFile(tmp, file, view, (hsize_t)N, (hsize_t)off, time, step);
    if ((closed = H5Fclose(file)) < 0) H5StateLastError(msg, sizeof(msg));
  }
  H5StateLoud(&saved);
  PetscCall(ierr);
  PetscCheck(closed >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot close particle state file %s%s", tmp, msg);

  /* Renamed only once every rank has closed it; the broadcast shares the
   * outcome and holds every rank until the file has its final name. */
  PetscCall(CollectiveBarrier(comm));
  if (rank == 0 && rename(tmp, path)) renamed = errno;
  PetscCall(CollectiveBcastInt(comm, &renamed, 1));
  PetscCheck(!renamed, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot rename particle state file %s to %s: %s", tmp, path, strerror((int)renamed));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Opens /particles/<name>, checks it is an integer (or float) dataset of
 * shape N or N x 3, and returns its row count. The file's metadata is the
 * same on every rank, so every rank fails these checks together. */
static PetscErrorCode H5StateOpenDataset(const char *path, hid_t group, const char *name, H5T_class_t cls, int ncomp, hid_t *dset, hsize_t *rows)
{
  hid_t       space, dtype;
  int         ndims;
  hsize_t     dims[2] = {0, 0};
  H5T_class_t got;
  htri_t      exists;

  PetscFunctionBeginUser;
  PetscCallHDF5(path, exists = H5Lexists(group, name, H5P_DEFAULT));
  PetscCheck(exists > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "particle state file %s has no dataset /particles/%s", path, name);
  PetscCallHDF5(path, *dset = H5Dopen2(group, name, H5P_DEFAULT));
  PetscCallHDF5(path, dtype = H5Dget_type(*dset));
  PetscCallHDF5(path, got = H5Tget_class(dtype));
  PetscCallHDF5(path, H5Tclose(dtype));
  PetscCheck(got == cls, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "particle state file %s: /particles/%s is not %s", path, name, cls == H5T_INTEGER ? "an integer dataset" : "a floating-point dataset");
  PetscCallHDF5(path, space = H5Dget_space(*dset));
  PetscCallHDF5(path, ndims = H5Sget_simple_extent_ndims(space));
  PetscCheck(ndims == (ncomp > 1 ? 2 : 1), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "particle state file %s: /particles/%s has %d dimensions, expected %d", path, name, ndims, ncomp > 1 ? 2 : 1);
  PetscCallHDF5(path, H5Sget_simple_extent_dims(space, dims, NULL));
  PetscCallHDF5(path, H5Sclose(space));
  PetscCheck(ncomp == 1 || dims[1] == (hsize_t)ncomp, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "particle state file %s: /particles/%s has %llu columns, expected %d", path, name, (unsigned long long)dims[1], ncomp);
  *rows = dims[0];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5StateReadAttribute(const char *path, hid_t obj, const char *name, hid_t mtype, void *value, PetscBool required, PetscBool *found)
{
  hid_t    attr, space;
  htri_t   exists;
  hssize_t npoints;

  PetscFunctionBeginUser;
  PetscCallHDF5(path, exists = H5Aexists(obj, name));
  if (found) *found = exists > 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(exists > 0 || !required, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "particle state file %s has no attribute /%s", path, name);
  if (exists <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallHDF5(path, attr = H5Aopen(obj, name, H5P_DEFAULT));
  PetscCallHDF5(path, space = H5Aget_space(attr));
  PetscCallHDF5(path, npoints = H5Sget_simple_extent_npoints(space));
  PetscCallHDF5(path, H5Sclose(space));
  PetscCheck(npoints == 1, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "particle state file %s: attribute /%s is not a single value", path, name);
  PetscCallHDF5(path, H5Aread(attr, mtype, value));
  PetscCallHDF5(path, H5Aclose(attr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5StateReadDataset(const char *path, hid_t dset, hid_t mtype, int ncomp, hsize_t N, hsize_t off, hsize_t n, void *buf, hid_t dxpl)
{
  hid_t  fspace, mspace;
  double dummy; /* HDF5 rejects a NULL buffer even with nothing selected */

  PetscFunctionBeginUser;
  PetscCall(H5StateSelect(path, N, off, n, ncomp, &fspace, &mspace));
  if (N) PetscCallHDF5(path, H5Dread(dset, mtype, mspace, fspace, dxpl, buf ? buf : (void *)&dummy)); /* see H5StateWriteDataset */
  PetscCallHDF5(path, H5Sclose(mspace));
  PetscCallHDF5(path, H5Sclose(fspace));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5StateReadFile(MPI_Comm comm, const char *path, hid_t file, PetscInt *n, PetscInt64 **id, PetscInt **type, PetscReal **radius, PetscReal *vec[4], PetscReal *time, PetscInt64 *step)
{
  static const char *vec_name[4] = {"position", "velocity", "angular_velocity", "force"};
  static const char *row_name[3] = {"id", "type", "radius"};
  hid_t              group, dxpl, dset[7];
  hsize_t            N, rows[7], base, off, cnt;
  PetscMPIInt        rank, size;
  PetscInt64         count;
  PetscReal          t;
  PetscInt64         s;
  PetscBool          found;
  htri_t             exists;

  PetscFunctionBeginUser;
  PetscCallHDF5(path, exists = H5Lexists(file, "particles", H5P_DEFAULT));
  PetscCheck(exists > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "particle state file %s has no group /particles", path);
  PetscCallHDF5(path, group = H5Gopen2(file, "particles", H5P_DEFAULT));
  PetscCall(H5StateOpenDataset(path, group, "id", H5T_INTEGER, 1, &dset[0], &rows[0]));
  PetscCall(H5StateOpenDataset(path, group, "type", H5T_INTEGER, 1, &dset[1], &rows[1]));
  PetscCall(H5StateOpenDataset(path, group, "radius", H5T_FLOAT, 1, &dset[2], &rows[2]));
  for (int k = 0; k < 4; k++) PetscCall(H5StateOpenDataset(path, group, vec_name[k], H5T_FLOAT, 3, &dset[3 + k], &rows[3 + k]));
  N = rows[0];
  for (int k = 1; k < 7; k++) PetscCheck(rows[k] == N, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "particle state file %s: /particles/%s has %llu rows but /particles/id has %llu", path, k < 3 ? row_name[k] : vec_name[k - 3], (unsigned long long)rows[k], (unsigned long long)N);
  PetscCall(H5StateReadAttribute(path, file, "time", H5STATE_NATIVE_REAL, &t, PETSC_TRUE, NULL));
  PetscCall(H5StateReadAttribute(path, file, "step", H5T_NATIVE_INT64, &s, PETSC_TRUE, NULL));
  PetscCall(H5StateReadAttribute(path, file, "particles", H5T_NATIVE_INT64, &count, PETSC_FALSE, &found));
  PetscCheck(!found || (count >= 0 && (hsize_t)count == N), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "particle state file %s: attribute /particles = %lld but the datasets have %llu rows", path, (long long)count, (unsigned long long)N);

  /* Even blocks: the first N % size ranks take one row more. */
  PetscCall(CollectiveRank(comm, &rank, &size));
  base = N / (hsize_t)size;
  cnt  = base + ((hsize_t)rank < N % (hsize_t)size ? 1 : 0);
  off  = (hsize_t)rank * base + PetscMin((hsize_t)rank, N % (hsize_t)size);
  PetscCheck(cnt <= (hsize_t)PETSC_MAX_INT / 3, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "particle state file %s: %llu particles on one rank do not fit PetscInt; read on more ranks", path, (unsigned long long)cnt);
  *n = (PetscInt)cnt;
  PetscCall(PetscMalloc1(*n, id));
  PetscCall(PetscMalloc1(*n, type));
  PetscCall(PetscMalloc1(*n, radius));
  for (int k = 0; k < 4; k++) PetscCall(PetscMalloc1(3 * *n, &vec[k]));

  PetscCallHDF5(path, dxpl = H5Pcreate(H5P_DATASET_XFER));
  PetscCallHDF5(path, H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
  PetscCall(H5StateReadDataset(path, dset[0], H5T_NATIVE_INT64, 1, N, off, cnt, *id, dxpl));
  PetscCall(H5StateReadDataset(path, dset[1], H5STATE_NATIVE_INT, 1, N, off, cnt, *type, dxpl));
  PetscCall(H5StateReadDataset(path, dset[2], H5STATE_NATIVE_REAL, 1, N, off, cnt, *radius, dxpl));
  for (int k = 0; k < 4; k++) PetscCall(H5StateReadDataset(path, dset[3 + k], H5STATE_NATIVE_REAL, 3, N, off, cnt, vec[k], dxpl));
  PetscCallHDF5(path, H5Pclose(dxpl));
  for (int k = 0; k < 7; k++) PetscCallHDF5(path, H5Dclose(dset[k]));
  PetscCallHDF5(path, H5Gclose(group));
  if (time) *time = t;
  if (step) *step = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5StateRead(MPI_Comm comm, const char *path, PetscInt *n, PetscInt64 **id, PetscInt **type, PetscReal **radius, PetscReal **x, PetscReal **v, PetscReal **w, PetscReal **f, PetscReal *time, PetscInt64 *step)
{
  PetscReal        *vec[4] = {NULL, NULL, NULL, NULL};
  PetscBool         readable;
  hid_t             file   = -1;
  herr_t            closed = 0;
  H5StateErrorPrint saved;
  PetscErrorCode    ierr;

  PetscFunctionBeginUser;
  *n  = 0;
  *id = NULL, *type = NULL, *radius = NULL;
  *x = NULL, *v = NULL, *w = NULL, *f = NULL;
  PetscCall(PetscTestFile(path, 'r', &readable));
  PetscCheck(readable, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "particle state file %s does not exist or is not readable", path);

  H5StateQuiet(&saved);
  ierr = H5StateFileOpen(comm, path, PETSC_FALSE, &file);
  if (!ierr) {
    ierr   = H5StateReadFile(comm, path, file, n, id, type, radius, vec, time, step);
    closed = H5Fclose(file);
    (void)H5Eclear2(H5E_DEFAULT);
  }
  H5StateLoud(&saved);
  if (ierr || closed < 0) { /* nothing half-read reaches the caller */
    *n = 0;
    PetscCall(PetscFree(*id));
    PetscCall(PetscFree(*type));
    PetscCall(PetscFree(*radius));
    for (int k = 0; k < 4; k++) PetscCall(PetscFree(vec[k]));
  }
  PetscCall(ierr);
  PetscCheck(closed >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "cannot close particle state file %s", path);
  *x = vec[0], *v = vec[1], *w = vec[2], *f = vec[3];
  PetscFunctionReturn(PETSC_SUCCESS);
}
