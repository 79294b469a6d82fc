#include "engine/engine_forces.h"
#include "contact/contact_batch.h"
#include "contact/kernel_scalar.h"
#include "interact/pair_sieve.h"

static inline PetscReal Norm3(const PetscReal *a)
{
  return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/* Kinematics of pair pk (members i, j) from half-step and predicted velocities. */
static void EngineKinematics(const Engine *e, PetscInt pk, PetscInt i, PetscInt j, ContactKinematics *k, PetscReal *d)
{
  const Particles *p = &e->p;
  if (j < 0) {
    const Wall *w = &e->walls[-1 - j];
    PetscReal   h = 0.0;
    for (int a = 0; a < 3; a++) {
      h += (p->x[3 * i + a] - w->p[a]) * w->n[a];
      k->n[a]  = w->n[a];
      k->v[a]  = p->v[3 * i + a];
      k->vp[a] = p->vp[3 * i + a];
      k->wi[a] = p->w[3 * i + a];
      k->wip[a] = p->wp[3 * i + a];
      k->wj[a] = k->wjp[a] = 0.0;
    }
    *d = p->radius[i] - h;
  } else {
    PetscReal r[3], len;
    NeighborPairSeparation(&e->nl, p, pk, i, j, r);
    len = Norm3(r);
    ContactNormal(r, len, k->n);
    for (int a = 0; a < 3; a++) {
      k->v[a]   = p->v[3 * i + a] - p->v[3 * j + a];
      k->vp[a]  = p->vp[3 * i + a] - p->vp[3 * j + a];
      k->wi[a]  = p->w[3 * i + a];
      k->wj[a]  = p->w[3 * j + a];
      k->wip[a] = p->wp[3 * i + a];
      k->wjp[a] = p->wp[3 * j + a];
    }
    *d = p->radius[i] + p->radius[j] - len;
  }
  k->d = *d;
}

/* Pair constants from the two bodies; most pairs of a deck share radii and
 * masses, so the last set of each kind (free, either member frozen, wall) is
 * kept and reused when the bodies match: a chute's base pairs do not evict
 * the bed's. */
typedef struct {
  PetscBool   valid;
  PetscInt64  gen;  /* which filling (a slot may be refilled with another kind's constants) */
  PetscInt    kind; /* frozen flags of i and j, or wall */
  PetscReal   key[6];
  ContactPair cp;
  /* pair-only factors of the fused kernel, each the leading operation of its
   * expression in the generic path, so the same bits */
  PetscReal   zs; /* harmonic zeta * sqrt(2 m) */
  PetscReal   cF; /* sqrt(s k (p + 1)) of F / sqrt(U) */
  ContactBatchConst bc; /* what the lanes read */
} EnginePairMemo;

/* Memo slots: one per pair of body classes (NeighborList body), then one
 * per class against a wall, then the last set of each kind for the rest
 * (frozen flags of i and j, or wall). */
#define ENGINE_MEMO_CLASSES (NEIGHBOR_BODY_CLASSES * (NEIGHBOR_BODY_CLASSES + 1))
#define ENGINE_MEMO_KINDS   (ENGINE_MEMO_CLASSES + 5)

static PetscInt64      engine_memo_gen = 0; /* fillings of memo slots, for EngineBatchAdd */
static EnginePairMemo *EnginePairMemoSet(const Engine *e, PetscInt i, PetscInt j, EnginePairMemo *mms);

/* The memo of pair k (members i, j): its classes are in its flag. */
static inline EnginePairMemo *EnginePairMemoFor(const Engine *e, PetscInt k, PetscInt i, PetscInt j, EnginePairMemo *mms)
{
  PetscInt cls = e->nl.flag[k] >> NEIGHBOR_CLASS_SHIFT;
  if (cls != NEIGHBOR_CLASS_NONE && mms[cls].valid) return &mms[cls]; /* the same bodies: the same constants */
  return EnginePairMemoSet(e, i, j, mms);
}

/* The constants of (i, j) into the memo slot of their classes, or of their kind. */
static EnginePairMemo *EnginePairMemoSet(const Engine *e, PetscInt i, PetscInt j, EnginePairMemo *mms)
{
  const Particles *p    = &e->p;
  PetscInt         kind = j < 0 ? 4 : (p->flags[i] & PARTICLE_FROZEN ? 1 : 0) | (p->flags[j] & PARTICLE_FROZEN ? 2 : 0);
  PetscReal        key[6];
  PetscInt         bi = e->nl.body[i], bj = j < 0 ? NEIGHBOR_BODY_CLASSES : e->nl.body[j];
  EnginePairMemo  *mm = bi >= 0 && bj >= 0 ? &mms[NEIGHBOR_PAIR_CLASS(bi, bj)] : &mms[ENGINE_MEMO_CLASSES + kind];

  key[0] = p->radius[i], key[1] = p->mass[i], key[2] = p->inertia[i];
  if (j < 0) key[3] = key[4] = key[5] = 0.0;
  else key[3] = p->radius[j], key[4] = p->mass[j], key[5] = p->inertia[j];
  if (mm->valid && mm->kind == kind && key[0] == mm->key[0] && key[1] == mm->key[1] && key[2] == mm->key[2] && key[3] == mm->key[3] && key[4] == mm->key[4] && key[5] == mm->key[5]) return mm;
  if (j < 0) ContactPairSetUp(&e->model, key[0], key[1], key[2], 0.0, 0.0, 0.0, PETSC_TRUE, &mm->cp);
  else {
    ContactPairSetUp(&e->model, key[0], key[1], key[2], key[3], key[4], key[5], PETSC_FALSE, &mm->cp);
    /* a frozen body has infinite mass: the contact moves only the other one */
    if (kind == 1 || kind == 2) {
      PetscInt f = kind == 2 ? i : j;
      mm->cp.m  = p->mass[f];
      mm->cp.mt = 1.0 / (1.0 / p->mass[f] + p->radius[f] * p->radius[f] / p->inertia[f]);
      ContactPairTangential(&e->model, &mm->cp);
    }
  }
  mm->zs    = e->model.damping.zeta * sqrt(2.0 * mm->cp.m);
  mm->cF    = sqrt(mm->cp.s * e->model.law.k[0] * (e->model.law.p[0] + 1.0));
  mm->bc.s = mm->cp.s, mm->bc.ri = mm->cp.ri, mm->bc.rj = mm->cp.rj, mm->bc.kc = mm->cp.kc, mm->bc.gc = mm->cp.gc, mm->bc.zs = mm->zs, mm->bc.cF = mm->cF;
  mm->valid = PETSC_TRUE;
  mm->gen   = ++engine_memo_gen;
  mm->kind  = kind;
  for (int a = 0; a < 6; a++) mm->key[a] = key[a];
  return mm;
}

static inline const ContactPair *EnginePairConstants(const Engine *e, PetscInt k, PetscInt i, PetscInt j, EnginePairMemo *mms)
{
  return &EnginePairMemoFor(e, k, i, j, mms)->cp;
}

/* The fused kernel covers the common model: F = s k d^1.5 (Hertz), harmonic
 * damping, a constant or Mindlin tangential spring or none. */
static PetscBool EngineFusable(const ContactModel *m)
{
  const NormalLaw *law = &m->law;
  return law->type != NORMAL_LAW_TABLE && law->nterm == 1 && law->p[0] == 1.5 && m->damping.type == DAMPING_HARMONIC ? PETSC_TRUE : PETSC_FALSE;
}

/* A particle pair's first touch under EngineFusable, read straight from the
 * particle arrays: the contact kernel's scalar instantiation with the Hertz
 * law's closed form, the pair-only roots memoised.  Returns the force on i,
 * the torques on i and j, the elastic energy and the overlap rate (the step
 * bound's). */
static inline void EngineContactFused(const Engine *e, const EnginePairMemo *mm, ContactHistory *h, PetscInt i, PetscInt j, const PetscReal r[3], PetscReal len, PetscReal d, PetscReal dt, PetscReal F[3], PetscReal Ti[3], PetscReal Tj[3], PetscReal *Uout, PetscReal *ddout)
{
  const Particles         *p  = &e->p;
  const ContactModel      *md = &e->model;
  const ContactPair       *cp = &mm->cp;
  const ContactKernelModel km = ContactKernelModelOf(md);
  PetscReal                n[3], v[3], vp[3], sd, qd, dp, Fel, C, U, J = 0.0, Fn, Fn_raw, Fn_applied;
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
  ContactScalarHertzHarmonic(md->law.k[0], cp->s, mm->zs, mm->cF, d, &sd, &qd, &dp, &Fel, &C);
  U = ContactScalarHertzEnergy(md->law.k[0], md->law.p[0] + 1.0, cp->s, dp, d);
  if (first) J = U / h->v_imp + DampingCoefficientIntegral(&md->damping, &md->law, cp->s, cp->m, h->v_imp, d);
  ContactScalarContact(&km, cp->ri, cp->rj, cp->kc, cp->gc, n, v, vp, p->w + 3 * i, p->w + 3 * j, p->wp + 3 * i, p->wp + 3 * j, dt, Fel, C, sd, qd, first, J, h->xi, ddout, &Fn, &Fn_raw, &Fn_applied, F, Ti, Tj);
  *Uout      = U;
  h->d_last  = d;
  h->Fn_last = Fn;
  h->dt_last = dt;
}

/* A pair's result: force on i (0-2), torque on i (3-5) and on j (6-8). */
typedef enum {
  ENGINE_PAIR_NONE,
  ENGINE_PAIR_FORCE,       /* a separation's correction: force only */
  ENGINE_PAIR_FORCE_TORQUE /* a contact */
} EnginePairOut;

/* Into the owned particles (or owned copies of self-images); each particle
 * receives its pairs in pair order, which is its partner-id order. */
static inline void EngineAccumulate(const Particles *p, PetscReal *f, PetscReal *t, PetscInt i, PetscInt j, const PetscReal res[9], EnginePairOut out)
{
  PetscInt ti = NeighborTarget(p, i), tj = j >= 0 ? NeighborTarget(p, j) : -1;
  if (ti >= 0)
    for (int a = 0; a < 3; a++) {
      f[3 * ti + a] += res[a];
      if (out == ENGINE_PAIR_FORCE_TORQUE) t[3 * ti + a] += res[3 + a];
    }
  if (tj >= 0)
    for (int a = 0; a < 3; a++) {
      f[3 * tj + a] -= res[a];
      if (out == ENGINE_PAIR_FORCE_TORQUE) t[3 * tj + a] += res[6 + a];
    }
}

/* The step bound of a contact from its overlap rate and elastic energy. */
static inline PetscReal EngineContactBound(const Engine *e, const ContactPair *cp, PetscReal ddot, PetscReal U, PetscReal v_imp)
{
  return ContactStepBound(&e->model, cp, &e->ctl, 0.5 * cp->m * ddot * ddot + U, v_imp);
}

/* A pair apart (overlap d <= 0) closing at normal speed vn: its bound into b
 * if it may touch within the next step, at most dt_up long. */
static inline void EngineApproachBound(const Engine *e, PetscInt k, PetscInt i, PetscInt j, PetscReal vn, PetscReal d, PetscReal dt_up, EnginePairMemo *mm, PetscReal *b)
{
  if (vn > 0.0 && -d < 2.0 * vn * dt_up) {
    const ContactPair *cp = EnginePairConstants(e, k, i, j, mm);
    *b                    = PetscMin(*b, ContactStepBound(&e->model, cp, &e->ctl, 0.5 * cp->m * vn * vn, vn));
  }
}

/* Pair k through the generic path (ContactEvaluate, ContactSeparate) and,
 * with need, the step bound of a contact or an approaching pair into b. */
static PetscErrorCode EnginePairGeneric(Engine *e, PetscInt k, PetscReal dt, PetscReal dt_up, PetscBool need, EnginePairMemo *mm, PetscReal *b, PetscReal res[9], EnginePairOut *out)
{
  Particles         *p = &e->p;
  NeighborList      *nl = &e->nl;
  unsigned char     *fl = nl->flag;
  PetscInt           i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
  const ContactPair *cp;
  PetscReal          d;
  ContactKinematics  kin;
  ContactResult      cr;

  PetscFunctionBeginUser;
  *out = ENGINE_PAIR_NONE;
  if (j >= 0 && !need && !(fl[k] & NEIGHBOR_TOUCHED)) { /* most listed pairs do not touch: overlap first, from positions alone */
    PetscReal r[3], rs = p->radius[i] + p->radius[j];
    if (fl[k] & NEIGHBOR_IMAGED) NeighborPairSeparation(nl, p, k, i, j, r);
    else /* equal images: NeighborPairSeparation adds nothing */
      for (int a = 0; a < 3; a++) r[a] = p->x[3 * i + a] - p->x[3 * j + a];
    if (r[0] * r[0] + r[1] * r[1] + r[2] * r[2] >= rs * rs) PetscFunctionReturn(PETSC_SUCCESS);
  }
  EngineKinematics(e, k, i, j, &kin, &d);
  if (d > 0.0) {
    ContactHistory *h;
    if (nl->slot[k] < 0) PetscCall(NeighborHistoryNew(nl, k));
    h  = &nl->h[nl->slot[k]];
    cp = EnginePairConstants(e, k, i, j, mm);
    ContactEvaluate(&e->model, cp, h, &kin, dt, &cr);
    fl[k] |= NEIGHBOR_TOUCHED;
    if (need) *b = PetscMin(*b, EngineContactBound(e, cp, cr.ddot, cr.U, h->v_imp));
    for (int a = 0; a < 3; a++) res[a] = cr.F[a], res[3 + a] = cr.Ti[a], res[6 + a] = cr.Tj[a];
    *out = ENGINE_PAIR_FORCE_TORQUE;
  } else if (fl[k] & NEIGHBOR_TOUCHED) {
    cp = EnginePairConstants(e, k, i, j, mm);
    ContactSeparate(&e->model, cp, &nl->h[nl->slot[k]], &kin, dt, &cr);
    fl[k] &= ~NEIGHBOR_TOUCHED;
    nl->slot[k] = -1; /* a zero history: its record stays unused until the next build */
    for (int a = 0; a < 3; a++) res[a] = cr.F[a];
    *out = ENGINE_PAIR_FORCE;
  } else if (need) EngineApproachBound(e, k, i, j, -(kin.v[0] * kin.n[0] + kin.v[1] * kin.n[1] + kin.v[2] * kin.n[2]), d, dt_up, mm, b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Results of a window of pairs in pair order, accumulated once the window's
 * batched contacts are evaluated. */
typedef struct {
  PetscInt      n;
  LocalInt      i[CONTACT_BATCH], j[CONTACT_BATCH];
  unsigned char out[CONTACT_BATCH];
  PetscReal     res[9 * CONTACT_BATCH];
  ContactPair   cp[CONTACT_BATCH]; /* a step that needs the bound: each contact's constants */
  ContactBatch  batch;
} EngineWindow;

/* What a step asks of the fused path besides forces: the step bound. */
typedef struct {
  PetscBool need;  /* the bound is wanted (EngineForces) */
  PetscReal dt_up; /* the next step's longest: a pair further apart cannot touch in it */
  PetscReal b;     /* the bound so far */
} EngineBound;

/* The window's results into the particles in pair order (EngineAccumulate's
 * sums, bit for bit).  Pairs come in rows of one upper member (NeighborList:
 * by upper id, then lower): its force and torque stay in registers through
 * its run of pairs instead of going back to memory after each. */
static void EngineWindowAccumulate(Particles *p, const EngineWindow *win)
{
  PetscReal *f = p->f, *t = p->t;
  /* the run's sums as scalars: as arrays they went through the stack, partly as pairs, stalling each load on the last store */
  PetscReal  f0 = 0, f1 = 0, f2 = 0, t0 = 0, t1 = 0, t2 = 0;
  PetscInt   run = -1; /* the particle whose sums these are */

  for (PetscInt q = 0; q < win->n; q++) {
    const PetscReal *res = win->res + 9 * q;
    const unsigned   out = win->out[q];
    const PetscBool  tor = out == ENGINE_PAIR_FORCE_TORQUE ? PETSC_TRUE : PETSC_FALSE;
    PetscInt         ti, tj;
    if (out == ENGINE_PAIR_NONE) continue;
    ti = NeighborTarget(p, win->i[q]), tj = win->j[q] >= 0 ? NeighborTarget(p, win->j[q]) : -1;
    if (tj != run) {
      if (run >= 0) f[3 * run] = f0, f[3 * run + 1] = f1, f[3 * run + 2] = f2, t[3 * run] = t0, t[3 * run + 1] = t1, t[3 * run + 2] = t2;
      run = tj;
      if (run >= 0) f0 = f[3 * run], f1 = f[3 * run + 1], f2 = f[3 * run + 2], t0 = t[3 * run], t1 = t[3 * run + 1], t2 = t[3 * run + 2];
    }
    if (ti >= 0) /* never the upper member's target: a pair's members have different ids */
      for (int a = 0; a < 3; a++) {
        f[3 * ti + a] += res[a];
        if (tor) t[3 * ti + a] += res[3 + a];
      }
    if (tj >= 0) {
      f0 -= res[0], f1 -= res[1], f2 -= res[2];
      if (tor) t0 += res[6], t1 += res[7], t2 += res[8];
    }
  }
  if (run >= 0) f[3 * run] = f0, f[3 * run + 1] = f1, f[3 * run + 2] = f2, t[3 * run] = t0, t[3 * run + 1] = t1, t[3 * run + 2] = t2;
}

/* The batch's contacts, then those of its pairs found apart through the
 * generic path, then every result of the window into the particles in pair order. */
static PetscErrorCode EngineWindowFlush(Engine *e, const ContactBatchModel *bm, EngineWindow *win, PetscReal dt, EnginePairMemo *mm, EngineBound *eb)
{
  Particles    *p  = &e->p;
  ContactBatch *bt = &win->batch;

  PetscFunctionBeginUser;
  ContactBatchEvaluate(bm, bt, dt, p->v, p->vp, p->w, p->wp, e->nl.h, win->res);
  for (PetscInt b = 0; b < bt->n; b++)
    if (bt->apart[b]) {
      EnginePairOut out;
      PetscCall(EnginePairGeneric(e, bt->k[b], dt, eb->dt_up, eb->need, mm, &eb->b, win->res + 9 * bt->out[b], &out));
      win->out[bt->out[b]] = (unsigned char)out;
    } else if (eb->need) eb->b = PetscMin(eb->b, EngineContactBound(e, &win->cp[bt->out[b]], bt->ddot[b], bt->U[b], e->nl.h[bt->slot[b]].v_imp));
  EngineWindowAccumulate(p, win);
  win->n = bt->n = bt->npool = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* EngineApproachBound for an untouched particle pair apart, from its
 * separation r (squared length rr, radii sum rs) with the generic path's
 * arithmetic: ContactNormal, v = v_i - v_j half-step. */
static inline void EngineApproachFrom(const Engine *e, PetscInt k, PetscInt i, PetscInt j, const PetscReal r[3], PetscReal rs, PetscReal rr, EnginePairMemo *mm, EngineBound *eb)
{
  const PetscReal *v = e->p.v;
  PetscReal        len = sqrt(rr), n[3];
  ContactNormal(r, len, n);
  EngineApproachBound(e, k, i, j, -((v[3 * i] - v[3 * j]) * n[0] + (v[3 * i + 1] - v[3 * j + 1]) * n[1] + (v[3 * i + 2] - v[3 * j + 2]) * n[2]), rs - len, eb->dt_up, mm, &eb->b);
}

/* How far apart an untouched pair may be and still bound the next step:
 * EngineApproachBound wants 2 vn dt_up above the gap, and vn is at most
 * twice the rank's largest speed; with room for rounding. */
static PetscReal EngineApproachReach(const Engine *e, const EngineBound *eb)
{
  const Particles *p  = &e->p;
  PetscReal        v2 = 0.0, reach;

  if (!eb->need) return 0.0;
  for (PetscInt i = 0; i < p->n + p->nghost; i++) {
    const PetscReal *v = p->v + 3 * i;
    if (e->ex.root[i] != i) continue; /* an image made in place: its root's motion, not forwarded to it */
    v2 = PetscMax(v2, v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  }
  reach = 4.004 * sqrt(v2) * eb->dt_up;
  return reach <= PETSC_MAX_REAL ? reach : PETSC_INFINITY; /* a NaN or an overflow: every pair is within reach */
}

/* A pair that touched at the last step into the batch, with its constants. */
static inline void EngineBatchAdd(ContactBatch *bt, const EnginePairMemo *mm, PetscInt k, PetscInt i, PetscInt j, PetscInt slot, PetscInt out, const PetscReal r[3], PetscReal rs)
{
  /* the constants are copied once per run of pairs of one memo filling: a
   * memo slot may be refilled before the batch is evaluated */
  if (!bt->npool || bt->pool_gen != mm->gen) {
    bt->pool[bt->npool++] = mm->bc;
    bt->pool_gen          = mm->gen;
  }
  PetscInt b = bt->n++;
  bt->k[b] = k, bt->i[b] = i, bt->j[b] = j, bt->slot[b] = slot, bt->out[b] = out;
  for (int a = 0; a < 3; a++) bt->r[a][b] = r[a];
  bt->rs[b] = rs;
  bt->c[b] = &bt->pool[bt->npool - 1];
}

/* A particle pair found touching that did not touch at the last step: a new
 * history, its contact through EngineContactFused (the impulse weighting of
 * a first step) into the window's row q, and its bound. */
static PetscErrorCode EngineFirstTouch(Engine *e, PetscInt k, PetscInt i, PetscInt j, const PetscReal r[3], PetscReal len, PetscReal d, PetscReal dt, EnginePairMemo *mm, EngineWindow *win, PetscInt q, EngineBound *eb)
{
  NeighborList         *nl = &e->nl;
  const EnginePairMemo *m;
  ContactHistory       *h;
  PetscReal             U, ddot;

  PetscFunctionBeginUser;
  PetscCall(NeighborHistoryNew(nl, k));
  m = EnginePairMemoFor(e, k, i, j, mm);
  h = &nl->h[nl->slot[k]];
  EngineContactFused(e, m, h, i, j, r, len, d, dt, win->res + 9 * q, win->res + 9 * q + 3, win->res + 9 * q + 6, &U, &ddot);
  if (eb->need) eb->b = PetscMin(eb->b, EngineContactBound(e, &m->cp, ddot, U, h->v_imp));
  nl->flag[k] |= NEIGHBOR_TOUCHED;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The forces (and where asked, the step bound) under the fusable model:
 * particle pairs that touched at the last step go through the lanes of
 * ContactBatchEvaluate, first touches through EngineContactFused, walls and
 * separations through the generic path; all accumulated in pair order.  The
 * bound is a minimum, the same in any order.  Most listed pairs touch
 * neither now nor before: the sieve (PairSieveRun) tells them from their
 * members' positions and radii alone, and the full path takes the rest. */
static PetscErrorCode EngineForcesFused(Engine *e, PetscReal dt, EngineWindow *win, EngineBound *eb)
{
  Particles           *p  = &e->p;
  NeighborList        *nl = &e->nl;
  const LocalInt      *ij = nl->ij;
  const unsigned char *fl = nl->flag;
  EnginePairMemo       mm[ENGINE_MEMO_KINDS];
  ContactBatchModel    bm = {ContactKernelModelOf(&e->model), e->model.law.k[0], e->model.law.p[0] + 1.0, eb->need};
  const PetscReal     *x = p->x, *rad = p->radius;
  const PetscBool      need = eb->need;
  PairSieve            sv   = {ij, fl, x, rad, need ? EngineApproachReach(e, eb) : -1.0};
  LocalInt             at[PAIR_SIEVE_CHUNK];

  PetscFunctionBeginUser;
  for (int q = 0; q < ENGINE_MEMO_KINDS; q++) mm[q].valid = PETSC_FALSE;
  win->n = win->batch.n = win->batch.npool = 0;
  for (PetscInt k0 = 0, k1; k0 < nl->npair; k0 = k1) {
    PetscInt na;
    k1 = PetscMin(k0 + PAIR_SIEVE_CHUNK, nl->npair);
    na = PairSieveRun(&sv, k0, k1, at); /* every imaged pair among them: the sieve applies no shift */
    for (PetscInt a = 0; a < na; a++) {
      const PetscInt k = at[a], i = ij[2 * k], j = ij[2 * k + 1], q = win->n;
      const unsigned f = fl[k];
      EnginePairOut  out = ENGINE_PAIR_FORCE_TORQUE;
      if (PetscLikely(j >= 0)) {
        PetscReal r[3], rs = rad[i] + rad[j], rr, len, d;
        for (int c = 0; c < 3; c++) r[c] = x[3 * i + c] - x[3 * j + c];
        if (f & NEIGHBOR_IMAGED) { /* NeighborPairSeparation's arithmetic */
          const PetscReal *t = nl->shift[nl->image[k]];
          for (int c = 0; c < 3; c++)
            if (t[c] != 0.0) r[c] += t[c];
        }
        if (f & NEIGHBOR_TOUCHED) { /* its history is touched: the batch tells touching from apart */
          const EnginePairMemo *m = EnginePairMemoFor(e, k, i, j, mm);
          EngineBatchAdd(&win->batch, m, k, i, j, nl->slot[k], q, r, rs);
          if (need) win->cp[q] = m->cp;
        } else {
          rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
          /* apart (d <= 0): at most an approaching pair's bound, if it is within reach */
          if (!(rr < rs * rs)) {
            if (need && rr < PairSieveReach2(rs, sv.reach)) EngineApproachFrom(e, k, i, j, r, rs, rr, mm, eb);
            continue;
          }
          len = sqrt(rr), d = rs - len;
          if (!(d > 0.0)) {
            if (need) EngineApproachFrom(e, k, i, j, r, rs, rr, mm, eb); /* rr < rs^2: within reach */
            continue;
          }
          PetscCall(EngineFirstTouch(e, k, i, j, r, len, d, dt, mm, win, q, eb));
        }
      } else {
        PetscCall(EnginePairGeneric(e, k, dt, eb->dt_up, need, mm, &eb->b, win->res + 9 * q, &out));
        if (out == ENGINE_PAIR_NONE) continue;
      }
      win->i[q] = i, win->j[q] = j, win->out[q] = (unsigned char)out;
      if (++win->n == CONTACT_BATCH) PetscCall(EngineWindowFlush(e, &bm, win, dt, mm, eb));
    }
  }
  PetscCall(EngineWindowFlush(e, &bm, win, dt, mm, eb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Pair forces accumulated into the owned particles in pair order, then
 * gravity (with defer, left to the step's second half where the bound is not
 * wanted: e->gravity_pending); returns this rank's timestep bound. */
PetscErrorCode EngineForces(Engine *e, PetscReal dt, PetscBool defer, PetscReal *bound)
{
  Particles     *p = &e->p;
  PetscReal      b = PETSC_MAX_REAL, *f = p->f, *t = p->t;
  EnginePairMemo mm[ENGINE_MEMO_KINDS];
  /* a fixed step needs the bound only for its warning: look every 100 steps */
  PetscBool      need = e->ctl.mode == TIMESTEP_ADAPTIVE || e->step % 100 == 0 ? PETSC_TRUE : PETSC_FALSE;
  /* the next step is no longer than this: a pair further apart than it can close cannot touch in it */
  PetscReal      dt_up = dt > 0.0 ? PetscMin(e->ctl.dt_max, e->ctl.growth * dt) : e->ctl.dt_max;

  PetscFunctionBeginUser;
  PetscCall(PetscLogStagePush(e->stage_force));
  /* sums start at +0 and skip the pairs that give nothing: adding zeros
   * changes no sum.  The step's first half leaves them zero, unless a
   * rebuild has moved particles since. */
  if (!e->sums_zero) {
    PetscCall(PetscArrayzero(f, 3 * p->n));
    PetscCall(PetscArrayzero(t, 3 * p->n));
  }
  e->sums_zero = PETSC_FALSE;
  if (EngineFusable(&e->model)) {
    EngineWindow *win;
    EngineBound   eb = {need, dt_up, b};
    PetscCall(PetscMalloc1(1, &win));
    PetscCall(EngineForcesFused(e, dt, win, &eb));
    PetscCall(PetscFree(win));
    b = eb.b;
  } else {
    for (int q = 0; q < ENGINE_MEMO_KINDS; q++) mm[q].valid = PETSC_FALSE;
    for (PetscInt k = 0; k < e->nl.npair; k++) {
      PetscReal     res[9];
      EnginePairOut out;
      PetscCall(EnginePairGeneric(e, k, dt, dt_up, need, mm, &b, res, &out));
      if (out != ENGINE_PAIR_NONE) EngineAccumulate(p, f, t, e->nl.ij[2 * k], e->nl.ij[2 * k + 1], res, out);
    }
  }
  /* gravity last in each sum */
  e->gravity_pending = defer && !need ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt i = 0, n = e->gravity_pending ? 0 : p->n; i < n; i++) {
    for (int c = 0; c < 3; c++) f[3 * i + c] = f[3 * i + c] + p->mass[i] * e->gravity[c];
    /* no particle may move more than half the skin in one step */
    if (need && !(p->flags[i] & PARTICLE_FROZEN)) {
      PetscReal v = Norm3(p->v + 3 * i), acc = Norm3(p->f + 3 * i) / p->mass[i], hs = 0.5 * e->skin;
      PetscReal dtk = acc > 0.0 ? (sqrt(v * v + 2.0 * acc * hs) - v) / acc : (v > 0.0 ? hs / v : PETSC_MAX_REAL);
      b             = PetscMin(b, dtk);
    }
  }
  *bound = b;
  PetscCall(PetscLogStagePop());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's share of the elastic energy, contact count and largest
 * overlap over radius; a pair counts on the rank owning its lower-id
 * member, so each counts once. */
void EngineContactStats(const Engine *e, PetscReal *elastic, PetscReal *contacts, PetscReal *max_ratio)
{
  const Particles *p = &e->p;
  EnginePairMemo   mm[ENGINE_MEMO_KINDS];

  for (int q = 0; q < ENGINE_MEMO_KINDS; q++) mm[q].valid = PETSC_FALSE;
  for (PetscInt k = 0; k < e->nl.npair; k++) {
    PetscInt          i = e->nl.ij[2 * k], j = e->nl.ij[2 * k + 1];
    ContactKinematics kin;
    PetscReal         d, U, F, dF, rmin;
    if (i >= p->n) continue;
    EngineKinematics(e, k, i, j, &kin, &d);
    if (d <= 0.0) continue;
    NormalLawEval(&e->model.law, EnginePairConstants(e, k, i, j, mm)->s, d, &U, &F, &dF);
    *elastic += U;
    *contacts += 1.0;
    rmin       = j < 0 ? p->radius[i] : PetscMin(p->radius[i], p->radius[j]);
    *max_ratio = PetscMax(*max_ratio, d / rmin);
  }
}
