/* The parallel HDF5 particle state: a write on this many ranks (one of them
 * empty) read back bitwise on the same, fewer or differently split ranks;
 * the public file layout; damaged, missing and inconsistent files refused
 * with an error naming the file, as is an uncreatable one; no temporary
 * file left behind; every dataset's checksum is the one of its rows in file
 * order whatever the writers' rank count, a changed value is refused by it,
 * and a file without checksums is read. */
#include "check_main.h"
#include "io/h5state.h"
#include "io/h5file.h"
#include "io/snapshot.h"
#include <dirent.h>
#include <hdf5.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256]; /* short, so every path made from it fits */

/* Rank 0 makes a fresh directory per run; everyone learns its name. */
static void Setup(void)
{
  int rank;
  (void)MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0) {
    PetscStrncpy(dir, "/tmp/hdem_h5state_XXXXXX", sizeof(dir));
    if (!mkdtemp(dir)) dir[0] = 0;
  }
  (void)MPI_Bcast(dir, sizeof(dir), MPI_CHAR, 0, PETSC_COMM_WORLD);
  ck_assert_msg(dir[0], "cannot make a temporary directory under /tmp");
}

static void Teardown(void)
{
  int rank;
  (void)MPI_Barrier(PETSC_COMM_WORLD);
  (void)MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0 && dir[0]) {
    DIR           *d = opendir(dir);
    struct dirent *e;
    char           p[2 * PETSC_MAX_PATH_LEN];
    while (d && (e = readdir(d)))
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
        snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
        unlink(p);
      }
    if (d) closedir(d);
    rmdir(dir);
  }
}

static void Path(char *buf, const char *name)
{
  snprintf(buf, PETSC_MAX_PATH_LEN, "%s/%s", dir, name);
}

static int AllTrue(MPI_Comm comm, int ok)
{
  int all = 0;
  (void)MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, comm);
  return all;
}

static PetscBool Exists(const char *path)
{
  return access(path, F_OK) == 0 ? PETSC_TRUE : PETSC_FALSE;
}

/* The writer's layout, known to every reader: rank 1 owns nothing. */
static PetscInt WriterCount(int r)
{
  return r == 1 ? 0 : 4 + 13 * r;
}

static PetscInt64 WriterId(int r, PetscInt i)
{
  return 1000000 * (PetscInt64)(r + 1) + 7 * (PetscInt64)i;
}

/* The id of global row g when written by `size` ranks in rank order. */
static PetscInt64 RowId(int size, PetscInt64 g)
{
  for (int r = 0; r < size; r++) {
    if (g < WriterCount(r)) return WriterId(r, (PetscInt)g);
    g -= WriterCount(r);
  }
  return -1;
}

/* Values as a function of the id, including -0, a subnormal, NaN and inf,
 * which must all come back bit for bit. */
static PetscReal Value(PetscInt64 id, int field, int k)
{
  PetscReal v = (PetscReal)id * 0.1 + field / 3.0 + k * 1e-7;
  if (field == 6 && k == 0) {
    uint64_t bits = 1; /* the smallest subnormal */
    switch (id % 5) {
    case 0:
      v = -0.0;
      break;
    case 1:
      memcpy(&v, &bits, sizeof(v));
      break;
    case 2:
      v = NAN;
      break;
    case 3:
      v = -INFINITY;
      break;
    default:
      break;
    }
  }
  return v;
}

static PetscInt Type(PetscInt64 id)
{
  return (PetscInt)(id % 11) - 5;
}
static PetscReal Radius(PetscInt64 id)
{
  return 1e-3 * (1 + id % 17) / 3.0;
}

typedef struct {
  PetscInt    n;
  PetscInt64 *id;
  int32_t    *type;
  PetscReal  *radius, *x, *v, *w, *f;
} Particles;

static void Free(Particles *p)
{
  PetscFree(p->id);
  PetscFree(p->type);
  PetscFree(p->radius);
  PetscFree(p->x);
  PetscFree(p->v);
  PetscFree(p->w);
  PetscFree(p->f);
}

/* Written as the engine writes a state: a field store, its snapshot fields. */
typedef struct {
  PetscInt     n, nghost;
  FieldStore   st;
  PetscInt64  *id;
  LocalInt    *type, *flags, *owner, *origin;
  signed char *image;
  PetscReal   *radius, *x, *v, *w, *f;
} Store;

static PetscErrorCode Write(MPI_Comm comm, const char *path, PetscBool empty, PetscReal time, PetscInt64 step)
{
  PetscMPIInt  rank;
  Store        s;
  SnapshotView view;
  PetscReal  **vec[4] = {&s.x, &s.v, &s.w, &s.f};

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscMemzero(&s, sizeof(s)));
  PetscCall(FieldStoreCreate(&s.st, &s.n, &s.nghost, &s.id, &s.x, &s.image, &s.owner, &s.origin, &s.flags));
  PetscCall(FieldStoreAdd(&s.st, "type", FIELD_INT32, 1, FIELD_SNAPSHOT, (void **)&s.type));
  PetscCall(FieldStoreAdd(&s.st, "radius", FIELD_REAL, 1, FIELD_SNAPSHOT, (void **)&s.radius));
  PetscCall(FieldStoreAdd(&s.st, "velocity", FIELD_REAL, 3, FIELD_SNAPSHOT, (void **)&s.v));
  PetscCall(FieldStoreAdd(&s.st, "angular_velocity", FIELD_REAL, 3, FIELD_SNAPSHOT, (void **)&s.w));
  PetscCall(FieldStoreAdd(&s.st, "force", FIELD_REAL, 3, FIELD_SNAPSHOT, (void **)&s.f));
  for (PetscInt i = 0, n = empty ? 0 : WriterCount(rank); i < n; i++) {
    PetscInt   row;
    PetscInt64 id = WriterId(rank, i);
    PetscCall(FieldStoreAppend(&s.st, &row));
    s.id[row]     = id;
    s.type[row]   = (LocalInt)Type(id);
    s.radius[row] = Radius(id);
    for (int k = 0; k < 4; k++)
      for (int c = 0; c < 3; c++) (*vec[k])[3 * row + c] = Value(id, 3 + k, c);
  }
  view = (SnapshotView){&s.st, 0, NULL, NULL, time, 0.0, step, NULL, NULL, NULL, NULL};
  PetscCall(SnapshotWriteState(comm, path, SnapshotFieldsAll(&s.st), &view));
  PetscCall(FieldStoreDestroy(&s.st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool SameBits(PetscReal a, PetscReal b)
{
  return memcmp(&a, &b, sizeof(a)) ? PETSC_FALSE : PETSC_TRUE;
}

/* Reads on comm and checks this rank's block: its size is the even split of
 * N, and row j of it is global row off + j of the writer's layout. With the
 * counts summing to N, the union over ranks is exactly what was written. */
static int ReadAndCheck(MPI_Comm comm, const char *path, int wsize, PetscBool empty, PetscReal time, PetscInt64 step)
{
  Particles  p;
  PetscReal  t = -1, *vec[4];
  PetscInt64 s = -1, N = 0, off, total = 0, local;
  int        rank, size, ok = 1;

  for (int r = 0; r < wsize && !empty; r++) N += WriterCount(r);
  (void)MPI_Comm_rank(comm, &rank);
  (void)MPI_Comm_size(comm, &size);
  if (H5StateRead(comm, path, &p.n, &p.id, &p.type, &p.radius, &p.x, &p.v, &p.w, &p.f, &t, &s)) return 0;
  vec[0] = p.x, vec[1] = p.v, vec[2] = p.w, vec[3] = p.f;
  off = rank * (N / size) + PetscMin(rank, N % size);
  ok  = ok && p.n == N / size + (rank < N % size ? 1 : 0);
  ok  = ok && SameBits(t, time) && s == step;
  for (PetscInt j = 0; ok && j < p.n; j++) {
    PetscInt64 id = RowId(wsize, off + j);
    ok            = ok && p.id[j] == id && p.type[j] == Type(id) && SameBits(p.radius[j], Radius(id));
    for (int k = 0; k < 4; k++)
      for (int c = 0; c < 3; c++) ok = ok && SameBits(vec[k][3 * j + c], Value(id, 3 + k, c));
  }
  local = p.n;
  (void)MPI_Allreduce(&local, &total, 1, MPIU_INT64, MPI_SUM, comm);
  ok = ok && total == N;
  Free(&p);
  return AllTrue(comm, ok);
}

START_TEST(test_roundtrip)
{
  char      path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 8];
  int       size;
  PetscReal time = 1.0 / 3.0;
  (void)MPI_Comm_size(PETSC_COMM_WORLD, &size);
  Path(path, "state.h5");
  snprintf(tmp, sizeof(tmp), "%s.tmp", path);
  ck_assert_int_eq(Write(PETSC_COMM_WORLD, path, PETSC_FALSE, time, 1234567890123LL), 0);
  ck_assert(AllTrue(PETSC_COMM_WORLD, Exists(path) && !Exists(tmp)));
  ck_assert(ReadAndCheck(PETSC_COMM_WORLD, path, size, PETSC_FALSE, time, 1234567890123LL));
}
END_TEST

/* "Any number of ranks": rank 0 alone, then two halves of a split reading
 * the same file at the same time. */
START_TEST(test_other_rank_counts)
{
  char     path[PETSC_MAX_PATH_LEN];
  int      rank, size, ok = 1;
  MPI_Comm half;
  (void)MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  (void)MPI_Comm_size(PETSC_COMM_WORLD, &size);
  Path(path, "other.h5");
  ck_assert_int_eq(Write(PETSC_COMM_WORLD, path, PETSC_FALSE, 2.5, 7), 0);
  if (rank == 0) ok = ReadAndCheck(PETSC_COMM_SELF, path, size, PETSC_FALSE, 2.5, 7);
  ck_assert(AllTrue(PETSC_COMM_WORLD, ok));
  (void)MPI_Comm_split(PETSC_COMM_WORLD, rank % 2, rank, &half);
  ok = ReadAndCheck(half, path, size, PETSC_FALSE, 2.5, 7);
  (void)MPI_Comm_free(&half);
  ck_assert(AllTrue(PETSC_COMM_WORLD, ok));
}
END_TEST

START_TEST(test_empty)
{
  char path[PETSC_MAX_PATH_LEN];
  int  rank, size, ok = 1;
  (void)MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  (void)MPI_Comm_size(PETSC_COMM_WORLD, &size);
  Path(path, "empty.h5");
  ck_assert_int_eq(Write(PETSC_COMM_WORLD, path, PETSC_TRUE, 0.0, 0), 0);
  ck_assert(ReadAndCheck(PETSC_COMM_WORLD, path, size, PETSC_TRUE, 0.0, 0));
  if (rank == 0) ok = ReadAndCheck(PETSC_COMM_SELF, path, size, PETSC_TRUE, 0.0, 0);
  ck_assert(AllTrue(PETSC_COMM_WORLD, ok));
}
END_TEST

/* The layout is a public interface: check it with plain serial HDF5. */
static int CheckDataset(hid_t g, const char *name, hid_t ftype, int ndims, hsize_t N)
{
  hid_t   d       = H5Dopen2(g, name, H5P_DEFAULT), t, s;
  hsize_t dims[2] = {0, 0};
  int     ok;
  if (d < 0) return 0;
  t  = H5Dget_type(d);
  s  = H5Dget_space(d);
  ok = H5Tequal(t, ftype) > 0 && H5Sget_simple_extent_ndims(s) == ndims;
  H5Sget_simple_extent_dims(s, dims, NULL);
  ok = ok && dims[0] == N && (ndims == 1 || dims[1] == 3);
  H5Sclose(s);
  H5Tclose(t);
  H5Dclose(d);
  return ok;
}

START_TEST(test_layout)
{
  char path[PETSC_MAX_PATH_LEN];
  int  rank, size, ok = 1;
  (void)MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  (void)MPI_Comm_size(PETSC_COMM_WORLD, &size);
  Path(path, "layout.h5");
  ck_assert_int_eq(Write(PETSC_COMM_WORLD, path, PETSC_FALSE, 0.25, -3), 0);
  if (rank == 0) {
    hsize_t   N = 0;
    hid_t     file, g, a, t;
    double    time = 0;
    long long step = 0, count = 0;
    char      version[64] = "";
    for (int r = 0; r < size; r++) N += (hsize_t)WriterCount(r);
    file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    g    = H5Gopen2(file, "particles", H5P_DEFAULT);
    ok   = file >= 0 && g >= 0;
    ok   = ok && CheckDataset(g, "id", H5T_STD_I64LE, 1, N) && CheckDataset(g, "type", H5T_STD_I32LE, 1, N) &&
         CheckDataset(g, "radius", H5T_IEEE_F64LE, 1, N);
    ok = ok && CheckDataset(g, "position", H5T_IEEE_F64LE, 2, N) && CheckDataset(g, "velocity", H5T_IEEE_F64LE, 2, N);
    ok = ok && CheckDataset(g, "angular_velocity", H5T_IEEE_F64LE, 2, N) &&
         CheckDataset(g, "force", H5T_IEEE_F64LE, 2, N);
    a  = H5Aopen(file, "time", H5P_DEFAULT);
    ok = ok && H5Aread(a, H5T_NATIVE_DOUBLE, &time) >= 0 && time == 0.25;
    H5Aclose(a);
    a  = H5Aopen(file, "step", H5P_DEFAULT);
    ok = ok && H5Aread(a, H5T_NATIVE_LLONG, &step) >= 0 && step == -3;
    H5Aclose(a);
    a  = H5Aopen(file, "particles", H5P_DEFAULT);
    ok = ok && H5Aread(a, H5T_NATIVE_LLONG, &count) >= 0 && count == (long long)N;
    H5Aclose(a);
    a  = H5Aopen(file, "hdem_version", H5P_DEFAULT);
    t  = H5Aget_type(a);
    ok = ok && H5Tget_class(t) == H5T_STRING && H5Tget_size(t) < sizeof(version) && H5Aread(a, t, version) >= 0 &&
         strcmp(version, HDEM_VERSION) == 0;
    H5Tclose(t);
    H5Aclose(a);
    H5Gclose(g);
    H5Fclose(file);
  }
  ck_assert(AllTrue(PETSC_COMM_WORLD, ok));
}
END_TEST

/* A stale temporary and an older file under the final name: both replaced. */
START_TEST(test_overwrite)
{
  char path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 8];
  int  rank, size;
  (void)MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  (void)MPI_Comm_size(PETSC_COMM_WORLD, &size);
  Path(path, "again.h5");
  snprintf(tmp, sizeof(tmp), "%s.tmp", path);
  ck_assert_int_eq(Write(PETSC_COMM_WORLD, path, PETSC_TRUE, 1.0, 1), 0);
  if (rank == 0) {
    FILE *fp = fopen(tmp, "w");
    if (fp) fputs("half-written leftovers of a crashed run\n", fp), fclose(fp);
  }
  (void)MPI_Barrier(PETSC_COMM_WORLD);
  ck_assert_int_eq(Write(PETSC_COMM_WORLD, path, PETSC_FALSE, 2.0, 2), 0);
  ck_assert(AllTrue(PETSC_COMM_WORLD, !Exists(tmp)));
  ck_assert(ReadAndCheck(PETSC_COMM_WORLD, path, size, PETSC_FALSE, 2.0, 2));
}
END_TEST

/* Keeps the first error message, to check it names the file. */
static PetscErrorCode RecordError(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n,
                                  PetscErrorType p, const char *mess, void *ctx)
{
  (void)comm, (void)line, (void)fun, (void)file;
  if (p == PETSC_ERROR_INITIAL && mess) PetscStrncpy((char *)ctx, mess, 1024);
  return n;
}

/* A refused read on every rank of comm: non-zero code, nothing returned, and
 * a message naming the file (and saying needle, if given). */
static int RefusedSaying(MPI_Comm comm, const char *path, const char *needle)
{
  char           msg[1024] = "";
  PetscInt       n         = -1;
  PetscInt64    *id        = (PetscInt64 *)&n, step;
  int32_t       *type;
  PetscReal     *radius, *x, *v, *w, *f, time;
  PetscErrorCode ierr;
  PetscBool      verbose = PETSC_FALSE;
  int            rank;

  PetscPushErrorHandler(RecordError, msg);
  ierr = H5StateRead(comm, path, &n, &id, &type, &radius, &x, &v, &w, &f, &time, &step);
  PetscPopErrorHandler();
  (void)MPI_Comm_rank(comm, &rank);
  PetscOptionsGetBool(NULL, NULL, "-h5state_verbose", &verbose, NULL);
  if (verbose && rank == 0) printf("  refused: %s\n", msg);
  return AllTrue(comm, ierr != 0 && n == 0 && id == NULL && strstr(msg, path) != NULL &&
                         (!needle || strstr(msg, needle) != NULL));
}

static int Refused(MPI_Comm comm, const char *path)
{
  return RefusedSaying(comm, path, NULL);
}

START_TEST(test_bad_files)
{
  char path[PETSC_MAX_PATH_LEN], half[PETSC_MAX_PATH_LEN], text[PETSC_MAX_PATH_LEN], nodset[PETSC_MAX_PATH_LEN],
    rows[PETSC_MAX_PATH_LEN], missing[PETSC_MAX_PATH_LEN];
  int rank, size;
  (void)MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  (void)MPI_Comm_size(PETSC_COMM_WORLD, &size);
  Path(path, "good.h5");
  Path(half, "truncated.h5");
  Path(text, "text.h5");
  Path(nodset, "noforce.h5");
  Path(rows, "rows.h5");
  Path(missing, "missing.h5");
  ck_assert_int_eq(Write(PETSC_COMM_WORLD, path, PETSC_FALSE, 3.0, 3), 0);
  ck_assert_int_eq(Write(PETSC_COMM_WORLD, nodset, PETSC_FALSE, 3.0, 3), 0);
  ck_assert_int_eq(Write(PETSC_COMM_WORLD, rows, PETSC_FALSE, 3.0, 3), 0);
  if (rank == 0) {
    FILE   *in = fopen(path, "rb"), *out = fopen(half, "wb");
    long    len;
    char   *buf;
    hid_t   file, g, s, d;
    hsize_t one = 1; /* N >= 4 */
    double  r   = 1;
    fseek(in, 0, SEEK_END);
    len = ftell(in);
    rewind(in);
    buf = malloc((size_t)len);
    fwrite(buf, 1, fread(buf, 1, (size_t)len / 2, in), out);
    free(buf);
    fclose(in);
    fclose(out);
    out = fopen(text, "w");
    fputs("id type radius\n1 0 0.5\n", out);
    fclose(out);
    /* a valid HDF5 file missing one dataset, and one with a one-row radius */
    file = H5Fopen(nodset, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(file, "particles/force", H5P_DEFAULT);
    H5Fclose(file);
    file = H5Fopen(rows, H5F_ACC_RDWR, H5P_DEFAULT);
    g    = H5Gopen2(file, "particles", H5P_DEFAULT);
    H5Ldelete(g, "radius", H5P_DEFAULT);
    s = H5Screate_simple(1, &one, NULL);
    d = H5Dcreate2(g, "radius", H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &r);
    H5Dclose(d);
    H5Sclose(s);
    H5Gclose(g);
    H5Fclose(file);
  }
  (void)MPI_Barrier(PETSC_COMM_WORLD);
  ck_assert(Refused(PETSC_COMM_WORLD, missing));
  ck_assert(Refused(PETSC_COMM_WORLD, half));
  ck_assert(Refused(PETSC_COMM_WORLD, text));
  ck_assert(Refused(PETSC_COMM_WORLD, nodset));
  ck_assert(Refused(PETSC_COMM_WORLD, rows));
  {
    char           nodir[PETSC_MAX_PATH_LEN], msg[1024] = "";
    PetscErrorCode ierr;
    Path(nodir, "no/such/dir.h5");
    PetscPushErrorHandler(RecordError, msg);
    ierr = Write(PETSC_COMM_WORLD, nodir, PETSC_FALSE, 0.0, 0);
    PetscPopErrorHandler();
    ck_assert(AllTrue(PETSC_COMM_WORLD, ierr != 0 && strstr(msg, nodir) != NULL));
  }
  /* a failed read leaves nothing open, and the good file still reads */
  ck_assert(AllTrue(PETSC_COMM_WORLD, H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0));
  ck_assert(ReadAndCheck(PETSC_COMM_WORLD, path, size, PETSC_FALSE, 3.0, 3));
}
END_TEST

/* Dataset name of file (opened serially) whole, as H5FileReadRows gives it. */
static int SerialChecksum(hid_t file, const char *name, H5FileType t, hid_t mtype, size_t es, int ncomp, uint64_t *sum,
                          uint64_t *stored)
{
  hid_t   d       = H5Dopen2(file, name, H5P_DEFAULT), s, a;
  hsize_t dims[2] = {0, 0};
  void   *buf;
  int     ok;
  if (d < 0) return 0;
  s = H5Dget_space(d);
  H5Sget_simple_extent_dims(s, dims, NULL);
  H5Sclose(s);
  buf  = malloc(dims[0] * (size_t)ncomp * es + 1);
  ok   = dims[0] == 0 || H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0;
  *sum = 0;
  ok   = ok && H5FileChecksumRows(t, ncomp, 0, (PetscInt)dims[0], buf, sum) == 0;
  free(buf);
  {
    PetscInt64 N = (PetscInt64)dims[0];
    ok           = ok && H5FileChecksumCombine(PETSC_COMM_SELF, 1, &N, sum) == 0;
  }
  a  = H5Aopen(d, "checksum", H5P_DEFAULT);
  ok = ok && a >= 0 && H5Aread(a, H5T_NATIVE_UINT64, stored) >= 0;
  if (a >= 0) H5Aclose(a);
  H5Dclose(d);
  return ok;
}

START_TEST(test_checksums)
{
  static const char *const names[7] = {"particles/id",       "particles/type",     "particles/radius",
                                       "particles/position", "particles/velocity", "particles/angular_velocity",
                                       "particles/force"};
  char                     path[PETSC_MAX_PATH_LEN], changed[PETSC_MAX_PATH_LEN], old[PETSC_MAX_PATH_LEN];
  int                      rank, size, ok = 1;
  (void)MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  (void)MPI_Comm_size(PETSC_COMM_WORLD, &size);
  Path(path, "sums.h5");
  Path(changed, "changed.h5");
  Path(old, "nosums.h5");
  ck_assert_int_eq(Write(PETSC_COMM_WORLD, path, PETSC_FALSE, 1.5, 15), 0);
  ck_assert_int_eq(Write(PETSC_COMM_WORLD, changed, PETSC_FALSE, 1.5, 15), 0);
  ck_assert_int_eq(Write(PETSC_COMM_WORLD, old, PETSC_FALSE, 1.5, 15), 0);
  if (rank == 0) {
    /* written on size ranks, recomputed on one over the file's rows */
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), d, s, m;
    for (int k = 0; k < 7 && ok; k++) {
      uint64_t sum = 1, stored = 2;
      ok = SerialChecksum(file, names[k],
                          k == 0   ? H5FILE_INT64
                          : k == 1 ? H5FILE_INT32
                                   : H5FILE_REAL,
                          k == 0   ? H5T_NATIVE_INT64
                          : k == 1 ? H5T_NATIVE_INT32
                                   : H5T_NATIVE_DOUBLE,
                          8, k < 3 ? 1 : 3, &sum, &stored) &&
           sum == stored;
    }
    H5Fclose(file);
    /* one velocity changed in its last bit, the checksum left as it was */
    file = H5Fopen(changed, H5F_ACC_RDWR, H5P_DEFAULT);
    d    = H5Dopen2(file, "particles/velocity", H5P_DEFAULT);
    {
      hsize_t  start[2] = {2, 1}, count[2] = {1, 1};
      double   v;
      uint64_t bits;
      s = H5Dget_space(d);
      m = H5Screate_simple(2, count, NULL);
      H5Sselect_hyperslab(s, H5S_SELECT_SET, start, NULL, count, NULL);
      ok = ok && H5Dread(d, H5T_NATIVE_DOUBLE, m, s, H5P_DEFAULT, &v) >= 0;
      memcpy(&bits, &v, sizeof(v));
      bits ^= 1;
      memcpy(&v, &bits, sizeof(v));
      ok = ok && H5Dwrite(d, H5T_NATIVE_DOUBLE, m, s, H5P_DEFAULT, &v) >= 0;
      H5Sclose(m);
      H5Sclose(s);
    }
    H5Dclose(d);
    H5Fclose(file);
    /* as written before checksums were kept */
    file = H5Fopen(old, H5F_ACC_RDWR, H5P_DEFAULT);
    for (int k = 0; k < 7; k++) {
      d  = H5Dopen2(file, names[k], H5P_DEFAULT);
      ok = ok && H5Adelete(d, "checksum") >= 0;
      H5Dclose(d);
    }
    H5Fclose(file);
  }
  ck_assert(AllTrue(PETSC_COMM_WORLD, ok));
  ck_assert(RefusedSaying(PETSC_COMM_WORLD, changed, "/particles/velocity: " H5FILE_CHECKSUM_MISMATCH));
  ck_assert(ReadAndCheck(PETSC_COMM_WORLD, old, size, PETSC_FALSE, 1.5, 15));
  ck_assert(ReadAndCheck(PETSC_COMM_WORLD, path, size, PETSC_FALSE, 1.5, 15));
  if (rank == 0) ok = ReadAndCheck(PETSC_COMM_SELF, path, size, PETSC_FALSE, 1.5, 15);
  ck_assert(AllTrue(PETSC_COMM_WORLD, ok));
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("h5state");
  TCase *tc = tcase_create("parallel io");
  tcase_set_timeout(tc, 120);
  tcase_add_unchecked_fixture(tc, Setup, Teardown);
  tcase_add_test(tc, test_roundtrip);
  tcase_add_test(tc, test_other_rank_counts);
  tcase_add_test(tc, test_empty);
  tcase_add_test(tc, test_layout);
  tcase_add_test(tc, test_overwrite);
  tcase_add_test(tc, test_bad_files);
  tcase_add_test(tc, test_checksums);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
