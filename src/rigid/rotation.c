#include "rigid/rotation.h"
#include "hdem_vector.h"
#include <string.h>

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
    s    = 2.0 * sqrt(1.0 + tr);
    q[0] = 0.25 * s, q[1] = (R[7] - R[5]) / s, q[2] = (R[2] - R[6]) / s, q[3] = (R[3] - R[1]) / s;
  } else if (R[0] >= R[4] && R[0] >= R[8]) {
    s    = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s, q[1] = 0.25 * s, q[2] = (R[1] + R[3]) / s, q[3] = (R[2] + R[6]) / s;
  } else if (R[4] >= R[8]) {
    s    = 2.0 * sqrt(1.0 + R[4] - R[0] - R[8]);
    q[0] = (R[2] - R[6]) / s, q[1] = (R[1] + R[3]) / s, q[2] = 0.25 * s, q[3] = (R[5] + R[7]) / s;
  } else {
    s    = 2.0 * sqrt(1.0 + R[8] - R[0] - R[4]);
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
  PetscReal R[9];
  QuatToMatrix(q, R);
  RigidSpin(q, p, inertia, R, w);
}

#pragma GCC diagnostic ignored "-Wpsabi" /* the helpers are inlined into each clone */
/* Eight bodies a vector, RIGID_SETS vectors in turn: each sub-rotation's
 * polynomials are one long chain of dependent operations, and independent
 * chains overlap. */
typedef double V8 __attribute__((vector_size(64)));

static inline __attribute__((always_inline)) V8 Load8(const PetscReal *a)
{
  V8 v;
  memcpy(&v, a, sizeof(v));
  return v;
}

static inline __attribute__((always_inline)) void Store8(PetscReal *a, V8 v)
{
  memcpy(a, &v, sizeof(v));
}

/* RigidRotateAxis on eight bodies: the permutation P_k is a choice of columns
 * with signs (RigidPermute), the sine and cosine RigidSinCos's (the
 * library's for a lane past its polynomial's range) */
static inline __attribute__((always_inline)) void RotateAxisLanes(int k, V8 tq, V8 q[4], V8 p[4])
{
  static const int  col[3][4] = {{1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}};
  static const char neg[3][4] = {{1, 0, 0, 1}, {1, 1, 0, 0}, {1, 0, 1, 0}};
  V8                kq[4], kp[4], z, z2, s, c;
  for (int a = 0; a < 4; a++) {
    kq[a] = neg[k][a] ? -q[col[k][a]] : q[col[k][a]];
    kp[a] = neg[k][a] ? -p[col[k][a]] : p[col[k][a]];
  }
  z  = (p[0] * kq[0] + p[1] * kq[1] + p[2] * kq[2] + p[3] * kq[3]) * tq;
  z2 = z * z;
  s  = z *
      (1.0 - z2 * (1.0 / 6.0) *
               (1.0 - z2 * (1.0 / 20.0) *
                        (1.0 - z2 * (1.0 / 42.0) *
                                 (1.0 - z2 * (1.0 / 72.0) * (1.0 - z2 * (1.0 / 110.0) * (1.0 - z2 * (1.0 / 156.0)))))));
  c = 1.0 - z2 * 0.5 *
              (1.0 - z2 * (1.0 / 12.0) *
                       (1.0 - z2 * (1.0 / 30.0) *
                                (1.0 - z2 * (1.0 / 56.0) * (1.0 - z2 * (1.0 / 90.0) * (1.0 - z2 * (1.0 / 132.0))))));
  for (int l = 0; l < 8; l++)
    if (!(PetscAbsReal(z[l]) < RIGID_POLY_LIMIT)) s[l] = sin(z[l]), c[l] = cos(z[l]);
  for (int a = 0; a < 4; a++) {
    V8 qa = q[a], pa = p[a];
    q[a] = c * qa + s * kq[a];
    p[a] = c * pa + s * kp[a];
  }
}

VEC_CLONES void RigidRotateLanes(PetscInt ld, PetscReal *qp, const PetscReal *tq)
{
  const V8 half = {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
  for (PetscInt b = 0; b < ld; b += 8 * RIGID_SETS) {
    V8 q[RIGID_SETS][4], p[RIGID_SETS][4], t[RIGID_SETS][3];
    for (int s = 0; s < RIGID_SETS; s++) {
      for (int a = 0; a < 4; a++)
        q[s][a] = Load8(qp + a * ld + b + 8 * s), p[s][a] = Load8(qp + (4 + a) * ld + b + 8 * s);
      for (int a = 0; a < 3; a++) t[s][a] = Load8(tq + a * ld + b + 8 * s);
    }
    for (int s = 0; s < RIGID_SETS; s++) RotateAxisLanes(2, half * t[s][2], q[s], p[s]);
    for (int s = 0; s < RIGID_SETS; s++) RotateAxisLanes(1, half * t[s][1], q[s], p[s]);
    for (int s = 0; s < RIGID_SETS; s++) RotateAxisLanes(0, t[s][0], q[s], p[s]);
    for (int s = 0; s < RIGID_SETS; s++) RotateAxisLanes(1, half * t[s][1], q[s], p[s]);
    for (int s = 0; s < RIGID_SETS; s++) RotateAxisLanes(2, half * t[s][2], q[s], p[s]);
    for (int s = 0; s < RIGID_SETS; s++)
      for (int a = 0; a < 4; a++)
        Store8(qp + a * ld + b + 8 * s, q[s][a]), Store8(qp + (4 + a) * ld + b + 8 * s, p[s][a]);
  }
}
