/* The Mindlin-Deresiewicz tangential spring with a varying normal force, in
 * the incremental form of Thornton & Yin (Powder Technol. 65, 153, 1991) as
 * Thornton, Cummins & Cleary state it (Powder Technol. 210, 189, 2011,
 * their eqs. 18-23): the spring's force S = -T (T the force on the
 * particle) is incremented by
 *   dS = (kt0 theta + mu dN (1 - theta) / |dd|) dd
 * (kt0 = 8 G* a, the no-slip stiffness; dd the step's tangential
 * displacement: their (-1)^k mu dN (1 - theta) has the sign of dd on every
 * branch in 1D), with
 *   loading    theta^3 = 1 - (|T| + mu dN) / (mu N)
 *   unloading  theta^3 = 1 - (|T - T*| + 2 mu dN) / (2 mu N)
 *   reloading  theta^3 = 1 - (|T** - T| + 2 mu dN) / (2 mu N)
 * (theta = 0 where the right side is negative), T* and T** the forces where
 * the displacement last reversed, each moved by mu dN along itself every
 * step (their eq. 23), and theta = 1 in a step where the normal force
 * grows by more than the no-slip increment (mu dN > kt0 |dd|: |dT| < mu dN).
 * One loop is remembered: where a loop that left the virgin curve at T*
 * reaches T* again (reloading) or -T* (unloading), the virgin curve goes on
 * (Masing); a reversal inside a loop starts a branch from there, which runs
 * to full slip.  The elastic force is capped at mu N (sliding), the damper
 * -gt vtp added and the sum capped at mu N again.  At constant N the
 * loading, unloading and reloading curves are Mindlin & Deresiewicz's (J.
 * Appl. Mech. 20, 327, 1953); norms are taken of the 3D vectors, kept in
 * the current tangent plane. */
#ifndef HDEM_TANGENTIAL_MD_H
#define HDEM_TANGENTIAL_MD_H

#include "contact/contact.h"

/* T: the elastic force (the history's xi), n: the normal, vt, vtp: the
 * contact points' sliding velocity at the half step and predicted, kt0: the
 * no-slip stiffness, gt: the damping coefficient, mu N the friction limit;
 * Ft: the tangential force on i. */
PETSC_EXTERN void ContactTangentialMD(ContactTurning *, PetscReal T[3], const PetscReal n[3], const PetscReal vt[3],
                                      const PetscReal vtp[3], PetscReal dt, PetscReal kt0, PetscReal gt, PetscReal mu,
                                      PetscReal Fn, PetscReal Ft[3]);

#endif
