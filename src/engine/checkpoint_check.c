/* Reading a checkpoint's attributes and datasets and checking all of it
 * before any of it is used (checkpoint.h says what is checked). */
#include "engine/checkpoint_check.h"
#include "engine/checkpoint_state.h"
#include "engine/checkpoint_bodies.h"
#include "engine/checkpoint_flow.h"
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include "decomp/collective.h"

/* A checkpoint is checked as a deck is, before anything of it is used: its
 * attributes, the datasets' shapes, every value, the datasets' checksums
 * (io/h5file.h), the ids' uniqueness, the records' owners and the bodies'
 * members (checkpoint_bodies.c), the flow state (checkpoint_flow.c).  What is wrong is a
 * CkptFault, the first on this rank by (check, row): the checks are numbered
 * alike on every rank, rows are the file's.  CkptAgree finds the first over
 * all ranks and gives every rank its message, which they then raise
 * together on the communicator: said once, and every rank stops cleanly,
 * before any step and before anything is written. */
#define CKPT_ROWS 8589934592.0 /* 2^33: (check, row) as one real below 2^53 */

/* Collective: *failed if any rank has a fault; then every rank's ft is the
 * first one (the lowest rank's of equals, for checks of replicated data):
 * its check, its row and its message. */
static PetscErrorCode CkptAgree(MPI_Comm comm, CkptFault *ft, PetscBool *failed)
{
  PetscReal key   = (PetscReal)ft->check * CKPT_ROWS + (PetscReal)PetscMin(ft->row + 1, (PetscInt64)CKPT_ROWS - 1),
            first = -key, who;
  PetscReal  *text;
  PetscMPIInt rank;
  size_t      len = sizeof(ft->msg);

  PetscFunctionBeginUser;
  PetscCall(CollectiveMaxAll(comm, &first, 1));
  *failed = -first < (PetscReal)CKPT_NONE * CKPT_ROWS ? PETSC_TRUE : PETSC_FALSE;
  if (!*failed) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CollectiveRank(comm, &rank, NULL));
  who = key == -first ? -(PetscReal)rank : -PETSC_MAX_REAL;
  PetscCall(CollectiveMaxAll(comm, &who, 1));
  PetscCall(PetscCalloc1(len, &text));
  if (rank == (PetscMPIInt)-who)
    for (size_t c = 0; c < len && ft->msg[c]; c++) text[c] = (PetscReal)(unsigned char)ft->msg[c];
  PetscCall(CollectiveSumAll(comm, text, (PetscInt)len));
  for (size_t c = 0; c < len; c++) ft->msg[c] = (char)(int)text[c];
  ft->msg[len - 1] = 0;
  ft->check        = (PetscInt64)(-first / CKPT_ROWS);
  ft->row          = (PetscInt64)(-first - (PetscReal)ft->check * CKPT_ROWS) - 1;
  PetscCall(PetscFree(text));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CkptSetAdd(CkptSets *ss, const char *name, FieldType t, PetscInt ncomp, PetscInt field,
                                 PetscBool replicated)
{
  CkptSet *d;

  PetscFunctionBeginUser;
  PetscCheck(ss->n < CKPT_SETS_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "checkpoint: more than %d datasets", CKPT_SETS_MAX);
  d = &ss->s[ss->n++];
  PetscCall(PetscMemzero(d, sizeof(*d)));
  PetscCall(PetscStrncpy(d->name, name, sizeof(d->name)));
  d->type = t, d->ncomp = ncomp, d->field = field, d->replicated = replicated;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The datasets a checkpoint of this engine has: walls, every FIELD_CHECKPOINT
 * field of the particle store, the history records' columns. */
static PetscErrorCode CkptSetsCreate(const Engine *e, PetscInt version, CkptSets *ss)
{
  const FieldStore *st = &e->p.st;

  PetscFunctionBeginUser;
  ss->n       = 0;
  ss->version = version;
  PetscCall(CkptSetAdd(ss, "walls/normal", FIELD_REAL, 3, -1, PETSC_TRUE));
  PetscCall(CkptSetAdd(ss, "walls/point", FIELD_REAL, 3, -1, PETSC_TRUE));
  ss->particles = ss->n;
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *fd = &st->field[k];
    char         name[64];
    if (!(fd->flags & FIELD_CHECKPOINT)) continue;
    if (version < 4 && !strncmp(fd->name, "ledger_", 7)) continue; /* before the energy ledger: zero */
    /* the moving walls' ledger without the full one: zero */
    if (version < 5 && !e->model.ledger && !strncmp(fd->name, "ledger_", 7)) continue;
    if (version < 5 && !strcmp(fd->name, "gravity_work")) continue; /* kept as one total then: work_base */
    PetscCall(PetscSNPrintf(name, sizeof(name), "particles/%s", fd->name));
    PetscCall(CkptSetAdd(ss, name, fd->type, fd->ncomp, k, PETSC_FALSE));
  }
  ss->history = ss->n;
  PetscCall(CkptSetAdd(ss, "history/owner", FIELD_INT64, 1, -1, PETSC_FALSE));
  if (version > 1) PetscCall(CkptSetAdd(ss, "history/kind", FIELD_INT64, 1, -1, PETSC_FALSE));
  PetscCall(CkptSetAdd(ss, "history/partner", FIELD_INT64, 1, -1, PETSC_FALSE));
  PetscCall(CkptSetAdd(ss, "history/owner_position_at_build", FIELD_REAL, 3, -1, PETSC_FALSE));
  for (const RecordField *rf = ContactHistoryFields; rf->name; rf++) {
    char      name[64];
    PetscBool older = PETSC_FALSE; /* the file predates the side state of this field: it is read as zero */
    for (int k = 0; k < CONTACT_SIDES; k++)
      if (version < ContactSides[k].since && !strncmp(rf->name, ContactSides[k].prefix, strlen(ContactSides[k].prefix)))
        older = PETSC_TRUE;
    if (older) continue;
    PetscCall(PetscSNPrintf(name, sizeof(name), "history/%s", rf->name));
    PetscCall(CkptSetAdd(ss, name, rf->type, rf->ncomp, -1, PETSC_FALSE));
  }
  ss->bodies = ss->n;
  if (e->p.body) { /* not read back (the members' rows hold their bodies), but checked against them */
    PetscCall(CkptSetAdd(ss, "bodies/id", FIELD_INT64, 1, -1, PETSC_FALSE));
    PetscCall(CkptSetAdd(ss, "bodies/template", FIELD_INT32, 1, -1, PETSC_FALSE));
    PetscCall(CkptSetAdd(ss, "bodies/position", FIELD_REAL, 3, -1, PETSC_FALSE));
    PetscCall(CkptSetAdd(ss, "bodies/orientation", FIELD_REAL, 4, -1, PETSC_FALSE));
    PetscCall(CkptSetAdd(ss, "bodies/velocity", FIELD_REAL, 3, -1, PETSC_FALSE));
    PetscCall(CkptSetAdd(ss, "bodies/angular_velocity", FIELD_REAL, 3, -1, PETSC_FALSE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Metadata, the same on every rank: each dataset is there with the rows the
 * attributes say (N particles; M records, /history/owner's; B bodies,
 * /bodies/id's; the deck's walls), and either all have checksums or none. */
static PetscErrorCode CkptCheckShapes(H5File f, const Engine *e, PetscInt64 N, CkptSets *ss, PetscInt *nsum,
                                      CkptFault *ft)
{
  PetscInt64 M = -1, W = -1, B = -1;
  PetscInt   nwithout = 0, first_without = -1;

  PetscFunctionBeginUser;
  *nsum = 0;
  { /* multi-sphere bodies: the deck makes them as the run that wrote the file did */
    PetscInt64 rows;
    PetscBool  bodies;
    PetscCall(H5FileRows(f, "particles/body", H5FILE_INT64, 1, &rows, &bodies));
    if (bodies != (e->p.body ? PETSC_TRUE : PETSC_FALSE))
      PetscCall(CkptFail(f, ft, CKPT_CHECK_SHAPE, -1,
                         "%s multi-sphere bodies (/particles/body) but the deck %s: restart with the deck that wrote "
                         "it (its insert_body, streamN_body)",
                         bodies ? "it holds" : "it holds no", bodies ? "makes none" : "makes them"));
  }
  { /* liquid: a wet run's particles carry it, a dry deck would drop it (and a dry checkpoint has none to give) */
    PetscInt64 rows;
    PetscBool  wet;
    PetscCall(H5FileRows(f, "particles/liquid", H5FILE_REAL, 1, &rows, &wet));
    if (wet != (e->p.liquid ? PETSC_TRUE : PETSC_FALSE))
      PetscCall(
        CkptFail(f, ft, CKPT_CHECK_SHAPE, -1,
                 "%s but the deck %s: restart with the deck that wrote it (its material_liquid, materialK_liquid)",
                 wet ? "it is a wet run's, its particles hold liquid (/particles/liquid),"
                     : "it is a dry run's, its particles hold no liquid,",
                 wet ? "has no material with liquid (a dry run)" : "gives a material liquid (a wet run)"));
  }
  for (PetscInt k = 0; k < ss->n; k++) {
    CkptSet   *d = &ss->s[k];
    PetscInt64 rows, want;
    PetscBool  exists;
    PetscCall(H5FileRows(f, d->name, CkptType(d->type), d->ncomp, &rows, &exists));
    if (!exists) {
      PetscCall(CkptFail(f, ft, CKPT_CHECK_SHAPE + k, -1, "it has no dataset /%s", d->name));
      continue;
    }
    if (k < ss->particles) { /* walls */
      if (W < 0) {
        W = rows;
        if (W > PLANES_MAX)
          PetscCall(CkptFail(f, ft, CKPT_CHECK_SHAPE + k, -1, "/%s has %" PetscInt64_FMT " rows: at most %d walls",
                             d->name, W, PLANES_MAX));
        else if (W != e->planes.n)
          PetscCall(CkptFail(f, ft, CKPT_CHECK_SHAPE + k, -1,
                             "it has %" PetscInt64_FMT " walls (/%s) but the deck %" PetscInt_FMT
                             ": restart with the deck that wrote it",
                             W, d->name, e->planes.n));
      }
      want = W;
    } else if (k < ss->history) want = N;
    else if (k < ss->bodies) {
      if (M < 0) M = rows; /* /history/owner: the records' count */
      want = M;
    } else {
      if (B < 0) B = rows; /* /bodies/id: the bodies' count */
      want = B;
    }
    d->N = rows;
    if (rows != want)
      PetscCall(CkptFail(f, ft, CKPT_CHECK_SHAPE + k, -1,
                         "/%s has %" PetscInt64_FMT " rows, expected %" PetscInt64_FMT " (%s)", d->name, rows, want,
                         k < ss->particles ? "the walls of /walls/normal"
                         : k < ss->history ? "the attribute /particles"
                         : k < ss->bodies  ? "the records of /history/owner"
                                           : "the bodies of /bodies/id"));
    PetscCall(H5FileReadChecksum(f, d->name, &d->stored, &d->has_sum));
    if (d->has_sum) (*nsum)++;
    else if (nwithout++ == 0) first_without = k;
  }
  if (*nsum && nwithout)
    PetscCall(CkptFail(f, ft, CKPT_CHECK_HASSUM + first_without, -1,
                       "/%s has no checksum where the file's other datasets have one: it was rewritten after the "
                       "checkpoint was written",
                       ss->s[first_without].name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's rows of every dataset (the walls whole, on every rank), and
 * their checksums: one reduction for all. */
static PetscErrorCode CkptReadSets(H5File f, const Engine *e, CkptSets *ss)
{
  PetscInt64  Ns[CKPT_SETS_MAX], poff = 0, hoff = 0, boff = 0;
  uint64_t    sums[CKPT_SETS_MAX];
  PetscInt    pn = 0, hn = 0, bn = 0;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(e->grid.comm, &rank, NULL));
  PetscCall(H5FileBlock(e->grid.comm, ss->s[ss->particles].N, &poff, &pn));
  PetscCall(H5FileBlock(e->grid.comm, ss->s[ss->history].N, &hoff, &hn));
  if (ss->bodies < ss->n) PetscCall(H5FileBlock(e->grid.comm, ss->s[ss->bodies].N, &boff, &bn));
  for (PetscInt k = 0; k < ss->n; k++) {
    CkptSet *d = &ss->s[k];
    d->off     = d->replicated ? 0 : k < ss->history ? poff : k < ss->bodies ? hoff : boff;
    d->n       = d->replicated ? (PetscInt)d->N : k < ss->history ? pn : k < ss->bodies ? hn : bn;
    PetscCall(PetscMalloc1((size_t)d->n * CkptTypeSize(d->type) * (size_t)d->ncomp + 1, &d->raw));
    PetscCall(H5FileReadRows(f, d->name, CkptType(d->type), d->ncomp, d->off, d->n, d->raw));
    sums[k] = 0;
    Ns[k]   = d->N;
    if (!d->replicated || rank == 0)
      PetscCall(H5FileChecksumRows(CkptType(d->type), d->ncomp, d->off, d->n, d->raw, &sums[k]));
  }
  PetscCall(H5FileChecksumCombine(e->grid.comm, ss->n, Ns, sums));
  for (PetscInt k = 0; k < ss->n; k++) ss->s[k].sum = sums[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool CkptSumBad(const CkptSet *d)
{
  return d->has_sum && d->sum != d->stored ? PETSC_TRUE : PETSC_FALSE;
}

/* The data against the checksums stored with it (the same on every rank). */
static PetscErrorCode CkptCheckSums(H5File f, CkptSets *ss, CkptFault *ft)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < ss->n; k++) {
    const CkptSet *d = &ss->s[k];
    if (CkptSumBad(d))
      PetscCall(CkptFail(f, ft, CKPT_CHECK_CHECKSUM + k, -1,
                         "/%s: " H5FILE_CHECKSUM_MISMATCH " (stored checksum %016llx, the data's %016llx)", d->name,
                         (unsigned long long)d->stored, (unsigned long long)d->sum));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A point the grid can place: inside the box, off a periodic axis' high face. */
static int CkptOutside(const Grid *g, const PetscReal x[3])
{
  for (int a = 0; a < 3; a++)
    if (!(x[a] >= g->lo[a] && x[a] <= g->hi[a]) || (g->periodic[a] && x[a] == g->hi[a])) return a;
  return -1;
}

/* Whether a mesh history's partner (deck number << HISTORY_MESH_SHIFT | key) names a surface, or a region's
 * feature (MESH_KEY_REGION), of the deck's meshes. */
static PetscBool CkptMeshSurface(const Engine *e, PetscInt64 pa)
{
  PetscInt64 deck = pa >> HISTORY_MESH_SHIFT, s = pa & (((PetscInt64)1 << HISTORY_MESH_SHIFT) - 1);
  if (pa < 0) return PETSC_FALSE;
  for (PetscInt q = 0; q < e->meshes.n; q++)
    if (e->meshes.m[q].deck == deck) return MeshKeyValid(&e->meshes.m[q], s); /* a surface or a region's feature */
  return PETSC_FALSE;
}

/* Every value of this rank's rows: finite reals, positive radius (at most
 * the checkpoint's rmax), mass and inertia, ids in [0, 2^53], points where
 * the lists were built inside the box; records' kinds and partners;
 * walls' normals unit vectors, their points finite.  Each dataset's first
 * bad row. */
/* What a real dataset's row must be (CkptCheckValues). */
typedef struct {
  PetscBool positive, radius, inbox, normal;
} CkptRealRules;

/* Row i of real dataset k: finite, and what rules asks; *bad when it is not (its fault into ft). */
static PetscErrorCode CkptCheckRealRow(H5File f, const Engine *e, CkptSets *ss, PetscInt k, PetscInt i,
                                       const CkptRealRules *rules, CkptFault *ft, PetscBool *bad)
{
  const CkptSet  *d     = &ss->s[k];
  const char     *leaf  = strchr(d->name, '/') + 1;
  PetscInt64      check = CKPT_CHECK_VALUE + k, row = d->off + i;
  const PetscBool positive = rules->positive, radius = rules->radius, inbox = rules->inbox, normal = rules->normal;
  char            b[3][32], who[160];
  PetscReal       v[3]  = {0, 0, 0};
  PetscInt        c_bad = -1; /* the first component not finite */

  PetscFunctionBeginUser;
  *bad = PETSC_FALSE;
  for (PetscInt c = 0; c < d->ncomp; c++) {
    PetscReal x = CkptReal(d, i, c);
    if (c < 3) v[c] = x;
    if (c_bad < 0 && !isfinite(x)) c_bad = c;
  }
  if (c_bad >= 0) {
    PetscCall(CkptWho(ss, k, i, who, sizeof(who)));
    if (d->ncomp > 1)
      PetscCall(CkptFail(f, ft, check, row, "/%s row %" PetscInt64_FMT "%s: component %c is %s: %s must be finite",
                         d->name, row, who, c_bad < 3 ? "xyz"[c_bad] : '?', CkptNum(CkptReal(d, i, c_bad), b[0]),
                         leaf));
    else
      PetscCall(CkptFail(f, ft, check, row, "/%s row %" PetscInt64_FMT "%s: %s is %s: it must be finite", d->name, row,
                         who, leaf, CkptNum(v[0], b[0])));
    *bad = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (positive && !(v[0] > 0.0)) {
    PetscCall(CkptWho(ss, k, i, who, sizeof(who)));
    PetscCall(CkptFail(f, ft, check, row, "/%s row %" PetscInt64_FMT "%s: %s %s: it must be > 0", d->name, row, who,
                       leaf, CkptNum(v[0], b[0])));
    *bad = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (radius && v[0] > e->rmax) {
    PetscCall(CkptWho(ss, k, i, who, sizeof(who)));
    PetscCall(CkptFail(f, ft, check, row,
                       "/%s row %" PetscInt64_FMT "%s: radius %s is larger than the attribute /rmax, %s", d->name, row,
                       who, CkptNum(v[0], b[0]), CkptNum(e->rmax, b[1])));
    *bad = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (inbox) {
    int a = CkptOutside(&e->grid, v);
    if (a >= 0) {
      PetscCall(CkptWho(ss, k, i, who, sizeof(who)));
      PetscCall(CkptFail(f, ft, check, row,
                         "/%s row %" PetscInt64_FMT
                         "%s: point (%s, %s, %s) is outside the box along %c, [%.17g, %.17g]",
                         d->name, row, who, CkptNum(v[0], b[0]), CkptNum(v[1], b[1]), CkptNum(v[2], b[2]), "xyz"[a],
                         (double)e -> grid.lo[a], (double)e->grid.hi[a]));
      *bad = PETSC_TRUE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (normal && !(PetscAbsReal(PetscSqrtReal(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) - 1.0) <= 1e-9)) {
    PetscCall(CkptFail(f, ft, check, row,
                       "/walls/normal row %" PetscInt64_FMT ": (%s, %s, %s): a wall's normal must be a unit vector",
                       row, CkptNum(v[0], b[0]), CkptNum(v[1], b[1]), CkptNum(v[2], b[2])));
    *bad = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Row i of a record's kind or partner dataset k: a known kind and a partner that exists. */
static PetscErrorCode CkptCheckRecordRow(H5File f, const Engine *e, CkptSets *ss, PetscInt k, PetscInt i, CkptFault *ft,
                                         PetscBool *bad)
{
  const CkptSet *d = &ss->s[k], *owner = CkptSetFind(ss, "history/owner"),
                *partner = CkptSetFind(ss, "history/partner"), *kind = CkptSetFind(ss, "history/kind");
  const PetscInt64 idmax = (PetscInt64)1 << 53, check = CKPT_CHECK_VALUE + k, row = d->off + i;
  char             who[160];

  PetscFunctionBeginUser;
  *bad          = PETSC_FALSE;
  PetscInt64 pa = CkptI64(partner, i, 0), pk = kind   ? CkptI64(kind, i, 0)
                                             : pa < 0 ? HISTORY_KIND_PLANE
                                                      : HISTORY_KIND_SPHERE;
  if (!kind && pa < 0) pa = -1 - pa;
  if (d == kind && pk != HISTORY_KIND_SPHERE && pk != HISTORY_KIND_PLANE && pk != HISTORY_KIND_MESH) {
    PetscCall(CkptWho(ss, k, i, who, sizeof(who)));
    PetscCall(CkptFail(f, ft, check, row,
                       "/%s row %" PetscInt64_FMT "%s: kind %" PetscInt64_FMT
                       " is none of %d (a particle), %d (a wall), %d (a mesh)",
                       d->name, row, who, pk, HISTORY_KIND_SPHERE, HISTORY_KIND_PLANE, HISTORY_KIND_MESH));
    *bad = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (d == partner && pk == HISTORY_KIND_MESH && !CkptMeshSurface(e, pa)) {
    PetscCall(CkptWho(ss, k, i, who, sizeof(who)));
    PetscCall(CkptFail(f, ft, check, row,
                       "/%s row %" PetscInt64_FMT "%s: there is no surface %" PetscInt64_FMT " of mesh%" PetscInt64_FMT
                       " in the deck",
                       d->name, row, who, pa & (((PetscInt64)1 << HISTORY_MESH_SHIFT) - 1), pa >> HISTORY_MESH_SHIFT));
    *bad = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (d == partner && pk == HISTORY_KIND_SPHERE && (pa < 0 || pa > idmax || pa == CkptI64(owner, i, 0))) {
    PetscCall(CkptWho(ss, k, i, who, sizeof(who)));
    PetscCall(CkptFail(f, ft, check, row,
                       "/%s row %" PetscInt64_FMT "%s: a particle partner must be another particle's id", d->name, row,
                       who));
    *bad = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (d == partner && pk == HISTORY_KIND_PLANE && !(pa >= 0 && pa < e->planes.n)) {
    PetscCall(CkptWho(ss, k, i, who, sizeof(who)));
    PetscCall(CkptFail(f, ft, check, row,
                       "/%s row %" PetscInt64_FMT "%s: there is no wall %" PetscInt64_FMT " (%" PetscInt_FMT " walls)",
                       d->name, row, who, pa, e->planes.n));
    *bad = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CkptCheckValues(H5File f, const Engine *e, CkptSets *ss, CkptFault *ft)
{
  const CkptSet *id = CkptSetFind(ss, "particles/id"), *owner = CkptSetFind(ss, "history/owner"),
                *partner = CkptSetFind(ss, "history/partner"), *kind = CkptSetFind(ss, "history/kind");
  const PetscInt64 idmax = (PetscInt64)1 << 53;

  PetscFunctionBeginUser;
  PetscCheck(id && owner && partner, PETSC_COMM_SELF, PETSC_ERR_PLIB, "checkpoint: the particle store has no id");
  for (PetscInt k = 0; k < ss->n; k++) {
    const CkptSet *d        = &ss->s[k];
    const char    *leaf     = strchr(d->name, '/') + 1;
    PetscInt64     check    = CKPT_CHECK_VALUE + k;
    PetscBool      positive = (PetscBool)(k >= ss->particles && k < ss->history &&
                                     (!strcmp(leaf, "radius") || !strcmp(leaf, "mass") || !strcmp(leaf, "inertia")));
    PetscBool      radius   = (PetscBool)(positive && !strcmp(leaf, "radius"));
    /* where rows belong: a body's spheres may stand out of the box, their bodies' centres not */
    PetscBool inbox  = (PetscBool)((!strcmp(d->name, "particles/position_at_build") &&
                                   !CkptSetFind(ss, "particles/body_position_at_build")) ||
                                  !strcmp(d->name, "particles/body_position_at_build") ||
                                  !strcmp(d->name, "history/owner_position_at_build"));
    PetscBool normal = (PetscBool)!strcmp(d->name, "walls/normal");

    for (PetscInt i = 0; i < d->n; i++) {
      PetscInt64 row = d->off + i;
      PetscBool  bad = PETSC_FALSE;
      if (d->type == FIELD_REAL) {
        CkptRealRules rules = {positive, radius, inbox, normal};
        PetscCall(CkptCheckRealRow(f, e, ss, k, i, &rules, ft, &bad));
      } else if (d == id || d == owner) {
        PetscInt64 x = CkptI64(d, i, 0);
        if (x < 0 || x > idmax) {
          PetscCall(CkptFail(f, ft, check, row,
                             "/%s row %" PetscInt64_FMT ": id %" PetscInt64_FMT " is not in [0, 2^53]", d->name, row,
                             x));
          bad = PETSC_TRUE;
        }
      } else if (d == kind || d == partner) PetscCall(CkptCheckRecordRow(f, e, ss, k, i, ft, &bad));
      if (bad) break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Everything checked, in order, each stage agreed by all ranks: *failed
 * with ft's message as soon as one fails.  Errors other than the file's
 * contents (HDF5, memory) are returned as usual. */
static PetscErrorCode CkptReadChecked(H5File f, Engine *e, PetscInt64 N, CkptSets *ss, CkptFault *ft, PetscBool *failed)
{
  MPI_Comm comm = e->grid.comm;
  PetscInt nsum;

  PetscFunctionBeginUser;
  PetscCall(CkptCheckShapes(f, e, N, ss, &nsum, ft));
  PetscCall(CkptAgree(comm, ft, failed));
  if (*failed) PetscFunctionReturn(PETSC_SUCCESS);
  if (!nsum)
    PetscCall(PetscPrintf(comm,
                          "note: checkpoint %s has no checksums (written before hdem kept them): its values are "
                          "checked, but a corruption that leaves them "
                          "plausible cannot be seen\n",
                          H5FilePath(f)));
  PetscCall(CkptReadSets(f, e, ss));
  /* a bad value first, as it says where; that its dataset was changed too, if it was */
  PetscCall(CkptCheckValues(f, e, ss, ft));
  PetscCall(CkptCheckBodyValues(f, e, ss, ft));
  PetscCall(CkptReadFlow(f, e, ft));
  PetscCall(CkptAgree(comm, ft, failed));
  if (*failed) {
    PetscInt k = (PetscInt)(ft->check - CKPT_CHECK_VALUE);
    if (k >= 0 && k < ss->n && CkptSumBad(&ss->s[k]))
      PetscCall(PetscStrlcat(ft->msg, "; its checksum does not match either: the data was changed or corrupted",
                             sizeof(ft->msg)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(CkptCheckSums(f, ss, ft));
  PetscCall(CkptAgree(comm, ft, failed));
  if (*failed) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CkptCheckIds(f, e, ss, ft));
  PetscCall(CkptAgree(comm, ft, failed));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CkptReadAttributes(H5File f, Engine *e, PetscInt64 *N, PetscInt *version, PetscBool *failed,
                                  char msg[CKPT_MSG_LEN])
{
  CkptFault      ft;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  ft.check = CKPT_NONE, ft.row = 0, ft.msg[0] = 0;
  ierr = CkptReadState(f, e, N, version, &ft);
  {
    /* the attributes read alike on every rank, so a wrong file fails on all:
     * agreed, every rank returns an error */
    PetscReal bad = ierr ? 1.0 : 0.0;
    PetscCall(CollectiveMaxAll(e->grid.comm, &bad, 1));
    if (bad > 0.0) {
      PetscCall(ierr);
      SETERRQ(e->grid.comm, PETSC_ERR_FILE_READ, "checkpoint %s: another rank could not read its attributes",
              H5FilePath(f));
    }
  }
  PetscCall(CkptAgree(e->grid.comm, &ft, failed));
  PetscCall(PetscStrncpy(msg, ft.msg, CKPT_MSG_LEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CkptReadDatasets(H5File f, Engine *e, PetscInt64 N, PetscInt version, CkptSets *ss, PetscBool *failed,
                                char msg[CKPT_MSG_LEN])
{
  CkptFault ft;

  PetscFunctionBeginUser;
  ft.check = CKPT_NONE, ft.row = 0, ft.msg[0] = 0;
  PetscCall(CkptSetsCreate(e, version, ss));
  PetscCall(CkptReadChecked(f, e, N, ss, &ft, failed));
  PetscCall(PetscStrncpy(msg, ft.msg, CKPT_MSG_LEN));
  PetscFunctionReturn(PETSC_SUCCESS);
}
