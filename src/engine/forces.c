#include "engine/forces.h"

static inline PetscReal Norm3(const PetscReal *a)
{
  return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/* Each interaction's forces in the engine's order, then gravity (with
 * defer, left to the step's second half where the bound is not wanted:
 * e->gravity_pending); returns this rank's timestep bound. */
PetscErrorCode EngineForces(Engine *e, PetscReal dt, PetscBool defer, PetscReal *bound)
{
  Particles         *p = &e->p;
  PetscReal          b, *f = p->f, *t = p->t;
  InteractionContext ctx = EngineInteractionContext(e);
  InteractionStep    st;

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
  /* a fixed step needs the bound only for its warning: look every 100 steps */
  st.dt   = dt;
  st.need = e->ctl.mode == TIMESTEP_ADAPTIVE || e->step % 100 == 0 ? PETSC_TRUE : PETSC_FALSE;
  /* the next step is no longer than this: a pair further apart than it can close cannot touch in it */
  st.dt_up = dt > 0.0 ? PetscMin(e->ctl.dt_max, e->ctl.growth * dt) : e->ctl.dt_max;
  st.bound = PETSC_MAX_REAL;
  for (PetscInt q = 0; q < e->ninter; q++) {
    Interaction it = e->inter[q];
    PetscCall(PetscLogEventBegin(it->event, 0, 0, 0, 0));
    PetscCall(it->ops->compute(it, &ctx, &st));
    PetscCall(PetscLogEventEnd(it->event, 0, 0, 0, 0));
  }
  b = st.bound;
  /* gravity last in each sum */
  e->gravity_pending = defer && !st.need ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt i = 0, n = e->gravity_pending ? 0 : p->n; i < n; i++) {
    for (int c = 0; c < 3; c++) f[3 * i + c] = f[3 * i + c] + p->mass[i] * e->gravity[c];
    /* no particle may move more than half the skin in one step */
    if (st.need && !(p->flags[i] & PARTICLE_FROZEN)) {
      PetscReal v = Norm3(p->v + 3 * i), acc = Norm3(p->f + 3 * i) / p->mass[i], hs = 0.5 * e->skin;
      PetscReal dtk = acc > 0.0 ? (sqrt(v * v + 2.0 * acc * hs) - v) / acc : (v > 0.0 ? hs / v : PETSC_MAX_REAL);
      b             = PetscMin(b, dtk);
    }
  }
  *bound = b;
  PetscCall(PetscLogStagePop());
  PetscFunctionReturn(PETSC_SUCCESS);
}
