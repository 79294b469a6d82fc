#include "engine/movers.h"
#include "movers/movers.h"

PetscErrorCode EngineMoversCreate(Engine *e)
{
  PetscFunctionBeginUser;
  if (e->nmover) PetscFunctionReturn(PETSC_SUCCESS); /* an engine set up again keeps its movers */
  PetscCall(MoverCreateSpheres(&e->mover[e->nmover++]));
  if (e->p.body) PetscCall(MoverCreateRigid(&e->clumps, &e->mover[e->nmover++]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineMoversDestroy(Engine *e)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < e->nmover; k++) PetscCall(MoverDestroy(&e->mover[k]));
  e->nmover = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void EngineMoversSync(Engine *e)
{
  MoverContext c = EngineMoverContext(e);
  for (PetscInt k = 0; k < e->nmover; k++)
    if (e->mover[k].ops->sync) e->mover[k].ops->sync(&e->mover[k], &c);
}

PetscErrorCode EngineMoversMigrated(Engine *e)
{
  MoverContext c = EngineMoverContext(e);

  PetscFunctionBeginUser;
  e->claimed = 0;
  for (PetscInt k = 0; k < e->nmover; k++) {
    PetscInt claim = 0;
    if (e->mover[k].ops->migrated) PetscCall(e->mover[k].ops->migrated(&e->mover[k], &c, &claim));
    e->claimed += claim;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Kick by dt / 2, drift and the predicted velocities (vp = v + dv, the
 * kick's dv; wp likewise), leaving the force sums zero where the spheres'
 * pass ran; gravity's work summed along (thermo only: the particles' state
 * does not depend on its order). */
void EngineOpenStep(Engine *e, PetscReal dt)
{
  MoverContext c = EngineMoverContext(e);
  for (PetscInt k = 0; k < e->nmover; k++) e->mover[k].ops->open(&e->mover[k], &c, dt, &e->work_gravity);
  e->sums_zero = c.cleared; /* else the force pass clears the sums */
}

PetscReal EngineNextLongest(const Engine *e)
{
  return e->ctl.mode == TIMESTEP_FIXED
         ? e->ctl.dt_fixed
         : PetscMin(e->ctl.dt_max, e->clock.dt > 0.0 ? e->ctl.growth * e->clock.dt : e->ctl.dt_max);
}

/* The rebuild criterion for a next step no longer than dt_up. */
static IntegratorRebuild EngineRebuildTest(const Engine *e, PetscReal dt_up)
{
  IntegratorRebuild rb = {dt_up, 0.5 * e->skin, {e->drift[0], e->drift[1], e->drift[2]}};
  return rb;
}

PetscInt EngineRebuildBits(Engine *e, PetscReal dt_up, PetscReal lo[3], PetscReal hi[3])
{
  MoverContext      c    = EngineMoverContext(e);
  IntegratorRebuild rb   = EngineRebuildTest(e, dt_up);
  PetscInt          bits = 0;
  for (PetscInt k = 0; k < e->nmover; k++) bits |= e->mover[k].ops->may_pass(&e->mover[k], &c, &rb, lo, hi);
  return bits;
}

/* Backward: a later mover reads its rows' force sums before the spheres'
 * pass may clear them with the next step's first half.  A mover that does
 * not take that half along opens after every close, forward. */
PetscInt EngineCloseStep(Engine *e, PetscReal dt, PetscBool ahead, PetscReal lo[3], PetscReal hi[3])
{
  Particles        *p     = &e->p;
  MoverContext      c     = EngineMoverContext(e);
  const PetscReal  *g     = e->gravity_pending ? e->gravity : NULL;
  IntegratorRebuild rb    = EngineRebuildTest(e, EngineNextLongest(e));
  IntegratorOpen    op    = {e->ctl.dt_fixed, e->gravity, p->vp, p->wp, p->wgrav, 0.0};
  PetscBool         along = ahead && e->ctl.mode == TIMESTEP_FIXED ? PETSC_TRUE : PETSC_FALSE;
  PetscBool         opened[ENGINE_MAX_MOVERS], any = PETSC_FALSE;
  PetscInt          bits = 0;

  e->health.ke_step = e->health.work_ahead = 0.0;
  c.ke                                     = e->health.energy_step ? &e->health.ke_step : NULL;
  for (PetscInt k = e->nmover - 1; k >= 0; k--)
    bits |= e->mover[k].ops->close(&e->mover[k], &c, dt, g, &rb, lo, hi, along ? &op : NULL, &opened[k]);
  if (!along) return bits;
  for (PetscInt k = 0; k < e->nmover; k++) any = any || opened[k];
  if (any) e->work_gravity += op.work; /* what the movers that took the next half along added up */
  if (any) e->health.work_ahead = op.work;
  for (PetscInt k = 0; k < e->nmover; k++)
    if (!opened[k]) e->mover[k].ops->open(&e->mover[k], &c, e->ctl.dt_fixed, &e->work_gravity);
  e->sums_zero = c.cleared;
  e->opened    = PETSC_TRUE;
  return bits;
}

void EngineMoversComplete(Engine *e, MoverBound *mb)
{
  MoverContext c = EngineMoverContext(e);
  for (PetscInt k = e->nmover - 1; k >= 0; k--) e->mover[k].ops->complete(&e->mover[k], &c, mb);
}

void EngineMoversAccel(Engine *e, PetscReal *amax)
{
  MoverContext c = EngineMoverContext(e);
  for (PetscInt k = e->nmover - 1; k >= 0; k--) e->mover[k].ops->accel(&e->mover[k], &c, amax);
}

void EngineMoversEnergy(Engine *e, ExactSum *ke, ExactSum *kr)
{
  MoverContext c = EngineMoverContext(e);
  for (PetscInt k = 0; k < e->nmover; k++) e->mover[k].ops->energy(&e->mover[k], &c, ke, kr);
}

const BodyIndex *EngineBodyIndex(const Engine *e)
{
  static const BodyIndex none = {0, 0, 0, 0, NULL, NULL, NULL};
  for (PetscInt k = 0; k < e->nmover; k++) {
    const BodyIndex *bi = MoverRigidIndex(&e->mover[k]);
    if (bi) return bi;
  }
  return &none;
}
