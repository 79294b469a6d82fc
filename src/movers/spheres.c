/* The spheres' velocity Verlet (particles/integrator.h) as a mover: every
 * owned row not PARTICLE_STILL.  It is idle on a rank whose rows other
 * movers move all of. */
#include "movers/movers.h"

static inline PetscReal Norm3(const PetscReal *a)
{
  return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

static void SpheresOpen(Mover *m, MoverContext *c, PetscReal dt, PetscReal *work)
{
  Particles *p = c->p;
  (void)m;
  if (MoverSpheresIdle(c)) return; /* the force pass clears the sums */
  c->cleared = PETSC_TRUE;
  *work += IntegratorOpenStep(p->n, p->flags, p->mass, p->inertia, p->f, p->t, dt, c->gravity, p->x, p->v, p->w, p->vp,
                              p->wp, p->wgrav);
}

static PetscInt SpheresClose(Mover *m, MoverContext *c, PetscReal dt, const PetscReal *g, const IntegratorRebuild *rb,
                             PetscReal lo[3], PetscReal hi[3], IntegratorOpen *ahead, PetscBool *opened)
{
  Particles *p = c->p;
  PetscInt   bits;
  (void)m;
  *opened = PETSC_FALSE;
  if (MoverSpheresIdle(c)) return 0;
  if (!ahead)
    return IntegratorCloseStep(p->n, p->flags, p->mass, p->inertia, g, p->f, p->t, 0.5 * dt, p->x, p->x0, rb, lo, hi,
                               p->v, p->w, c->ke);
  bits = IntegratorCloseOpen(p->n, p->flags, p->mass, p->inertia, g, p->f, p->t, 0.5 * dt, p->x, p->x0, rb, lo, hi,
                             p->v, p->w, ahead, c->ke);
  c->cleared = PETSC_TRUE;
  *opened    = PETSC_TRUE;
  return bits;
}

static PetscInt SpheresMayPass(Mover *m, MoverContext *c, const IntegratorRebuild *rb, PetscReal lo[3], PetscReal hi[3])
{
  const Particles *p = c->p;
  (void)m;
  return IntegratorMayPass(p->n, p->flags, p->mass, p->x, p->x0, p->v, p->f, rb, lo, hi);
}

/* Gravity last in each sum, and no sphere may move more than half the skin in one step. */
static void SpheresComplete(Mover *m, MoverContext *c, MoverBound *mb)
{
  Particles      *p  = c->p;
  PetscReal      *f  = p->f;
  const PetscReal hs = c->half_skin;
  (void)m;
  for (PetscInt i = 0, n = mb->gravity ? p->n : 0; i < n; i++) {
    for (int a = 0; a < 3; a++) f[3 * i + a] = f[3 * i + a] + p->mass[i] * c->gravity[a];
    if (mb->need && !(p->flags[i] & PARTICLE_STILL)) {
      PetscReal v = Norm3(p->v + 3 * i), acc = Norm3(p->f + 3 * i) / p->mass[i];
      if (acc > mb->amax) mb->amax = acc;
      /* the root of v t + acc t^2 / 2 = hs in the form without cancellation: at rest on a wall acc is
       * the rounding of balanced forces, and (sqrt(v^2 + 2 acc hs) - v) / acc would be 0 */
      PetscReal q   = sqrt(v * v + 2.0 * acc * hs) + v;
      PetscReal dtk = q > 0.0 ? 2.0 * hs / q : PETSC_MAX_REAL;
      if (dtk < mb->bound) mb->bound = dtk, mb->who = i, mb->kinematic = PETSC_TRUE;
    }
  }
}

static void SpheresAccel(Mover *m, MoverContext *c, PetscReal *amax)
{
  const Particles *p = c->p;
  (void)m;
  for (PetscInt i = 0; i < p->n; i++)
    if (!(p->flags[i] & PARTICLE_STILL)) {
      PetscReal acc = Norm3(p->f + 3 * i) / p->mass[i];
      if (acc > *amax) *amax = acc;
    }
}

static void SpheresEnergy(Mover *m, MoverContext *c, ExactSum *ke, ExactSum *kr)
{
  const Particles *p = c->p;
  (void)m;
  for (PetscInt i = 0; i < p->n; i++) {
    const PetscReal *v = p->v + 3 * i, *w = p->w + 3 * i;
    if (p->flags[i] & PARTICLE_MEMBER) continue; /* a body's on its own */
    ExactSumAdd(ke, 0.5 * p->mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    ExactSumAdd(kr, 0.5 * p->inertia[i] * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
  }
}

static const MoverOps SpheresOps = {"spheres",    SpheresOpen,   SpheresClose, SpheresMayPass, SpheresComplete,
                                    SpheresAccel, SpheresEnergy, NULL,         NULL,           NULL};

PetscErrorCode MoverCreateSpheres(Mover *m)
{
  PetscFunctionBeginUser;
  m->ops  = &SpheresOps;
  m->data = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
