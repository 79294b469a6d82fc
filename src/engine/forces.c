#include "engine/forces.h"
#include "engine/movers.h"
#include "decomp/collective.h"

/* The point each wall's torque is taken about at time t: its rotation
 * axis' point, or else a plane's point and a mesh's centroid where the
 * wall is then. */
static void EngineWallReferences(Engine *e, PetscReal t)
{
  for (PetscInt k = 0; k < e->planes.n; k++) {
    const PlaneWall *w = &e->planes.w[k];
    for (int a = 0; a < 3; a++)
      e->wall_ref[3 * k + a] = w->motion.kind == MOTION_ROTATE ? w->motion.axis_point[a] : w->p[a];
  }
  for (PetscInt q = 0; q < e->meshes.n; q++) {
    const Mesh *m = &e->meshes.m[q];
    PetscReal  *r = e->wall_ref + 3 * (e->planes.n + q);
    if (m->motion.kind == MOTION_ROTATE)
      for (int a = 0; a < 3; a++) r[a] = m->motion.axis_point[a];
    else {
      WallPose ps;
      WallMotionPose(&m->motion, t, &ps);
      WallPoseApply(&ps, m->centroid, r);
    }
  }
}

/* The energy ledger: each particle's powers summed from zero in lnow
 * through the force pass, then integrated over the step by the trapezoid
 * with the last pass's (lpow, which they replace, lnow left zero for the
 * next pass); gravity's work on the step's displacement v dt (v the
 * half-step velocity the drift took).  One pass over the particles after
 * the forces; the sphere decks' two terms unrolled. */
static inline void EngineLedgerRow(PetscInt nl, PetscReal h, PetscReal *lp, PetscReal *ln, PetscReal *lw)
{
  for (PetscInt s = 0; s < nl; s++) {
    lw[s] += h * (lp[s] + ln[s]);
    lp[s] = ln[s];
    ln[s] = 0.0;
  }
}

static PetscReal EngineLedgerClose(Particles *p, PetscReal dt, const PetscReal g[3])
{
  const PetscInt  nl = p->nledger, nw = nl + 1, sw = p->ledger_slot[LEDGER_WALLS];
  const PetscReal h  = 0.5 * dt;
  PetscReal      *lp = p->lpow, *ln = p->lnow, *lw = p->lwork, walls = 0.0;
  const PetscReal z[3] = {0.0, 0.0, 0.0};
  for (PetscInt i = 0; sw >= 0 && i < p->n; i++) walls += h * (lp[nl * i + sw] + ln[nl * i + sw]);
  if (p->body) /* a body's gravity work is its own (BodiesOpen), not its spheres' */
    for (PetscInt i = 0; i < p->n; i++) {
      const PetscReal *v = (p->flags[i] & PARTICLE_MEMBER) ? z : p->v + 3 * i;
      EngineLedgerRow(nl, h, lp + nl * i, ln + nl * i, lw + nw * i);
      lw[nw * i + nl] += p->mass[i] * ((g[0] * v[0] + g[1] * v[1]) + g[2] * v[2]) * dt;
    }
  else if (nl == 2)
    for (PetscInt i = 0; i < p->n; i++) {
      const PetscReal *v = p->v + 3 * i;
      EngineLedgerRow(2, h, lp + 2 * i, ln + 2 * i, lw + 3 * i);
      lw[3 * i + 2] += p->mass[i] * ((g[0] * v[0] + g[1] * v[1]) + g[2] * v[2]) * dt;
    }
  else
    for (PetscInt i = 0; i < p->n; i++) {
      const PetscReal *v = p->v + 3 * i;
      EngineLedgerRow(nl, h, lp + nl * i, ln + nl * i, lw + nw * i);
      lw[nw * i + nl] += p->mass[i] * ((g[0] * v[0] + g[1] * v[1]) + g[2] * v[2]) * dt;
    }
  return walls; /* the moving walls' work of the step on this rank's particles */
}

/* Each interaction's forces in the engine's order, then gravity (with
 * defer, left to the step's second half where the bound is not wanted:
 * e->gravity_pending); returns this rank's timestep bound. */
PetscErrorCode EngineForces(Engine *e, PetscReal dt, PetscBool defer, PetscReal *bound)
{
  Particles         *p = &e->p;
  PetscReal          b, *f = p->f, *t = p->t;
  MoverBound         mb;
  InteractionContext ctx = EngineInteractionContext(e);
  InteractionStep    st;

  PetscFunctionBeginUser;
  PetscCall(PetscLogStagePush(e->log.force));
  /* sums start at +0 and skip the pairs that give nothing: adding zeros
   * changes no sum.  The step's first half leaves them zero, unless a
   * rebuild has moved particles since. */
  if (!e->sums_zero) {
    PetscCall(PetscArrayzero(f, 3 * p->n));
    PetscCall(PetscArrayzero(t, 3 * p->n));
  }
  /* else the last pass left them zero */
  if (e->ledger_moved && p->nledger) PetscCall(PetscArrayzero(p->lnow, p->nledger * p->n));
  e->ledger_moved = PETSC_FALSE;
  e->sums_zero    = PETSC_FALSE;
  if (p->dliquid) PetscCall(PetscArrayzero(p->dliquid, p->n));

  /* a fixed step needs the bound only for its warning: look every 100 steps */
  st.t  = e->clock.t + dt;
  st.dt = dt;
  PlanesMove(&e->planes, st.t);
  st.need = e->ctl.mode == TIMESTEP_ADAPTIVE || e->clock.step % 100 == 0 ? PETSC_TRUE : PETSC_FALSE;
  /* the next step is no longer than this: a pair further apart than it can close cannot touch in it */
  st.dt_up  = dt > 0.0 ? PetscMin(e->ctl.dt_max, e->ctl.growth * dt) : e->ctl.dt_max;
  st.bound  = PETSC_MAX_REAL;
  st.who[0] = st.who[1] = -1;
  st.deep               = PETSC_FALSE;
  st.walls = NULL, st.wallref = NULL, st.mesh_wall0 = e->planes.n;
  st.a_reach = st.need && e->ctl.mode == TIMESTEP_ADAPTIVE ? e->a_reach : 0.0;
  st.sink    = e->contact_sink_due ? e->contact_sink : NULL;
  if (e->wall_sums_due && e->wall_sums) {
    for (PetscInt k = 0; k < 6 * (e->planes.n + e->meshes.n); k++) ExactSumZero(&e->wall_sums[k]);
    EngineWallReferences(e, st.t);
    st.walls = e->wall_sums, st.wallref = e->wall_ref;
  }
  for (PetscInt q = 0; q < e->ninter; q++) {
    Interaction it = e->inter[q];
    PetscCall(PetscLogEventBegin(it->event, 0, 0, 0, 0));
    PetscCall(it->ops->compute(it, &ctx, &st));
    PetscCall(PetscLogEventEnd(it->event, 0, 0, 0, 0));
  }
  /* the bridges' liquid changes, from the liquid all of them saw at the step's start */
  if (p->dliquid)
    for (PetscInt i = 0; i < p->n; i++) p->liquid[i] += p->dliquid[i];
  if (p->nledger) e->health.work_walls += EngineLedgerClose(p, dt, e->gravity);
  b                      = st.bound;
  e->health.bound_who[0] = st.who[0], e->health.bound_who[1] = st.who[1];
  e->health.bound_kinematic = PETSC_FALSE;
  e->health.deep            = st.deep;
  /* the movers' sums, gravity last in each, and no row may move more than half the skin in one step */
  e->gravity_pending = defer && !st.need ? PETSC_TRUE : PETSC_FALSE;
  mb.need = st.need, mb.gravity = !e->gravity_pending, mb.bound = b, mb.who = -1, mb.kinematic = PETSC_FALSE;
  mb.amax = 0.0;
  EngineMoversComplete(e, &mb);
  if (mb.kinematic) e->health.bound_who[0] = mb.who, e->health.bound_kinematic = PETSC_TRUE;
  e->a_local = st.need && e->ctl.mode == TIMESTEP_ADAPTIVE ? mb.amax : 0.0;
  *bound     = mb.bound;
  PetscCall(PetscLogStagePop());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineAccelReach(Engine *e)
{
  PetscReal amax = 0.0;

  PetscFunctionBeginUser;
  if (e->ctl.mode == TIMESTEP_ADAPTIVE) {
    EngineMoversAccel(e, &amax);
    PetscCall(CollectiveMaxAll(e->grid.comm, &amax, 1));
  }
  e->a_reach = amax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineWallTotals(Engine *e, PetscReal *totals)
{
  const PetscInt nw = e->planes.n + e->meshes.n;
  ExactSum      *all;

  PetscFunctionBeginUser;
  PetscCheck(e->wall_sums_due && e->wall_sums, e->grid.comm, PETSC_ERR_ORDER,
             "the walls' forces at step %" PetscInt64_FMT " were not summed: no monitor asked for them", e->clock.step);
  PetscCall(PetscMalloc1(6 * nw + 1, &all));
  PetscCall(PetscArraycpy(all, e->wall_sums, 6 * nw));
  PetscCall(ExactSumAllreduce(e->grid.comm, all, 6 * nw));
  for (PetscInt k = 0; k < 6 * nw; k++) totals[k] = ExactSumValue(&all[k]);
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}
