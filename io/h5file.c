#include "io/h5file.h"
#include "io/inputfile.h"
#include "decomp/collective.h"
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <string.h>

/* MPI reaches this file only through decomp/: row offsets, and the ordering of
 * rank 0's remove/rename against the other ranks' opens. */

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
  PetscBool writing;
  char      path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 8];
};

/* The most specific message on HDF5's error stack (e.g. "truncated file"). */
typedef struct {
  char  *buf;
  size_t len;
} H5FileMessage;

static herr_t H5FileWalk(unsigned n, const H5E_error2_t *err, void *ctx)
{
  H5FileMessage *m = (H5FileMessage *)ctx;
  if (n == 0 && err->desc && err->desc[0]) snprintf(m->buf, m->len, ": %s", err->desc);
  return 0;
}

static void H5FileLastError(char *buf, size_t len)
{
  H5FileMessage m = {buf, len};
  buf[0]          = 0;
  (void)H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, H5FileWalk, &m);
  (void)H5Eclear2(H5E_DEFAULT);
}

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

static hid_t H5FileMemType(H5FileType t)
{
  return t == H5FILE_INT64 ? H5T_NATIVE_INT64
       : t == H5FILE_INT   ? H5FILE_NATIVE_INT
       : t == H5FILE_INT32 ? H5T_NATIVE_INT32
                           : H5T_NATIVE_DOUBLE;
}

static hid_t H5FileDiskType(H5FileType t)
{
  return t == H5FILE_INT64 ? H5T_STD_I64LE : t == H5FILE_INT || t == H5FILE_INT32 ? H5T_STD_I32LE : H5T_IEEE_F64LE;
}

const char *H5FilePath(H5File f)
{
  return f->path;
}

/* HDF5 would print its whole error stack: the user sees only PETSc's message.
 * Strong close degree: H5Fclose also closes anything left open by an error. */
static PetscErrorCode H5FileAccess(MPI_Comm comm, const char *path, hid_t *fapl)
{
  PetscFunctionBeginUser;
  (void)H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  PetscCallHDF5(path, *fapl = H5Pcreate(H5P_FILE_ACCESS));
  PetscCallHDF5(path, H5Pset_fapl_mpio(*fapl, comm, MPI_INFO_NULL));
  PetscCallHDF5(path, H5Pset_fclose_degree(*fapl, H5F_CLOSE_STRONG));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5FileAlloc(MPI_Comm comm, const char *path, H5File *f)
{
  PetscFunctionBeginUser;
  PetscCheck(strlen(path) + 1 <= PETSC_MAX_PATH_LEN, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "HDF5 path %s is too long",
             path);
  PetscCall(PetscNew(f));
  (*f)->comm = comm;
  (*f)->file = (*f)->dxpl = -1;
  PetscCall(PetscStrncpy((*f)->path, path, sizeof((*f)->path)));
  PetscCall(PetscSNPrintf((*f)->tmp, sizeof((*f)->tmp), "%s.tmp", path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5FileTransfer(H5File f)
{
  PetscFunctionBeginUser;
  PetscCallHDF5(f->path, f->dxpl = H5Pcreate(H5P_DATASET_XFER));
  PetscCallHDF5(f->path, H5Pset_dxpl_mpio(f->dxpl, H5FD_MPIO_COLLECTIVE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileCreate(MPI_Comm comm, const char *path, H5File *f)
{
  PetscMPIInt rank;
  hid_t       fapl;
  char        msg[512];

  PetscFunctionBeginUser;
  PetscCall(H5FileAlloc(comm, path, f));
  (*f)->writing = PETSC_TRUE;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  /* A stale temporary that cannot be replaced fails the create on every rank;
   * the barrier keeps any rank from opening it meanwhile. */
  if (rank == 0) (void)remove((*f)->tmp);
  PetscCall(CollectiveBarrier(comm));
  PetscCall(H5FileAccess(comm, (*f)->tmp, &fapl));
  (*f)->file = H5Fcreate((*f)->tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5FileLastError(msg, sizeof(msg));
  PetscCallHDF5(path, H5Pclose(fapl));
  PetscCheck((*f)->file >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot create %s%s", (*f)->tmp, msg);
  PetscCall(H5FileTransfer(*f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileOpen(MPI_Comm comm, const char *path, H5File *f)
{
  PetscBool readable;
  hid_t     fapl;
  char      msg[512], why[PETSC_MAX_PATH_LEN + 128];

  PetscFunctionBeginUser;
  PetscCheck(!InputFileCheck(path, "HDF5 file", why, sizeof(why)), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "%s", why);
  PetscCall(PetscTestFile(path, 'r', &readable));
  PetscCheck(readable, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "%s does not exist or is not readable", path);
  PetscCall(H5FileAlloc(comm, path, f));
  PetscCall(H5FileAccess(comm, path, &fapl));
  (*f)->file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
  H5FileLastError(msg, sizeof(msg));
  PetscCallHDF5(path, H5Pclose(fapl));
  if ((*f)->file < 0) PetscCall(PetscFree(*f));
  PetscCheck(*f, PETSC_COMM_SELF, PETSC_ERR_FILE_READ,
             "cannot open %s: not a complete HDF5 file (truncated or corrupt?)%s", path, msg);
  PetscCall(H5FileTransfer(*f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5FileRelease(H5File f, herr_t *closed, char *msg, size_t len)
{
  PetscFunctionBeginUser;
  msg[0] = 0;
  if (f->dxpl >= 0) (void)H5Pclose(f->dxpl);
  *closed = f->file >= 0 ? H5Fclose(f->file) : 0;
  if (*closed < 0) H5FileLastError(msg, len);
  f->file = f->dxpl = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileCommit(H5File *f)
{
  MPI_Comm    comm = (*f)->comm;
  PetscMPIInt rank;
  PetscInt    err = 0;
  herr_t      closed;
  char        msg[512], path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 8];

  PetscFunctionBeginUser;
  PetscCheck((*f)->writing, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s was opened for reading", (*f)->path);
  PetscCall(H5FileRelease(*f, &closed, msg, sizeof(msg)));
  PetscCall(PetscStrncpy(path, (*f)->path, sizeof(path)));
  PetscCall(PetscStrncpy(tmp, (*f)->tmp, sizeof(tmp)));
  PetscCall(PetscFree(*f));
  if (closed < 0) { /* H5Fclose is collective: the others may be waiting inside it */
    (void)PetscFPrintf(PETSC_COMM_SELF, stderr, "hdem: error: cannot close %s%s\n", tmp, msg);
    CollectiveAbort(comm, 1);
  }
  PetscCheck(closed >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot close %s%s", tmp, msg);
  /* Renamed only once every rank has closed it; the broadcast shares the
   * outcome and holds every rank until the file has its final name. */
  PetscCall(CollectiveBarrier(comm));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0 && rename(tmp, path)) err = errno;
  PetscCall(CollectiveBcastInt(comm, &err, 1));
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot rename %s to %s: %s", tmp, path, strerror((int)err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileClose(H5File *f)
{
  MPI_Comm    comm;
  PetscMPIInt rank;
  PetscBool   writing;
  herr_t      closed;
  char        msg[512], tmp[PETSC_MAX_PATH_LEN + 8];

  PetscFunctionBeginUser;
  if (!*f) PetscFunctionReturn(PETSC_SUCCESS);
  comm    = (*f)->comm;
  writing = (*f)->writing;
  PetscCall(H5FileRelease(*f, &closed, msg, sizeof(msg)));
  PetscCall(PetscStrncpy(tmp, (*f)->tmp, sizeof(tmp)));
  PetscCall(PetscFree(*f));
  if (writing) { /* abandoned: nothing half-written stays behind */
    PetscCall(CollectiveBarrier(comm));
    PetscCall(CollectiveRank(comm, &rank, NULL));
    if (rank == 0) (void)remove(tmp);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileAbandon(H5File *f, PetscErrorCode ierr)
{
  PetscFunctionBeginUser;
  if (!ierr) PetscFunctionReturn(PETSC_SUCCESS);
  CollectiveAbort((*f)->comm, 1);
  {
    MPI_Comm       comm = (*f)->comm;
    PetscErrorCode cerr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    cerr = H5FileClose(f);
    PetscCall(PetscPopErrorHandler());
    /* a file whose close failed (its flush fails again) stays open in HDF5,
     * which would close it once more inside MPI_Finalize and crash: end
     * here, the error said */
    if (cerr || H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE) > 0) CollectiveAbortAlways(comm, 1);
  }
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the link path (a/b/c) exists: H5Lexists wants every component
 * before the last to exist, so they are tested in turn. */
static PetscErrorCode H5FileLinkExists(H5File f, const char *path, htri_t *exists)
{
  char   buf[256];
  size_t len = strlen(path);

  PetscFunctionBeginUser;
  PetscCheck(len < sizeof(buf), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "HDF5 name %s is too long", path);
  memcpy(buf, path, len + 1);
  *exists = 1;
  for (size_t k = 1; k <= len && *exists > 0; k++) {
    if (buf[k] != '/' && buf[k] != 0) continue;
    char c = buf[k];
    buf[k] = 0;
    PetscCallHDF5(f->path, *exists = H5Lexists(f->file, buf, H5P_DEFAULT));
    buf[k] = c;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The group holding name ("a/b/c" -> "a/b"), created when writing; *leaf
 * points into name. Close the returned group with H5Gclose. */
static PetscErrorCode H5FileParent(H5File f, const char *name, PetscBool create, hid_t *group, const char **leaf)
{
  const char *slash = strrchr(name, '/');
  char        gname[256];
  htri_t      exists;

  PetscFunctionBeginUser;
  *leaf = slash ? slash + 1 : name;
  if (!slash) {
    PetscCallHDF5(f->path, *group = H5Gopen2(f->file, "/", H5P_DEFAULT));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck((size_t)(slash - name) < sizeof(gname), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "HDF5 name %s is too long",
             name);
  memcpy(gname, name, (size_t)(slash - name));
  gname[slash - name] = 0;
  PetscCall(H5FileLinkExists(f, gname, &exists));
  if (exists <= 0) {
    hid_t lcpl;
    PetscCheck(create, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s has no group /%s", f->path, gname);
    PetscCallHDF5(f->path, lcpl = H5Pcreate(H5P_LINK_CREATE));
    PetscCallHDF5(f->path, H5Pset_create_intermediate_group(lcpl, 1));
    PetscCallHDF5(f->path, *group = H5Gcreate2(f->file, gname, lcpl, H5P_DEFAULT, H5P_DEFAULT));
    PetscCallHDF5(f->path, H5Pclose(lcpl));
  } else PetscCallHDF5(f->path, *group = H5Gopen2(f->file, gname, H5P_DEFAULT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rows [off, off + n) of an N x ncomp dataset (ncomp 1: rank 1); an empty
 * selection still takes part in the collective transfer. */
static PetscErrorCode H5FileSelect(H5File f, PetscInt64 N, PetscInt64 off, PetscInt n, PetscInt ncomp, hid_t *fspace,
                                   hid_t *mspace)
{
  int     ndims    = ncomp > 1 ? 2 : 1;
  hsize_t dims[2]  = {(hsize_t)N, (hsize_t)ncomp};
  hsize_t start[2] = {(hsize_t)off, 0};
  hsize_t count[2] = {(hsize_t)n, (hsize_t)ncomp};

  PetscFunctionBeginUser;
  PetscCallHDF5(f->path, *fspace = H5Screate_simple(ndims, dims, NULL));
  PetscCallHDF5(f->path, *mspace = H5Screate_simple(ndims, count, NULL));
  if (n) PetscCallHDF5(f->path, H5Sselect_hyperslab(*fspace, H5S_SELECT_SET, start, NULL, count, NULL));
  else {
    PetscCallHDF5(f->path, H5Sselect_none(*fspace));
    PetscCallHDF5(f->path, H5Sselect_none(*mspace));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- checksums (see h5file.h) ------------------------------------------ */

static inline uint64_t H5FileFmix(uint64_t h)
{
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

/* Element i of buf (memory type t) as its on-disk value in 64 bits. */
static inline uint64_t H5FileElement(H5FileType t, const void *buf, size_t i)
{
  uint64_t u;
  switch (t) {
  case H5FILE_INT64:
    return (uint64_t)((const PetscInt64 *)buf)[i];
  case H5FILE_INT:
    return (uint64_t)(uint32_t)(int32_t)((const PetscInt *)buf)[i];
  case H5FILE_INT32:
    return (uint64_t)(uint32_t)((const int32_t *)buf)[i];
  default:
    memcpy(&u, (const double *)buf + i, sizeof(u));
    return u;
  }
}

PetscErrorCode H5FileChecksumRows(H5FileType t, PetscInt ncomp, PetscInt64 row0, PetscInt n, const void *buf,
                                  uint64_t *sum)
{
  uint64_t s = *sum;

  PetscFunctionBeginUser;
  PetscCheck(ncomp > 0 && n >= 0 && row0 >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "checksum of %" PetscInt_FMT " rows of %" PetscInt_FMT " values", n, ncomp);
  for (PetscInt i = 0; i < n; i++) {
    uint64_t h = H5FileFmix((uint64_t)(row0 + i) * 0x9e3779b97f4a7c15ULL + (uint64_t)ncomp);
    for (PetscInt c = 0; c < ncomp; c++)
      h = H5FileFmix(h ^ H5FileElement(t, buf, (size_t)i * (size_t)ncomp + (size_t)c));
    s += h;
  }
  *sum = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each rank's 64-bit partial sums as four 16-bit limbs: their sums over the
 * ranks are whole numbers below 2^53, exact in any order. */
PetscErrorCode H5FileChecksumCombine(MPI_Comm comm, PetscInt k, const PetscInt64 N[], uint64_t sum[])
{
  PetscReal *limb;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(4 * (size_t)k + 1, &limb));
  for (PetscInt j = 0; j < k; j++)
    for (int q = 0; q < 4; q++) limb[4 * j + q] = (PetscReal)((sum[j] >> (16 * q)) & 0xffffu);
  PetscCall(CollectiveSumAll(comm, limb, 4 * k));
  for (PetscInt j = 0; j < k; j++) {
    uint64_t s = H5FileFmix((uint64_t)N[j] + 0x5851f42d4c957f2dULL);
    for (int q = 0; q < 4; q++) s += (uint64_t)limb[4 * j + q] << (16 * q);
    sum[j] = s;
  }
  PetscCall(PetscFree(limb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileWriteRows(H5File f, const char *name, H5FileType type, PetscInt ncomp, PetscInt n, const void *buf)
{
  PetscInt64  off, N;
  hid_t       group, fspace, mspace, dset;
  const char *leaf;
  double      dummy = 0; /* HDF5 rejects a NULL buffer even with nothing selected */

  PetscFunctionBeginUser;
  PetscCall(CollectiveOffset(f->comm, (PetscInt64)n, &off, &N));
  PetscCall(H5FileParent(f, name, PETSC_TRUE, &group, &leaf));
  PetscCall(H5FileSelect(f, N, off, n, ncomp, &fspace, &mspace));
  PetscCallHDF5(f->path,
                dset = H5Dcreate2(group, leaf, H5FileDiskType(type), fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  /* A zero-size dataset has no storage and HDF5 1.10 refuses even an empty
   * transfer into it; N is global, so every rank skips together. */
  if (N)
    PetscCallHDF5(f->path,
                  H5Dwrite(dset, H5FileMemType(type), mspace, fspace, f->dxpl, buf && n ? buf : (const void *)&dummy));
  {
    uint64_t sum = 0;
    hid_t    aspace, attr;
    PetscCall(H5FileChecksumRows(type, ncomp, off, n, buf, &sum));
    /* the same on every rank: attribute writes are collective */
    PetscCall(H5FileChecksumCombine(f->comm, 1, &N, &sum));
    PetscCallHDF5(f->path, aspace = H5Screate(H5S_SCALAR));
    PetscCallHDF5(f->path, attr = H5Acreate2(dset, "checksum", H5T_STD_U64LE, aspace, H5P_DEFAULT, H5P_DEFAULT));
    PetscCallHDF5(f->path, H5Awrite(attr, H5T_NATIVE_UINT64, &sum));
    PetscCallHDF5(f->path, H5Aclose(attr));
    PetscCallHDF5(f->path, H5Sclose(aspace));
  }
  PetscCallHDF5(f->path, H5Dclose(dset));
  PetscCallHDF5(f->path, H5Sclose(mspace));
  PetscCallHDF5(f->path, H5Sclose(fspace));
  PetscCallHDF5(f->path, H5Gclose(group));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every rank writes the same value: attribute writes are collective. */
static PetscErrorCode H5FileWriteAttr(H5File f, const char *name, hid_t ftype, hid_t mtype, const void *value)
{
  hid_t       group, space, attr;
  const char *leaf;

  PetscFunctionBeginUser;
  PetscCall(H5FileParent(f, name, PETSC_TRUE, &group, &leaf));
  PetscCallHDF5(f->path, space = H5Screate(H5S_SCALAR));
  PetscCallHDF5(f->path, attr = H5Acreate2(group, leaf, ftype, space, H5P_DEFAULT, H5P_DEFAULT));
  PetscCallHDF5(f->path, H5Awrite(attr, mtype, value));
  PetscCallHDF5(f->path, H5Aclose(attr));
  PetscCallHDF5(f->path, H5Sclose(space));
  PetscCallHDF5(f->path, H5Gclose(group));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileWriteAttrReal(H5File f, const char *name, PetscReal v)
{
  PetscFunctionBeginUser;
  PetscCall(H5FileWriteAttr(f, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileWriteAttrInt64(H5File f, const char *name, PetscInt64 v)
{
  PetscFunctionBeginUser;
  PetscCall(H5FileWriteAttr(f, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileWriteAttrString(H5File f, const char *name, const char *v)
{
  hid_t str;

  PetscFunctionBeginUser;
  PetscCallHDF5(f->path, str = H5Tcopy(H5T_C_S1));
  PetscCallHDF5(f->path, H5Tset_size(str, strlen(v) + 1));
  PetscCallHDF5(f->path, H5Tset_strpad(str, H5T_STR_NULLTERM));
  PetscCall(H5FileWriteAttr(f, name, str, str, v));
  PetscCallHDF5(f->path, H5Tclose(str));
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

static PetscErrorCode H5FileOpenAttr(H5File f, const char *name, hid_t *attr, PetscBool *exists)
{
  hid_t       group;
  const char *leaf;
  htri_t      e;

  PetscFunctionBeginUser;
  *attr = -1;
  PetscCall(H5FileParent(f, name, PETSC_FALSE, &group, &leaf));
  PetscCallHDF5(f->path, e = H5Aexists(group, leaf));
  if (exists) *exists = e > 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(e > 0 || exists, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s has no attribute /%s", f->path, name);
  if (e > 0) PetscCallHDF5(f->path, *attr = H5Aopen(group, leaf, H5P_DEFAULT));
  PetscCallHDF5(f->path, H5Gclose(group));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5FileReadAttr(H5File f, const char *name, hid_t mtype, void *v, PetscBool *exists)
{
  hid_t    attr, space;
  hssize_t npoints;

  PetscFunctionBeginUser;
  PetscCall(H5FileOpenAttr(f, name, &attr, exists));
  if (attr < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallHDF5(f->path, space = H5Aget_space(attr));
  PetscCallHDF5(f->path, npoints = H5Sget_simple_extent_npoints(space));
  PetscCallHDF5(f->path, H5Sclose(space));
  PetscCheck(npoints == 1, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: attribute /%s is not a single value",
             f->path, name);
  PetscCallHDF5(f->path, H5Aread(attr, mtype, v));
  PetscCallHDF5(f->path, H5Aclose(attr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileReadAttrReal(H5File f, const char *name, PetscReal *v, PetscBool *exists)
{
  PetscFunctionBeginUser;
  PetscCall(H5FileReadAttr(f, name, H5T_NATIVE_DOUBLE, v, exists));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileReadAttrInt64(H5File f, const char *name, PetscInt64 *v, PetscBool *exists)
{
  PetscFunctionBeginUser;
  PetscCall(H5FileReadAttr(f, name, H5T_NATIVE_INT64, v, exists));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileReadAttrString(H5File f, const char *name, char **v, PetscBool *exists)
{
  hid_t    attr, ftype, mtype, space;
  size_t   len;
  htri_t   vlen;
  hssize_t npoints;

  PetscFunctionBeginUser;
  *v = NULL;
  PetscCall(H5FileOpenAttr(f, name, &attr, exists));
  if (attr < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallHDF5(f->path, space = H5Aget_space(attr));
  PetscCallHDF5(f->path, npoints = H5Sget_simple_extent_npoints(space));
  PetscCallHDF5(f->path, H5Sclose(space));
  /* one string is read: an array would overrun it */
  if (npoints != 1) PetscCallHDF5(f->path, H5Aclose(attr));
  PetscCheck(npoints == 1, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: attribute /%s is not a single string",
             f->path, name);
  PetscCallHDF5(f->path, ftype = H5Aget_type(attr));
  PetscCallHDF5(f->path, vlen = H5Tis_variable_str(ftype));
  PetscCheck(H5Tget_class(ftype) == H5T_STRING && !vlen, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: attribute /%s is not a fixed-length string", f->path, name);
  len = H5Tget_size(ftype);
  PetscCallHDF5(f->path, mtype = H5Tcopy(H5T_C_S1));
  PetscCallHDF5(f->path, H5Tset_size(mtype, len + 1));
  PetscCallHDF5(f->path, H5Tset_strpad(mtype, H5T_STR_NULLTERM));
  PetscCall(PetscCalloc1(len + 1, v));
  PetscCallHDF5(f->path, H5Aread(attr, mtype, *v));
  PetscCallHDF5(f->path, H5Tclose(mtype));
  PetscCallHDF5(f->path, H5Tclose(ftype));
  PetscCallHDF5(f->path, H5Aclose(attr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileBlock(MPI_Comm comm, PetscInt64 N, PetscInt64 *off, PetscInt *n)
{
  PetscMPIInt rank, size;
  PetscInt64  base, cnt;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, &size));
  base = N / size;
  cnt  = base + (rank < N % size ? 1 : 0);
  *off = rank * base + PetscMin((PetscInt64)rank, N % size);
  PetscCheck(cnt <= PETSC_MAX_INT / 16, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW,
             "%" PetscInt64_FMT " rows on one rank do not fit PetscInt: read on more ranks", cnt);
  *n = (PetscInt)cnt;
  PetscFunctionReturn(PETSC_SUCCESS);
}
