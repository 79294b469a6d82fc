#include "engine/checkpoint.h"
#include "engine/checkpoint_check.h"
#include "engine/checkpoint_flow.h"
#include <string.h>
#include "decomp/collective.h"
#include "engine/flow.h"
#include "geometry/wear.h"

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
  for (PetscInt r = 0; r < rs->n; r++)
    memcpy(col + (size_t)r * es, (const char *)RecordStorePayload(rs, r) + rf->offset, es);
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
    PetscCheck(hit, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "checkpoint: history record of particle %" PetscInt64_FMT " which this rank does not own", k.owner);
    key[r] = k.owner, key[m + r] = k.kind, key[2 * m + r] = k.partner;
    /* where its owner belongs (a body's sphere: by its body) */
    for (int a = 0; a < 3; a++) xb[3 * r + a] = (p->bx0 ? p->bx0 : p->x0)[3 * hit[1] + a];
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

static PetscErrorCode CkptWriteState(H5File f, Engine *e, const char *options, PetscInt64 removed)
{
  PetscReal *v[16], sum[3] = {e->work_gravity, (PetscReal)e->lost, e->work_base};

  PetscFunctionBeginUser;
  /* each rank's share, kept as one total (work_base: rank 0's alone) */
  PetscCall(CollectiveSumAll(e->grid.comm, sum, 3));
  CkptReals(e, v);
  for (int k = 0; k < 10; k++) PetscCall(H5FileWriteAttrReal(f, CkptRealName[k], k == 7 ? sum[0] : *v[k]));
  PetscCall(H5FileWriteAttrReal(f, "work_gravity_base", sum[2]));
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
  PetscCall(H5FileWriteAttrReal(f, "time_at_build", e->t_build));
  PetscCall(H5FileWriteAttrInt64(f, "step", e->clock.step));
  PetscCall(H5FileWriteAttrInt64(f, "particles", e->nglobal - (PetscInt64)sum[1] - removed));
  PetscCall(H5FileWriteAttrInt64(f, "removed", removed));
  PetscCall(H5FileWriteAttrInt64(f, "particles_initial", e->nglobal));
  PetscCall(H5FileWriteAttrInt64(f, "lost", (PetscInt64)sum[1]));
  PetscCall(H5FileWriteAttrInt64(f, "rebuilds", e->clock.rebuilds));
  PetscCall(H5FileWriteAttrInt64(f, "rebuild_next", e->rebuild_next));
  PetscCall(H5FileWriteAttrInt64(f, "warned_fixed", e->health.warned_fixed));
  PetscCall(H5FileWriteAttrString(f, "hdem_version", HDEM_VERSION));
  PetscCall(H5FileWriteAttrString(f, "options", options ? options : ""));
  /* last: a file with it was written through */
  PetscCall(H5FileWriteAttrString(f, "format", CHECKPOINT_FORMAT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A tree of subdomains (rcb): per rank m > 0 the axis and the cut splitting
 * at m (grid.h), row 0 unused; a restart on as many ranks takes it back. */
static PetscErrorCode CkptWriteTree(H5File f, const Engine *e)
{
  const Grid *g = &e->grid;
  PetscReal  *rows;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(2 * g->size, &rows));
  for (PetscMPIInt m = 1; m < g->size; m++) rows[2 * m] = g->tree_axis[m], rows[2 * m + 1] = g->tree_cut[m];
  rows[0] = -1.0;
  PetscCall(H5FileWriteRows(f, "balance/tree", H5FILE_REAL, 2, g->rank ? 0 : g->size, rows));
  PetscCall(PetscFree(rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointWrite(Engine *e, const char *path, const char *options)
{
  H5File         f;
  PetscErrorCode ierr;
  PetscInt64     removed = 0;

  PetscFunctionBeginUser;
  EngineCheckWhole(e);
  PetscCall(H5FileCreate(e->grid.comm, path, &f));
  ierr = CkptWriteParticles(f, &e->p);
  if (!ierr) ierr = CkptWriteHistory(f, e);
  if (!ierr) ierr = CkptWriteWalls(f, e);
  if (!ierr && e->p.body) { /* for readers: the bodies are restored from their spheres' rows */
    SnapshotBodies b;
    ierr = EngineBodiesGet(e, &b);
    if (!ierr) ierr = SnapshotWriteBodies(f, &b);
    PetscCall(EngineBodiesFree(&b));
  }
  if (!ierr && e->grid.tree) ierr = CkptWriteTree(f, e);
  if (!ierr) ierr = CheckpointWriteFlow(f, e, &removed);
  if (!ierr && e->checkpoint_extra) ierr = e->checkpoint_extra(e->checkpoint_extra_ctx, f);
  if (!ierr) ierr = MeshesWearCheckpointWrite(f, e->grid.comm, &e->meshes);
  if (!ierr) ierr = CkptWriteState(f, e, options, removed);
  PetscCall(H5FileAbandon(&f, ierr)); /* the temporary stays unnamed: no checkpoint is lost */
  PetscCall(H5FileCommit(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- reading: checkpoint_check.c reads and checks the file; here its rows
 * go to the ranks that own them ------------------------------------------ */

static PetscErrorCode CkptDest(const Grid *g, const PetscReal x[3], PetscMPIInt *rank)
{
  PetscMPIInt c[3];

  PetscFunctionBeginUser;
  PetscCall(GridOwnerOf(g, x, c));
  PetscCall(GridRankOfCoords(g, c, rank));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The rcb mode on as many ranks as wrote the tree: the tree, before any row is routed. */
static PetscErrorCode CkptLoadTree(H5File f, Engine *e)
{
  Grid        *g      = &e->grid;
  PetscInt64   N      = 0;
  PetscBool    exists = PETSC_FALSE;
  PetscReal   *rows, *cut;
  PetscMPIInt *axis;

  PetscFunctionBeginUser;
  if (e->balance.mode != BALANCE_RCB || g->size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(H5FileRows(f, "balance/tree", H5FILE_REAL, 2, &N, &exists));
  if (!exists || N != g->size) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc3(2 * N, &rows, N, &axis, N, &cut));
  PetscCall(H5FileReadRows(f, "balance/tree", H5FILE_REAL, 2, 0, (PetscInt)N, rows));
  PetscCall(H5FileVerifyRows(f, "balance/tree", H5FILE_REAL, 2, N, 0, (PetscInt)N, rows, PETSC_TRUE, NULL));
  for (PetscMPIInt m = 0; m < g->size; m++) axis[m] = (PetscMPIInt)rows[2 * m], cut[m] = rows[2 * m + 1];
  PetscCall(GridSetTree(g, axis, cut));
  e->balance.restored = PETSC_TRUE;
  PetscCall(PetscFree3(rows, axis, cut));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Dataset d's rows into column `at` of its rows of width reals. */
static void CkptColumn(const CkptSet *d, PetscInt width, PetscInt at, PetscReal *rows)
{
  for (PetscInt i = 0; i < d->n; i++)
    for (PetscInt c = 0; c < d->ncomp; c++) rows[(size_t)i * width + at + c] = CkptReal(d, i, c);
}

/* This rank's block of the particle rows, as the store packs its
 * checkpointed fields, routed to the ranks owning where their lists were
 * built. */
static PetscErrorCode CkptLoadParticles(Engine *e, const CkptSets *ss)
{
  FieldStore *st = &e->p.st;
  /* a body's spheres go where the body belongs */
  PetscInt home = FieldStoreFind(st, "body_position_at_build");
  PetscInt w    = FieldStorePackWidth(st, FIELD_CHECKPOINT),
           xb = FieldStorePackOffset(st, FIELD_CHECKPOINT, home >= 0 ? home : FieldStoreFind(st, "position_at_build"));
  PetscInt     n = ss->s[ss->particles].n, nin, n0 = e->p.n;
  PetscReal   *rec, *in;
  PetscMPIInt *dest;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc2((size_t)n * w + 1, &rec, n + 1, &dest)); /* a field an older file lacks stays zero */
  for (PetscInt k = ss->particles; k < ss->history; k++)
    CkptColumn(&ss->s[k], w, FieldStorePackOffset(st, FIELD_CHECKPOINT, ss->s[k].field), rec);
  /* rcb without the tree of as many ranks: a new one from the rows' places */
  PetscCall(BalancerFirst(&e->balance, &e->grid, n, rec + xb, w));
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

/* This rank's block of the history rows, routed with the records' owners:
 * the same ranks as their particles.  A format 1 file has no kinds: a
 * partner -1 - w there is wall w. */
static PetscErrorCode CkptLoadHistory(Engine *e, const CkptSets *ss)
{
  PetscInt     m = ss->s[ss->history].n, nin, nf = 0, width;
  PetscReal   *row, *in;
  PetscMPIInt *dest;
  RecordStore  blk;
  PetscInt     at = 0;

  PetscFunctionBeginUser;
  for (const RecordField *rf = ContactHistoryFields; rf->name; rf++) nf += rf->ncomp;
  width = 6 + nf; /* owner, kind, partner, where the owner's lists were built, the payload */
  PetscCall(PetscCalloc2((size_t)m * width + 1, &row, m + 1, &dest));
  for (PetscInt k = ss->history; k < ss->bodies; k++) {
    const CkptSet *d = &ss->s[k];
    if (!strcmp(d->name, "history/owner")) at = 0;
    else if (!strcmp(d->name, "history/kind")) at = 1;
    else if (!strcmp(d->name, "history/partner")) at = 2;
    else if (!strcmp(d->name, "history/owner_position_at_build")) at = 3;
    else if (at < 6) at = 6;
    CkptColumn(d, width, at, row);
    if (at >= 6) at += d->ncomp;
  }
  /* as records (keys checked), packed as decomp moves them, routed */
  PetscCall(HistoryStoreCreate(&blk));
  PetscCall(RecordStoreReserve(&blk, m));
  for (PetscInt r = 0; r < m; r++) {
    PetscReal    *b = row + (size_t)r * width;
    RecordKey     key;
    ContactRecord h;
    PetscInt      c = 6;
    key.owner       = (PetscInt64)b[0];
    key.kind        = ss->version == 1 ? (b[2] < 0 ? HISTORY_KIND_PLANE : HISTORY_KIND_SPHERE) : (PetscInt64)b[1];
    key.partner     = ss->version == 1 && b[2] < 0 ? -1 - (PetscInt64)b[2] : (PetscInt64)b[2];
    PetscCall(PetscMemzero(&h, sizeof(h)));
    for (const RecordField *rf = ContactHistoryFields; rf->name; rf++)
      for (PetscInt q = 0; q < rf->ncomp; q++, c++) {
        if (rf->type == FIELD_REAL) ((PetscReal *)((char *)&h + rf->offset))[q] = b[c];
        else ((PetscInt64 *)((char *)&h + rf->offset))[q] = (PetscInt64)b[c];
      }
    PetscCall(RecordStoreAdd(&blk, &key, &h));
    PetscCall(CkptDest(&e->grid, b + 3, &dest[r]));
  }
  PetscCall(CollectiveRoute(e->grid.comm, m, RecordStorePackWidth(&blk), (const PetscReal *)blk.r, dest, &nin, &in));
  for (PetscInt r = 0; r < nin; r++)
    PetscCall(RecordStoreAddPacked(&e->hs, in + (size_t)r * RecordStorePackWidth(&blk)));
  PetscCall(RecordStoreDestroy(&blk));
  PetscCall(PetscFree(in));
  PetscCall(PetscFree2(row, dest));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The checkpoint's own bits of the walls (every rank read them whole). */
static void CkptLoadWalls(Engine *e, const CkptSets *ss)
{
  for (PetscInt w = 0; w < e->planes.n; w++)
    for (int a = 0; a < 3; a++)
      e->planes.w[w].n[a] = CkptReal(&ss->s[0], w, a), e->planes.w[w].p[a] = CkptReal(&ss->s[1], w, a);
}

/* A format < 5 checkpoint's total work held the flow's energy too, which
 * thermo now takes from the flow's own exact sums. */
static PetscErrorCode CkptWorkBaseFlow(Engine *e)
{
  FlowState tot;

  PetscFunctionBeginUser;
  PetscCall(FlowStateTotals(e, &tot));
  if (e->work_base != 0.0)
    e->work_base -= ExactSumValue(&tot.energy[FLOW_ENERGY_IN]) - ExactSumValue(&tot.energy[FLOW_ENERGY_OUT]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointRead(Engine *e, const char *path)
{
  H5File         f;
  PetscInt64     N       = 0;
  PetscInt       version = 0;
  PetscBool      failed  = PETSC_FALSE;
  PetscErrorCode ierr;
  char           msg[CKPT_MSG_LEN] = "";
  CkptSets      *ss;

  PetscFunctionBeginUser;
  PetscCheck(e->p.n == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "restart: the engine already has particles");
  PetscCall(H5FileOpen(e->grid.comm, path, &f));
  ierr = CkptReadAttributes(f, e, &N, &version, &failed, msg);
  if (ierr) { /* on every rank: they close it together and stop cleanly */
    PetscCall(H5FileClose(&f));
    PetscCall(ierr);
  }
  PetscCall(PetscNew(&ss));
  if (!failed) {
    ierr = CkptReadDatasets(f, e, N, version, ss, &failed, msg);
    if (!ierr && !failed) {
      CkptLoadWalls(e, ss);
      ierr = CkptLoadTree(f, e);
      if (!ierr) ierr = CkptLoadParticles(e, ss);
      if (!ierr) ierr = CkptLoadHistory(e, ss);
      if (!ierr) ierr = CkptLoadFlow(e);
      if (!ierr) ierr = MeshesWearCheckpointRead(f, e->grid.comm, &e->meshes);
      if (!ierr && version < 5 && e->flow.on) ierr = CkptWorkBaseFlow(e);
    }
    if (ierr) { /* the file's own fault or not, it is not agreed: H5FileAbandon ends the run */
      PetscCall(CkptSetsDestroy(ss));
      PetscCall(PetscFree(ss));
      PetscCall(H5FileAbandon(&f, ierr));
    }
  }
  PetscCall(CkptSetsDestroy(ss));
  PetscCall(PetscFree(ss));
  PetscCall(H5FileClose(&f));
  /* the same on every rank, before any step and anything written */
  PetscCheck(!failed, e->grid.comm, PETSC_ERR_FILE_UNEXPECTED, "%s", msg);
  PetscCall(EngineResume(e));
  PetscFunctionReturn(PETSC_SUCCESS);
}
