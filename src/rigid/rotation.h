/* The rotation of a rigid body: unit quaternions q = (w, x, y, z), body to
 * world (x_world = R(q) x_body), and their conjugate momenta
 * p = 2 S(q) (0, L_body) (S(q): q's left-multiplication matrix), advanced
 * by the NO_SQUISH splitting of Miller, Eleftheriou, Pattnaik, Ndirango,
 * Newns & Martyna (J. Chem. Phys. 116, 8649, 2002): a torque kick
 * p += 2 h S(q) (0, torque_body), and the free rotor over dt as the exact
 * flows of its three axes' terms, R3(dt/2) R2(dt/2) R1(dt) R2(dt/2) R3(dt/2),
 * each a rotation of (q, p) that keeps |q| and is symplectic and
 * time-reversible; the angular momentum in the world frame is conserved by
 * every sub-step (to round-off), the energy bounded.  In the principal frame
 * of the body (inertia[3], its principal moments). */
#ifndef HDEM_ROTATION_H
#define HDEM_ROTATION_H

#include "hdem.h"
#include <math.h>

PETSC_EXTERN void QuatNormalize(PetscReal q[4]);
/* the unit quaternion of a rotation matrix (row-major, det +1), w >= 0 */
PETSC_EXTERN void QuatFromMatrix(const PetscReal R[9], PetscReal q[4]);

/* A rotation uniform on SO(3) from three uniform numbers in [0, 1) (Shoemake,
 * "Uniform random rotations", Graphics Gems III, 1992): keyed by a body's id
 * through the counter-based generator, the same on any rank. */
PETSC_EXTERN void QuatUniform(PetscReal u1, PetscReal u2, PetscReal u3, PetscReal q[4]);

/* p from the angular momentum in the body frame, and back */
PETSC_EXTERN void RigidMomentumSet(const PetscReal q[4], const PetscReal Lb[3], PetscReal p[4]);
/* p from the angular velocity in the world frame */
PETSC_EXTERN void RigidMomentumFromOmega(const PetscReal q[4], const PetscReal inertia[3], const PetscReal w[3],
                                         PetscReal p[4]);
/* the angular velocity in the world frame */
PETSC_EXTERN void RigidOmegaWorld(const PetscReal q[4], const PetscReal p[4], const PetscReal inertia[3],
                                  PetscReal w[3]);

/* The time loop's share, inline (a body-step's cost is mostly these). */

/* QuatToMatrix, QuatMultiply, RigidMomentumBody, RigidKick, RigidSpin,
 * RigidInverseInertia (quat_kernel.h) on reals */
#define B_V               PetscReal
#define B_FN(name)        name
#define B_SPLAT(c)        ((PetscReal)(c))
#define B_SELECT(m, a, b) ((m) ? (a) : (b))
#include "rigid/quat_kernel.h"
#undef B_V
#undef B_FN
#undef B_SPLAT
#undef B_SELECT

/* sin z and cos z: a sub-rotation's angle is mostly far below 1/16, where
 * the Taylor polynomials to z^13 and z^12 are exact to the last bit (their
 * remainders are below 1e-26 relative) and far cheaper than the library's;
 * RigidRotateLanes evaluates them alike, lane by lane */
#define RIGID_POLY_LIMIT 0.0625
static inline void RigidSinCos(PetscReal z, PetscReal *s, PetscReal *c)
{
  if (PetscAbsReal(z) < RIGID_POLY_LIMIT) {
    PetscReal z2 = z * z;
    *s           = z *
         (1.0 -
          z2 * (1.0 / 6.0) *
            (1.0 - z2 * (1.0 / 20.0) *
                     (1.0 - z2 * (1.0 / 42.0) *
                              (1.0 - z2 * (1.0 / 72.0) * (1.0 - z2 * (1.0 / 110.0) * (1.0 - z2 * (1.0 / 156.0)))))));
    *c = 1.0 - z2 * 0.5 *
                 (1.0 - z2 * (1.0 / 12.0) *
                          (1.0 - z2 * (1.0 / 30.0) *
                                   (1.0 - z2 * (1.0 / 56.0) * (1.0 - z2 * (1.0 / 90.0) * (1.0 - z2 * (1.0 / 132.0))))));
  } else *s = sin(z), *c = cos(z);
}

/* P_k x = x (x) e_k: the permutations of the splitting */
static inline void RigidPermute(int k, const PetscReal x[4], PetscReal y[4])
{
  if (k == 0) y[0] = -x[1], y[1] = x[0], y[2] = x[3], y[3] = -x[2];
  else if (k == 1) y[0] = -x[2], y[1] = -x[3], y[2] = x[0], y[3] = x[1];
  else y[0] = -x[3], y[1] = x[2], y[2] = -x[1], y[3] = x[0];
}

/* The exact flow of the k-th axis' term of the free rotor over t (tq: t / (4 I_k), 0 for a zero moment). */
static inline void RigidRotateAxis(int k, PetscReal tq, PetscReal q[4], PetscReal p[4])
{
  PetscReal kq[4], kp[4], z, c, s;
  if (tq == 0.0) return;
  RigidPermute(k, q, kq);
  RigidPermute(k, p, kp);
  z = (p[0] * kq[0] + p[1] * kq[1] + p[2] * kq[2] + p[3] * kq[3]) * tq;
  RigidSinCos(z, &s, &c);
  for (int a = 0; a < 4; a++) {
    PetscReal qa = q[a], pa = p[a];
    q[a] = c * qa + s * kq[a];
    p[a] = c * pa + s * kp[a];
  }
}

/* the free rotor over dt (a zero moment: that axis does not turn) */
static inline void RigidRotate(const PetscReal inertia[3], PetscReal dt, PetscReal q[4], PetscReal p[4])
{
  PetscReal t[3];
  for (int a = 0; a < 3; a++) t[a] = inertia[a] > 0.0 ? dt / (4.0 * inertia[a]) : 0.0; /* as BodiesOpen's */
  RigidRotateAxis(2, 0.5 * t[2], q, p);
  RigidRotateAxis(1, 0.5 * t[1], q, p);
  RigidRotateAxis(0, t[0], q, p);
  RigidRotateAxis(1, 0.5 * t[1], q, p);
  RigidRotateAxis(2, 0.5 * t[2], q, p);
}

/* NO_SQUISH's free rotor over dt for n bodies at once, their quaternions
 * and momenta as columns qp[c * ld + b] (c = 0..3 q, 4..7 p; ld >= n, a
 * multiple of RIGID_LANES, the padding lanes' t zero) and tq[a * ld + b] = dt
 * / (4 I_a) (0: a zero moment): eight bodies to a vector, each lane through the
 * operations RigidRotate does on one body, so a body's bits do not depend on
 * its neighbours. */
#define RIGID_SETS  2
#define RIGID_LANES (8 * RIGID_SETS)
PETSC_EXTERN void RigidRotateLanes(PetscInt ld, PetscReal *qp, const PetscReal *tq);

#endif
