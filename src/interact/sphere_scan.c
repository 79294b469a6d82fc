/* The sphere-sphere forces under every contact model, fused: pairs that
 * touched at the last step go through the contact kernel's lanes
 * (ContactBatchEvaluate), first touches through its scalar instantiation,
 * separations through the generic path; all accumulated in pair order.  The
 * bound is a minimum, the same in any order.  Most listed pairs touch
 * neither now nor before: the sieve (PairSieveRun) tells them from their
 * members' positions and radii alone, and the full path takes the rest.  A
 * contact of a body's sphere takes its masses projected on the contact
 * (BodyPairMasses, as the generic path does), its constants a row of their own.
 * In a wet run the sieve's pairs are joined by those a bridge holds apart
 * (which take the generic path) and a touching pair's bridge is added to its
 * contact's force, all of it in pair order after the lanes: the liquid's
 * and the ledger's sums see the generic path's order. */
#include "interact/sphere_scan.h"
#include "interact/pair_sieve.h"
#include "interact/body_pair.h"
#include "interact/bridge.h"
#include "contact/kernel_scalar.h"

/* Results of a window of pairs in pair order, accumulated once the window's
 * batched contacts are evaluated. */
typedef struct {
  PetscInt      n;
  LocalInt      i[CONTACT_BATCH], j[CONTACT_BATCH];
  unsigned char out[CONTACT_BATCH];
  PetscReal     res[CONTACT_RESULTS * CONTACT_BATCH];
  PetscReal     roll[CONTACT_BATCH]; /* a run with rolling resistance: each contact's rolling power */
  ContactPair   cp[CONTACT_BATCH];   /* a step that needs the bound: each contact's constants */
  /* a wet run: each row's pair, its batch lane (-1: none) and what the liquid asks of it */
  LocalInt           k[CONTACT_BATCH], b[CONTACT_BATCH];
  unsigned char      wet[CONTACT_BATCH];
  ContactBatch       batch;
  ContactNormalModel nm; /* the model's, formed once a scan: ContactNormalModelOf may walk the pair table */
} SphereWindow;

/* What a wet run's window row asks of the liquid after the lanes */
enum {
  SPHERE_WET_BRIDGE = 1, /* a touching pair: its bridge onto its contact's force */
  SPHERE_WET_GENERIC     /* a pair apart that holds a bridge: the generic path */
};

/* The turning spring and the rolling resistance of a first touch onto its
 * normal part (F, Ti, Tj, P; ContactTurningAdd, ContactRollingAdd, as
 * ContactEvaluate adds them); the rolling power into *P2. */
static void SphereSidesAdd(const InteractionContext *ctx, const ContactKernelModel *km, const ContactPair *cp,
                           ContactHistory *h, ContactTurning *tn, ContactRolling *rl, PetscInt i, PetscInt j,
                           const PetscReal n[3], const PetscReal v[3], const PetscReal vp[3], PetscReal dt,
                           PetscReal sd, PetscReal qd, PetscReal Fn, PetscReal Fn_applied, PetscReal dF, PetscReal F[3],
                           PetscReal Ti[3], PetscReal Tj[3], PetscReal P[2], PetscReal *P2)
{
  const Particles  *p = ctx->p;
  ContactKinematics k;
  ContactResult     r;

  for (int a = 0; a < 3; a++) {
    k.n[a] = n[a], k.v[a] = v[a], k.vp[a] = vp[a], k.wi[a] = p->w[3 * i + a], k.wj[a] = p->w[3 * j + a];
    k.wip[a] = p->wp[3 * i + a], k.wjp[a] = p->wp[3 * j + a], r.F[a] = F[a], r.Ti[a] = Ti[a], r.Tj[a] = Tj[a];
  }
  r.Fn = Fn_applied, r.P[0] = P[0], r.P[1] = P[1], r.P[2] = 0.0;
  if (tn && km->friction)
    ContactTurningAdd(km, cp->kc, cp->gc, cp->co->tangential.mu, cp->ri, cp->rj, h, tn, &k, dt, sd, qd, Fn, &r);
  if (rl) ContactRollingAdd(cp, rl, &k, dt, Fn, dF, &r);
  for (int a = 0; a < 3; a++) F[a] = r.F[a], Ti[a] = r.Ti[a], Tj[a] = r.Tj[a];
  P[1] = r.P[1], *P2 = r.P[2];
}

/* A particle pair's first touch, read straight from the particle arrays:
 * the kernel's scalar instantiation, the pair-only constants memoised.  Returns its CONTACT_RESULTS results, the
 * elastic energy and the overlap rate (the step bound's). */
static inline void SphereContactFused(const InteractionContext *ctx, const ContactNormalModel *nmp,
                                      const SphereMemo *mm, ContactHistory *h, ContactTurning *tn, ContactRolling *rl,
                                      PetscInt i, PetscInt j, const PetscReal r[3], PetscReal len, PetscReal d,
                                      PetscReal dt, PetscReal res[], PetscReal *P2, PetscReal *Uout, PetscReal *ddout)
{
  const Particles         *p  = ctx->p;
  const ContactModel      *md = ctx->model;
  const ContactPair       *cp = &mm->cp;
  const ContactKernelModel km = ContactKernelModelOf(md);
  ContactKernelModel       kk = km; /* with the turning spring: the kernel's normal part, then the spring */
  const ContactNormalModel nm = *nmp;
  const ContactBatchConst *bc = &mm->bc;
  ContactScalarNormalConst nc = {bc->s, bc->m, bc->zs, bc->cF, bc->ca, bc->cb, bc->cc, {bc->dmp}};
  PetscReal                n[3], v[3], vp[3], sd, qd, Fel, C, U, dF, J = 0.0, Fn, Fn_raw, Fn_applied;
  PetscReal               *F = res, *Ti = res + 3, *Tj = res + 6, *P = res + 9;
  PetscBool                first = PETSC_FALSE;

  ContactNormal(r, len, n);
  for (int a = 0; a < 3; a++) {
    v[a]  = p->v[3 * i + a] - p->v[3 * j + a];
    vp[a] = p->vp[3 * i + a] - p->vp[3 * j + a];
  }
  if (!h->touched) {
    h->touched = 1;
    h->v_imp   = -(v[0] * n[0] + v[1] * n[1] + v[2] * n[2]);
    first      = dt > 0.0 && h->v_imp > 0.0 ? PETSC_TRUE : PETSC_FALSE;
  }
  ContactScalarNormal(&nm, &nc, d, h->v_imp, km.friction && km.mindlin, &sd, &qd, &Fel, &C, &U, &dF);
  if (first) J = U / h->v_imp + DampingCoefficientIntegral(&cp->co->damping, &md->law, cp->s, cp->m, h->v_imp, d);
  if (tn) kk.friction = PETSC_FALSE;
  ContactScalarContact(&kk, cp->co->tangential.mu, cp->ri, cp->rj, cp->kc, cp->gc, n, v, vp, p->w + 3 * i, p->w + 3 * j,
                       p->wp + 3 * i, p->wp + 3 * j, dt, Fel, C, sd, qd, first, J, h->xi, ddout, &Fn, &Fn_raw,
                       &Fn_applied, F, Ti, Tj, P);
  *P2 = 0.0;
  if ((tn && km.friction) || rl)
    SphereSidesAdd(ctx, &km, cp, h, tn, rl, i, j, n, v, vp, dt, sd, qd, Fn, Fn_applied, dF, F, Ti, Tj, P, P2);
  /* the ledger's work of the touch */
  P[2]       = first ? ContactDampingWork(h->v_imp, J - U / h->v_imp, P[0], dt) : 0.0;
  *Uout      = U;
  h->d_last  = d;
  h->Fn_last = Fn;
  h->dt_last = dt;
}

/* The window's results into the particles in pair order (the generic path's
 * sums, bit for bit).  Pairs come in rows of one upper member (NeighborList:
 * by upper id, then lower): its force and torque stay in registers through
 * its run of pairs instead of going back to memory after each. */
static void SphereWindowAccumulate(Particles *p, const SphereWindow *win, PetscBool rolls)
{
  PetscReal     *f = p->f, *t = p->t, *ln = p->lnow;
  const PetscInt nl = ParticlesLedgerFull(p) ? p->nledger : 0; /* the pairs' powers: the full ledger's */
  /* the run's sums as scalars: as arrays they went through the stack, partly as pairs, stalling each load on the last
   * store; with the ledger's two powers of the pairs the upper member leads */
  PetscReal f0 = 0, f1 = 0, f2 = 0, t0 = 0, t1 = 0, t2 = 0, l0 = 0, l1 = 0;
  PetscInt  run = -1; /* the particle whose sums these are */

  for (PetscInt q = 0; q < win->n; q++) {
    const PetscReal *res = win->res + CONTACT_RESULTS * q;
    const unsigned   out = win->out[q];
    const PetscBool  tor = out == SPHERE_PAIR_FORCE_TORQUE ? PETSC_TRUE : PETSC_FALSE;
    PetscInt         ti, tj;
    if (out == SPHERE_PAIR_NONE) continue;
    ti = NeighborTarget(p, win->i[q]), tj = NeighborTarget(p, win->j[q]);
    if (tj != run) {
      if (run >= 0) {
        f[3 * run] = f0, f[3 * run + 1] = f1, f[3 * run + 2] = f2, t[3 * run] = t0, t[3 * run + 1] = t1,
              t[3 * run + 2] = t2;
        if (nl) ln[nl * run] = l0, ln[nl * run + 1] = l1;
      }
      run = tj;
      if (run >= 0) {
        f0 = f[3 * run], f1 = f[3 * run + 1], f2 = f[3 * run + 2], t0 = t[3 * run], t1 = t[3 * run + 1],
        t2 = t[3 * run + 2];
        if (nl) l0 = ln[nl * run], l1 = ln[nl * run + 1];
      }
    }
    if (ti >= 0) /* never the upper member's target: a pair's members have different ids */
      for (int a = 0; a < 3; a++) {
        f[3 * ti + a] += res[a];
        if (tor) t[3 * ti + a] += res[3 + a];
      }
    if (tj >= 0) {
      f0 -= res[0], f1 -= res[1], f2 -= res[2];
      if (tor) t0 += res[6], t1 += res[7], t2 += res[8];
      if (nl) { /* the ledger's, by the upper member */
        l0 += res[9], l1 += res[10];
        if (res[11] != 0.0) p->lwork[(nl + 1) * tj] += res[11];
      }
      if (rolls && win->roll[q] != 0.0)
        ParticlesLedgerAdd(p, tj, LEDGER_ROLLING, win->roll[q]); /* as the generic path */
    }
  }
  if (run >= 0) {
    f[3 * run] = f0, f[3 * run + 1] = f1, f[3 * run + 2] = f2, t[3 * run] = t0, t[3 * run + 1] = t1,
          t[3 * run + 2] = t2;
    if (nl) ln[nl * run] = l0, ln[nl * run + 1] = l1;
  }
}

/* Lane b after the lanes: a separation through the generic path, else the contact's rolling power and bound. */
static inline PetscErrorCode SphereLaneDone(SphereSphere *ss, const InteractionContext *ctx, SphereWindow *win,
                                            PetscInt b, SphereMemos *mm, InteractionStep *st, PetscBool rolls)
{
  const ContactBatch *bt = &win->batch;

  PetscFunctionBeginUser;
  if (bt->apart[b]) {
    SpherePairOut out;
    PetscCall(SpherePairGeneric(ss, ctx, bt->k[b], st, mm, win->res + CONTACT_RESULTS * bt->out[b], &out, NULL));
    win->roll[bt->out[b]] = 0.0; /* a separation: no rolling power */
    win->out[bt->out[b]]  = (unsigned char)out;
  } else {
    if (rolls) win->roll[bt->out[b]] = bt->P2[b];
    if (st->need)
      InteractionStepBound(st,
                           SphereContactBound(ctx, &win->cp[bt->out[b]], bt->ddot[b], bt->U[b],
                                              ss->nl.hs.h[bt->slot[b]].v_imp),
                           bt->i[b], bt->j[b]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A touching pair k's bridge onto its contact's force in res (after
 * ContactEvaluate on the generic path: its kinematics and masses). */
static void SphereBridgeAdd(SphereSphere *ss, const InteractionContext *ctx, PetscInt k, SphereMemos *mm,
                            InteractionStep *st, PetscReal *res)
{
  NeighborList      *nl = &ss->nl;
  const PetscInt     i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
  ContactKinematics  kin;
  ContactPair        cpb;
  const ContactPair *cp;

  SphereKinematics(nl, ctx->p, k, i, j, &kin);
  cp = BodyPairMasses(ctx, i, j, kin.n, &SphereMemoFor(ctx, nl, k, i, j, mm)->cp, &cpb);
  (void)InteractionBridge(ctx, i, j, cp, HistorySlotsBridge(&nl->hs, nl->slot[k]),
                          HistorySlotsShape(&nl->hs, nl->slot[k]), &kin, st, res);
}

/* A wet run's window after the lanes, row by row in pair order: each lane as
 * SphereLaneDone, a touching pair's bridge, a bridged pair apart through
 * the generic path. */
static PetscErrorCode SphereWindowWet(SphereSphere *ss, const InteractionContext *ctx, SphereWindow *win,
                                      SphereMemos *mm, InteractionStep *st, PetscBool rolls)
{
  PetscFunctionBeginUser;
  for (PetscInt q = 0; q < win->n; q++) {
    PetscReal *res = win->res + CONTACT_RESULTS * q;
    if (win->wet[q] == SPHERE_WET_GENERIC) {
      SpherePairOut out;
      /* a bridged pair touching again: its rolling power joins the window's, added in pair order */
      PetscCall(SpherePairGeneric(ss, ctx, win->k[q], st, mm, res, &out, &win->roll[q]));
      win->out[q] = (unsigned char)out;
      continue;
    }
    if (win->b[q] >= 0) {
      PetscCall(SphereLaneDone(ss, ctx, win, win->b[q], mm, st, rolls));
      if (win->batch.apart[win->b[q]]) continue; /* the generic path took its bridge */
    }
    SphereBridgeAdd(ss, ctx, win->k[q], mm, st, res);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The batch's contacts, then those of its pairs found apart through the
 * generic path, then every result of the window into the particles in pair order. */
static PetscErrorCode SphereWindowFlush(SphereSphere *ss, const InteractionContext *ctx, const ContactBatchModel *bm,
                                        SphereWindow *win, SphereMemos *mm, InteractionStep *st)
{
  Particles      *p     = ctx->p;
  ContactBatch   *bt    = &win->batch;
  const PetscBool rolls = ctx->model->rolls;

  PetscFunctionBeginUser;
  /* with bodies no kept damper C: a body's contact mass changes with its orientation */
  ContactBatchEvaluate(bm, bt, st->dt, p->v, p->vp, p->w, p->wp, ss->nl.hs.h, HistorySlotsTurning(&ss->nl.hs, 0),
                       HistorySlotsRolling(&ss->nl.hs, 0), p->body ? NULL : HistorySlotsDamp(&ss->nl.hs), win->res);
  if (HistorySlotsHas(&ss->nl.hs, CONTACT_SIDE_BRIDGE)) PetscCall(SphereWindowWet(ss, ctx, win, mm, st, rolls));
  else
    for (PetscInt b = 0; b < bt->n; b++) PetscCall(SphereLaneDone(ss, ctx, win, b, mm, st, rolls));
  if (bt->deep) st->deep = PETSC_TRUE, bt->deep = PETSC_FALSE;
  SphereWindowAccumulate(p, win, rolls);
  win->n = bt->n = bt->npool = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SphereApproachBound for an untouched pair apart, from its separation r
 * (squared length rr, radii sum rs) with the generic path's arithmetic:
 * ContactNormal, v = v_i - v_j half-step. */
static inline void SphereApproachFrom(const InteractionContext *ctx, const NeighborList *nl, PetscInt k, PetscInt i,
                                      PetscInt j, const PetscReal r[3], PetscReal rs, PetscReal rr, SphereMemos *mm,
                                      InteractionStep *st)
{
  const PetscReal *v   = ctx->p->v;
  PetscReal        len = sqrt(rr), n[3];
  ContactNormal(r, len, n);
  SphereApproachBound(ctx, nl, k, i, j,
                      -((v[3 * i] - v[3 * j]) * n[0] + (v[3 * i + 1] - v[3 * j + 1]) * n[1] +
                        (v[3 * i + 2] - v[3 * j + 2]) * n[2]),
                      rs - len, mm, st);
}

/* How far apart an untouched pair may be and still bound the next step:
 * SphereApproachBound wants 2 vn dt_up, or vn dt_up + a_reach dt_up^2,
 * above the gap, and vn is at most twice the rank's largest speed; with
 * room for rounding. */
static PetscReal SphereApproachReach(const InteractionContext *ctx, const InteractionStep *st)
{
  const Particles *p  = ctx->p;
  PetscReal        v2 = 0.0, reach;

  if (!st->need) return 0.0;
  for (PetscInt i = 0; i < p->n + p->nghost; i++) {
    const PetscReal *v = p->v + 3 * i;
    if (ctx->root[i] != i) continue; /* an image made in place: its root's motion, not forwarded to it */
    v2 = PetscMax(v2, v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  }
  reach = 4.004 * sqrt(v2) * st->dt_up + 1.001 * st->a_reach * st->dt_up * st->dt_up;
  /* a NaN or an overflow: every pair is within reach */
  return reach <= PETSC_MAX_REAL ? reach : PETSC_INFINITY;
}

/* A pair that touched at the last step into the batch, its constants row c of the pool. */
static inline void SphereBatchPut(ContactBatch *bt, PetscInt c, PetscInt k, PetscInt i, PetscInt j, PetscInt slot,
                                  PetscInt out, const PetscReal r[3], PetscReal rs)
{
  PetscInt b = bt->n++;
  bt->k[b] = k, bt->i[b] = i, bt->j[b] = j, bt->slot[b] = slot, bt->out[b] = out;
  for (int a = 0; a < 3; a++) bt->r[a][b] = r[a];
  bt->rs[b] = rs;
  bt->c[b]  = &bt->pool[c];
}

/* A pair that touched at the last step into the batch, with its constants. */
static inline void SphereBatchAdd(ContactBatch *bt, const SphereMemo *mm, PetscInt k, PetscInt i, PetscInt j,
                                  PetscInt slot, PetscInt out, const PetscReal r[3], PetscReal rs)
{
  /* the constants are copied once per run of pairs of one memo filling: a
   * memo slot may be refilled before the batch is evaluated */
  if (!bt->npool || bt->pool_gen != mm->gen) {
    bt->pool[bt->npool++] = mm->bc;
    bt->pool_gen          = mm->gen;
  }
  SphereBatchPut(bt, bt->npool - 1, k, i, j, slot, out, r, rs);
}

/* A contact of a body's sphere: mm's constants with the masses projected on
 * the contact's normal (BodyPairMasses, from r as SphereKinematics forms
 * it) into b; the generic path's constants, bit for bit. */
static void SphereBodyMemo(const InteractionContext *ctx, const SphereMemo *mm, PetscInt i, PetscInt j,
                           const PetscReal r[3], SphereMemo *b)
{
  PetscReal n[3];
  ContactNormal(r, sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]), n);
  /* b's cp and bc are what its readers take */
  if (BodyPairMasses(ctx, i, j, n, &mm->cp, &b->cp) == &mm->cp) *b = *mm;
  else ContactBatchConstOf(ctx->model, &b->cp, &b->bc);
}

/* A body's contact that touched at the last step into the batch, with a pool
 * row of its own (its masses change with the bodies' orientations). */
static __attribute__((noinline)) void SphereBatchAddBody(const InteractionContext *ctx, SphereWindow *win,
                                                         const SphereMemo *mm, PetscInt k, PetscInt i, PetscInt j,
                                                         PetscInt slot, PetscInt q, const PetscReal r[3], PetscReal rs,
                                                         PetscBool need)
{
  ContactBatch *bt = &win->batch;
  SphereMemo    b;

  SphereBodyMemo(ctx, mm, i, j, r, &b);
  bt->pool[bt->npool++] = b.bc;
  bt->pool_gen          = -1; /* no memo's: the next pair of a memo takes a row anew */
  SphereBatchPut(bt, bt->npool - 1, k, i, j, slot, q, r, rs);
  if (need) win->cp[q] = b.cp;
}

/* A pair found touching that did not touch at the last step: a new
 * history, its contact through SphereContactFused (the impulse weighting of
 * a first step) into the window's row q, and its bound.  Out of line: first
 * touches are few, and inlined into the scan their every-model arithmetic
 * weighed on its loop. */
static __attribute__((noinline)) PetscErrorCode SphereFirstTouch(SphereSphere *ss, const InteractionContext *ctx,
                                                                 PetscInt k, PetscInt i, PetscInt j,
                                                                 const PetscReal r[3], PetscReal len, PetscReal d,
                                                                 SphereMemos *mm, SphereWindow *win, PetscInt q,
                                                                 InteractionStep *st)
{
  NeighborList     *nl = &ss->nl;
  const SphereMemo *m;
  SphereMemo        bm; /* a body's sphere: its masses projected on the contact */
  ContactHistory   *h;
  PetscReal         U, ddot;

  PetscFunctionBeginUser;
  PetscCall(HistorySlotsNew(&nl->hs, &nl->slot[k]));
  m = SphereMemoFor(ctx, nl, k, i, j, mm);
  if (ctx->p->body) { /* a pair without a body's sphere keeps m's constants */
    SphereBodyMemo(ctx, m, i, j, r, &bm);
    m = &bm;
  }
  h = &nl->hs.h[nl->slot[k]];
  {
    PetscReal *res = win->res + CONTACT_RESULTS * q;
    SphereContactFused(ctx, &win->nm, m, h, HistorySlotsTurning(&nl->hs, nl->slot[k]),
                       HistorySlotsRolling(&nl->hs, nl->slot[k]), i, j, r, len, d, st->dt, res, &win->roll[q], &U,
                       &ddot);
  }
  if (InteractionDeep(d, PetscMin(ctx->p->radius[i], ctx->p->radius[j]))) st->deep = PETSC_TRUE;
  if (st->need) InteractionStepBound(st, SphereContactBound(ctx, &m->cp, ddot, U, h->v_imp), i, j);
  nl->flag[k] |= NEIGHBOR_TOUCHED;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the scan reads of every pair, loaded once: through the context and
 * the list, each pair would load them again after every byte stored into
 * the window (a char store may alias anything). */
typedef struct {
  const LocalInt      *ij, *slot;
  const unsigned char *flag;
  const PetscReal     *x, *rad;
  const LocalInt      *pflag; /* a run with bodies: the particles' flags (members); else NULL */
  PetscBool            need;
  PetscReal            reach;
} SphereScanView;

/* Pair k, which the sieve passed: into the window's row q (touching at the
 * last step: the batch; a first touch: evaluated now), or its approach
 * bound, or nothing.  Whether row q was taken. */
static inline __attribute__((always_inline)) PetscErrorCode SphereScanPair(SphereSphere             *ss,
                                                                           const InteractionContext *ctx,
                                                                           const SphereScanView *vw, PetscInt k,
                                                                           SphereMemos *mm, SphereWindow *win,
                                                                           InteractionStep *st, PetscBool *taken)
{
  const NeighborList *nl = &ss->nl;
  const PetscReal    *x = vw->x, *rad = vw->rad;
  const PetscInt      i = vw->ij[2 * k], j = vw->ij[2 * k + 1], q = win->n;
  const unsigned      f = vw->flag[k];
  PetscReal           r[3], rs = rad[i] + rad[j], rr, len, d;

  PetscFunctionBeginUser;
  *taken = PETSC_FALSE;
  for (int c = 0; c < 3; c++) r[c] = x[3 * i + c] - x[3 * j + c];
  if (f & NEIGHBOR_IMAGED) { /* NeighborPairSeparation's arithmetic */
    const PetscReal *t = nl->shift[nl->image[k]];
    for (int c = 0; c < 3; c++)
      if (t[c] != 0.0) r[c] += t[c];
  }
  if (f & NEIGHBOR_TOUCHED) { /* its history is touched: the batch tells touching from apart */
    const SphereMemo *m = SphereMemoFor(ctx, nl, k, i, j, mm);
    if (vw->pflag && ((vw->pflag[i] | vw->pflag[j]) & PARTICLE_MEMBER))
      SphereBatchAddBody(ctx, win, m, k, i, j, vw->slot[k], q, r, rs, vw->need);
    else {
      SphereBatchAdd(&win->batch, m, k, i, j, vw->slot[k], q, r, rs);
      if (vw->need) win->cp[q] = m->cp;
    }
  } else {
    rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    /* apart (d <= 0): at most an approaching pair's bound, if it is within reach */
    if (!(rr < rs * rs)) {
      if (vw->need && rr < PairSieveReach2(rs, vw->reach)) SphereApproachFrom(ctx, nl, k, i, j, r, rs, rr, mm, st);
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    len = sqrt(rr), d = rs - len;
    if (!(d > 0.0)) {
      if (vw->need) SphereApproachFrom(ctx, nl, k, i, j, r, rs, rr, mm, st); /* rr < rs^2: within reach */
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(SphereFirstTouch(ss, ctx, k, i, j, r, len, d, mm, win, q, st));
  }
  win->i[q] = (LocalInt)i, win->j[q] = (LocalInt)j, win->out[q] = SPHERE_PAIR_FORCE_TORQUE;
  *taken = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SphereScanPair in a wet run: the row's pair and batch lane kept for the liquid's turn after the lanes
 * (SphereWindowWet), a pair apart that holds a bridge left to the generic path there. */
static inline PetscErrorCode SphereScanPairWet(SphereSphere *ss, const InteractionContext *ctx,
                                               const SphereScanView *vw, PetscInt k, SphereMemos *mm, SphereWindow *win,
                                               InteractionStep *st, PetscBool *taken)
{
  const unsigned f = vw->flag[k];
  const PetscInt q = win->n;

  PetscFunctionBeginUser;
  win->k[q] = (LocalInt)k, win->b[q] = (f & NEIGHBOR_TOUCHED) ? (LocalInt)win->batch.n : -1;
  win->wet[q] = !(f & NEIGHBOR_TOUCHED) && vw->slot[k] >= 0 ? SPHERE_WET_GENERIC : SPHERE_WET_BRIDGE;
  if (win->wet[q] == SPHERE_WET_GENERIC) {
    win->i[q] = vw->ij[2 * k], win->j[q] = vw->ij[2 * k + 1], win->out[q] = SPHERE_PAIR_NONE, win->roll[q] = 0.0;
    *taken = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SphereScanPair(ss, ctx, vw, k, mm, win, st, taken));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sieve's passed pairs at[0 .. na) of k0 .. k1-1 joined, in order, by the pairs apart that hold a
 * bridge (a history without a touch): the sieve tells pairs by their distance alone.  Their count. */
static PetscInt SphereSieveBridged(const NeighborList *nl, PetscInt k0, PetscInt k1, LocalInt *at, PetscInt na)
{
  LocalInt sieved[PAIR_SIEVE_CHUNK];
  PetscInt n = 0, a = 0;

  for (PetscInt q = 0; q < na; q++) sieved[q] = at[q];
  for (PetscInt k = k0; k < k1; k++) {
    const PetscBool passed = a < na && sieved[a] == k ? PETSC_TRUE : PETSC_FALSE;
    if (passed) a++;
    if (passed || (nl->slot[k] >= 0 && !(nl->flag[k] & NEIGHBOR_TOUCHED))) at[n++] = (LocalInt)k;
  }
  return n;
}

/* SphereScanFused's pairs in a wet run (a loop of its own: the dry one does not test for liquid). */
static __attribute__((noinline)) PetscErrorCode SphereScanWet(SphereSphere *ss, const InteractionContext *ctx,
                                                              const SphereScanView *vw, const PairSieve *sv,
                                                              const ContactBatchModel *bm, SphereMemos *mm,
                                                              SphereWindow *win, InteractionStep *st)
{
  const NeighborList *nl = &ss->nl;
  LocalInt            at[PAIR_SIEVE_CHUNK];

  PetscFunctionBeginUser;
  for (PetscInt k0 = 0, k1; k0 < nl->npair; k0 = k1) {
    PetscInt na;
    k1 = PetscMin(k0 + PAIR_SIEVE_CHUNK, nl->npair);
    na = SphereSieveBridged(nl, k0, k1, at, PairSieveRun(sv, k0, k1, at));
    for (PetscInt a = 0; a < na; a++) {
      PetscBool taken;
      PetscCall(SphereScanPairWet(ss, ctx, vw, at[a], mm, win, st, &taken));
      if (taken && ++win->n == CONTACT_BATCH) PetscCall(SphereWindowFlush(ss, ctx, bm, win, mm, st));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SphereScanFused(SphereSphere *ss, const InteractionContext *ctx, InteractionStep *st)
{
  const NeighborList *nl = &ss->nl;
  SphereWindow       *win;
  SphereMemos         mm;
  ContactBatchModel   bm = ContactBatchModelOf(ctx->model, st->need);
  PairSieve       sv  = {nl->ij, nl->flag, ctx->p->x, ctx->p->radius, st->need ? SphereApproachReach(ctx, st) : -1.0};
  const PetscBool wet = HistorySlotsHas(&nl->hs, CONTACT_SIDE_BRIDGE);
  const SphereScanView vw = {nl->ij,    nl->slot,       nl->flag,
                             ctx->p->x, ctx->p->radius, ctx->p->body ? ctx->p->flags : NULL,
                             st->need,  sv.reach};
  LocalInt             at[PAIR_SIEVE_CHUNK];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(1, &win));
  SphereMemosReset(&mm);
  win->n = win->batch.n = win->batch.npool = 0;
  win->nm                                  = bm.nm;
  win->batch.deep                          = PETSC_FALSE;
  if (wet) PetscCall(SphereScanWet(ss, ctx, &vw, &sv, &bm, &mm, win, st));
  else
    for (PetscInt k0 = 0, k1; k0 < nl->npair; k0 = k1) {
      PetscInt na;
      k1 = PetscMin(k0 + PAIR_SIEVE_CHUNK, nl->npair);
      na = PairSieveRun(&sv, k0, k1, at); /* every imaged pair among them: the sieve applies no shift */
      for (PetscInt a = 0; a < na; a++) {
        PetscBool taken;
        PetscCall(SphereScanPair(ss, ctx, &vw, at[a], &mm, win, st, &taken));
        if (taken && ++win->n == CONTACT_BATCH) PetscCall(SphereWindowFlush(ss, ctx, &bm, win, &mm, st));
      }
    }
  PetscCall(SphereWindowFlush(ss, ctx, &bm, win, &mm, st));
  PetscCall(PetscFree(win));
  PetscFunctionReturn(PETSC_SUCCESS);
}
