/* Who is who in a checkpoint: unique ids, the records' owners, and the
 * multi-sphere bodies (checkpoint.h says what is checked).  A body's state
 * is on each of its members' rows, which restart it; /bodies (a row per
 * body, for readers) must agree with them. */
#include "engine/checkpoint_bodies.h"
#include <math.h>
#include <stdint.h>
#include "decomp/collective.h"

/* NO_SQUISH keeps |q| to round-off (rigid/rotation.h): far inside this. */
#define CKPT_QUAT_TOL 1e-6
/* A flat body's moments are at equality, I3 = I1 + I2: rounding's slack. */
#define CKPT_INERTIA_TOL 1e-6

static const PetscInt64 CkptIdMax = (PetscInt64)1 << 53;

/* The rank where an id's rows meet. */
static PetscMPIInt CkptIdRank(PetscInt64 x, PetscMPIInt size)
{
  return (PetscMPIInt)((((uint64_t)x * 0x9e3779b97f4a7c15ULL) >> 32) % (uint64_t)size);
}

static PetscInt64 CkptCheckOf(const CkptSets *ss, const CkptSet *d)
{
  return CKPT_CHECK_VALUE + (PetscInt64)(d - ss->s);
}

/* A template of the deck (clump0 .. clump15): its spheres, else 0. */
static PetscInt CkptTemplateSpheres(const Engine *e, PetscInt64 t)
{
  return t >= 0 && t < CLUMP_TEMPLATES_MAX && e->clumps.t[t].on ? e->clumps.t[t].n : 0;
}

/* The rows of bodies: /particles' sets that carry them. */
typedef struct {
  const CkptSet *id, *flags, *body, *tmpl, *mass, *inertia, *quat;
} CkptBodyRows;

/* |q| - 1 within CKPT_QUAT_TOL: else a message's "(w, x, y, z) has norm n". */
static PetscBool CkptQuatBad(const CkptSet *d, PetscInt i, char *what, size_t len)
{
  PetscReal q[4], n;
  for (int a = 0; a < 4; a++) q[a] = CkptReal(d, i, a);
  n = PetscSqrtReal(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (PetscAbsReal(n - 1.0) <= CKPT_QUAT_TOL) return PETSC_FALSE;
  (void)PetscSNPrintf(what, len, "(%.17g, %.17g, %.17g, %.17g) has norm %.17g", (double)q[0], (double)q[1],
                      (double)q[2], (double)q[3], (double)n);
  return PETSC_TRUE;
}

/* A body's mass and principal moments: > 0, and each moment at most the
 * sum of the other two (within CKPT_INERTIA_TOL), as every body's are. */
static PetscErrorCode CkptCheckMass(H5File f, CkptSets *ss, const CkptBodyRows *b, PetscInt i, const char *who,
                                    CkptFault *ft)
{
  PetscInt64 row = b->id->off + i;
  PetscReal  m   = CkptReal(b->mass, i, 0), mo[4];
  char       n[4][32];

  PetscFunctionBeginUser;
  for (int a = 0; a < 4; a++) mo[a] = CkptReal(b->inertia, i, a);
  if (!(m > 0.0))
    PetscCall(CkptFail(f, ft, CkptCheckOf(ss, b->mass), row, "/particles/body_mass %s: mass %s: a body's must be > 0",
                       who, CkptNum(m, n[0])));
  if (!(mo[0] > 0.0 && mo[1] > 0.0 && mo[2] > 0.0 && mo[3] > 0.0))
    PetscCall(CkptFail(f, ft, CkptCheckOf(ss, b->inertia), row,
                       "/particles/body_inertia %s: principal moments (%s, %s, %s), radius %s: each must be > 0", who,
                       CkptNum(mo[0], n[0]), CkptNum(mo[1], n[1]), CkptNum(mo[2], n[2]), CkptNum(mo[3], n[3])));
  else
    for (int a = 0; a < 3; a++)
      if (mo[a] > (mo[(a + 1) % 3] + mo[(a + 2) % 3]) * (1.0 + CKPT_INERTIA_TOL)) {
        PetscCall(CkptFail(f, ft, CkptCheckOf(ss, b->inertia), row,
                           "/particles/body_inertia %s: principal moments (%s, %s, %s) break the triangle inequality "
                           "(each at most the sum of the other two, "
                           "to a relative %g): no rigid body has them",
                           who, CkptNum(mo[0], n[0]), CkptNum(mo[1], n[1]), CkptNum(mo[2], n[2]), CKPT_INERTIA_TOL));
        break;
      }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Row i: a sphere that is no body's member is its own body; a member's
 * template is the deck's, its body's id in [0, 2^53], its mass and
 * inertia a body's, its orientation a unit quaternion. */
static PetscErrorCode CkptCheckBodyRow(H5File f, const Engine *e, CkptSets *ss, const CkptBodyRows *b, PetscInt i,
                                       CkptFault *ft)
{
  PetscInt64 row = b->id->off + i, id = CkptI64(b->id, i, 0), body = CkptI64(b->body, i, 0), t = CkptI64(b->tmpl, i, 0);
  char       who[96], what[160];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(who, sizeof(who), "row %" PetscInt64_FMT " (id %" PetscInt64_FMT ")", row, id));
  if (!(CkptI64(b->flags, i, 0) & PARTICLE_MEMBER)) {
    if (body != id)
      PetscCall(CkptFail(f, ft, CkptCheckOf(ss, b->body), row,
                         "/particles/body %s: body %" PetscInt64_FMT
                         ": a sphere no body holds (/particles/flags) is its own",
                         who, body));
    if (t != -1)
      PetscCall(CkptFail(f, ft, CkptCheckOf(ss, b->tmpl), row,
                         "/particles/body_template %s: template %" PetscInt64_FMT ": a sphere no body holds has -1",
                         who, t));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!CkptTemplateSpheres(e, t))
    PetscCall(CkptFail(f, ft, CkptCheckOf(ss, b->tmpl), row,
                       "/particles/body_template %s: template %" PetscInt64_FMT
                       " is none of the deck's clump0 .. clump%d",
                       who, t, CLUMP_TEMPLATES_MAX - 1));
  if (body < 0 || body > CkptIdMax)
    PetscCall(CkptFail(f, ft, CkptCheckOf(ss, b->body), row,
                       "/particles/body %s: body %" PetscInt64_FMT " is not in [0, 2^53]", who, body));
  PetscCall(CkptCheckMass(f, ss, b, i, who, ft));
  if (CkptQuatBad(b->quat, i, what, sizeof(what)))
    PetscCall(CkptFail(f, ft, CkptCheckOf(ss, b->quat), row,
                       "/particles/body_orientation %s: %s: a body's orientation must be a unit quaternion (to %g)",
                       who, what, CKPT_QUAT_TOL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /bodies' own values: ids in [0, 2^53], templates of the deck, unit
 * orientations (the reals finite: CkptCheckValues). */
static PetscErrorCode CkptCheckBodiesSets(H5File f, const Engine *e, CkptSets *ss, CkptFault *ft)
{
  const CkptSet *id = CkptSetFind(ss, "bodies/id"), *tmpl = CkptSetFind(ss, "bodies/template"),
                *quat = CkptSetFind(ss, "bodies/orientation");
  char what[160];

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < id->n; i++) {
    PetscInt64 row = id->off + i, x = CkptI64(id, i, 0), t = CkptI64(tmpl, i, 0);
    if (x < 0 || x > CkptIdMax)
      PetscCall(CkptFail(f, ft, CkptCheckOf(ss, id), row,
                         "/bodies/id row %" PetscInt64_FMT ": id %" PetscInt64_FMT " is not in [0, 2^53]", row, x));
    if (!CkptTemplateSpheres(e, t))
      PetscCall(CkptFail(f, ft, CkptCheckOf(ss, tmpl), row,
                         "/bodies/template row %" PetscInt64_FMT " (body %" PetscInt64_FMT
                         "): template %" PetscInt64_FMT " is none of the deck's clump0 .. clump%d",
                         row, x, t, CLUMP_TEMPLATES_MAX - 1));
    if (CkptQuatBad(quat, i, what, sizeof(what)))
      PetscCall(CkptFail(f, ft, CkptCheckOf(ss, quat), row,
                         "/bodies/orientation row %" PetscInt64_FMT " (body %" PetscInt64_FMT
                         "): %s: it must be a unit quaternion (to %g)",
                         row, x, what, CKPT_QUAT_TOL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Liquid is a volume: on the particles and in the bridges, >= 0. */
static PetscErrorCode CkptCheckLiquid(H5File f, CkptSets *ss, CkptFault *ft)
{
  const char *name[2] = {"particles/liquid", "history/bridge_liquid"};
  char        who[160], b[32];

  PetscFunctionBeginUser;
  for (int s = 0; s < 2; s++) {
    const CkptSet *d = CkptSetFind(ss, name[s]);
    for (PetscInt i = 0; d && i < d->n; i++)
      if (CkptReal(d, i, 0) < 0.0) {
        PetscCall(CkptWho(ss, (PetscInt)(d - ss->s), i, who, sizeof(who)));
        PetscCall(CkptFail(f, ft, CkptCheckOf(ss, d), d->off + i,
                           "/%s row %" PetscInt64_FMT "%s: liquid %s: a volume must be >= 0", d->name, d->off + i, who,
                           CkptNum(CkptReal(d, i, 0), b)));
        break;
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /particles/flags: only the bits a checkpoint holds, frozen and, with
 * bodies, member (a member flag without a body would hold a sphere still). */
static PetscErrorCode CkptCheckFlags(H5File f, CkptSets *ss, CkptFault *ft)
{
  const CkptSet *d     = CkptSetFind(ss, "particles/flags");
  PetscBool      holds = ss->bodies < ss->n ? PETSC_TRUE : PETSC_FALSE;
  PetscInt64     known = PARTICLE_FROZEN | (holds ? PARTICLE_MEMBER : 0);
  char           who[160];

  PetscFunctionBeginUser;
  for (PetscInt i = 0; d && i < d->n; i++) {
    PetscInt64 v = CkptI64(d, i, 0);
    if (!(v & ~known)) continue;
    PetscCall(CkptWho(ss, (PetscInt)(d - ss->s), i, who, sizeof(who)));
    PetscCall(CkptFail(f, ft, CkptCheckOf(ss, d), d->off + i,
                       "/particles/flags row %" PetscInt64_FMT "%s: flags %" PetscInt64_FMT
                       " has bits beyond %d (frozen)%s",
                       d->off + i, who, v, PARTICLE_FROZEN,
                       holds ? " and 4 (a body's member)" : "; 4 (a body's member) needs bodies, and there are none"));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CkptCheckBodyValues(H5File f, const Engine *e, CkptSets *ss, CkptFault *ft)
{
  CkptBodyRows b;

  PetscFunctionBeginUser;
  PetscCall(CkptCheckLiquid(f, ss, ft));
  PetscCall(CkptCheckFlags(f, ss, ft));
  if (ss->bodies == ss->n) PetscFunctionReturn(PETSC_SUCCESS);
  b.id = CkptSetFind(ss, "particles/id"), b.flags = CkptSetFind(ss, "particles/flags"),
  b.body = CkptSetFind(ss, "particles/body");
  b.tmpl = CkptSetFind(ss, "particles/body_template"), b.mass = CkptSetFind(ss, "particles/body_mass");
  b.inertia = CkptSetFind(ss, "particles/body_inertia"), b.quat = CkptSetFind(ss, "particles/body_orientation");
  PetscCheck(b.id && b.flags && b.body && b.tmpl && b.mass && b.inertia && b.quat, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "checkpoint: the particle store has no body fields");
  for (PetscInt i = 0; i < b.id->n; i++) PetscCall(CkptCheckBodyRow(f, e, ss, &b, i, ft));
  PetscCall(CkptCheckBodiesSets(f, e, ss, ft));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An id and where it came from, sent to the rank its id hashes to. */
typedef struct {
  PetscInt64 id, tag, row; /* tag 0: /particles/id, 1: /history/owner */
} CkptIdRow;

static int CkptIdRowCompare(const void *a, const void *b)
{
  const CkptIdRow *x = (const CkptIdRow *)a, *y = (const CkptIdRow *)b;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  if (x->tag != y->tag) return x->tag < y->tag ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

/* Collective, on any rank count: the ids (and the records' owners) meet on
 * the rank their id hashes to; there every id must be there once, and
 * every record's owner must be a particle's id. */
static PetscErrorCode CkptCheckOwners(H5File f, const Engine *e, CkptSets *ss, CkptFault *ft)
{
  const CkptSet *ids[2] = {CkptSetFind(ss, "particles/id"), CkptSetFind(ss, "history/owner")};
  PetscInt       n      = ids[0]->n + ids[1]->n, nin;
  PetscReal     *item, *in;
  PetscMPIInt   *dest, size;
  CkptIdRow     *got;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(e->grid.comm, NULL, &size));
  PetscCall(PetscMalloc2(4 * (size_t)n + 1, &item, (size_t)n + 1, &dest));
  for (PetscInt t = 0, j = 0; t < 2; t++)
    for (PetscInt i = 0; i < ids[t]->n; i++, j++) {
      /* in [0, 2^53] (CkptCheckValues): exact as reals, yet sent in halves */
      PetscInt64 x = CkptI64(ids[t], i, 0);
      item[4 * j] = (PetscReal)(x >> 32), item[4 * j + 1] = (PetscReal)(x & 0xffffffff), item[4 * j + 2] = (PetscReal)t,
               item[4 * j + 3] = (PetscReal)(ids[t]->off + i);
      dest[j]                  = CkptIdRank(x, size);
    }
  PetscCall(CollectiveRoute(e->grid.comm, n, 4, item, dest, &nin, &in));
  PetscCall(PetscMalloc1((size_t)nin + 1, &got));
  for (PetscInt j = 0; j < nin; j++) {
    got[j].id  = ((PetscInt64)in[4 * j] << 32) + (PetscInt64)in[4 * j + 1];
    got[j].tag = (PetscInt64)in[4 * j + 2];
    got[j].row = (PetscInt64)in[4 * j + 3];
  }
  if (nin > 1) qsort(got, (size_t)nin, sizeof(*got), CkptIdRowCompare);
  for (PetscInt j = 0, k; j < nin; j = k) {
    PetscInt c0 = 0;
    for (k = j; k < nin && got[k].id == got[j].id; k++) c0 += got[k].tag == 0;
    if (c0 > 1)
      PetscCall(CkptFail(f, ft, CKPT_CHECK_IDS, got[j + 1].row,
                         "/particles/id row %" PetscInt64_FMT ": id %" PetscInt64_FMT " is also at row %" PetscInt64_FMT
                         ": ids must be unique",
                         got[j + 1].row, got[j].id, got[j].row));
    if (c0 == 0)
      PetscCall(CkptFail(f, ft, CKPT_CHECK_IDS + 1, got[j].row,
                         "/history/owner row %" PetscInt64_FMT ": the record's owner, id %" PetscInt64_FMT
                         ", is no particle of the checkpoint",
                         got[j].row, got[j].id));
  }
  PetscCall(PetscFree(got));
  PetscCall(PetscFree(in));
  PetscCall(PetscFree2(item, dest));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A body's row (tag 0, /bodies/id) or a member's (tag 1, /particles/body),
 * sent to the rank its body's id hashes to. */
typedef struct {
  PetscInt64 body, tag, id, tmpl, row;
} CkptMember;

static int CkptMemberCompare(const void *a, const void *b)
{
  const CkptMember *x = (const CkptMember *)a, *y = (const CkptMember *)b;
  if (x->body != y->body) return x->body < y->body ? -1 : 1;
  if (x->tag != y->tag) return x->tag < y->tag ? -1 : 1;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

/* The rows g[0 .. n - 1] of one body id, bodies' rows first, members' by
 * id: one row in /bodies/id, and its template's spheres, ids body to body
 * + n - 1 (the ids are unique: CkptCheckOwners), each once. */
static PetscErrorCode CkptCheckBody(H5File f, const Engine *e, const CkptMember *g, PetscInt n, CkptFault *ft)
{
  PetscInt64 B = g[0].body, next = B, T;
  PetscInt   nb = 0, ns, have = 0;

  PetscFunctionBeginUser;
  while (nb < n && g[nb].tag == 0) nb++;
  if (nb > 1)
    PetscCall(CkptFail(f, ft, CKPT_CHECK_BODIES, g[1].row,
                       "/bodies/id row %" PetscInt64_FMT ": body %" PetscInt64_FMT " is also at row %" PetscInt64_FMT
                       ": one row per body",
                       g[1].row, B, g[0].row));
  if (nb == 0) {
    PetscCall(CkptFail(f, ft, CKPT_CHECK_BODIES + 1, g[0].row,
                       "/particles/body row %" PetscInt64_FMT " (id %" PetscInt64_FMT "): body %" PetscInt64_FMT
                       " is not in /bodies/id",
                       g[0].row, g[0].id, B));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  T  = g[0].tmpl;
  ns = CkptTemplateSpheres(e, T); /* > 0: CkptCheckBodiesSets */
  for (PetscInt j = nb; j < n; j++) {
    if (g[j].tmpl != T)
      PetscCall(CkptFail(f, ft, CKPT_CHECK_BODIES + 2, g[j].row,
                         "/particles/body_template row %" PetscInt64_FMT " (id %" PetscInt64_FMT
                         "): template %" PetscInt64_FMT ", its body %" PetscInt64_FMT "'s is %" PetscInt64_FMT
                         " (/bodies/template row %" PetscInt64_FMT ")",
                         g[j].row, g[j].id, g[j].tmpl, B, T, g[0].row));
    if (g[j].id < B || g[j].id >= B + ns)
      PetscCall(CkptFail(f, ft, CKPT_CHECK_BODIES + 3, g[j].row,
                         "/particles/body row %" PetscInt64_FMT " (id %" PetscInt64_FMT "): body %" PetscInt64_FMT
                         " (clump%" PetscInt64_FMT ") is ids %" PetscInt64_FMT " to %" PetscInt64_FMT
                         ": this sphere is not one of its spheres",
                         g[j].row, g[j].id, B, T, B, B + ns - 1));
    else {
      have++;
      if (g[j].id == next) next++;
    }
  }
  if (have != ns)
    PetscCall(CkptFail(f, ft, CKPT_CHECK_BODIES + 4, g[0].row,
                       "/particles/body: body %" PetscInt64_FMT " (/bodies/id row %" PetscInt64_FMT
                       ", clump%" PetscInt64_FMT ") has %" PetscInt_FMT " of its %" PetscInt_FMT
                       " spheres: id %" PetscInt64_FMT " is missing",
                       B, g[0].row, T, have, ns, next));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: each body's rows, of /bodies and of its members, meet on the
 * rank its id hashes to (ids in [0, 2^53]: exact as reals). */
static PetscErrorCode CkptCheckMembers(H5File f, const Engine *e, CkptSets *ss, CkptFault *ft)
{
  const CkptSet *id = CkptSetFind(ss, "particles/id"), *flags = CkptSetFind(ss, "particles/flags"),
                *body = CkptSetFind(ss, "particles/body"), *tmpl = CkptSetFind(ss, "particles/body_template"),
                *bid = CkptSetFind(ss, "bodies/id"), *btmpl = CkptSetFind(ss, "bodies/template");
  PetscInt     n = 0, nin;
  PetscReal   *item, *in;
  PetscMPIInt *dest, size;
  CkptMember  *got;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(e->grid.comm, NULL, &size));
  PetscCall(PetscMalloc2(5 * (size_t)(id->n + bid->n) + 1, &item, (size_t)(id->n + bid->n) + 1, &dest));
  for (PetscInt i = 0; i < bid->n; i++, n++) {
    PetscReal v[5] = {(PetscReal)CkptI64(bid, i, 0), 0, 0, (PetscReal)CkptI64(btmpl, i, 0), (PetscReal)(bid->off + i)};
    PetscCall(PetscArraycpy(item + 5 * n, v, 5));
    dest[n] = CkptIdRank(CkptI64(bid, i, 0), size);
  }
  for (PetscInt i = 0; i < id->n; i++) {
    PetscReal v[5] = {(PetscReal)CkptI64(body, i, 0), 1, (PetscReal)CkptI64(id, i, 0), (PetscReal)CkptI64(tmpl, i, 0),
                      (PetscReal)(id->off + i)};
    if (!(CkptI64(flags, i, 0) & PARTICLE_MEMBER)) continue;
    PetscCall(PetscArraycpy(item + 5 * n, v, 5));
    dest[n++] = CkptIdRank(CkptI64(body, i, 0), size);
  }
  PetscCall(CollectiveRoute(e->grid.comm, n, 5, item, dest, &nin, &in));
  PetscCall(PetscMalloc1((size_t)nin + 1, &got));
  for (PetscInt j = 0; j < nin; j++) {
    const PetscReal *v = in + 5 * j;
    got[j] = (CkptMember){(PetscInt64)v[0], (PetscInt64)v[1], (PetscInt64)v[2], (PetscInt64)v[3], (PetscInt64)v[4]};
  }
  if (nin > 1) qsort(got, (size_t)nin, sizeof(*got), CkptMemberCompare);
  for (PetscInt j = 0, k; j < nin; j = k) {
    for (k = j; k < nin && got[k].body == got[j].body; k++) { }
    PetscCall(CkptCheckBody(f, e, got + j, k - j, ft));
  }
  PetscCall(PetscFree(got));
  PetscCall(PetscFree(in));
  PetscCall(PetscFree2(item, dest));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CkptCheckIds(H5File f, const Engine *e, CkptSets *ss, CkptFault *ft)
{
  PetscFunctionBeginUser;
  PetscCall(CkptCheckOwners(f, e, ss, ft));
  if (ss->bodies < ss->n)
    PetscCall(CkptCheckMembers(f, e, ss,
                               /* one stage: a repeated id, first by its check, is said before what it confuses */
                               ft));
  PetscFunctionReturn(PETSC_SUCCESS);
}
