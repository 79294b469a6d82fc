#include "engine/checkpoint.h"
#include <string.h>
#include "io/h5file.h"
#include "decomp/collective.h"

/* Format 2 keys each history record by (owner, kind, partner); format 1 had
 * no kind, a wall's partner being -1 - w: read alike. */
#define CHECKPOINT_FORMAT   "hdem checkpoint 2"
#define CHECKPOINT_FORMAT_1 "hdem checkpoint 1"

static H5FileType CkptType(FieldType t)
{
  return t == FIELD_INT64 ? H5FILE_INT64 : t == FIELD_INT32 ? H5FILE_INT32 : H5FILE_REAL;
}

static size_t CkptTypeSize(FieldType t)
{
  return t == FIELD_INT64 ? sizeof(PetscInt64) : t == FIELD_INT32 ? sizeof(int32_t) : sizeof(PetscReal);
}

/* Element c of an array of type t, as a real (exact for the integers kept). */
static PetscReal CkptGet(FieldType t, const void *a, size_t c)
{
  return t == FIELD_INT64 ? (PetscReal)((const PetscInt64 *)a)[c] : t == FIELD_INT32 ? (PetscReal)((const int32_t *)a)[c] : ((const PetscReal *)a)[c];
}

/* Every FIELD_CHECKPOINT field of the particle store, as /particles/<name>. */
static PetscErrorCode CkptWriteParticles(H5File f, const Particles *p)
{
  const FieldStore *st = &p->st;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *fd = &st->field[k];
    char         name[64];
    if (!(fd->flags & FIELD_CHECKPOINT)) continue;
    PetscCall(PetscSNPrintf(name, sizeof(name), "particles/%s", fd->name));
    PetscCall(H5FileWriteRows(f, name, CkptType(fd->type), fd->ncomp, p->n, *fd->data));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CkptIdCompare(const void *a, const void *b)
{
  const PetscInt64 *x = (const PetscInt64 *)a, *y = (const PetscInt64 *)b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* One column of the records' payloads (field rf) as its own array. */
static PetscErrorCode CkptWriteRecordColumn(H5File f, const RecordStore *rs, const RecordField *rf)
{
  size_t es = CkptTypeSize(rf->type) * (size_t)rf->ncomp;
  char  *col, name[64];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1((size_t)rs->n * es + 1, &col));
  for (PetscInt r = 0; r < rs->n; r++) memcpy(col + (size_t)r * es, (const char *)RecordStorePayload(rs, r) + rf->offset, es);
  PetscCall(PetscSNPrintf(name, sizeof(name), "history/%s", rf->name));
  PetscCall(H5FileWriteRows(f, name, CkptType(rf->type), rf->ncomp, rs->n, col));
  PetscCall(PetscFree(col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each owned particle's records, with where its lists were built (to route
 * the record on any rank count): owner, kind, partner, the payload's
 * fields (ContactHistoryFields). */
static PetscErrorCode CkptWriteHistory(H5File f, Engine *e)
{
  RecordStore rs;
  Particles  *p = &e->p;
  PetscInt64 *idx, *key;
  PetscReal  *xb;
  PetscInt    m;

  PetscFunctionBeginUser;
  PetscCall(HistoryStoreCreate(&rs));
  PetscCall(EngineGatherHistories(e, &rs, NULL));
  PetscCall(RecordStoreSort(&rs, NULL));
  m = rs.n;
  PetscCall(PetscMalloc1(2 * (size_t)p->n + 1, &idx)); /* (id, local index) sorted by id */
  for (PetscInt i = 0; i < p->n; i++) idx[2 * i] = p->id[i], idx[2 * i + 1] = i;
  if (p->n > 1) qsort(idx, (size_t)p->n, 2 * sizeof(PetscInt64), CkptIdCompare);
  PetscCall(PetscMalloc2(3 * (size_t)m + 1, &key, 3 * (size_t)m + 1, &xb));
  for (PetscInt r = 0; r < m; r++) {
    RecordKey   k = RecordStoreKey(&rs, r);
    PetscInt64 *hit;
    hit = (PetscInt64 *)bsearch(&k.owner, idx, (size_t)p->n, 2 * sizeof(PetscInt64), CkptIdCompare);
    PetscCheck(hit, PETSC_COMM_SELF, PETSC_ERR_PLIB, "checkpoint: history record of particle %" PetscInt64_FMT " which this rank does not own", k.owner);
    key[r] = k.owner, key[m + r] = k.kind, key[2 * m + r] = k.partner;
    for (int a = 0; a < 3; a++) xb[3 * r + a] = p->x0[3 * hit[1] + a];
  }
  PetscCall(H5FileWriteRows(f, "history/owner", H5FILE_INT64, 1, m, key));
  PetscCall(H5FileWriteRows(f, "history/kind", H5FILE_INT64, 1, m, key + m));
  PetscCall(H5FileWriteRows(f, "history/partner", H5FILE_INT64, 1, m, key + 2 * m));
  PetscCall(H5FileWriteRows(f, "history/owner_position_at_build", H5FILE_REAL, 3, m, xb));
  for (const RecordField *rf = ContactHistoryFields; rf->name; rf++) PetscCall(CkptWriteRecordColumn(f, &rs, rf));
  PetscCall(PetscFree2(key, xb));
  PetscCall(PetscFree(idx));
  PetscCall(RecordStoreDestroy(&rs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CkptWriteWalls(H5File f, const Engine *e)
{
  PetscReal   n[3 * PLANES_MAX], q[3 * PLANES_MAX];
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(e->grid.comm, &rank, NULL));
  for (PetscInt w = 0; w < e->planes.n; w++)
    for (int a = 0; a < 3; a++) n[3 * w + a] = e->planes.w[w].n[a], q[3 * w + a] = e->planes.w[w].p[a];
  PetscCall(H5FileWriteRows(f, "walls/normal", H5FILE_REAL, 3, rank ? 0 : e->planes.n, n));
  PetscCall(H5FileWriteRows(f, "walls/point", H5FILE_REAL, 3, rank ? 0 : e->planes.n, q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *const CkptRealName[10] = {"time", "dt", "bound", "dt_min", "dt_max", "dt_sum", "energy_initial", "work_gravity", "skin", "rmax"};

static void CkptReals(Engine *e, PetscReal *v[16])
{
  v[0] = &e->t, v[1] = &e->dt, v[2] = &e->bound, v[3] = &e->dt_min, v[4] = &e->dt_max, v[5] = &e->dt_sum;
  v[6] = &e->e_initial, v[7] = &e->work_gravity, v[8] = &e->skin, v[9] = &e->rmax;
}

static PetscErrorCode CkptWriteState(H5File f, Engine *e, const char *options)
{
  PetscReal *v[16], sum[2] = {e->work_gravity, (PetscReal)e->lost};

  PetscFunctionBeginUser;
  PetscCall(CollectiveSumAll(e->grid.comm, sum, 2)); /* each rank's share, kept as one total */
  CkptReals(e, v);
  for (int k = 0; k < 10; k++) PetscCall(H5FileWriteAttrReal(f, CkptRealName[k], k == 7 ? sum[0] : *v[k]));
  for (int a = 0; a < 3; a++) {
    char name[32];
    PetscCall(PetscSNPrintf(name, sizeof(name), "domain_lo_%c", "xyz"[a]));
    PetscCall(H5FileWriteAttrReal(f, name, e->grid.lo[a]));
    PetscCall(PetscSNPrintf(name, sizeof(name), "domain_hi_%c", "xyz"[a]));
    PetscCall(H5FileWriteAttrReal(f, name, e->grid.hi[a]));
    PetscCall(PetscSNPrintf(name, sizeof(name), "domain_periodic_%c", "xyz"[a]));
    PetscCall(H5FileWriteAttrInt64(f, name, e->grid.periodic[a] ? 1 : 0));
  }
  for (int a = 0; a < 3; a++) { /* the rebuild criterion's drift: the next step's test needs it */
    char name[32];
    PetscCall(PetscSNPrintf(name, sizeof(name), "drift_%c", "xyz"[a]));
    PetscCall(H5FileWriteAttrReal(f, name, e->drift[a]));
  }
  PetscCall(H5FileWriteAttrInt64(f, "step", e->step));
  PetscCall(H5FileWriteAttrInt64(f, "particles", e->nglobal - (PetscInt64)sum[1]));
  PetscCall(H5FileWriteAttrInt64(f, "particles_initial", e->nglobal));
  PetscCall(H5FileWriteAttrInt64(f, "lost", (PetscInt64)sum[1]));
  PetscCall(H5FileWriteAttrInt64(f, "rebuilds", e->rebuilds));
  PetscCall(H5FileWriteAttrInt64(f, "rebuild_next", e->rebuild_next));
  PetscCall(H5FileWriteAttrInt64(f, "warned_fixed", e->warned_fixed));
  PetscCall(H5FileWriteAttrString(f, "hdem_version", HDEM_VERSION));
  PetscCall(H5FileWriteAttrString(f, "options", options ? options : ""));
  PetscCall(H5FileWriteAttrString(f, "format", CHECKPOINT_FORMAT)); /* last: a file with it was written through */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointWrite(Engine *e, const char *path, const char *options)
{
  H5File         f;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  EngineCheckWhole(e);
  PetscCall(H5FileCreate(e->grid.comm, path, &f));
  ierr = CkptWriteParticles(f, &e->p);
  if (!ierr) ierr = CkptWriteHistory(f, e);
  if (!ierr) ierr = CkptWriteWalls(f, e);
  if (!ierr) ierr = CkptWriteState(f, e, options);
  PetscCall(H5FileAbandon(&f, ierr)); /* the temporary stays unnamed: no checkpoint is lost */
  PetscCall(H5FileCommit(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- reading ------------------------------------------------------------- */

static PetscErrorCode CkptDest(const Grid *g, const PetscReal x[3], PetscMPIInt *rank)
{
  PetscMPIInt c[3];

  PetscFunctionBeginUser;
  PetscCall(GridOwnerOf(g, x, c));
  PetscCall(GridRankOfCoords(g, c, rank));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CkptRows(H5File f, const char *name, H5FileType t, PetscInt ncomp, PetscInt64 N)
{
  PetscInt64 rows;

  PetscFunctionBeginUser;
  PetscCall(H5FileRows(f, name, t, ncomp, &rows, NULL));
  PetscCheck(rows == N, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: /%s has %" PetscInt64_FMT " rows, expected %" PetscInt64_FMT, H5FilePath(f),
             name, rows, N);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rows [off, off + n) of dataset name (ncomp values of type t each) into
 * column `at` of n rows of width reals. */
static PetscErrorCode CkptReadColumn(H5File f, const char *name, FieldType t, PetscInt ncomp, PetscInt64 N, PetscInt64 off, PetscInt n, PetscInt width,
                                     PetscInt at, PetscReal *rows)
{
  char *col;

  PetscFunctionBeginUser;
  PetscCall(CkptRows(f, name, CkptType(t), ncomp, N));
  PetscCall(PetscMalloc1((size_t)n * CkptTypeSize(t) * ncomp + 1, &col));
  PetscCall(H5FileReadRows(f, name, CkptType(t), ncomp, off, n, col));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt c = 0; c < ncomp; c++) rows[(size_t)i * width + at + c] = CkptGet(t, col, (size_t)i * ncomp + c);
  PetscCall(PetscFree(col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A block of the particle rows, as the store packs its checkpointed fields,
 * routed to the ranks owning where their lists were built. */
static PetscErrorCode CkptReadParticles(H5File f, Engine *e, PetscInt64 N)
{
  FieldStore  *st = &e->p.st;
  PetscInt     w = FieldStorePackWidth(st, FIELD_CHECKPOINT), xb = FieldStorePackOffset(st, FIELD_CHECKPOINT, FieldStoreFind(st, "position_at_build"));
  PetscInt64   off;
  PetscInt     n, nin, n0 = e->p.n;
  PetscReal   *rec, *in;
  PetscMPIInt *dest;

  PetscFunctionBeginUser;
  PetscCall(H5FileBlock(e->grid.comm, N, &off, &n));
  PetscCall(PetscMalloc2((size_t)n * w + 1, &rec, n + 1, &dest));
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *fd = &st->field[k];
    char         name[64];
    if (!(fd->flags & FIELD_CHECKPOINT)) continue;
    PetscCall(PetscSNPrintf(name, sizeof(name), "particles/%s", fd->name));
    PetscCall(CkptReadColumn(f, name, fd->type, fd->ncomp, N, off, n, w, FieldStorePackOffset(st, FIELD_CHECKPOINT, k), rec));
  }
  for (PetscInt i = 0; i < n; i++) PetscCall(CkptDest(&e->grid, rec + (size_t)i * w + xb, &dest[i]));
  PetscCall(CollectiveRoute(e->grid.comm, n, w, rec, dest, &nin, &in));
  PetscCall(ParticlesReserve(&e->p, n0 + nin));
  for (PetscInt i = 0; i < nin; i++) {
    PetscInt row;
    PetscCall(FieldStoreAppend(st, &row));
  }
  FieldStoreUnpack(st, FIELD_CHECKPOINT, n0, nin, in);
  for (PetscInt i = n0; i < n0 + nin; i++) e->p.flags[i] &= ~PARTICLE_SELF_IMAGE;
  PetscCall(PetscFree(in));
  PetscCall(PetscFree2(rec, dest));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A block of the history rows, routed with the records' owners: the same
 * ranks as their particles.  A format 1 file has no kinds: a partner
 * -1 - w there is wall w. */
static PetscErrorCode CkptReadHistory(H5File f, Engine *e, PetscBool format1)
{
  PetscInt64   M, off;
  PetscInt     m, nin, nf = 0, width;
  PetscReal   *row, *in;
  PetscMPIInt *dest;
  RecordStore  blk;

  PetscFunctionBeginUser;
  for (const RecordField *rf = ContactHistoryFields; rf->name; rf++) nf += rf->ncomp;
  width = 6 + nf; /* owner, kind, partner, where the owner's lists were built, the payload */
  PetscCall(H5FileRows(f, "history/owner", H5FILE_INT64, 1, &M, NULL));
  PetscCall(H5FileBlock(e->grid.comm, M, &off, &m));
  PetscCall(PetscMalloc2((size_t)m * width + 1, &row, m + 1, &dest));
  PetscCall(CkptReadColumn(f, "history/owner", FIELD_INT64, 1, M, off, m, width, 0, row));
  if (!format1) PetscCall(CkptReadColumn(f, "history/kind", FIELD_INT64, 1, M, off, m, width, 1, row));
  PetscCall(CkptReadColumn(f, "history/partner", FIELD_INT64, 1, M, off, m, width, 2, row));
  PetscCall(CkptReadColumn(f, "history/owner_position_at_build", FIELD_REAL, 3, M, off, m, width, 3, row));
  nf = 6;
  for (const RecordField *rf = ContactHistoryFields; rf->name; rf++) {
    char name[64];
    PetscCall(PetscSNPrintf(name, sizeof(name), "history/%s", rf->name));
    PetscCall(CkptReadColumn(f, name, rf->type, rf->ncomp, M, off, m, width, nf, row));
    nf += rf->ncomp;
  }
  /* as records (keys checked), packed as decomp moves them, routed */
  PetscCall(HistoryStoreCreate(&blk));
  PetscCall(RecordStoreReserve(&blk, m));
  for (PetscInt r = 0; r < m; r++) {
    PetscReal     *b = row + (size_t)r * width;
    RecordKey      key;
    ContactHistory h;
    PetscInt       at = 6;
    key.owner         = (PetscInt64)b[0];
    key.kind          = format1 ? (b[2] < 0 ? HISTORY_KIND_PLANE : HISTORY_KIND_SPHERE) : (PetscInt64)b[1];
    key.partner       = format1 && b[2] < 0 ? -1 - (PetscInt64)b[2] : (PetscInt64)b[2];
    PetscCall(PetscMemzero(&h, sizeof(h)));
    for (const RecordField *rf = ContactHistoryFields; rf->name; rf++)
      for (PetscInt c = 0; c < rf->ncomp; c++, at++) {
        if (rf->type == FIELD_REAL) ((PetscReal *)((char *)&h + rf->offset))[c] = b[at];
        else ((PetscInt64 *)((char *)&h + rf->offset))[c] = (PetscInt64)b[at];
      }
    PetscCall(RecordStoreAdd(&blk, &key, &h));
    PetscCall(CkptDest(&e->grid, b + 3, &dest[r]));
  }
  PetscCall(CollectiveRoute(e->grid.comm, m, RecordStorePackWidth(&blk), (const PetscReal *)blk.r, dest, &nin, &in));
  for (PetscInt r = 0; r < nin; r++) PetscCall(RecordStoreAddPacked(&e->hs, in + (size_t)r * RecordStorePackWidth(&blk)));
  PetscCall(RecordStoreDestroy(&blk));
  PetscCall(PetscFree(in));
  PetscCall(PetscFree2(row, dest));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CkptReadWalls(H5File f, Engine *e)
{
  PetscInt64 W, rows;
  PetscReal  n[3 * PLANES_MAX], q[3 * PLANES_MAX];

  PetscFunctionBeginUser;
  PetscCall(H5FileRows(f, "walls/normal", H5FILE_REAL, 3, &W, NULL));
  PetscCall(H5FileRows(f, "walls/point", H5FILE_REAL, 3, &rows, NULL));
  PetscCheck(W == rows && W <= PLANES_MAX, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: bad /walls", H5FilePath(f));
  PetscCheck(W == e->planes.n, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
             "checkpoint %s has %" PetscInt64_FMT " walls but the deck %" PetscInt_FMT ": restart with the deck that wrote it", H5FilePath(f), W, e->planes.n);
  PetscCall(H5FileReadRows(f, "walls/normal", H5FILE_REAL, 3, 0, (PetscInt)W, n));
  PetscCall(H5FileReadRows(f, "walls/point", H5FILE_REAL, 3, 0, (PetscInt)W, q));
  for (PetscInt w = 0; w < W; w++) /* the checkpoint's own bits */
    for (int a = 0; a < 3; a++) e->planes.w[w].n[a] = n[3 * w + a], e->planes.w[w].p[a] = q[3 * w + a];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CkptReadState(H5File f, Engine *e, PetscInt64 *N, PetscBool *format1)
{
  PetscReal  *v[16];
  PetscInt64  i64;
  char       *fmt;
  PetscMPIInt rank;
  PetscBool   has;

  PetscFunctionBeginUser;

  PetscCall(H5FileReadAttrString(f, "format", &fmt, &has));
  PetscCheck(has, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s is not an hdem checkpoint (no format attribute: a snapshot or final.h5?); checkpoints are DIR/checkpoints/step_*.h5", H5FilePath(f));
  *format1 = strcmp(fmt, CHECKPOINT_FORMAT_1) ? PETSC_FALSE : PETSC_TRUE;
  PetscCheck(*format1 || !strcmp(fmt, CHECKPOINT_FORMAT), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s is not a checkpoint this hdem reads (format '%s'; it reads '%s' and '%s')", H5FilePath(f), fmt, CHECKPOINT_FORMAT, CHECKPOINT_FORMAT_1);
  PetscCall(PetscFree(fmt));
  CkptReals(e, v);
  for (int k = 0; k < 10; k++) PetscCall(H5FileReadAttrReal(f, CkptRealName[k], v[k], NULL));
  for (int a = 0; a < 3; a++) {
    char      name[32];
    PetscReal lo, hi;
    PetscCall(PetscSNPrintf(name, sizeof(name), "domain_lo_%c", "xyz"[a]));
    PetscCall(H5FileReadAttrReal(f, name, &lo, NULL));
    PetscCall(PetscSNPrintf(name, sizeof(name), "domain_hi_%c", "xyz"[a]));
    PetscCall(H5FileReadAttrReal(f, name, &hi, NULL));
    PetscCheck(lo == e->grid.lo[a] && hi == e->grid.hi[a], PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
               "checkpoint %s: domain [%g, %g] on axis %c, the deck says [%g, %g]: restart with the deck that wrote it", H5FilePath(f), (double)lo, (double)hi,
               "xyz"[a], (double)e -> grid.lo[a], (double)e->grid.hi[a]);
    PetscCall(PetscSNPrintf(name, sizeof(name), "domain_periodic_%c", "xyz"[a]));
    PetscCall(H5FileReadAttrInt64(f, name, &i64, &has)); /* absent from checkpoints before it was kept */
    PetscCheck(!has || (i64 != 0) == (e->grid.periodic[a] ? PETSC_TRUE : PETSC_FALSE), PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
               "checkpoint %s: axis %c was %s, the deck makes it %s (-domain_periodic): restart with the deck that wrote it", H5FilePath(f), "xyz"[a],
               i64 ? "periodic" : "not periodic", e->grid.periodic[a] ? "periodic" : "not periodic");
  }
  for (int a = 0; a < 3; a++) {
    char name[32];
    PetscCall(PetscSNPrintf(name, sizeof(name), "drift_%c", "xyz"[a]));
    PetscCall(H5FileReadAttrReal(f, name, &e->drift[a], &has)); /* absent from checkpoints before it was kept: none */
    if (!has) e->drift[a] = 0.0;
  }
  PetscCall(H5FileReadAttrInt64(f, "step", &e->step, NULL));
  PetscCall(H5FileReadAttrInt64(f, "particles", N, NULL));
  PetscCall(H5FileReadAttrInt64(f, "particles_initial", &e->nglobal, NULL));
  PetscCall(H5FileReadAttrInt64(f, "lost", &e->lost, NULL));
  PetscCall(CollectiveRank(e->grid.comm, &rank, NULL));
  if (rank) e->work_gravity = 0.0, e->lost = 0; /* the totals are kept once */
  PetscCall(H5FileReadAttrInt64(f, "rebuilds", &i64, NULL));
  e->rebuilds = (PetscInt)i64;
  PetscCall(H5FileReadAttrInt64(f, "rebuild_next", &i64, NULL));
  e->rebuild_next = i64 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(H5FileReadAttrInt64(f, "warned_fixed", &i64, NULL));
  e->warned_fixed = i64 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointRead(Engine *e, const char *path)
{
  H5File         f;
  PetscInt64     N       = 0;
  PetscBool      format1 = PETSC_FALSE;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCheck(e->p.n == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "restart: the engine already has particles");
  PetscCall(H5FileOpen(e->grid.comm, path, &f));
  ierr = CkptReadState(f, e, &N, &format1);
  {
    /* the attributes read alike on every rank, so a wrong file fails on all:
     * agreed, they close it together and stop cleanly */
    PetscReal failed = ierr ? 1.0 : 0.0;
    PetscCall(CollectiveMaxAll(e->grid.comm, &failed, 1));
    if (failed > 0.0) {
      PetscCall(H5FileClose(&f));
      PetscCall(ierr);
      SETERRQ(e->grid.comm, PETSC_ERR_FILE_READ, "checkpoint %s: another rank could not read its attributes", path);
    }
  }
  ierr = CkptReadWalls(f, e);
  if (!ierr) ierr = CkptReadParticles(f, e, N);
  if (!ierr) ierr = CkptReadHistory(f, e, format1);
  PetscCall(H5FileAbandon(&f, ierr));
  PetscCall(H5FileClose(&f));
  PetscCall(EngineResume(e));
  PetscFunctionReturn(PETSC_SUCCESS);
}
