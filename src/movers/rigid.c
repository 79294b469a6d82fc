/* The multi-sphere bodies' step (rigid/body_step.h) as a mover: the rows of
 * the owned bodies, indexed again after every migration. */
#include "movers/movers.h"
#include <string.h>

typedef struct {
  const ClumpTemplates *clumps;
  BodyIndex             index;
  PetscBool             turned; /* the close took the next kick, drift and rotation along */
  PetscBool             gather; /* the bodies' sums are the close's to form (complete left them) */
  PetscBool             placed; /* the turning close placed the members too */
  PetscReal             work;   /* gravity's work over that drift */
} Rigid;

/* After a close that turned the bodies along, their members are placed
 * here (unless the close placed them): the spheres' pass, which runs
 * between, keeps the members' states but not their predictions.  Gravity's
 * work joins the sum after the spheres', as when the bodies open apart. */
static void RigidOpen(Mover *m, MoverContext *c, PetscReal dt, PetscReal *work)
{
  Rigid *r = (Rigid *)m->data;
  if (!r->index.nbody) return;
  if (r->turned) {
    if (!r->placed) BodiesPlaceTurned(c->p, &r->index, dt);
    *work += r->work;
    r->turned = PETSC_FALSE;
  } else *work += BodiesOpen(c->p, &r->index, dt, c->gravity);
}

/* With the next step known (ahead) the close takes the bodies' next kick,
 * drift and rotation along (BodiesCloseTurn), body by body; the members
 * wait for RigidOpen, which the engine calls after the spheres' pass, or,
 * where every owned row is a member (the spheres' pass is idle), are placed
 * in the same pass. */
static PetscInt RigidClose(Mover *m, MoverContext *c, PetscReal dt, const PetscReal *g, const IntegratorRebuild *rb,
                           PetscReal lo[3], PetscReal hi[3], IntegratorOpen *ahead, PetscBool *opened)
{
  Rigid    *r = (Rigid *)m->data;
  PetscInt  bits;
  PetscReal k = 0.0;
  (void)g; /* BodiesGather added gravity */
  *opened   = PETSC_FALSE;
  r->turned = PETSC_FALSE;
  if (!r->index.nbody) return 0;
  if (ahead) {
    r->placed = MoverSpheresIdle(c);
    bits      = BodiesCloseTurn(c->p, &r->index, dt, rb, lo, hi, c->ke ? &k : NULL, ahead->dt, ahead->g,
                           r->gather ? c->gravity : NULL, r->placed, &r->work);
    r->turned = PETSC_TRUE;
  } else {
    if (r->gather) BodiesGather(c->p, &r->index, c->gravity);
    bits = BodiesClose(c->p, &r->index, dt, rb, lo, hi, c->ke ? &k : NULL);
  }
  r->gather = PETSC_FALSE;
  if (c->ke) *c->ke += k;
  return bits;
}

static PetscInt RigidMayPass(Mover *m, MoverContext *c, const IntegratorRebuild *rb, PetscReal lo[3], PetscReal hi[3])
{
  Rigid *r = (Rigid *)m->data;
  return BodiesMayPass(c->p, &r->index, rb, lo, hi);
}

/* The bodies' sums, their gravity last in each; where the spheres' gravity
 * waits for the close (a step that wants no bound), the sums do too: the
 * close forms them in its own pass over the bodies. */
static void RigidComplete(Mover *m, MoverContext *c, MoverBound *mb)
{
  Rigid *r  = (Rigid *)m->data;
  r->gather = PETSC_FALSE;
  if (!r->index.nbody) return;
  if (!mb->gravity && !mb->need) {
    r->gather = PETSC_TRUE;
    return;
  }
  BodiesGather(c->p, &r->index, c->gravity);
  if (mb->need) {
    PetscInt  who;
    PetscReal dtk = BodiesKinematicBound(c->p, &r->index, c->half_skin, &who, &mb->amax);
    if (dtk < mb->bound) mb->bound = dtk, mb->who = who, mb->kinematic = PETSC_TRUE;
  }
}

static void RigidAccel(Mover *m, MoverContext *c, PetscReal *amax)
{
  Rigid   *r = (Rigid *)m->data;
  PetscInt who;
  if (r->index.nbody) (void)BodiesKinematicBound(c->p, &r->index, c->half_skin, &who, amax);
}

static void RigidEnergy(Mover *m, MoverContext *c, ExactSum *ke, ExactSum *kr)
{
  Rigid *r = (Rigid *)m->data;
  BodiesEnergy(c->p, &r->index, ke, kr);
}

static void RigidSync(Mover *m, MoverContext *c)
{
  Rigid *r = (Rigid *)m->data;
  BodiesSyncHome(c->p, &r->index); /* where the bodies' spheres belong, before anything asks */
}

static PetscErrorCode RigidMigrated(Mover *m, MoverContext *c, PetscInt *claim)
{
  Rigid *r = (Rigid *)m->data;

  PetscFunctionBeginUser;
  PetscCall(BodyIndexBuild(c->p, r->clumps, &r->index));
  *claim = r->index.nbody ? r->index.start[r->index.nbody] : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RigidDestroy(Mover *m)
{
  Rigid *r = (Rigid *)m->data;

  PetscFunctionBeginUser;
  PetscCall(BodyIndexDestroy(&r->index));
  PetscCall(PetscFree(m->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MoverOps RigidOps = {"rigid",    RigidOpen,   RigidClose, RigidMayPass,  RigidComplete,
                                  RigidAccel, RigidEnergy, RigidSync,  RigidMigrated, RigidDestroy};

PetscErrorCode MoverCreateRigid(const ClumpTemplates *ct, Mover *m)
{
  Rigid *r;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&r));
  r->clumps = ct;
  m->ops    = &RigidOps;
  m->data   = r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const BodyIndex *MoverRigidIndex(const Mover *m)
{
  return m->ops && !strcmp(m->ops->name, "rigid") ? &((const Rigid *)m->data)->index : NULL;
}
