/* A rigid body's share of a contact's effective masses.  A contact at lever
 * arm r (the contact point less the body's centre of mass) with normal n
 * moves the contact point along n by 1/m_n per unit impulse,
 *   1/m_n = 1/M + (r x n) . I^-1 (r x n)      (I^-1 in the world frame),
 * and a pair's is the sum of its two bodies' shares (a wall's is zero).
 * With m_n as the contact's mass the harmonic damping (and every damping
 * law and the step bound) sees the oscillator the contact point really is,
 * so the contact-point restitution is the target for any shape.  The
 * tangential share is the mean over the tangent plane,
 *   1/m_t = 1/M + 1/2 sum_{t1, t2} (r x t) . I^-1 (r x t),
 * which for a sphere (r = -R n) is the familiar 1/M + R^2/I. */
#ifndef HDEM_BODY_CONTACT_H
#define HDEM_BODY_CONTACT_H

#include "hdem.h"

/* R diag(1 / inertia) R^T for the body-to-world rotation q (a zero moment: no rotation about that axis) */
PETSC_EXTERN void RigidInverseInertiaWorld(const PetscReal q[4], const PetscReal inertia[3], PetscReal Iinv[9]);
/* the body's shares of 1/m_n (*kn) and 1/m_t (*kt) for inverse mass minv */
PETSC_EXTERN void RigidContactShares(PetscReal minv, const PetscReal Iinv[9], const PetscReal r[3],
                                     const PetscReal n[3], PetscReal *kn, PetscReal *kt);

#endif
