#include "rigid/rotation.h"

void QuatToMatrix(const PetscReal q[4], PetscReal R[9])
{
  PetscReal w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = w * w + x * x - y * y - z * z, R[1] = 2.0 * (x * y - w * z), R[2] = 2.0 * (x * z + w * y);
  R[3] = 2.0 * (x * y + w * z), R[4] = w * w - x * x + y * y - z * z, R[5] = 2.0 * (y * z - w * x);
  R[6] = 2.0 * (x * z - w * y), R[7] = 2.0 * (y * z + w * x), R[8] = w * w - x * x - y * y + z * z;
}

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

void QuatMultiply(const PetscReal a[4], const PetscReal b[4], PetscReal c[4])
{
  PetscReal r[4];
  r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  for (int k = 0; k < 4; k++) c[k] = r[k];
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

/* S(q)^T p = q* (x) p; its vector part halved */
void RigidMomentumBody(const PetscReal q[4], const PetscReal p[4], PetscReal Lb[3])
{
  const PetscReal c[4] = {q[0], -q[1], -q[2], -q[3]};
  PetscReal       r[4];
  QuatMultiply(c, p, r);
  for (int a = 0; a < 3; a++) Lb[a] = 0.5 * r[1 + a];
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

void RigidKick(const PetscReal q[4], const PetscReal torque[3], PetscReal h, PetscReal p[4])
{
  PetscReal R[9], v[4] = {0, 0, 0, 0}, d[4];
  QuatToMatrix(q, R);
  for (int a = 0; a < 3; a++) v[1 + a] = 2.0 * h * (R[a] * torque[0] + R[3 + a] * torque[1] + R[6 + a] * torque[2]);
  QuatMultiply(q, v, d);
  for (int k = 0; k < 4; k++) p[k] += d[k];
}

/* P_k x = x (x) e_k: the permutations of the splitting */
static void Permute(int k, const PetscReal x[4], PetscReal y[4])
{
  if (k == 0) y[0] = -x[1], y[1] = x[0], y[2] = x[3], y[3] = -x[2];
  else if (k == 1) y[0] = -x[2], y[1] = -x[3], y[2] = x[0], y[3] = x[1];
  else y[0] = -x[3], y[1] = x[2], y[2] = -x[1], y[3] = x[0];
}

/* The exact flow of the k-th axis' term of the free rotor over t. */
static void RotateAxis(int k, PetscReal inertia, PetscReal t, PetscReal q[4], PetscReal p[4])
{
  PetscReal kq[4], kp[4], z, c, s;
  if (!(inertia > 0.0)) return;
  Permute(k, q, kq);
  Permute(k, p, kp);
  z = t * (p[0] * kq[0] + p[1] * kq[1] + p[2] * kq[2] + p[3] * kq[3]) / (4.0 * inertia);
  c = cos(z), s = sin(z);
  for (int a = 0; a < 4; a++) {
    PetscReal qa = q[a], pa = p[a];
    q[a] = c * qa + s * kq[a];
    p[a] = c * pa + s * kp[a];
  }
}

void RigidRotate(const PetscReal inertia[3], PetscReal dt, PetscReal q[4], PetscReal p[4])
{
  RotateAxis(2, inertia[2], 0.5 * dt, q, p);
  RotateAxis(1, inertia[1], 0.5 * dt, q, p);
  RotateAxis(0, inertia[0], dt, q, p);
  RotateAxis(1, inertia[1], 0.5 * dt, q, p);
  RotateAxis(2, inertia[2], 0.5 * dt, q, p);
}
