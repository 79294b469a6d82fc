#include "engine.h"
#include "integrator.h"
#include "../decomp/collective.h"

static inline PetscReal Norm3(const PetscReal *a)
{
  return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/* Gather histories, migrate, rebuild ghosts and pairs, re-attach histories. */
static PetscErrorCode EngineRebuild(Engine *e)
{
  PetscInt nlost;

  PetscFunctionBeginUser;
  PetscCall(PetscLogStagePush(e->stage_neigh));
  PetscCall(HistoryStoreGather(&e->hs, &e->nl, &e->p));
  PetscCall(ExchangeMigrate(&e->grid, &e->ex, &e->p, &e->hs, &nlost));
  e->lost += nlost;
  PetscCall(ExchangeBorders(&e->grid, &e->ex, &e->p));
  PetscCall(NeighborListBuild(&e->nl, &e->p, e->L, &e->model, e->nwall, e->walls));
  PetscCall(HistoryStoreSort(&e->hs));
  PetscCall(HistoryStoreAttach(&e->hs, &e->nl, &e->p));
  PetscCall(HistoryStoreDestroy(&e->hs)); /* the records live in the pairs until the next rebuild */
  for (PetscInt i = 0; i < 3 * e->p.n; i++) e->p.x0[i] = e->p.x[i];
  e->rebuilds++;
  PetscCall(PetscLogStagePop());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Kinematics of pair k from half-step and predicted velocities. */
static void EngineKinematics(const Engine *e, PetscInt i, PetscInt j, ContactKinematics *k, PetscReal *d)
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
    NeighborSeparationInline(p, e->L, i, j, r);
    len = Norm3(r);
    for (int a = 0; a < 3; a++) {
      k->n[a]   = r[a] / len;
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
 * masses, so the last set is kept and reused when the bodies match. */
typedef struct {
  PetscBool   valid;
  PetscInt    kind; /* frozen flags of i and j, or wall */
  PetscReal   key[6];
  ContactPair cp;
} EnginePairMemo;

static const ContactPair *EnginePairConstants(const Engine *e, PetscInt i, PetscInt j, EnginePairMemo *mm)
{
  const Particles *p    = &e->p;
  PetscInt         kind = j < 0 ? 4 : (p->flags[i] & PARTICLE_FROZEN ? 1 : 0) | (p->flags[j] & PARTICLE_FROZEN ? 2 : 0);
  PetscReal        key[6];

  key[0] = p->radius[i], key[1] = p->mass[i], key[2] = p->inertia[i];
  if (j < 0) key[3] = key[4] = key[5] = 0.0;
  else key[3] = p->radius[j], key[4] = p->mass[j], key[5] = p->inertia[j];
  if (mm->valid && mm->kind == kind && key[0] == mm->key[0] && key[1] == mm->key[1] && key[2] == mm->key[2] && key[3] == mm->key[3] && key[4] == mm->key[4] && key[5] == mm->key[5]) return &mm->cp;
  if (j < 0) ContactPairSetUp(&e->model, key[0], key[1], key[2], 0.0, 0.0, 0.0, PETSC_TRUE, &mm->cp);
  else {
    ContactPairSetUp(&e->model, key[0], key[1], key[2], key[3], key[4], key[5], PETSC_FALSE, &mm->cp);
    /* a frozen body has infinite mass: the contact moves only the other one */
    if (kind == 1 || kind == 2) {
      PetscInt f = kind == 2 ? i : j;
      mm->cp.m  = p->mass[f];
      mm->cp.mt = 1.0 / (1.0 / p->mass[f] + p->radius[f] * p->radius[f] / p->inertia[f]);
    }
  }
  mm->valid = PETSC_TRUE;
  mm->kind  = kind;
  for (int a = 0; a < 6; a++) mm->key[a] = key[a];
  return &mm->cp;
}

/* Pair forces accumulated straight into the owned particles in pair order,
 * which is each particle's partner-id order (see neighbor.h); returns this
 * rank's timestep bound. */
static PetscErrorCode EngineForces(Engine *e, PetscReal dt, PetscReal *bound)
{
  Particles      *p  = &e->p;
  NeighborList   *nl = &e->nl;
  PetscReal       b  = PETSC_MAX_REAL, *f = p->f, *t = p->t;
  const PetscInt *ij = nl->ij;
  unsigned char  *fl = nl->flag;
  EnginePairMemo  mm;
  /* a fixed step needs the bound only for its warning: look every 100 steps */
  PetscBool       need = e->ctl.mode == TIMESTEP_ADAPTIVE || e->step % 100 == 0 ? PETSC_TRUE : PETSC_FALSE;
  /* the next step is no longer than this: a pair further apart than it can close cannot touch in it */
  PetscReal       dt_up = dt > 0.0 ? PetscMin(e->ctl.dt_max, e->ctl.growth * dt) : e->ctl.dt_max;

  PetscFunctionBeginUser;
  PetscCall(PetscLogStagePush(e->stage_force));
  mm.valid = PETSC_FALSE;
  /* sums start at +0 and skip the pairs that give nothing: adding zeros changes no sum */
  PetscCall(PetscArrayzero(f, 3 * p->n));
  PetscCall(PetscArrayzero(t, 3 * p->n));
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt           i = ij[2 * k], j = ij[2 * k + 1], ti, tj;
    ContactHistory    *h;
    const ContactPair *cp;
    PetscReal          d;
    ContactKinematics  kin;
    ContactResult      cr;
    if (j >= 0 && !need && !(fl[k] & NEIGHBOR_TOUCHED)) { /* most listed pairs do not touch: overlap first, from positions alone */
      PetscReal r[3], rs = p->radius[i] + p->radius[j];
      if (fl[k] & NEIGHBOR_IMAGED) NeighborSeparationInline(p, e->L, i, j, r);
      else /* equal images: NeighborSeparation adds nothing */
        for (int a = 0; a < 3; a++) r[a] = p->x[3 * i + a] - p->x[3 * j + a];
      if (r[0] * r[0] + r[1] * r[1] + r[2] * r[2] >= rs * rs) continue;
    }
    EngineKinematics(e, i, j, &kin, &d);
    ti = NeighborTarget(p, i);
    tj = j >= 0 ? NeighborTarget(p, j) : -1;
    if (d > 0.0) {
      if (nl->slot[k] < 0) PetscCall(NeighborHistoryNew(nl, k));
      h  = &nl->h[nl->slot[k]];
      cp = EnginePairConstants(e, i, j, &mm);
      ContactEvaluate(&e->model, cp, h, &kin, dt, &cr);
      fl[k] |= NEIGHBOR_TOUCHED;
      if (need) b = PetscMin(b, ContactStepBound(&e->model, cp, &e->ctl, 0.5 * cp->m * cr.ddot * cr.ddot + cr.U, h->v_imp));
      if (ti >= 0)
        for (int a = 0; a < 3; a++) {
          f[3 * ti + a] += cr.F[a];
          t[3 * ti + a] += cr.Ti[a];
        }
      if (tj >= 0)
        for (int a = 0; a < 3; a++) {
          f[3 * tj + a] -= cr.F[a];
          t[3 * tj + a] += cr.Tj[a];
        }
      continue;
    }
    if (fl[k] & NEIGHBOR_TOUCHED) {
      cp = EnginePairConstants(e, i, j, &mm);
      ContactSeparate(&e->model, cp, &nl->h[nl->slot[k]], &kin, dt, &cr);
      fl[k] &= ~NEIGHBOR_TOUCHED;
      nl->slot[k] = -1; /* a zero history: its record stays unused until the next build */
      if (ti >= 0)
        for (int a = 0; a < 3; a++) f[3 * ti + a] += cr.F[a];
      if (tj >= 0)
        for (int a = 0; a < 3; a++) f[3 * tj + a] -= cr.F[a];
    } else if (need) {
      PetscReal vn = -(kin.v[0] * kin.n[0] + kin.v[1] * kin.n[1] + kin.v[2] * kin.n[2]);
      if (vn > 0.0 && -d < 2.0 * vn * dt_up) {
        cp = EnginePairConstants(e, i, j, &mm);
        b  = PetscMin(b, ContactStepBound(&e->model, cp, &e->ctl, 0.5 * cp->m * vn * vn, vn));
      }
    }
  }
  for (PetscInt i = 0; i < p->n; i++) {
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

static void EngineKick(Engine *e, PetscReal h)
{
  Particles *p = &e->p;
  for (PetscInt i = 0; i < p->n; i++) {
    if (p->flags[i] & PARTICLE_FROZEN) continue;
    for (int a = 0; a < 3; a++) {
      p->v[3 * i + a] += p->f[3 * i + a] / p->mass[i] * h;
      p->w[3 * i + a] += p->t[3 * i + a] / p->inertia[i] * h;
    }
  }
}

/* Whether, after a step no longer than dt_up, some particle may be more than
 * half the skin from where the lists were built: known before that step. */
static PetscReal EngineRebuildFlag(const Engine *e, PetscReal dt_up)
{
  const Particles *p  = &e->p;
  PetscReal        hs = 0.5 * e->skin, q = 0.5 * dt_up * dt_up, h2 = hs * hs;
  for (PetscInt i = 0; i < p->n; i++) {
    PetscReal dx[3], a = 0.0, b = 0.0, c = 0.0, m = p->mass[i];
    if (p->flags[i] & PARTICLE_FROZEN) continue;
    for (int k = 0; k < 3; k++) {
      dx[k] = p->x[3 * i + k] - p->x0[3 * i + k];
      a += dx[k] * dx[k];
      b += p->v[3 * i + k] * p->v[3 * i + k];
      c += p->f[3 * i + k] * p->f[3 * i + k];
    }
    /* (|dx| + |v| dt + |f| q / m)^2 <= 3 (...) by Cauchy-Schwarz: most
     * particles are decided without roots or divisions (margin for rounding) */
    if (3.0 * (a + b * dt_up * dt_up) * m * m + 3.0 * c * q * q < h2 * m * m * (1.0 - 1e-9)) continue;
    if (Norm3(dx) + Norm3(p->v + 3 * i) * dt_up + 0.5 * Norm3(p->f + 3 * i) / p->mass[i] * dt_up * dt_up > 0.5 * e->skin) return 1.0;
  }
  return 0.0;
}

/* The one global reduction of the step: bound, rebuild flag, particle count. */
static PetscErrorCode EngineReduce(Engine *e, PetscReal bound)
{
  PetscReal dt_up = e->ctl.mode == TIMESTEP_FIXED ? e->ctl.dt_fixed : PetscMin(e->ctl.dt_max, e->dt > 0.0 ? e->ctl.growth * e->dt : e->ctl.dt_max);
  PetscReal v[4]  = {bound, 0.0, (PetscReal)(e->p.n + e->lost), (PetscReal)e->request}; /* owned + lost here == all */

  PetscFunctionBeginUser;
  v[1] = EngineRebuildFlag(e, dt_up); /* never the local bound: the flag must not depend on the decomposition */
  {
    PetscLogDouble t0, t1;
    PetscCall(PetscTime(&t0));
    PetscCall(CollectiveStepReduce(e->grid.comm, v));
    PetscCall(PetscTime(&t1));
    e->wait_seconds += t1 - t0;
  }
  e->bound        = v[0];
  e->rebuild_next = v[1] > 0.0 ? PETSC_TRUE : PETSC_FALSE;
  e->request_all  = (PetscInt)v[3];
  e->request      = ENGINE_REQUEST_NONE;
  PetscCheck((PetscInt64)v[2] == e->nglobal, e->grid.comm, PETSC_ERR_PLIB, "step %" PetscInt64_FMT ": %" PetscInt64_FMT " particles (with those lost through walls) where there were %" PetscInt64_FMT ": particles vanished or were duplicated", e->step, (PetscInt64)v[2], e->nglobal);
  e->dt = StepControlNext(&e->ctl, e->bound, e->dt);
  if (e->ctl.mode == TIMESTEP_FIXED && e->bound < PETSC_MAX_REAL && e->ctl.dt_fixed > e->bound && !e->warned_fixed) {
    PetscCall(PetscPrintf(e->grid.comm, "hdem: warning: step %" PetscInt64_FMT ": -timestep_dt %g s exceeds the contact bound %g s; results may be inaccurate or unstable\n", e->step, (double)e->ctl.dt_fixed, (double)e->bound));
    e->warned_fixed = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -log_view stages, registered once per process (an engine may be set up again). */
static PetscErrorCode EngineStage(const char *name, PetscLogStage *stage)
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogStageGetId(name, stage));
  if (*stage < 0) PetscCall(PetscLogStageRegister(name, stage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Stages, box lengths, halo and lists: what EngineSetUp and EngineResume share. */
static PetscErrorCode EngineCreateParts(Engine *e)
{
  PetscFunctionBeginUser;
  PetscCall(EngineStage("Neighbour", &e->stage_neigh));
  PetscCall(EngineStage("Halo", &e->stage_comm));
  PetscCall(EngineStage("Force", &e->stage_force));
  PetscCall(EngineStage("Integrate", &e->stage_integrate));
  for (int a = 0; a < 3; a++) e->L[a] = e->grid.periodic[a] ? e->grid.hi[a] - e->grid.lo[a] : 0.0;
  for (PetscInt i = 0; i < e->p.n; i++) e->p.owner[i] = e->grid.rank;
  PetscCall(ExchangeCreate(&e->grid, 2.0 * e->rmax + e->skin, &e->ex));
  PetscCall(NeighborListCreate(e->skin, &e->nl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineSetUp(Engine *e)
{
  PetscReal bound;
  PetscInt64 n = e->p.n;

  PetscFunctionBeginUser;
  PetscCall(EngineCreateParts(e));
  {
    PetscReal cnt = (PetscReal)n;
    PetscCall(CollectiveSumAll(e->grid.comm, &cnt, 1));
    e->nglobal = (PetscInt64)cnt;
  }
  e->dt     = 0.0;
  e->dt_min = PETSC_MAX_REAL;
  PetscCall(EngineRebuild(e));
  e->rebuilds = 0;
  PetscCall(EngineForces(e, 0.0, &bound));
  PetscCall(EngineReduce(e, bound));
  {
    EngineStats s;
    PetscCall(EngineGetStats(e, &s));
    e->e_initial = s.ke + s.kr + s.elastic;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The lists of the uninterrupted run are rebuilt from where they were built
 * (x0): the same ghosts and pairs, hence the same steps, on any rank count.
 * The particles already sit on the ranks owning their x0. */
PetscErrorCode EngineResume(Engine *e)
{
  Particles *p = &e->p;
  PetscReal *x;

  PetscFunctionBeginUser;
  PetscCall(EngineCreateParts(e));
  PetscCall(PetscLogStagePush(e->stage_neigh));
  PetscCall(PetscMalloc1(3 * p->n + 1, &x));
  PetscCall(PetscArraycpy(x, p->x, 3 * p->n));
  PetscCall(PetscArraycpy(p->x, p->x0, 3 * p->n));
  PetscCall(PetscArraycpy(p->vp, p->v, 3 * p->n));
  PetscCall(PetscArraycpy(p->wp, p->w, 3 * p->n));
  PetscCall(ExchangeBorders(&e->grid, &e->ex, p));
  PetscCall(NeighborListBuild(&e->nl, p, e->L, &e->model, e->nwall, e->walls));
  PetscCall(HistoryStoreSort(&e->hs));
  PetscCall(HistoryStoreAttach(&e->hs, &e->nl, p));
  PetscCall(HistoryStoreDestroy(&e->hs)); /* as EngineRebuild */
  PetscCall(PetscArraycpy(p->x, x, 3 * p->n)); /* owned indices are untouched by the borders */
  PetscCall(PetscFree(x));
  PetscCall(PetscLogStagePop());
  PetscCall(PetscLogStagePush(e->stage_comm));
  PetscCall(ExchangeForward(&e->grid, &e->ex, p));
  PetscCall(PetscLogStagePop());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineStep(Engine *e)
{
  Particles *p  = &e->p;
  PetscReal  dt = e->dt, bound;

  PetscFunctionBeginUser;
  PetscCall(PetscLogStagePush(e->stage_integrate));
  EngineKick(e, 0.5 * dt);
  for (PetscInt i = 0; i < p->n; i++) {
    if (p->flags[i] & PARTICLE_FROZEN) continue;
    for (int a = 0; a < 3; a++) {
      p->x[3 * i + a] += p->v[3 * i + a] * dt;
      e->work_gravity += p->mass[i] * e->gravity[a] * p->v[3 * i + a] * dt; /* wraps on periodic axes do not count */
      p->vp[3 * i + a] = p->v[3 * i + a] + 0.5 * dt * p->f[3 * i + a] / p->mass[i];
      p->wp[3 * i + a] = p->w[3 * i + a] + 0.5 * dt * p->t[3 * i + a] / p->inertia[i];
    }
  }
  PetscCall(PetscLogStagePop());
  if (e->rebuild_next) PetscCall(EngineRebuild(e));
  else {
    PetscCall(PetscLogStagePush(e->stage_comm));
    PetscCall(ExchangeForward(&e->grid, &e->ex, p));
    PetscCall(PetscLogStagePop());
  }
  PetscCall(EngineForces(e, dt, &bound));
  EngineKick(e, 0.5 * dt);
  e->t += dt;
  e->step++;
  e->dt_min = PetscMin(e->dt_min, dt);
  e->dt_max = PetscMax(e->dt_max, dt);
  e->dt_sum += dt;
  PetscCall(EngineReduce(e, bound));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Energies and contact statistics; a pair counts on the rank owning its
 * lower-id member, so each counts once. */
PetscErrorCode EngineGetStats(Engine *e, EngineStats *s)
{
  const Particles *p = &e->p;
  PetscReal        sum[5] = {0, 0, 0, e->work_gravity, 0}, mx = 0.0;
  EnginePairMemo   mm;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < p->n; i++) {
    const PetscReal *v = p->v + 3 * i, *w = p->w + 3 * i;
    sum[0] += 0.5 * p->mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    sum[1] += 0.5 * p->inertia[i] * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);

  }
  mm.valid = PETSC_FALSE;
  for (PetscInt k = 0; k < e->nl.npair; k++) {
    PetscInt          i = e->nl.ij[2 * k], j = e->nl.ij[2 * k + 1];
    ContactKinematics kin;
    PetscReal         d, U, F, dF, rmin;
    if (i >= p->n) continue;
    EngineKinematics(e, i, j, &kin, &d);
    if (d <= 0.0) continue;
    NormalLawEval(&e->model.law, EnginePairConstants(e, i, j, &mm)->s, d, &U, &F, &dF);
    sum[2] += U;
    sum[4] += 1.0;
    rmin = j < 0 ? p->radius[i] : PetscMin(p->radius[i], p->radius[j]);
    mx   = PetscMax(mx, d / rmin);
  }
  PetscCall(CollectiveSumAll(e->grid.comm, sum, 5));
  PetscCall(CollectiveMaxAll(e->grid.comm, &mx, 1));
  s->ke = sum[0], s->kr = sum[1], s->elastic = sum[2], s->gravity = sum[3], s->contacts = sum[4], s->max_overlap_ratio = mx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineDestroy(Engine *e)
{
  PetscFunctionBeginUser;
  PetscCall(ExchangeDestroy(&e->ex));
  PetscCall(NeighborListDestroy(&e->nl));
  PetscCall(HistoryStoreDestroy(&e->hs));
  PetscCall(ParticlesDestroy(&e->p));
  PetscCall(ContactModelDestroy(&e->model));
  PetscCall(GridDestroy(&e->grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}
