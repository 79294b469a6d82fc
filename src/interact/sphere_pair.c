/* One sphere pair through the generic path (ContactEvaluate,
 * ContactSeparate, a bridge, a body's masses), every pair so, and the
 * memo of pair constants the fused scan shares (interact/sphere_pair.h). */
#include "interact/sphere_pair.h"
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

PetscErrorCode SpherePairGeneric(SphereSphere *ss, const InteractionContext *ctx, PetscInt k, InteractionStep *st,
                                 SphereMemos *mm, PetscReal res[CONTACT_RESULTS], SpherePairOut *out, PetscReal *roll)
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
    if (roll) *roll = cr.P[2];
    else if (cr.P[2] != 0.0 && NeighborTarget(p, j) >= 0)
      ParticlesLedgerAdd(ctx->p, NeighborTarget(p, j), LEDGER_ROLLING, cr.P[2]);
    if (wet)
      (void)InteractionBridge(ctx, i, j, cp, HistorySlotsBridge(&nl->hs, nl->slot[k]),
                              HistorySlotsShape(&nl->hs, nl->slot[k]), &kin, st, res);
    *out = SPHERE_PAIR_FORCE_TORQUE;
  } else if (fl[k] & NEIGHBOR_TOUCHED) {
    cp = BodyPairMasses(ctx, i, j, kin.n, &SphereMemoFor(ctx, nl, k, i, j, mm)->cp, &cpb);
    ContactSeparate(ctx->model, cp, &nl->hs.h[nl->slot[k]], HistorySlotsRolling(&nl->hs, nl->slot[k]),
                    HistorySlotsTurning(&nl->hs, nl->slot[k]), &kin, st->dt, &cr);
    fl[k] &= ~NEIGHBOR_TOUCHED;
    for (int a = 0; a < 3; a++) res[a] = cr.F[a];
    res[9] = res[10] = 0.0, res[11] = cr.W;
    if (!(wet && InteractionBridge(ctx, i, j, cp, HistorySlotsBridge(&nl->hs, nl->slot[k]),
                                   HistorySlotsShape(&nl->hs, nl->slot[k]), &kin, st, res)))
      nl->slot[k] = -1; /* a zero history: its record stays unused until the next build */
    *out = SPHERE_PAIR_FORCE;
  } else if (wet && nl->slot[k] >= 0) { /* apart, held by a bridge */
    cp = BodyPairMasses(ctx, i, j, kin.n, &SphereMemoFor(ctx, nl, k, i, j, mm)->cp, &cpb);
    for (int a = 0; a < 3; a++) res[a] = 0.0;
    res[9] = res[10] = res[11] = 0.0;
    if (!InteractionBridge(ctx, i, j, cp, HistorySlotsBridge(&nl->hs, nl->slot[k]),
                           HistorySlotsShape(&nl->hs, nl->slot[k]), &kin, st, res))
      nl->slot[k] = -1;
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

PetscErrorCode SpherePairsGeneric(SphereSphere *ss, const InteractionContext *ctx, InteractionStep *st)
{
  SphereMemos mm;

  PetscFunctionBeginUser;
  SphereMemosReset(&mm);
  for (PetscInt k = 0; k < ss->nl.npair; k++) {
    PetscReal     res[CONTACT_RESULTS];
    SpherePairOut out;
    PetscCall(SpherePairGeneric(ss, ctx, k, st, &mm, res, &out, NULL));
    if (out == SPHERE_PAIR_NONE) continue;
    SphereAccumulate(ctx->p, ss->nl.ij[2 * k], ss->nl.ij[2 * k + 1], res, out);
    if (st->sink) SphereSinkPair(ctx->p, &ss->nl, k, st->sink, res);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
