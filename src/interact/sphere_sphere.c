#include "interact/sphere_sphere.h"
#include "interact/bridge.h"
#include "interact/body_pair.h"

static PetscInt64 sphere_memo_gen = 0; /* fillings of memo slots: a batch tells a refilled slot by it */

void SphereMemosReset(SphereMemos *mms)
{
  for (int q = 0; q < SPHERE_MEMO_SLOTS; q++) mms->m[q].valid = PETSC_FALSE;
}

/* The constants of (i, j) into the memo slot of their classes, or of their kind. */
SphereMemo *SphereMemoSet(const InteractionContext *ctx, const NeighborList *nl, PetscInt i, PetscInt j,
                          SphereMemos *mms)
{
  const Particles *p    = ctx->p;
  PetscInt         kind = (p->flags[i] & PARTICLE_FROZEN ? 1 : 0) | (p->flags[j] & PARTICLE_FROZEN ? 2 : 0);
  PetscInt         bi = nl->body[i], bj = nl->body[j];
  SphereMemo      *mm = bi >= 0 && bj >= 0 ? &mms->m[NEIGHBOR_PAIR_CLASS(bi, bj)] : &mms->m[SPHERE_MEMO_CLASSES + kind];
  PetscReal        key[8] = {p->radius[i], p->mass[i],    p->inertia[i],         p->radius[j],
                             p->mass[j],   p->inertia[j], (PetscReal)p->type[i], (PetscReal)p->type[j]};

  if (mm->valid && mm->kind == kind && key[0] == mm->key[0] && key[1] == mm->key[1] && key[2] == mm->key[2] &&
      key[3] == mm->key[3] && key[4] == mm->key[4] && key[5] == mm->key[5] && key[6] == mm->key[6] &&
      key[7] == mm->key[7])
    return mm;
  ContactPairSetUp(ctx->model, p->type[i], p->type[j], key[0], key[1], key[2], key[3], key[4], key[5], PETSC_FALSE,
                   &mm->cp);
  /* a frozen particle has infinite mass: the contact moves only the other one */
  if (kind == 1 || kind == 2) {
    PetscInt f = kind == 2 ? i : j;
    mm->cp.m   = p->mass[f];
    mm->cp.mt  = 1.0 / (1.0 / p->mass[f] + p->radius[f] * p->radius[f] / p->inertia[f]);
    mm->cp.Ir  = p->inertia[f] + p->mass[f] * p->radius[f] * p->radius[f];
    ContactPairTangential(ctx->model, &mm->cp);
  }
  ContactBatchConstOf(ctx->model, &mm->cp, &mm->bc);
  mm->valid = PETSC_TRUE;
  mm->gen   = ++sphere_memo_gen;
  mm->kind  = kind;
  for (int a = 0; a < 8; a++) mm->key[a] = key[a];
  return mm;
}

/* Every normal law, damping and separation (the kernel's Normal forms each: ContactNormalModel), tangential spring
 * and rolling resistance (the turning spring and rolling contact by contact after the lanes: ContactTurningAdd,
 * ContactRollingAdd).  Liquid bridges, which outlive their contacts, take the generic path. */
PetscBool SphereFusable(const ContactModel *m)
{
  return !m->liquid.on ? PETSC_TRUE : PETSC_FALSE;
}

/* Kinematics of pair k (members i, j) from half-step and predicted velocities. */
static void SphereKinematics(const NeighborList *nl, const Particles *p, PetscInt k, PetscInt i, PetscInt j,
                             ContactKinematics *kin)
{
  PetscReal r[3], len;

  NeighborPairSeparation(nl, p, k, i, j, r);
  len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  ContactNormal(r, len, kin->n);
  for (int a = 0; a < 3; a++) {
    kin->v[a]   = p->v[3 * i + a] - p->v[3 * j + a];
    kin->vp[a]  = p->vp[3 * i + a] - p->vp[3 * j + a];
    kin->wi[a]  = p->w[3 * i + a];
    kin->wj[a]  = p->w[3 * j + a];
    kin->wip[a] = p->wp[3 * i + a];
    kin->wjp[a] = p->wp[3 * j + a];
  }
  kin->d = p->radius[i] + p->radius[j] - len;
}

PetscErrorCode SpherePairGeneric(SphereSphere *ss, const InteractionContext *ctx, PetscInt k, InteractionStep *st,
                                 SphereMemos *mm, PetscReal res[CONTACT_RESULTS], SpherePairOut *out)
{
  const Particles   *p  = ctx->p;
  NeighborList      *nl = &ss->nl;
  unsigned char     *fl = nl->flag;
  PetscInt           i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
  PetscBool          wet = HistorySlotsHas(&nl->hs, CONTACT_SIDE_BRIDGE);
  const ContactPair *cp;
  ContactPair        cpb;
  ContactKinematics  kin;
  ContactResult      cr;

  PetscFunctionBeginUser;
  *out = SPHERE_PAIR_NONE;
  /* most listed pairs do not touch: overlap first, from positions alone (a bridge is read apart too) */
  if (!st->need && !(fl[k] & NEIGHBOR_TOUCHED) && !(wet && nl->slot[k] >= 0)) {
    PetscReal r[3], rs = p->radius[i] + p->radius[j];
    if (fl[k] & NEIGHBOR_IMAGED) NeighborPairSeparation(nl, p, k, i, j, r);
    else /* equal images: NeighborPairSeparation adds nothing */
      for (int a = 0; a < 3; a++) r[a] = p->x[3 * i + a] - p->x[3 * j + a];
    if (r[0] * r[0] + r[1] * r[1] + r[2] * r[2] >= rs * rs) PetscFunctionReturn(PETSC_SUCCESS);
  }
  SphereKinematics(nl, p, k, i, j, &kin);
  if (kin.d > 0.0) {
    ContactHistory *h;
    if (nl->slot[k] < 0) PetscCall(HistorySlotsNew(&nl->hs, &nl->slot[k]));
    h  = &nl->hs.h[nl->slot[k]];
    cp = BodyPairMasses(ctx, i, j, kin.n, &SphereMemoFor(ctx, nl, k, i, j, mm)->cp, &cpb);
    ContactEvaluate(ctx->model, cp, h, HistorySlotsRolling(&nl->hs, nl->slot[k]),
                    HistorySlotsTurning(&nl->hs, nl->slot[k]), &kin, st->dt, &cr);
    fl[k] |= NEIGHBOR_TOUCHED;
    if (InteractionDeep(kin.d, PetscMin(p->radius[i], p->radius[j]))) st->deep = PETSC_TRUE;
    if (st->need) InteractionStepBound(st, SphereContactBound(ctx, cp, cr.ddot, cr.U, h->v_imp), i, j);
    for (int a = 0; a < 3; a++) res[a] = cr.F[a], res[3 + a] = cr.Ti[a], res[6 + a] = cr.Tj[a];
    res[9] = cr.P[0], res[10] = cr.P[1], res[11] = cr.W;
    if (cr.P[2] != 0.0 && NeighborTarget(p, j) >= 0)
      ParticlesLedgerAdd(ctx->p, NeighborTarget(p, j), LEDGER_ROLLING, cr.P[2]);
    if (wet) (void)InteractionBridge(ctx, i, j, cp, HistorySlotsBridge(&nl->hs, nl->slot[k]), &kin, st, res);
    *out = SPHERE_PAIR_FORCE_TORQUE;
  } else if (fl[k] & NEIGHBOR_TOUCHED) {
    cp = BodyPairMasses(ctx, i, j, kin.n, &SphereMemoFor(ctx, nl, k, i, j, mm)->cp, &cpb);
    ContactSeparate(ctx->model, cp, &nl->hs.h[nl->slot[k]], HistorySlotsRolling(&nl->hs, nl->slot[k]),
                    HistorySlotsTurning(&nl->hs, nl->slot[k]), &kin, st->dt, &cr);
    fl[k] &= ~NEIGHBOR_TOUCHED;
    for (int a = 0; a < 3; a++) res[a] = cr.F[a];
    res[9] = res[10] = 0.0, res[11] = cr.W;
    if (!(wet && InteractionBridge(ctx, i, j, cp, HistorySlotsBridge(&nl->hs, nl->slot[k]), &kin, st, res)))
      nl->slot[k] = -1; /* a zero history: its record stays unused until the next build */
    *out = SPHERE_PAIR_FORCE;
  } else if (wet && nl->slot[k] >= 0) { /* apart, held by a bridge */
    cp = BodyPairMasses(ctx, i, j, kin.n, &SphereMemoFor(ctx, nl, k, i, j, mm)->cp, &cpb);
    for (int a = 0; a < 3; a++) res[a] = 0.0;
    res[9] = res[10] = res[11] = 0.0;
    if (!InteractionBridge(ctx, i, j, cp, HistorySlotsBridge(&nl->hs, nl->slot[k]), &kin, st, res)) nl->slot[k] = -1;
    *out = SPHERE_PAIR_FORCE;
    if (st->need)
      SphereApproachBound(ctx, nl, k, i, j, -(kin.v[0] * kin.n[0] + kin.v[1] * kin.n[1] + kin.v[2] * kin.n[2]), kin.d,
                          mm, st);
  } else if (st->need)
    SphereApproachBound(ctx, nl, k, i, j, -(kin.v[0] * kin.n[0] + kin.v[1] * kin.n[1] + kin.v[2] * kin.n[2]), kin.d, mm,
                        st);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Into the owned particles (or owned copies of self-images); each particle
 * receives its pairs in pair order, which is its partner-id order. */
static inline void SphereAccumulate(Particles *p, PetscInt i, PetscInt j, const PetscReal res[CONTACT_RESULTS],
                                    SpherePairOut out)
{
  PetscInt ti = NeighborTarget(p, i), tj = NeighborTarget(p, j);
  if (ti >= 0)
    for (int a = 0; a < 3; a++) {
      p->f[3 * ti + a] += res[a];
      if (out == SPHERE_PAIR_FORCE_TORQUE) p->t[3 * ti + a] += res[3 + a];
    }
  if (tj >= 0) {
    for (int a = 0; a < 3; a++) {
      p->f[3 * tj + a] -= res[a];
      if (out == SPHERE_PAIR_FORCE_TORQUE) p->t[3 * tj + a] += res[6 + a];
    }
    if (ParticlesLedgerFull(p)) { /* the ledger's, by the upper member */
      p->lnow[p->nledger * tj] += res[9], p->lnow[p->nledger * tj + 1] += res[10];
      if (res[11] != 0.0) p->lwork[(p->nledger + 1) * tj] += res[11];
    }
  }
}

/* Pair k's force into a sample, by the rank that owns its upper member (as
 * the ledger's): once over the ranks, from that member's own position and
 * the pair's separation, the bits every rank count has. */
static void SphereSinkPair(const Particles *p, const NeighborList *nl, PetscInt k, const ContactSink *sink,
                           const PetscReal res[CONTACT_RESULTS])
{
  PetscInt         i = nl->ij[2 * k], j = nl->ij[2 * k + 1], tj = NeighborTarget(p, j);
  PetscReal        r[3], b[3], F[3];
  const PetscReal *a = p->x + 3 * tj;
  if (tj < 0) return;
  NeighborPairSeparation(nl, p, k, i, j, r);
  for (int c = 0; c < 3; c++) b[c] = a[c] + r[c], F[c] = -res[c];
  sink->contact(sink->ctx, a, b, F);
}

static PetscErrorCode SphereCompute(Interaction it, const InteractionContext *ctx, InteractionStep *st)
{
  SphereSphere *ss = (SphereSphere *)it->data;
  SphereMemos   mm;

  PetscFunctionBeginUser;
  /* a body's spheres: their masses per contact (body_pair.h) */
  if (SphereFusable(ctx->model) && !ctx->p->body && !st->sink) {
    PetscCall(SphereScanFused(ss, ctx, st));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  SphereMemosReset(&mm);
  for (PetscInt k = 0; k < ss->nl.npair; k++) {
    PetscReal     res[CONTACT_RESULTS];
    SpherePairOut out;
    PetscCall(SpherePairGeneric(ss, ctx, k, st, &mm, res, &out));
    if (out == SPHERE_PAIR_NONE) continue;
    SphereAccumulate(ctx->p, ss->nl.ij[2 * k], ss->nl.ij[2 * k + 1], res, out);
    if (st->sink) SphereSinkPair(ctx->p, &ss->nl, k, st->sink, res);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pairs from the particles and ghosts of the last borders, their members
 * then aliased to the roots: the rank's own periodic images are not
 * forwarded each step. */
static PetscErrorCode SphereBuild(Interaction it, const InteractionContext *ctx)
{
  SphereSphere *ss = (SphereSphere *)it->data;

  PetscFunctionBeginUser;
  HistorySlotsSetUp(&ss->nl.hs, ctx->model);
  PetscCall(NeighborListBuild(&ss->nl, ctx->p, ctx->L, ctx->scratch));
  NeighborListAlias(&ss->nl, ctx->root);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the upper member of touching pair (i, j) keeps a copy too: where
 * it is owned here (itself or as the owned copy of a self-image), unless the
 * lower member is owned here as well and both stay (then the pair stays
 * here alone, and the attach finds it by its lower member). */
static inline PetscBool SphereUpperCopy(const Particles *p, const unsigned char *stay, PetscInt i, PetscInt j)
{
  if (!(j < p->n || p->origin[j] >= 0)) return PETSC_FALSE;
  if (!stay || i >= p->n) return PETSC_TRUE;
  return stay[i] && stay[j < p->n ? j : p->origin[j]] ? PETSC_FALSE : PETSC_TRUE;
}

/* Every owned member of a touching pair keeps a copy, since the pair may
 * later be split between two ranks, each of which needs it; but not both
 * members of a pair that stays here whole (SphereUpperCopy).  The store is
 * sized first: it is, with the lists, the largest transient. */
static PetscErrorCode SphereGather(Interaction it, const InteractionContext *ctx, RecordStore *s,
                                   const unsigned char *stay)
{
  const NeighborList *nl   = &((SphereSphere *)it->data)->nl;
  const Particles    *p    = ctx->p;
  PetscInt            need = s->n;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    if (nl->slot[k] < 0 || !HistorySlotsLive(&nl->hs, nl->slot[k])) continue;
    need += (i < p->n) + SphereUpperCopy(p, stay, i, j);
  }
  PetscCall(RecordStoreReserve(s, need));
  for (PetscInt k = 0; k < nl->npair; k++) {
    ContactRecord rec;
    PetscInt      i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    if (nl->slot[k] < 0 || !HistorySlotsLive(&nl->hs, nl->slot[k])) continue;
    HistorySlotsRecord(&nl->hs, nl->slot[k], &rec);
    if (i < p->n) {
      RecordKey key = {p->id[i], HISTORY_KIND_SPHERE, p->id[j]};
      PetscCall(RecordStoreAdd(s, &key, &rec));
    }
    if (SphereUpperCopy(p, stay, i, j)) {
      RecordKey key = {p->id[j], HISTORY_KIND_SPHERE, p->id[i]};
      PetscCall(RecordStoreAdd(s, &key, &rec));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* first[i], the first record of particle i's id, for the particles whose
 * records the attach reads: the owned ones, (mostly) in id order as the
 * engine keeps them, so one forward walk over the store finds them all (a
 * binary search where that order breaks), and the self-images, which share
 * their owned copy's id.  Other ghosts' own records are never read: an
 * empty range. */
static void SphereFirsts(const RecordStore *s, const Particles *p, LocalInt *first)
{
  PetscInt ntot = p->n + p->nghost, k = 0;

  for (PetscInt i = 0; i < p->n; i++) {
    if (i > 0 && p->id[i] < p->id[i - 1]) k = RecordStoreFirst(s, p->id[i]);
    else
      while (k < s->n && RecordStoreHead(s, k)->owner < p->id[i]) k++;
    first[i] = (LocalInt)k;
  }
  for (PetscInt i = p->n; i < ntot; i++) {
    PetscInt o = p->origin[i];
    if (o < 0) first[i] = (LocalInt)s->n;
    else first[i] = (o < p->n && p->id[o] == p->id[i]) ? first[o] : (LocalInt)RecordStoreFirst(s, p->id[i]);
  }
}

static PetscErrorCode SphereAttach(Interaction it, const InteractionContext *ctx, const RecordStore *s)
{
  NeighborList    *nl   = &((SphereSphere *)it->data)->nl;
  const Particles *p    = ctx->p;
  PetscInt         ntot = p->n + p->nghost;
  LocalInt        *first;

  PetscFunctionBeginUser;
  nl->hs.n = 0;
  for (PetscInt k = 0; k < nl->npair; k++) {
    nl->flag[k] &= ~NEIGHBOR_TOUCHED;
    nl->slot[k] = -1;
  }
  if (!s->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(s->n <= LOCAL_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "a rank holds %" PetscInt_FMT
             " contact-history records, more than its 32-bit local indices allow: run on more ranks",
             s->n);
  PetscCall(HistorySlotsReserve(&nl->hs, PetscMin(s->n, nl->npair))); /* a pair takes at most one record */
  PetscCall(PetscMalloc1(ntot + 1, &first));
  SphereFirsts(s, p, first);
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt             i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    RecordKey            ki = {p->id[i], HISTORY_KIND_SPHERE, p->id[j]}, kj = {p->id[j], HISTORY_KIND_SPHERE, p->id[i]};
    const ContactRecord *r = NULL;
    /* a self-image: its owned copy's records */
    if (i < p->n || p->origin[i] >= 0) r = RecordStoreFind(s, first[i], &ki);
    if (!r && (j < p->n || p->origin[j] >= 0)) r = RecordStoreFind(s, first[j], &kj);
    if (!r) continue;
    PetscCall(HistorySlotsNew(&nl->hs, &nl->slot[k]));
    HistorySlotsFromRecord(&nl->hs, nl->slot[k], r);
    if (r->h.touched) nl->flag[k] |= NEIGHBOR_TOUCHED;
  }
  PetscCall(PetscFree(first));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A pair counts on the rank owning its lower-id member, so each counts once. */
static void SphereStats(Interaction it, const InteractionContext *ctx, InteractionStats *s)
{
  const NeighborList *nl = &((SphereSphere *)it->data)->nl;
  const Particles    *p  = ctx->p;
  SphereMemos         mm;

  SphereMemosReset(&mm);
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt           i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    ContactKinematics  kin;
    PetscReal          U, F, dF;
    const ContactPair *cp;
    if (i >= p->n) continue;
    /* no history: at most a contact at first touch, to come */
    if (nl->slot[k] < 0 && !(nl->flag[k] & NEIGHBOR_TOUCHED)) {
      PetscReal r[3], rs = p->radius[i] + p->radius[j];
      NeighborPairSeparation(nl, p, k, i, j, r);
      if (r[0] * r[0] + r[1] * r[1] + r[2] * r[2] >= rs * rs) continue;
    }
    SphereKinematics(nl, p, k, i, j, &kin);
    cp = &SphereMemoFor(ctx, nl, k, i, j, &mm)->cp;
    if (HistorySlotsHas(&nl->hs, CONTACT_SIDE_BRIDGE) && nl->slot[k] >= 0 &&
        HistorySlotsBridge(&nl->hs, nl->slot[k])->V > 0.0)
      InteractionStatsBridge(s, &ctx->model->liquid, LiquidRadius(p->radius[i], p->radius[j]),
                             HistorySlotsBridge(&nl->hs, nl->slot[k])->V, -kin.d);
    if (kin.d <= 0.0) continue;
    NormalLawEval(&ctx->model->law, cp->s, kin.d, &U, &F, &dF);
    InteractionStatsContact(s, ctx->model, cp, nl->slot[k] >= 0 ? &nl->hs.h[nl->slot[k]] : NULL,
                            nl->slot[k] >= 0 ? HistorySlotsRolling(&nl->hs, nl->slot[k]) : NULL, U, kin.d);
    if (kin.d / PetscMin(p->radius[i], p->radius[j]) > s->max_overlap_ratio)
      s->max_overlap_ratio = kin.d / PetscMin(p->radius[i], p->radius[j]), s->who[0] = p->id[i], s->who[1] = p->id[j];
  }
}

static void SphereLend(Interaction it, void **buf, size_t *bytes)
{
  HistorySlotsTake(&((SphereSphere *)it->data)->nl.hs, buf, bytes);
}

static PetscErrorCode SphereReclaim(Interaction it, void *buf, size_t bytes)
{
  PetscFunctionBeginUser;
  PetscCall(HistorySlotsGive(&((SphereSphere *)it->data)->nl.hs, buf, bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SphereDestroy(Interaction it)
{
  SphereSphere *ss = (SphereSphere *)it->data;

  PetscFunctionBeginUser;
  PetscCall(NeighborListDestroy(&ss->nl));
  PetscCall(PetscFree(ss));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const InteractionOps SphereOps = {"SphereSphere", SphereBuild,   SphereCompute, SphereGather, SphereAttach,
                                         SphereStats,    SphereDestroy, SphereLend,    SphereReclaim};

PetscErrorCode SphereSphereCreate(PetscReal skin, Interaction *it)
{
  SphereSphere *ss;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&ss));
  PetscCall(NeighborListCreate(skin, &ss->nl));
  PetscCall(InteractionCreate(&SphereOps, ss, it));
  PetscFunctionReturn(PETSC_SUCCESS);
}
