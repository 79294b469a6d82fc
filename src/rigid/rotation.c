#include "rigid/rotation.h"


void QuatNormalize(PetscReal q[4])
{
  PetscReal n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int a = 0; a < 4; a++) q[a] /= n;
}

/* Shepperd's choice: the largest of the four squares is formed first, so no
 * component comes from a small difference. */
void QuatFromMatrix(const PetscReal R[9], PetscReal q[4])
{
  PetscReal tr = R[0] + R[4] + R[8], s;
  if (tr >= R[0] && tr >= R[4] && tr >= R[8]) {
    s = 2.0 * sqrt(1.0 + tr);
    q[0] = 0.25 * s, q[1] = (R[7] - R[5]) / s, q[2] = (R[2] - R[6]) / s, q[3] = (R[3] - R[1]) / s;
  } else if (R[0] >= R[4] && R[0] >= R[8]) {
    s = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s, q[1] = 0.25 * s, q[2] = (R[1] + R[3]) / s, q[3] = (R[2] + R[6]) / s;
  } else if (R[4] >= R[8]) {
    s = 2.0 * sqrt(1.0 + R[4] - R[0] - R[8]);
    q[0] = (R[2] - R[6]) / s, q[1] = (R[1] + R[3]) / s, q[2] = 0.25 * s, q[3] = (R[5] + R[7]) / s;
  } else {
    s = 2.0 * sqrt(1.0 + R[8] - R[0] - R[4]);
    q[0] = (R[3] - R[1]) / s, q[1] = (R[2] + R[6]) / s, q[2] = (R[5] + R[7]) / s, q[3] = 0.25 * s;
  }
  if (q[0] < 0.0)
    for (int a = 0; a < 4; a++) q[a] = -q[a];
  QuatNormalize(q);
}


void QuatUniform(PetscReal u1, PetscReal u2, PetscReal u3, PetscReal q[4])
{
  PetscReal a = sqrt(1.0 - u1), b = sqrt(u1), t2 = 2.0 * HDEM_PI * u2, t3 = 2.0 * HDEM_PI * u3;
  q[0] = b * cos(t3), q[1] = a * sin(t2), q[2] = a * cos(t2), q[3] = b * sin(t3);
}

void RigidMomentumSet(const PetscReal q[4], const PetscReal Lb[3], PetscReal p[4])
{
  const PetscReal v[4] = {0.0, 2.0 * Lb[0], 2.0 * Lb[1], 2.0 * Lb[2]};
  QuatMultiply(q, v, p);
}


void RigidMomentumFromOmega(const PetscReal q[4], const PetscReal inertia[3], const PetscReal w[3], PetscReal p[4])
{
  PetscReal R[9], Lb[3];
  QuatToMatrix(q, R);
  for (int a = 0; a < 3; a++) Lb[a] = inertia[a] * (R[a] * w[0] + R[3 + a] * w[1] + R[6 + a] * w[2]);
  RigidMomentumSet(q, Lb, p);
}

void RigidOmegaWorld(const PetscReal q[4], const PetscReal p[4], const PetscReal inertia[3], PetscReal w[3])
{
  PetscReal R[9], Lb[3], wb[3];
  RigidMomentumBody(q, p, Lb);
  for (int a = 0; a < 3; a++) wb[a] = inertia[a] > 0.0 ? Lb[a] / inertia[a] : 0.0;
  QuatToMatrix(q, R);
  for (int a = 0; a < 3; a++) w[a] = R[3 * a] * wb[0] + R[3 * a + 1] * wb[1] + R[3 * a + 2] * wb[2];
}




