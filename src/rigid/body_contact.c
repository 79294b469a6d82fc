#include "rigid/body_contact.h"
#include "rigid/rotation.h"

void RigidInverseInertiaWorld(const PetscReal q[4], const PetscReal inertia[3], PetscReal Iinv[9])
{
  PetscReal R[9], d[3];
  QuatToMatrix(q, R);
  for (int k = 0; k < 3; k++) d[k] = inertia[k] > 0.0 ? 1.0 / inertia[k] : 0.0;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      Iinv[3 * a + b] = (R[3 * a] * d[0] * R[3 * b] + R[3 * a + 1] * d[1] * R[3 * b + 1]) +
                        R[3 * a + 2] * d[2] * R[3 * b + 2];
}

/* (r x u) . A (r x u) */
static PetscReal Lever(const PetscReal A[9], const PetscReal r[3], const PetscReal u[3])
{
  PetscReal c[3] = {r[1] * u[2] - r[2] * u[1], r[2] * u[0] - r[0] * u[2], r[0] * u[1] - r[1] * u[0]}, s = 0.0;
  for (int a = 0; a < 3; a++) s += c[a] * (A[3 * a] * c[0] + A[3 * a + 1] * c[1] + A[3 * a + 2] * c[2]);
  return s;
}

void RigidContactShares(PetscReal minv, const PetscReal Iinv[9], const PetscReal r[3], const PetscReal n[3],
                        PetscReal *kn, PetscReal *kt)
{
  PetscReal t1[3], t2[3], l;
  int       a = PetscAbsReal(n[0]) < 0.9 ? 0 : 1; /* the axis least along n */
  /* t1 = e_a less its normal part, t2 = n x t1 */
  for (int k = 0; k < 3; k++) t1[k] = (k == a ? 1.0 : 0.0) - n[a] * n[k];
  l = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
  for (int k = 0; k < 3; k++) t1[k] /= l;
  t2[0] = n[1] * t1[2] - n[2] * t1[1], t2[1] = n[2] * t1[0] - n[0] * t1[2], t2[2] = n[0] * t1[1] - n[1] * t1[0];
  *kn = minv + Lever(Iinv, r, n);
  *kt = minv + 0.5 * (Lever(Iinv, r, t1) + Lever(Iinv, r, t2));
}
