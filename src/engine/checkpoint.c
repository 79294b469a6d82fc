#include "engine/checkpoint.h"
#include "io/h5file.h"
#include "decomp/collective.h"

#define CHECKPOINT_FORMAT "hdem checkpoint 1"
#define CKPT_PREC 24 /* reals per routed particle */
#define CKPT_HREC 13 /* reals per routed history record */

static const char *const CkptVec[6] = {"particles/position", "particles/position_at_build", "particles/velocity", "particles/angular_velocity", "particles/force", "particles/torque"};
static const char *const CkptRow[3] = {"particles/radius", "particles/mass", "particles/inertia"};
static const char *const CkptHist[4] = {"history/impact_speed", "history/overlap", "history/normal_force", "history/step"};

static void CkptVecs(const Particles *p, PetscReal *v[6])
{
  v[0] = p->x, v[1] = p->x0, v[2] = p->v, v[3] = p->w, v[4] = p->f, v[5] = p->t;
}

static PetscErrorCode CkptWriteParticles(H5File f, const Particles *p)
{
  PetscReal *vec[6];
  PetscReal *row[3] = {p->radius, p->mass, p->inertia};

  PetscFunctionBeginUser;
  CkptVecs(p, vec);
  PetscCall(H5FileWriteRows(f, "particles/id", H5FILE_INT64, 1, p->n, p->id));
  PetscCall(H5FileWriteRows(f, "particles/type", H5FILE_INT32, 1, p->n, p->type));
  PetscCall(H5FileWriteRows(f, "particles/flags", H5FILE_INT32, 1, p->n, p->flags));
  for (int k = 0; k < 3; k++) PetscCall(H5FileWriteRows(f, CkptRow[k], H5FILE_REAL, 1, p->n, row[k]));
  for (int k = 0; k < 6; k++) PetscCall(H5FileWriteRows(f, CkptVec[k], H5FILE_REAL, 3, p->n, vec[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CkptIdCompare(const void *a, const void *b)
{
  const PetscInt64 *x = (const PetscInt64 *)a, *y = (const PetscInt64 *)b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Each owned particle's records, with where its lists were built (to route
 * the record on any rank count). */
static PetscErrorCode CkptWriteHistory(H5File f, Engine *e)
{
  HistoryStore hs;
  Particles   *p = &e->p;
  PetscInt64  *idx, *owner, *partner;
  PetscInt    *touched, m;
  PetscReal   *xb, *spring, *sc[4];

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&hs, sizeof(hs)));
  PetscCall(HistoryStoreGather(&hs, &e->nl, p, NULL));
  PetscCall(HistoryStoreSort(&hs, NULL));
  m = hs.n;
  PetscCall(PetscMalloc1(2 * (size_t)p->n + 1, &idx)); /* (id, local index) sorted by id */
  for (PetscInt i = 0; i < p->n; i++) idx[2 * i] = p->id[i], idx[2 * i + 1] = i;
  if (p->n > 1) qsort(idx, (size_t)p->n, 2 * sizeof(PetscInt64), CkptIdCompare);
  PetscCall(PetscMalloc5(m + 1, &owner, m + 1, &partner, m + 1, &touched, 3 * m + 1, &xb, 3 * m + 1, &spring));
  for (int k = 0; k < 4; k++) PetscCall(PetscMalloc1(m + 1, &sc[k]));
  for (PetscInt r = 0; r < m; r++) {
    const HistoryRecord *h   = &hs.r[r];
    PetscInt64           key = h->owner, *hit;
    hit = (PetscInt64 *)bsearch(&key, idx, (size_t)p->n, 2 * sizeof(PetscInt64), CkptIdCompare);
    PetscCheck(hit, PETSC_COMM_SELF, PETSC_ERR_PLIB, "checkpoint: history record of particle %" PetscInt64_FMT " which this rank does not own", key);
    owner[r]   = h->owner;
    partner[r] = h->partner;
    touched[r] = h->h.touched;
    for (int a = 0; a < 3; a++) {
      xb[3 * r + a]     = p->x0[3 * hit[1] + a];
      spring[3 * r + a] = h->h.xi[a];
    }
    sc[0][r] = h->h.v_imp, sc[1][r] = h->h.d_last, sc[2][r] = h->h.Fn_last, sc[3][r] = h->h.dt_last;
  }
  PetscCall(H5FileWriteRows(f, "history/owner", H5FILE_INT64, 1, m, owner));
  PetscCall(H5FileWriteRows(f, "history/partner", H5FILE_INT64, 1, m, partner));
  PetscCall(H5FileWriteRows(f, "history/owner_position_at_build", H5FILE_REAL, 3, m, xb));
  PetscCall(H5FileWriteRows(f, "history/spring", H5FILE_REAL, 3, m, spring));
  for (int k = 0; k < 4; k++) PetscCall(H5FileWriteRows(f, CkptHist[k], H5FILE_REAL, 1, m, sc[k]));
  PetscCall(H5FileWriteRows(f, "history/touched", H5FILE_INT, 1, m, touched));
  for (int k = 0; k < 4; k++) PetscCall(PetscFree(sc[k]));
  PetscCall(PetscFree5(owner, partner, touched, xb, spring));
  PetscCall(PetscFree(idx));
  PetscCall(HistoryStoreDestroy(&hs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CkptWriteWalls(H5File f, const Engine *e)
{
  PetscReal   n[3 * ENGINE_MAX_WALLS], q[3 * ENGINE_MAX_WALLS];
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(e->grid.comm, &rank, NULL));
  for (PetscInt w = 0; w < e->nwall; w++)
    for (int a = 0; a < 3; a++) n[3 * w + a] = e->walls[w].n[a], q[3 * w + a] = e->walls[w].p[a];
  PetscCall(H5FileWriteRows(f, "walls/normal", H5FILE_REAL, 3, rank ? 0 : e->nwall, n));
  PetscCall(H5FileWriteRows(f, "walls/point", H5FILE_REAL, 3, rank ? 0 : e->nwall, q));
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
  PetscCheck(rows == N, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: /%s has %" PetscInt64_FMT " rows, expected %" PetscInt64_FMT, H5FilePath(f), name, rows, N);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A block of the particle rows, routed to the ranks owning where their lists
 * were built. */
static PetscErrorCode CkptReadParticles(H5File f, Engine *e, PetscInt64 N)
{
  Particles   *p = &e->p;
  PetscInt64   off, *id;
  PetscInt     n, nin, *type, *flags;
  PetscReal   *row[3], *vec[6], *rec, *in;
  PetscMPIInt *dest;

  PetscFunctionBeginUser;
  PetscCall(CkptRows(f, "particles/id", H5FILE_INT64, 1, N));
  PetscCall(CkptRows(f, "particles/type", H5FILE_INT, 1, N));
  PetscCall(CkptRows(f, "particles/flags", H5FILE_INT, 1, N));
  for (int k = 0; k < 3; k++) PetscCall(CkptRows(f, CkptRow[k], H5FILE_REAL, 1, N));
  for (int k = 0; k < 6; k++) PetscCall(CkptRows(f, CkptVec[k], H5FILE_REAL, 3, N));
  PetscCall(H5FileBlock(e->grid.comm, N, &off, &n));
  PetscCall(PetscMalloc3(n + 1, &id, n + 1, &type, n + 1, &flags));
  for (int k = 0; k < 3; k++) PetscCall(PetscMalloc1(n + 1, &row[k]));
  for (int k = 0; k < 6; k++) PetscCall(PetscMalloc1(3 * n + 1, &vec[k]));
  PetscCall(H5FileReadRows(f, "particles/id", H5FILE_INT64, 1, off, n, id));
  PetscCall(H5FileReadRows(f, "particles/type", H5FILE_INT, 1, off, n, type));
  PetscCall(H5FileReadRows(f, "particles/flags", H5FILE_INT, 1, off, n, flags));
  for (int k = 0; k < 3; k++) PetscCall(H5FileReadRows(f, CkptRow[k], H5FILE_REAL, 1, off, n, row[k]));
  for (int k = 0; k < 6; k++) PetscCall(H5FileReadRows(f, CkptVec[k], H5FILE_REAL, 3, off, n, vec[k]));
  PetscCall(PetscMalloc2((size_t)n * CKPT_PREC + 1, &rec, n + 1, &dest));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal *b = rec + (size_t)i * CKPT_PREC;
    b[0] = (PetscReal)id[i], b[1] = (PetscReal)type[i], b[2] = (PetscReal)flags[i];
    for (int k = 0; k < 3; k++) b[3 + k] = row[k][i];
    for (int k = 0; k < 6; k++)
      for (int a = 0; a < 3; a++) b[6 + 3 * k + a] = vec[k][3 * i + a];
    PetscCall(CkptDest(&e->grid, vec[1] + 3 * i, &dest[i]));
  }
  PetscCall(CollectiveRoute(e->grid.comm, n, CKPT_PREC, rec, dest, &nin, &in));
  PetscCall(ParticlesReserve(p, nin));
  for (PetscInt i = 0; i < nin; i++) {
    const PetscReal *b = in + (size_t)i * CKPT_PREC;
    PetscReal       *mine[6];
    PetscCall(ParticlesAppend(p, (PetscInt64)b[0], (PetscInt)b[1], (PetscInt)b[2] & PARTICLE_FROZEN, b[3], e->model.material.density, b + 6, b + 12, b + 15));
    p->mass[i] = b[4], p->inertia[i] = b[5];
    CkptVecs(p, mine);
    for (int k = 0; k < 6; k++)
      for (int a = 0; a < 3; a++) mine[k][3 * i + a] = b[6 + 3 * k + a];
  }
  PetscCall(PetscFree(in));
  PetscCall(PetscFree2(rec, dest));
  for (int k = 0; k < 6; k++) PetscCall(PetscFree(vec[k]));
  for (int k = 0; k < 3; k++) PetscCall(PetscFree(row[k]));
  PetscCall(PetscFree3(id, type, flags));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CkptReadHistory(H5File f, Engine *e)
{
  PetscInt64   M, off, *owner, *partner;
  PetscInt     m, nin, *touched;
  PetscReal   *xb, *spring, *sc[4], *rec, *in;
  PetscMPIInt *dest;

  PetscFunctionBeginUser;
  PetscCall(H5FileRows(f, "history/owner", H5FILE_INT64, 1, &M, NULL));
  PetscCall(CkptRows(f, "history/partner", H5FILE_INT64, 1, M));
  PetscCall(CkptRows(f, "history/owner_position_at_build", H5FILE_REAL, 3, M));
  PetscCall(CkptRows(f, "history/spring", H5FILE_REAL, 3, M));
  for (int k = 0; k < 4; k++) PetscCall(CkptRows(f, CkptHist[k], H5FILE_REAL, 1, M));
  PetscCall(CkptRows(f, "history/touched", H5FILE_INT, 1, M));
  PetscCall(H5FileBlock(e->grid.comm, M, &off, &m));
  PetscCall(PetscMalloc5(m + 1, &owner, m + 1, &partner, m + 1, &touched, 3 * m + 1, &xb, 3 * m + 1, &spring));
  for (int k = 0; k < 4; k++) PetscCall(PetscMalloc1(m + 1, &sc[k]));
  PetscCall(H5FileReadRows(f, "history/owner", H5FILE_INT64, 1, off, m, owner));
  PetscCall(H5FileReadRows(f, "history/partner", H5FILE_INT64, 1, off, m, partner));
  PetscCall(H5FileReadRows(f, "history/owner_position_at_build", H5FILE_REAL, 3, off, m, xb));
  PetscCall(H5FileReadRows(f, "history/spring", H5FILE_REAL, 3, off, m, spring));
  for (int k = 0; k < 4; k++) PetscCall(H5FileReadRows(f, CkptHist[k], H5FILE_REAL, 1, off, m, sc[k]));
  PetscCall(H5FileReadRows(f, "history/touched", H5FILE_INT, 1, off, m, touched));
  PetscCall(PetscMalloc2((size_t)m * CKPT_HREC + 1, &rec, m + 1, &dest));
  for (PetscInt r = 0; r < m; r++) {
    PetscReal *b = rec + (size_t)r * CKPT_HREC;
    b[0] = (PetscReal)owner[r], b[1] = (PetscReal)partner[r], b[2] = (PetscReal)touched[r];
    for (int a = 0; a < 3; a++) b[3 + a] = spring[3 * r + a];
    for (int k = 0; k < 4; k++) b[6 + k] = sc[k][r];
    PetscCall(CkptDest(&e->grid, xb + 3 * r, &dest[r]));
  }
  PetscCall(CollectiveRoute(e->grid.comm, m, CKPT_HREC, rec, dest, &nin, &in));
  for (PetscInt r = 0; r < nin; r++) {
    const PetscReal *b = in + (size_t)r * CKPT_HREC;
    ContactHistory   h;
    PetscCall(PetscMemzero(&h, sizeof(h)));
    h.touched = (PetscInt)b[2];
    for (int a = 0; a < 3; a++) h.xi[a] = b[3 + a];
    h.v_imp = b[6], h.d_last = b[7], h.Fn_last = b[8], h.dt_last = b[9];
    PetscCall(HistoryStoreAdd(&e->hs, (PetscInt64)b[0], (PetscInt64)b[1], &h));
  }
  PetscCall(PetscFree(in));
  PetscCall(PetscFree2(rec, dest));
  for (int k = 0; k < 4; k++) PetscCall(PetscFree(sc[k]));
  PetscCall(PetscFree5(owner, partner, touched, xb, spring));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CkptReadWalls(H5File f, Engine *e)
{
  PetscInt64 W, rows;
  PetscReal  n[3 * ENGINE_MAX_WALLS], q[3 * ENGINE_MAX_WALLS];

  PetscFunctionBeginUser;
  PetscCall(H5FileRows(f, "walls/normal", H5FILE_REAL, 3, &W, NULL));
  PetscCall(H5FileRows(f, "walls/point", H5FILE_REAL, 3, &rows, NULL));
  PetscCheck(W == rows && W <= ENGINE_MAX_WALLS, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: bad /walls", H5FilePath(f));
  PetscCheck(W == e->nwall, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "checkpoint %s has %" PetscInt64_FMT " walls but the deck %" PetscInt_FMT ": restart with the deck that wrote it", H5FilePath(f), W, e->nwall);
  PetscCall(H5FileReadRows(f, "walls/normal", H5FILE_REAL, 3, 0, (PetscInt)W, n));
  PetscCall(H5FileReadRows(f, "walls/point", H5FILE_REAL, 3, 0, (PetscInt)W, q));
  for (PetscInt w = 0; w < W; w++) /* the checkpoint's own bits */
    for (int a = 0; a < 3; a++) e->walls[w].n[a] = n[3 * w + a], e->walls[w].p[a] = q[3 * w + a];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CkptReadState(H5File f, Engine *e, PetscInt64 *N)
{
  PetscReal *v[16];
  PetscInt64 i64;
  char      *fmt;
  PetscMPIInt rank;
  PetscBool  has;

  PetscFunctionBeginUser;

  PetscCall(H5FileReadAttrString(f, "format", &fmt, &has));
  PetscCheck(has, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s is not an hdem checkpoint (no format attribute: a snapshot or final.h5?); checkpoints are DIR/checkpoints/step_*.h5", H5FilePath(f));
  PetscCheck(!strcmp(fmt, CHECKPOINT_FORMAT), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s is not an hdem checkpoint (format '%s', expected '%s')", H5FilePath(f), fmt, CHECKPOINT_FORMAT);
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
    PetscCheck(lo == e->grid.lo[a] && hi == e->grid.hi[a], PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "checkpoint %s: domain [%g, %g] on axis %c, the deck says [%g, %g]: restart with the deck that wrote it", H5FilePath(f), (double)lo, (double)hi, "xyz"[a], (double)e->grid.lo[a], (double)e->grid.hi[a]);
    PetscCall(PetscSNPrintf(name, sizeof(name), "domain_periodic_%c", "xyz"[a]));
    PetscCall(H5FileReadAttrInt64(f, name, &i64, &has)); /* absent from checkpoints before it was kept */
    PetscCheck(!has || (i64 != 0) == (e->grid.periodic[a] ? PETSC_TRUE : PETSC_FALSE), PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "checkpoint %s: axis %c was %s, the deck makes it %s (-domain_periodic): restart with the deck that wrote it", H5FilePath(f), "xyz"[a], i64 ? "periodic" : "not periodic", e->grid.periodic[a] ? "periodic" : "not periodic");
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
  PetscInt64     N = 0;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCheck(e->p.n == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "restart: the engine already has particles");
  PetscCall(H5FileOpen(e->grid.comm, path, &f));
  ierr = CkptReadState(f, e, &N);
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
  if (!ierr) ierr = CkptReadHistory(f, e);
  PetscCall(H5FileAbandon(&f, ierr));
  PetscCall(H5FileClose(&f));
  PetscCall(EngineResume(e));
  PetscFunctionReturn(PETSC_SUCCESS);
}
