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
  e->hs.n = 0;
  for (PetscInt i = 0; i < 3 * e->p.n; i++) e->p.x0[i] = e->p.x[i];
  e->rebuilds++;
  PetscCall(PetscLogStagePop());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Kinematics of pair k from half-step and predicted velocities. */
static void EngineKinematics(const Engine *e, const NeighborPair *q, ContactKinematics *k, PetscReal *d)
{
  const Particles *p = &e->p;
  PetscInt         i = q->i, j = q->j;
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
    NeighborSeparation(p, e->L, i, j, r);
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

/* Pair forces, then each owned particle's sum in partner-id order; returns
 * this rank's timestep bound. */
static PetscErrorCode EngineForces(Engine *e, PetscReal dt, PetscReal *bound)
{
  Particles    *p  = &e->p;
  NeighborList *nl = &e->nl;
  PetscReal     b  = PETSC_MAX_REAL;
  /* a fixed step needs the bound only for its warning: look every 100 steps */
  PetscBool     need = e->ctl.mode == TIMESTEP_ADAPTIVE || e->step % 100 == 0 ? PETSC_TRUE : PETSC_FALSE;
  /* the next step is no longer than this: a pair further apart than it can close cannot touch in it */
  PetscReal     dt_up = dt > 0.0 ? PetscMin(e->ctl.dt_max, e->ctl.growth * dt) : e->ctl.dt_max;

  PetscFunctionBeginUser;
  PetscCall(PetscLogStagePush(e->stage_force));
  for (PetscInt k = 0; k < nl->npair; k++) {
    NeighborPair     *q  = &nl->pair[k];
    PetscReal        *pf = nl->pf + 9 * k, d;
    ContactKinematics kin;
    ContactResult     cr;
    if (q->j >= 0 && !q->h.touched && !need) { /* most listed pairs do not touch: overlap first */
      PetscReal r[3], rs = p->radius[q->i] + p->radius[q->j];
      NeighborSeparation(p, e->L, q->i, q->j, r);
      if (r[0] * r[0] + r[1] * r[1] + r[2] * r[2] >= rs * rs) {
        for (int a = 0; a < 9; a++) pf[a] = 0.0;
        continue;
      }
    }
    EngineKinematics(e, q, &kin, &d);
    if (d > 0.0) {
      ContactEvaluate(&e->model, &q->cp, &q->h, &kin, dt, &cr);
      if (need) b = PetscMin(b, ContactStepBound(&e->model, &q->cp, &e->ctl, 0.5 * q->cp.m * cr.ddot * cr.ddot + cr.U, q->h.v_imp));
      for (int a = 0; a < 3; a++) {
        pf[a]     = cr.F[a];
        pf[3 + a] = cr.Ti[a];
        pf[6 + a] = cr.Tj[a];
      }
      continue;
    }
    for (int a = 0; a < 9; a++) pf[a] = 0.0;
    if (q->h.touched) {
      ContactSeparate(&e->model, &q->cp, &q->h, &kin, dt, &cr);
      for (int a = 0; a < 3; a++) pf[a] = cr.F[a];
    } else if (need) {
      PetscReal vn = -(kin.v[0] * kin.n[0] + kin.v[1] * kin.n[1] + kin.v[2] * kin.n[2]);
      if (vn > 0.0 && -d < 2.0 * vn * dt_up) b = PetscMin(b, ContactStepBound(&e->model, &q->cp, &e->ctl, 0.5 * q->cp.m * vn * vn, vn));
    }
  }
  for (PetscInt i = 0; i < p->n; i++) {
    PetscReal f[3] = {0, 0, 0}, t[3] = {0, 0, 0};
    for (PetscInt a = nl->adj_start[i]; a < nl->adj_start[i + 1]; a++) {
      PetscInt         e_ = nl->adj[a];
      const PetscReal *pf = nl->pf + 9 * (e_ >= 0 ? e_ : -1 - e_);
      for (int c = 0; c < 3; c++) {
        if (e_ >= 0) {
          f[c] += pf[c];
          t[c] += pf[3 + c];
        } else {
          f[c] -= pf[c];
          t[c] += pf[6 + c];
        }
      }
    }
    for (int c = 0; c < 3; c++) {
      p->f[3 * i + c] = f[c] + p->mass[i] * e->gravity[c];
      p->t[3 * i + c] = t[c];
    }
    /* no particle may move more than half the skin in one step */
    if (need && !(p->flags[i] & PARTICLE_FROZEN)) {
      PetscReal v = Norm3(p->v + 3 * i), acc = Norm3(p->f + 3 * i) / p->mass[i], h = 0.5 * e->skin;
      PetscReal dtk = acc > 0.0 ? (sqrt(v * v + 2.0 * acc * h) - v) / acc : (v > 0.0 ? h / v : PETSC_MAX_REAL);
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
  const Particles *p = &e->p;
  for (PetscInt i = 0; i < p->n; i++) {
    PetscReal dx[3];
    if (p->flags[i] & PARTICLE_FROZEN) continue;
    for (int a = 0; a < 3; a++) dx[a] = p->x[3 * i + a] - p->x0[3 * i + a];
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
  e->hs.n = 0;
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

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < p->n; i++) {
    const PetscReal *v = p->v + 3 * i, *w = p->w + 3 * i;
    sum[0] += 0.5 * p->mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    sum[1] += 0.5 * p->inertia[i] * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);

  }
  for (PetscInt k = 0; k < e->nl.npair; k++) {
    const NeighborPair *q = &e->nl.pair[k];
    ContactKinematics   kin;
    PetscReal           d, U, F, dF, rmin;
    if (q->i >= p->n) continue;
    EngineKinematics(e, q, &kin, &d);
    if (d <= 0.0) continue;
    NormalLawEval(&e->model.law, q->cp.s, d, &U, &F, &dF);
    sum[2] += U;
    sum[4] += 1.0;
    rmin = q->j < 0 ? p->radius[q->i] : PetscMin(p->radius[q->i], p->radius[q->j]);
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
