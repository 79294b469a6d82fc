#include "io/fieldsfile.h"
#include "io/atomicfile.h"
#include "decomp/collective.h"
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* path names the file in messages; a full disk is said as such */
#define FieldsCallHDF5(path, call) \
  do { \
    errno = 0; \
    if ((call) < 0) { \
      int fields_errno_ = errno; \
      PetscCheck(fields_errno_ != ENOSPC && fields_errno_ != EDQUOT, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, \
                 "cannot write %s: %s", path, FileErrorString(fields_errno_)); \
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write %s: HDF5 failed in %s", path, #call); \
    } \
  } while (0)

static const char *const FieldsAxis[3] = {"x", "y", "z"};

/* src to dst, byte for byte. */
static PetscErrorCode FieldsCopy(const char *src, const char *dst)
{
  FILE  *in = fopen(src, "rb"), *out;
  char   buf[1 << 16];
  size_t k;
  int    bad = 0;

  PetscFunctionBeginUser;
  PetscCheck(in, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot read %s", src);
  out = fopen(dst, "wb");
  if (!out) fclose(in);
  PetscCheck(out, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", dst);
  errno = 0;
  while ((k = fread(buf, 1, sizeof(buf), in)) > 0)
    if (fwrite(buf, 1, k, out) != k && !bad) bad = errno ? errno : EIO;
  if (ferror(in) && !bad) bad = EIO;
  fclose(in);
  if (fclose(out) && !bad) bad = errno ? errno : EIO;
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot copy %s to %s: %s", src, dst, FileErrorString(bad));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldsAttrText(const char *path, hid_t obj, const char *name, const char *text)
{
  hid_t type, space, attr;

  PetscFunctionBeginUser;
  FieldsCallHDF5(path, type = H5Tcopy(H5T_C_S1));
  FieldsCallHDF5(path, H5Tset_size(type, strlen(text) + 1));
  FieldsCallHDF5(path, space = H5Screate(H5S_SCALAR));
  FieldsCallHDF5(path, attr = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT));
  FieldsCallHDF5(path, H5Awrite(attr, type, text));
  FieldsCallHDF5(path, H5Aclose(attr));
  FieldsCallHDF5(path, H5Sclose(space));
  FieldsCallHDF5(path, H5Tclose(type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldsAttrNumber(const char *path, hid_t obj, const char *name, hid_t type, const void *v)
{
  hid_t space, attr;

  PetscFunctionBeginUser;
  FieldsCallHDF5(path, space = H5Screate(H5S_SCALAR));
  FieldsCallHDF5(path, attr = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT));
  FieldsCallHDF5(path, H5Awrite(attr, type == H5T_NATIVE_DOUBLE ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64, v));
  FieldsCallHDF5(path, H5Aclose(attr));
  FieldsCallHDF5(path, H5Sclose(space));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A float64 dataset of rank r and shape dims under loc. */
static PetscErrorCode FieldsDataset(const char *path, hid_t loc, const char *name, int r, const hsize_t dims[],
                                    const PetscReal *v)
{
  hid_t space, dset;

  PetscFunctionBeginUser;
  FieldsCallHDF5(path, space = H5Screate_simple(r, dims, NULL));
  FieldsCallHDF5(path, dset = H5Dcreate2(loc, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  FieldsCallHDF5(path, H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v));
  FieldsCallHDF5(path, H5Dclose(dset));
  FieldsCallHDF5(path, H5Sclose(space));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldsCreate(FieldsFile *ff, const char *tmp, const PetscReal lo[3], const PetscReal hi[3],
                                   PetscInt nattr, const char *const attr[])
{
  hid_t file, grp, root;

  PetscFunctionBeginUser;
  FieldsCallHDF5(ff->h5, file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  FieldsCallHDF5(ff->h5, root = H5Gopen2(file, "/", H5P_DEFAULT));
  PetscCall(FieldsAttrText(ff->h5, root, "format", FIELDSFILE_FORMAT));
  for (PetscInt k = 0; k < nattr; k++) PetscCall(FieldsAttrText(ff->h5, root, attr[2 * k], attr[2 * k + 1]));
  FieldsCallHDF5(ff->h5, H5Gclose(root));
  FieldsCallHDF5(ff->h5, grp = H5Gcreate2(file, "grid", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  for (int a = 0; a < 3; a++) {
    PetscReal *x;
    hsize_t    dim = (hsize_t)ff->n[a] + 1;
    PetscCall(PetscMalloc1(ff->n[a] + 1, &x));
    for (PetscInt k = 0; k <= ff->n[a]; k++) x[k] = lo[a] + (hi[a] - lo[a]) * (PetscReal)k / (PetscReal)ff->n[a];
    x[ff->n[a]] = hi[a];
    PetscCall(FieldsDataset(ff->h5, grp, FieldsAxis[a], 1, &dim, x));
    PetscCall(PetscFree(x));
  }
  FieldsCallHDF5(ff->h5, H5Gclose(grp));
  FieldsCallHDF5(ff->h5, grp = H5Gcreate2(file, "frames", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  FieldsCallHDF5(ff->h5, H5Gclose(grp));
  FieldsCallHDF5(ff->h5, H5Fclose(file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldsFrameAdd(FieldsFile *ff, PetscInt64 step, PetscReal time)
{
  PetscFunctionBeginUser;
  if (ff->nframe == ff->cap) {
    ff->cap = PetscMax(16, 2 * ff->cap);
    PetscCall(PetscRealloc(sizeof(PetscInt64) * (size_t)ff->cap, &ff->step));
    PetscCall(PetscRealloc(sizeof(PetscReal) * (size_t)ff->cap, &ff->time));
  }
  ff->step[ff->nframe] = step, ff->time[ff->nframe] = time;
  ff->nframe++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What H5Literate finds under /frames: the frames' names. */
typedef struct {
  char (*name)[32];
  size_t n, cap;
} FieldsNames;

static herr_t FieldsNameVisit(hid_t loc, const char *name, const H5L_info_t *info, void *ctx)
{
  FieldsNames *fn = (FieldsNames *)ctx;
  (void)loc, (void)info;
  if (fn->n == fn->cap) {
    fn->cap    = fn->cap ? 2 * fn->cap : 64;
    void *more = realloc(fn->name, fn->cap * sizeof(*fn->name));
    if (!more) return -1;
    fn->name = more;
  }
  snprintf(fn->name[fn->n++], 32, "%s", name);
  return 0;
}

/* The sets of a frame group, for the index: each dataset's name and its components. */
static PetscErrorCode FieldsReadSets(const char *path, hid_t grp, FieldsFile *ff)
{
  FieldsNames fn = {NULL, 0, 0};

  PetscFunctionBeginUser;
  FieldsCallHDF5(path, H5Literate(grp, H5_INDEX_NAME, H5_ITER_INC, NULL, FieldsNameVisit, &fn));
  ff->nset = 0;
  for (size_t k = 0; k < fn.n && ff->nset < FIELDSFILE_SETS; k++) {
    hid_t   dset, space;
    hsize_t dims[4];
    int     r;
    FieldsCallHDF5(path, dset = H5Dopen2(grp, fn.name[k], H5P_DEFAULT));
    FieldsCallHDF5(path, space = H5Dget_space(dset));
    FieldsCallHDF5(path, r = H5Sget_simple_extent_dims(space, dims, NULL));
    snprintf(ff->name[ff->nset], 32, "%s", fn.name[k]);
    ff->ncomp[ff->nset++] = r == 4 ? (PetscInt)dims[3] : 1;
    FieldsCallHDF5(path, H5Sclose(space));
    FieldsCallHDF5(path, H5Dclose(dset));
  }
  free(fn.name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A restart: the frames after step removed, the others listed. */
static PetscErrorCode FieldsTrim(FieldsFile *ff, const char *tmp, PetscInt64 step)
{
  hid_t       file, frames;
  FieldsNames fn = {NULL, 0, 0};

  PetscFunctionBeginUser;
  FieldsCallHDF5(ff->h5, file = H5Fopen(tmp, H5F_ACC_RDWR, H5P_DEFAULT));
  FieldsCallHDF5(ff->h5, frames = H5Gopen2(file, "frames", H5P_DEFAULT));
  FieldsCallHDF5(ff->h5, H5Literate(frames, H5_INDEX_NAME, H5_ITER_INC, NULL, FieldsNameVisit, &fn));
  for (size_t k = 0; k < fn.n; k++) { /* names of 12 digits: in step order */
    PetscInt64 s = (PetscInt64)strtoll(fn.name[k], NULL, 10);
    if (s > step) FieldsCallHDF5(ff->h5, H5Ldelete(frames, fn.name[k], H5P_DEFAULT));
    else {
      hid_t     g, attr;
      PetscReal t = 0.0;
      FieldsCallHDF5(ff->h5, g = H5Gopen2(frames, fn.name[k], H5P_DEFAULT));
      FieldsCallHDF5(ff->h5, attr = H5Aopen(g, "time", H5P_DEFAULT));
      FieldsCallHDF5(ff->h5, H5Aread(attr, H5T_NATIVE_DOUBLE, &t));
      FieldsCallHDF5(ff->h5, H5Aclose(attr));
      PetscCall(FieldsReadSets(ff->h5, g, ff));
      FieldsCallHDF5(ff->h5, H5Gclose(g));
      PetscCall(FieldsFrameAdd(ff, s, t));
    }
  }
  free(fn.name);
  FieldsCallHDF5(ff->h5, H5Gclose(frames));
  FieldsCallHDF5(ff->h5, H5Fclose(file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The index: a temporal collection of the frames, cell data on the faces' rectilinear grid. */
static PetscErrorCode FieldsXdmf(const FieldsFile *ff)
{
  AtomicFile  af;
  const char *h5 = strrchr(ff->h5, '/') ? strrchr(ff->h5, '/') + 1 : ff->h5;
  PetscInt    nx = ff->n[0], ny = ff->n[1], nz = ff->n[2];

  PetscFunctionBeginUser;
  PetscCall(AtomicFileOpen(ff->xmf, &af));
  fprintf(af.fp, "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n  <Domain>\n"
                 "    <Grid Name=\"fields\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
  for (PetscInt f = 0; f < ff->nframe; f++) {
    fprintf(af.fp, "      <Grid Name=\"step%lld\" GridType=\"Uniform\">\n        <Time Value=\"%.17g\"/>\n",
            (long long)ff->step[f], (double)ff->time[f]);
    fprintf(af.fp, "        <Topology TopologyType=\"3DRectMesh\" Dimensions=\"%d %d %d\"/>\n", (int)nz + 1,
            (int)ny + 1, (int)nx + 1);
    fprintf(af.fp, "        <Geometry GeometryType=\"VXVYVZ\">\n");
    for (int a = 0; a < 3; a++)
      fprintf(af.fp,
              "          <DataItem Dimensions=\"%d\" NumberType=\"Float\" Precision=\"8\" "
              "Format=\"HDF\">%s:/grid/%s</DataItem>\n",
              (int)ff->n[a] + 1, h5, FieldsAxis[a]);
    fprintf(af.fp, "        </Geometry>\n");
    for (PetscInt s = 0; s < ff->nset; s++) {
      PetscInt    c    = ff->ncomp[s];
      const char *type = c == 1 ? "Scalar" : c == 3 ? "Vector" : "Tensor";
      char        dims[64];
      snprintf(dims, sizeof(dims), c == 1 ? "%d %d %d" : "%d %d %d %d", (int)nz, (int)ny, (int)nx, (int)c);
      fprintf(af.fp,
              "        <Attribute Name=\"%s\" AttributeType=\"%s\" Center=\"Cell\">\n"
              "          <DataItem Dimensions=\"%s\" NumberType=\"Float\" Precision=\"8\" "
              "Format=\"HDF\">%s:/frames/%012lld/%s</DataItem>\n        </Attribute>\n",
              ff->name[s], type, dims, h5, (long long)ff->step[f], ff->name[s]);
    }
    fprintf(af.fp, "      </Grid>\n");
  }
  fprintf(af.fp, "    </Grid>\n  </Domain>\n</Xdmf>\n");
  PetscCall(AtomicFileCommit(&af, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After rank 0's part (ierr): a failed one's temporary removed; the ranks
 * then share its outcome (CollectiveFirstError), the error said once. */
static PetscErrorCode FieldsRoot(const FieldsFile *ff, PetscErrorCode ierr)
{
  char tmp[PETSC_MAX_PATH_LEN + 32];

  if (ierr && snprintf(tmp, sizeof(tmp), "%s.tmp", ff->h5) < (int)sizeof(tmp)) (void)remove(tmp);
  return ierr;
}

static PetscErrorCode FieldsStartRoot(FieldsFile *ff, const PetscReal lo[3], const PetscReal hi[3], PetscInt nattr,
                                      const char *const attr[], PetscBool fresh, PetscInt64 step)
{
  char      tmp[PETSC_MAX_PATH_LEN + 32];
  PetscBool exists = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", ff->h5));
  (void)H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* the user sees PETSc's message, not HDF5's stack */
  if (!fresh) PetscCall(PetscTestFile(ff->h5, 'r', &exists));
  if (exists) {
    PetscCall(FieldsCopy(ff->h5, tmp));
    PetscCall(FieldsTrim(ff, tmp, step));
  } else PetscCall(FieldsCreate(ff, tmp, lo, hi, nattr, attr));
  PetscCall(AtomicFileRename(tmp, ff->h5, PETSC_FALSE));
  PetscCall(FieldsXdmf(ff));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FieldsFileStart(MPI_Comm comm, const char *dir, const PetscInt n[3], const PetscReal lo[3],
                               const PetscReal hi[3], PetscInt nattr, const char *const attr[], PetscBool fresh,
                               PetscInt64 step, FieldsFile *ff)
{
  PetscMPIInt rank, size;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(ff, sizeof(*ff)));
  PetscCall(PetscSNPrintf(ff->h5, sizeof(ff->h5), "%s/fields.h5", dir));
  PetscCall(PetscSNPrintf(ff->xmf, sizeof(ff->xmf), "%s/fields.xmf", dir));
  for (int a = 0; a < 3; a++) ff->n[a] = n[a];
  PetscCall(CollectiveRank(comm, &rank, &size));
  CollectiveShared(comm,
                   rank == 0 ? FieldsRoot(ff, FieldsStartRoot(ff, lo, hi, nattr, attr, fresh, step)) : PETSC_SUCCESS);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldsWriteRoot(FieldsFile *ff, PetscInt64 step, PetscReal time, PetscInt64 samples,
                                      PetscInt64 first, PetscInt nset, const FieldsFileSet sets[])
{
  char    tmp[PETSC_MAX_PATH_LEN + 32], gname[64];
  hid_t   file, grp;
  hsize_t dims[4] = {(hsize_t)ff->n[2], (hsize_t)ff->n[1], (hsize_t)ff->n[0], 1};

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", ff->h5));
  PetscCall(FieldsCopy(ff->h5, tmp));
  PetscCall(PetscSNPrintf(gname, sizeof(gname), "frames/%012lld", (long long)step));
  FieldsCallHDF5(ff->h5, file = H5Fopen(tmp, H5F_ACC_RDWR, H5P_DEFAULT));
  if (H5Lexists(file, gname, H5P_DEFAULT) > 0) FieldsCallHDF5(ff->h5, H5Ldelete(file, gname, H5P_DEFAULT));
  FieldsCallHDF5(ff->h5, grp = H5Gcreate2(file, gname, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  PetscCall(FieldsAttrNumber(ff->h5, grp, "step", H5T_STD_I64LE, &step));
  PetscCall(FieldsAttrNumber(ff->h5, grp, "time", H5T_NATIVE_DOUBLE, &time));
  PetscCall(FieldsAttrNumber(ff->h5, grp, "samples", H5T_STD_I64LE, &samples));
  PetscCall(FieldsAttrNumber(ff->h5, grp, "first_sample", H5T_STD_I64LE, &first));
  ff->nset = PetscMin(nset, FIELDSFILE_SETS);
  for (PetscInt s = 0; s < ff->nset; s++) {
    dims[3] = (hsize_t)sets[s].ncomp;
    PetscCall(FieldsDataset(ff->h5, grp, sets[s].name, sets[s].ncomp == 1 ? 3 : 4, dims, sets[s].v));
    PetscCall(PetscStrncpy(ff->name[s], sets[s].name, sizeof(ff->name[s])));
    ff->ncomp[s] = sets[s].ncomp;
  }
  FieldsCallHDF5(ff->h5, H5Gclose(grp));
  FieldsCallHDF5(ff->h5, H5Fclose(file));
  PetscCall(AtomicFileRename(tmp, ff->h5, PETSC_FALSE));
  PetscCall(FieldsFrameAdd(ff, step, time));
  PetscCall(FieldsXdmf(ff));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FieldsFileWrite(MPI_Comm comm, FieldsFile *ff, PetscInt64 step, PetscReal time, PetscInt64 samples,
                               PetscInt64 first, PetscInt nset, const FieldsFileSet sets[])
{
  PetscMPIInt rank, size;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, &size));
  CollectiveShared(comm, rank == 0 ? FieldsRoot(ff, FieldsWriteRoot(ff, step, time, samples, first, nset, sets))
                                   : PETSC_SUCCESS);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FieldsFileDestroy(FieldsFile *ff)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(ff->step));
  PetscCall(PetscFree(ff->time));
  ff->nframe = ff->cap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
