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

PETSC_EXTERN void QuatToMatrix(const PetscReal q[4], PetscReal R[9]); /* row-major */
PETSC_EXTERN void QuatNormalize(PetscReal q[4]);
/* the unit quaternion of a rotation matrix (row-major, det +1), w >= 0 */
PETSC_EXTERN void QuatFromMatrix(const PetscReal R[9], PetscReal q[4]);
/* q = q0 (x) r: the rotation r in the body frame, then q0 */
PETSC_EXTERN void QuatMultiply(const PetscReal a[4], const PetscReal b[4], PetscReal c[4]);

/* A rotation uniform on SO(3) from three uniform numbers in [0, 1) (Shoemake,
 * "Uniform random rotations", Graphics Gems III, 1992): keyed by a body's id
 * through the counter-based generator, the same on any rank. */
PETSC_EXTERN void QuatUniform(PetscReal u1, PetscReal u2, PetscReal u3, PetscReal q[4]);

/* p from the angular momentum in the body frame, and back */
PETSC_EXTERN void RigidMomentumSet(const PetscReal q[4], const PetscReal Lb[3], PetscReal p[4]);
PETSC_EXTERN void RigidMomentumBody(const PetscReal q[4], const PetscReal p[4], PetscReal Lb[3]);
/* p from the angular velocity in the world frame */
PETSC_EXTERN void RigidMomentumFromOmega(const PetscReal q[4], const PetscReal inertia[3], const PetscReal w[3], PetscReal p[4]);
/* the angular velocity in the world frame */
PETSC_EXTERN void RigidOmegaWorld(const PetscReal q[4], const PetscReal p[4], const PetscReal inertia[3], PetscReal w[3]);
/* p += 2 h S(q) (0, R(q)^T torque): a torque [N m] in the world frame over h */
PETSC_EXTERN void RigidKick(const PetscReal q[4], const PetscReal torque[3], PetscReal h, PetscReal p[4]);
/* the free rotor over dt (a zero moment: that axis does not turn) */
PETSC_EXTERN void RigidRotate(const PetscReal inertia[3], PetscReal dt, PetscReal q[4], PetscReal p[4]);

#endif
