/* Velocity Verlet (kick-drift-kick) building blocks over arrays of particles;
 * the step length may change from one step to the next. */
#ifndef HDEM_INTEGRATOR_H
#define HDEM_INTEGRATOR_H

#include "particles/particles.h"

/* v += a * h for a = f / m, or for spheres w += t / I (scalar inertia). */
static inline void IntegratorKick(PetscInt n, PetscReal *restrict v, const PetscReal *restrict f,
                                  const PetscReal *restrict inv_m, PetscReal h)
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
 * drift (frozen particles stay and do none), and adds each particle's to gw (when
 * not NULL) as ((m g_x v_x dt + m g_y v_y dt) + m g_z v_z dt). */
PETSC_EXTERN PetscReal IntegratorOpenStep(PetscInt n, const LocalInt *fl, const PetscReal *m, const PetscReal *in,
                                          PetscReal *f, PetscReal *t, PetscReal dt, const PetscReal g[3], PetscReal *x,
                                          PetscReal *v, PetscReal *w, PetscReal *vp, PetscReal *wp, PetscReal *gw);
/* The lists' rebuild criterion.  An unlisted pair is more than the skin
 * apart and closes by at most |dx_i| + |dx_j|, its members' displacements
 * since the build, and also by at most |dx_i - c| + |dx_j - c| for any
 * vector c every rank holds alike (the closing is their difference).  So the
 * pairs hold while every displacement stays within half the skin, or while
 * every displacement less the common drift c does: a bed moving as a whole
 * (a chute's flow) needs no rebuild that its relative motion does not.
 * Frozen particles stay at dx = 0: |c| from the drift.  Walls do not drift,
 * and migration carries a particle one subdomain: every displacement must
 * also stay within the whole skin (a wall pair closes by its particle's alone;
 * a subdomain is wider than the skin).  A rebuild is due when
 * (DRIFT and HALF) or SKIN; with c = 0 that is the usual criterion. */
typedef struct {
  PetscReal dt_up; /* the next step is no longer */
  PetscReal hs;    /* half the skin */
  PetscReal c[3];  /* the common drift */
} IntegratorRebuild;

#define INTEGRATOR_BEYOND_DRIFT 1 /* some |dx - c| may pass half the skin (or a frozen particle's |c| does) */
#define INTEGRATOR_BEYOND_HALF  2 /* some |dx| may pass half the skin */
#define INTEGRATOR_BEYOND_SKIN  4 /* some |dx| may pass the whole skin */
#define INTEGRATOR_BEYOND_ALL   7
#define INTEGRATOR_NONFINITE    8 /* a particle tested has a non-finite position, velocity or force */

/* Which of the criterion's bounds (INTEGRATOR_BEYOND_*) some owned particle may
 * pass by the end of a step of at most dt_up (from x, v, f now), and the
 * displacements' ranges per axis folded into lo, hi (every particle, frozen ones
 * too).  Not frozen particles' own displacements but for the drift. */
PETSC_EXTERN PetscInt IntegratorMayPass(PetscInt n, const LocalInt *fl, const PetscReal *m, const PetscReal *x,
                                        const PetscReal *x0, const PetscReal *v, const PetscReal *f,
                                        const IntegratorRebuild *, PetscReal lo[3], PetscReal hi[3]);
/* The second half of a step: with g (else NULL) first f = f + m g for every
 * particle, then the kick v += f (1 / m) h, w += t (1 / I) h (frozen particles stay), then
 * IntegratorMayPass on the kicked velocities, in one pass.  x and t are not
 * written (IntegratorCloseOpen shares the pass).  With ke (else NULL), the
 * kicked velocities' kinetic energy, translational and rotational, of the
 * particles not frozen is added to *ke (a plain sum: the step's energy check). */
PETSC_EXTERN PetscInt IntegratorCloseStep(PetscInt n, const LocalInt *fl, const PetscReal *m, const PetscReal *in,
                                          const PetscReal *g, PetscReal *f, PetscReal *t, PetscReal h, PetscReal *x,
                                          const PetscReal *x0, const IntegratorRebuild *, PetscReal lo[3],
                                          PetscReal hi[3], PetscReal *v, PetscReal *w, PetscReal *ke);

/* The next step's first half for IntegratorCloseOpen. */
typedef struct {
  PetscReal        dt;      /* the next step */
  const PetscReal *g;       /* gravity, for its work */
  PetscReal       *vp, *wp; /* the predictions (as IntegratorOpenStep) */
  PetscReal       *gw;      /* each particle's integral of gravity's work, or NULL (as IntegratorOpenStep) */
  PetscReal        work;    /* out: gravity's work over the next step's drift */
} IntegratorOpen;

/* IntegratorCloseStep, then IntegratorOpenStep for the next step
 * (op), in one pass with the same bits as the two: a particle's kicked v, w and
 * its force f, t are not stored and loaded again between them.  For a next
 * step known before this one ends (a fixed step) and a state nobody reads
 * in between: f is left zero, not the step's force. */
PETSC_EXTERN PetscInt IntegratorCloseOpen(PetscInt n, const LocalInt *fl, const PetscReal *m, const PetscReal *in,
                                          const PetscReal *g, PetscReal *f, PetscReal *t, PetscReal h, PetscReal *x,
                                          const PetscReal *x0, const IntegratorRebuild *, PetscReal lo[3],
                                          PetscReal hi[3], PetscReal *v, PetscReal *w, IntegratorOpen *op,
                                          PetscReal *ke);

#endif
