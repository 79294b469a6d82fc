/* An HDF5 file: created, opened, committed, closed (io/h5file.h), and the
 * helpers its rows and attributes share (io/h5file_core.h). */
#include "io/h5file_core.h"
#include "io/inputfile.h"
#include "io/filesink.h"
#include "decomp/collective.h"
#include <stdio.h>
#include <string.h>

/* MPI reaches this file only through decomp/: row offsets, and the ordering of
 * rank 0's remove/rename against the other ranks' opens. */

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

void H5FileLastError(char *buf, size_t len)
{
  H5FileMessage m = {buf, len};
  buf[0]          = 0;
  (void)H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, H5FileWalk, &m);
  (void)H5Eclear2(H5E_DEFAULT);
}

hid_t H5FileMemType(H5FileType t)
{
  return t == H5FILE_INT64 ? H5T_NATIVE_INT64
       : t == H5FILE_INT   ? H5FILE_NATIVE_INT
       : t == H5FILE_INT32 ? H5T_NATIVE_INT32
                           : H5T_NATIVE_DOUBLE;
}

hid_t H5FileDiskType(H5FileType t)
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

/* Rows are written independently: each rank's are one contiguous block, and
 * HDF5's collective write, failing on one rank (a full disk), leaves the
 * others waiting in it; an independent one fails alone, and H5FileAgree
 * brings the ranks together. */
static PetscErrorCode H5FileTransfer(H5File f)
{
  PetscFunctionBeginUser;
  PetscCallHDF5(f->path, f->dxpl = H5Pcreate(H5P_DATASET_XFER));
  PetscCallHDF5(f->path, H5Pset_dxpl_mpio(f->dxpl, f->writing ? H5FD_MPIO_INDEPENDENT : H5FD_MPIO_COLLECTIVE));
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

/* After H5Fclose on every rank (closed its outcome here): nothing if it
 * succeeded everywhere; else the error is said (and the run's summary
 * written) and every rank ends: HDF5 keeps a file whose close failed open,
 * half freed, and closes it once more inside MPI_Finalize, which crashes. */
static PetscErrorCode H5FileClosed(MPI_Comm comm, herr_t closed, const char *tmp, const char *msg)
{
  char why[PETSC_MAX_PATH_LEN + 600] = "";

  PetscFunctionBeginUser;
  if (closed < 0) PetscCall(PetscSNPrintf(why, sizeof(why), "cannot close %s%s", tmp, msg));
  if (CollectiveFirstError(comm, closed < 0 ? PETSC_ERR_FILE_WRITE : PETSC_SUCCESS, 0, why))
    CollectiveExitTogether(comm, 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5FileFlush(H5File f)
{
  PetscFunctionBeginUser;
  PetscCallHDF5(f->path, H5Fflush(f->file, H5F_SCOPE_GLOBAL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileCommit(H5File *f)
{
  MPI_Comm       comm = (*f)->comm;
  PetscMPIInt    rank;
  PetscInt       err = 0;
  PetscErrorCode ierr;
  herr_t         closed;
  char           msg[512], path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 8];

  PetscFunctionBeginUser;
  PetscCheck((*f)->writing, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s was opened for reading", (*f)->path);
  /* flushed first, the outcome agreed: a file that cannot be is discarded by all */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = H5FileFlush(*f);
  PetscCall(PetscPopErrorHandler());
  PetscCall(H5FileAbandon(f, H5FileAgree(*f, ierr)));
  PetscCall(H5FileRelease(*f, &closed, msg, sizeof(msg)));
  PetscCall(PetscStrncpy(path, (*f)->path, sizeof(path)));
  PetscCall(PetscStrncpy(tmp, (*f)->tmp, sizeof(tmp)));
  PetscCall(PetscFree(*f));
  PetscCall(H5FileClosed(comm, closed, tmp, msg));
  /* Renamed only once every rank has closed it; the broadcast shares the
   * outcome and holds every rank until the file has its final name. */
  PetscCall(CollectiveBarrier(comm));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0 && rename(tmp, path)) err = errno;
  PetscCall(CollectiveBcastInt(comm, &err, 1));
  PetscCheck(!err, comm, PETSC_ERR_FILE_WRITE, "cannot rename %s to %s: %s", tmp, path, strerror((int)err));
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

PetscErrorCode H5FileAgree(H5File f, PetscErrorCode ierr)
{
  PetscReal bad = ierr ? 1.0 : 0.0;

  PetscFunctionBeginUser;
  PetscCall(CollectiveMaxAll(f->comm, &bad, 1));
  if (bad == 0.0) PetscFunctionReturn(PETSC_SUCCESS);
  f->failed = PETSC_TRUE;
  PetscCall(CollectiveFirstError(f->comm, ierr, ierr == PETSC_ERR_FILE_WRITE ? 0 : 1, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A created file whose write failed on every rank alike: closed by all and
 * its temporary removed. Its descriptors are first turned to a sink, so that
 * the close's own writes cannot fail again on one rank: HDF5 keeps a file
 * whose close failed open, half freed, and closes it once more inside
 * MPI_Finalize, which crashes. A close can fail all the same (HDF5 1.10
 * cannot close a file whose flush failed): every rank then ends here, the
 * write's error said already. */
static PetscErrorCode H5FileDiscard(H5File *f)
{
  MPI_Comm    comm = (*f)->comm;
  PetscMPIInt rank;
  PetscReal   bad;
  herr_t      closed;
  char        msg[512], tmp[PETSC_MAX_PATH_LEN + 8];

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(tmp, (*f)->tmp, sizeof(tmp)));
  (void)FileSink(tmp);
  PetscCall(H5FileRelease(*f, &closed, msg, sizeof(msg)));
  PetscCall(PetscFree(*f));
  bad = closed < 0 ? 1.0 : 0.0;
  PetscCall(CollectiveMaxAll(comm, &bad, 1));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) (void)remove(tmp);
  if (bad != 0.0) CollectiveExitTogether(comm, 1); /* the write's error is said already */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileAbandon(H5File *f, PetscErrorCode ierr)
{
  PetscFunctionBeginUser;
  if (!ierr) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*f)->failed) { /* agreed: every rank is here */
    PetscCall(H5FileDiscard(f));
    PetscCall(ierr);
  }
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
PetscErrorCode H5FileLinkExists(H5File f, const char *path, htri_t *exists)
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
PetscErrorCode H5FileParent(H5File f, const char *name, PetscBool create, hid_t *group, const char **leaf)
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
PetscErrorCode H5FileSelect(H5File f, PetscInt64 N, PetscInt64 off, PetscInt n, PetscInt ncomp, hid_t *fspace,
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
