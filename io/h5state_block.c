/* A particle state (final.h5, a snapshot) read in blocks for a run's
 * initial state (h5state.h): each rank its share of the rows, never the
 * whole file. */
#include "io/h5state.h"
#include "io/h5file.h"
#include "decomp/collective.h"
#include <math.h>

const char *const H5StateBlockName[H5STATE_SETS] = {"particles/id",       "particles/type",
                                                    "particles/radius",   "particles/position",
                                                    "particles/velocity", "particles/angular_velocity",
                                                    "particles/liquid"};

static const H5FileType H5StateBlockType[H5STATE_SETS] = {H5FILE_INT64, H5FILE_INT32, H5FILE_REAL, H5FILE_REAL,
                                                          H5FILE_REAL,  H5FILE_REAL,  H5FILE_REAL};
static const PetscInt   H5StateBlockComp[H5STATE_SETS] = {1, 1, 1, 3, 3, 3, 1};

/* What kind of file f is: a particle state has /particles/id and no
 * checkpoint's or fields file's mark. */
static PetscErrorCode H5StateKind(H5File f)
{
  char     *text = NULL, format[64] = "";
  PetscBool has;

  PetscFunctionBeginUser;
  PetscCall(H5FileReadAttrString(f, "format", &text, &has));
  if (has && text) PetscCall(PetscStrncpy(format, text, sizeof(format)));
  PetscCall(PetscFree(text));
  PetscCheck(!has, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s is a checkpoint (attribute /format \"%s\"), not a particle state: continue its run with -restart, "
             "or give a final.h5 or a snapshot",
             H5FilePath(f), format);
  PetscCall(H5FileReadAttrString(f, "fields_settings", &text, &has));
  PetscCall(PetscFree(text));
  PetscCheck(!has, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s is a coarse-grained fields file (attribute /fields_settings), not a particle state: give a final.h5 "
             "or a snapshot",
             H5FilePath(f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The kind, every dataset's shape and rows, the bodies' count: the same on
 * every rank (the file's metadata), so every rank fails these together. */
static PetscErrorCode H5StateBlockShape(H5File f, H5StateBlock *b)
{
  PetscInt64 rows, count;
  PetscBool  has;

  PetscFunctionBeginUser;
  PetscCall(H5StateKind(f));
  PetscCall(H5FileRows(f, H5StateBlockName[0], H5FILE_INT64, 1, &b->N, &has));
  PetscCheck(has, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s has no dataset /particles/id: it is not a particle state (a final.h5 or a snapshot)", H5FilePath(f));
  for (int k = 1; k < H5STATE_SETS; k++) {
    PetscCall(H5FileRows(f, H5StateBlockName[k], H5StateBlockType[k], H5StateBlockComp[k], &rows, &has));
    if (k == H5STATE_LIQUID) b->has_liquid = has;
    if (k == H5STATE_LIQUID && !has) continue; /* a wet run's alone */
    PetscCheck(has, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s has no dataset /%s, which an initial state needs (a snapshot holds it with -snapshot_fields all; "
               "final.h5 always)",
               H5FilePath(f), H5StateBlockName[k]);
    PetscCheck(rows == b->N, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s: /%s has %" PetscInt64_FMT " rows but /particles/id has %" PetscInt64_FMT, H5FilePath(f),
               H5StateBlockName[k], rows, b->N);
  }
  PetscCall(H5FileReadAttrInt64(f, "particles", &count, &has));
  PetscCheck(!has || count == b->N, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: attribute /particles = %" PetscInt64_FMT " but the datasets have %" PetscInt64_FMT " rows",
             H5FilePath(f), count, b->N);
  PetscCall(H5FileRows(f, "bodies/id", H5FILE_INT64, 1, &b->bodies, &has));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's rows of every dataset, and their checksums against the
 * stored ones (collective): the first dataset that does not match into
 * b->changed, said once the rows' values are checked (a bad value says
 * where). */
static PetscErrorCode H5StateBlockRows(MPI_Comm comm, H5File f, H5StateBlock *b)
{
  void      *buf[H5STATE_SETS];
  uint64_t   sum[H5STATE_SETS] = {0}, stored[H5STATE_SETS] = {0};
  PetscInt64 N[H5STATE_SETS];
  PetscBool  has[H5STATE_SETS] = {PETSC_FALSE};
  int        nset              = b->has_liquid ? H5STATE_SETS : H5STATE_LIQUID;

  PetscFunctionBeginUser;
  PetscCall(H5FileBlock(comm, b->N, &b->off, &b->n));
  PetscCall(PetscMalloc1(b->n + 1, &b->id));
  PetscCall(PetscMalloc1(b->n + 1, &b->type));
  PetscCall(PetscMalloc1(b->n + 1, &b->radius));
  PetscCall(PetscMalloc1(3 * (size_t)b->n + 1, &b->x));
  PetscCall(PetscMalloc1(3 * (size_t)b->n + 1, &b->v));
  PetscCall(PetscMalloc1(3 * (size_t)b->n + 1, &b->w));
  if (b->has_liquid) PetscCall(PetscMalloc1(b->n + 1, &b->liquid));
  buf[0] = b->id, buf[1] = b->type, buf[2] = b->radius, buf[3] = b->x, buf[4] = b->v, buf[5] = b->w;
  buf[H5STATE_LIQUID] = b->liquid;
  for (int k = 0; k < nset; k++) {
    PetscCall(H5FileReadRows(f, H5StateBlockName[k], H5StateBlockType[k], H5StateBlockComp[k], b->off, b->n, buf[k]));
    PetscCall(H5FileChecksumRows(H5StateBlockType[k], H5StateBlockComp[k], b->off, b->n, buf[k], &sum[k]));
    PetscCall(H5FileReadChecksum(f, H5StateBlockName[k], &stored[k], &has[k]));
    N[k] = b->N;
  }
  PetscCall(H5FileChecksumCombine(comm, nset, N, sum));
  b->changed = -1; /* a file without checksums (rewritten by another tool) is read as it is */
  for (int k = nset - 1; k >= 0; k--)
    if (has[k] && stored[k] != sum[k]) b->changed = k, b->stored = stored[k], b->sum = sum[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5StateBlockVerified(MPI_Comm comm, const char *path, const H5StateBlock *b)
{
  PetscFunctionBeginUser;
  PetscCheck(b->changed < 0, comm, PETSC_ERR_FILE_UNEXPECTED,
             "%s: /%s: " H5FILE_CHECKSUM_MISMATCH " (stored checksum %016llx, the data's %016llx)", path,
             H5StateBlockName[b->changed < 0 ? 0 : b->changed], (unsigned long long)b->stored,
             (unsigned long long)b->sum);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5StateBlockFree(H5StateBlock *b)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(b->id));
  PetscCall(PetscFree(b->type));
  PetscCall(PetscFree(b->radius));
  PetscCall(PetscFree(b->x));
  PetscCall(PetscFree(b->v));
  PetscCall(PetscFree(b->w));
  PetscCall(PetscFree(b->liquid));
  b->n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: f opened, the error of any rank raised on comm by all (a
 * multi-rank error said once, every rank ending cleanly). */
static PetscErrorCode H5StateOpen(MPI_Comm comm, const char *path, H5File *f)
{
  PetscFunctionBeginUser;
  *f = NULL;
  CollectiveShared(comm, H5FileOpen(comm, path, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5StateReadBlock(MPI_Comm comm, const char *path, H5StateBlock *b)
{
  H5File         f;
  PetscErrorCode ierr;
  PetscReal      bad;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(b, sizeof(*b)));
  PetscCall(H5StateOpen(comm, path, &f));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = H5StateBlockShape(f, b);
  PetscCall(PetscPopErrorHandler());
  bad = ierr ? 1.0 : 0.0;
  PetscCall(CollectiveMaxAll(comm, &bad, 1));
  if (bad == 0.0) {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = H5StateBlockRows(comm, f, b);
    PetscCall(PetscPopErrorHandler());
  }
  PetscCall(H5FileClose(&f));
  if (ierr) PetscCall(H5StateBlockFree(b)); /* nothing half-read reaches the caller */
  PetscCall(CollectiveFirstError(comm, ierr, 0, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's block of the positions of f (found: f has them). */
static PetscErrorCode H5StateExtentRead(MPI_Comm comm, H5File f, PetscInt *n, PetscReal **x, PetscBool *found)
{
  PetscInt64 N = 0, off;

  PetscFunctionBeginUser;
  PetscCall(H5FileRows(f, H5StateBlockName[3], H5FILE_REAL, 3, &N, found));
  if (!*found) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(H5FileBlock(comm, N, &off, n));
  PetscCall(PetscMalloc1(3 * (size_t)*n + 1, x));
  PetscCall(H5FileReadRows(f, H5StateBlockName[3], H5FILE_REAL, 3, off, *n, *x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5StateExtent(MPI_Comm comm, const char *path, PetscReal lo[3], PetscReal hi[3], PetscBool *found)
{
  H5File         f;
  PetscInt       n = 0;
  PetscReal     *x = NULL, bad;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++) lo[a] = PETSC_MAX_REAL, hi[a] = -PETSC_MAX_REAL;
  PetscCall(H5StateOpen(comm, path, &f));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = H5StateExtentRead(comm, f, &n, &x, found);
  PetscCall(PetscPopErrorHandler());
  PetscCall(H5FileClose(&f));
  bad = ierr ? 1.0 : 0.0;
  PetscCall(CollectiveMaxAll(comm, &bad, 1));
  if (bad > 0.0) *found = PETSC_FALSE, n = 0; /* said with its dataset when the state is read */
  for (PetscInt i = 0; i < n; i++)
    for (int a = 0; a < 3; a++)
      if (isfinite(x[3 * i + a])) lo[a] = PetscMin(lo[a], x[3 * i + a]), hi[a] = PetscMax(hi[a], x[3 * i + a]);
  PetscCall(PetscFree(x));
  PetscFunctionReturn(PETSC_SUCCESS);
}
