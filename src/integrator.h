/* Velocity Verlet (kick-drift-kick) building blocks over arrays of bodies;
 * the step length may change from one step to the next. */
#ifndef HDEM_INTEGRATOR_H
#define HDEM_INTEGRATOR_H

#include "particles.h"

/* v += a * h for a = f / m, or for spheres w += t / I (scalar inertia). */
static inline void IntegratorKick(PetscInt n, PetscReal *restrict v, const PetscReal *restrict f, const PetscReal *restrict inv_m, PetscReal h)
{
  for (PetscInt i = 0; i < n; i++)
    for (int a = 0; a < 3; a++) v[3 * i + a] += f[3 * i + a] * inv_m[i] * h;
}

static inline void IntegratorDrift(PetscInt n, PetscReal *restrict x, const PetscReal *restrict v, PetscReal dt)
{
  for (PetscInt i = 0; i < 3 * n; i++) x[i] += v[i] * dt;
}

/* The first half of a step in one pass: kick by h = dt / 2, drift by dt,
 * prediction vp = v + dv for the kick's dv = f (1 / m) h (wp likewise), then f = t = 0 (the
 * step's force sums start there); returns the work of gravity g over the
 * drift (frozen bodies stay and do none). */
PETSC_EXTERN PetscReal IntegratorOpenStepBodies(PetscInt n, const PetscInt *fl, const PetscReal *m, const PetscReal *in, PetscReal *f, PetscReal *t, PetscReal dt, const PetscReal g[3], PetscReal *x, PetscReal *v, PetscReal *w, PetscReal *vp, PetscReal *wp);
/* Whether some owned body, not frozen, may end a step of at most dt_up more
 * than hs from x0 (from x, v, f now: the lists' rebuild criterion). */
PETSC_EXTERN PetscBool IntegratorMayPass(PetscInt n, const PetscInt *fl, const PetscReal *m, const PetscReal *x, const PetscReal *x0, const PetscReal *v, const PetscReal *f, PetscReal dt_up, PetscReal hs);
/* The second half of a step: with g (else NULL) first f = f + m g for every
 * body, then the kick v += f (1 / m) h, w += t (1 / I) h (frozen bodies stay), then
 * IntegratorMayPass on the kicked velocities, in one pass. */
PETSC_EXTERN PetscBool IntegratorCloseStepBodies(PetscInt n, const PetscInt *fl, const PetscReal *m, const PetscReal *in, const PetscReal *g, PetscReal *f, const PetscReal *t, PetscReal h, const PetscReal *x, const PetscReal *x0, PetscReal dt_up, PetscReal hs, PetscReal *v, PetscReal *w);

#endif
