/* A body's part of the step, written once on values (quat_kernel.h's
 * conventions and macros, B_SQRT(a) besides: the square root per lane):
 * instantiated on reals for the body-by-body passes (body_step.c) and on
 * vectors for the passes over several bodies at once (body_lanes.c), the
 * same operations in the same order, so the same bits.  A body's mass M,
 * force F and torque T of the step, principal moments in, velocity V,
 * orientation q and NO_SQUISH momentum pm. */

#define B_INLINE static inline __attribute__((always_inline))

B_INLINE void B_FN(BodyCross)(const B_V a[3], const B_V b[3], B_V c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/* A member's lever arm R d, d its centre less the body's centre of mass in the body frame */
B_INLINE void B_FN(BodyArmOf)(const B_V R[9], const B_V d[3], B_V arm[3])
{
  for (int a = 0; a < 3; a++) arm[a] = (R[3 * a] * d[0] + R[3 * a + 1] * d[1]) + R[3 * a + 2] * d[2];
}

/* A member placed (offset d) where its body is (centre X, velocity V, its
 * prediction Vp) at the orientation R with spin w and its prediction wp:
 * its centre x, velocity v and prediction vp. */
B_INLINE void B_FN(BodyMember)(const B_V R[9], const B_V d[3], const B_V X[3], const B_V V[3], const B_V Vp[3],
                               const B_V w[3], const B_V wp[3], B_V x[3], B_V v[3], B_V vp[3])
{
  B_V arm[3], c[3], cp[3];
  B_FN(BodyArmOf)(R, d, arm);
  B_FN(BodyCross)(w, arm, c);
  B_FN(BodyCross)(wp, arm, cp);
  for (int a = 0; a < 3; a++) x[a] = X[a] + arm[a], v[a] = V[a] + c[a], vp[a] = Vp[a] + cp[a];
}

/* A member's force f and torque t (offset d, orientation R) added to its body's F and T about its centre. */
B_INLINE void B_FN(BodyGatherMember)(const B_V R[9], const B_V d[3], const B_V f[3], const B_V t[3], B_V F[3], B_V T[3])
{
  B_V arm[3], c[3];
  B_FN(BodyArmOf)(R, d, arm);
  B_FN(BodyCross)(arm, f, c);
  for (int a = 0; a < 3; a++) F[a] += f[a], T[a] += c[a] + t[a];
}

B_INLINE B_V B_FN(BodyNorm)(const B_V a[3])
{
  return B_SQRT(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/* The close's kick by h: V and pm. */
B_INLINE void B_FN(BodyKick)(B_V M, const B_V F[3], const B_V T[3], B_V h, const B_V q[4], B_V V[3], B_V pm[4])
{
  const B_V rm = B_SPLAT(1.0) / M;
  for (int a = 0; a < 3; a++) V[a] += F[a] * rm * h;
  B_FN(RigidKick)(q, T, h, pm);
}

/* The rebuild criterion's reach over du: how far the centre moves after the
 * next kick, and a bound on the turn (the free rotor keeps |L|: no axis
 * turns faster than |L| / I_min, and NO_SQUISH's sub-rotations add up to at
 * most sqrt(3) |L| / I_min du) per unit of arm. */
B_INLINE void B_FN(BodyReach)(B_V M, const B_V F[3], const B_V T[3], const B_V in[3], const B_V V[3], const B_V pm[4],
                              B_V du, B_V *move, B_V *turn)
{
  const B_V rm = B_SPLAT(1.0) / M, i12 = B_SELECT(in[1] < in[2], in[1], in[2]);
  const B_V imin = B_SELECT(in[0] < i12, in[0], i12);
  *move          = (B_FN(BodyNorm)(V) + B_FN(BodyNorm)(F) * rm * B_SPLAT(0.5) * du) * du;
  *turn          = B_SPLAT(sqrt(3.0)) *
          (B_SPLAT(0.5) * B_SQRT(pm[0] * pm[0] + pm[1] * pm[1] + pm[2] * pm[2] + pm[3] * pm[3]) +
           B_FN(BodyNorm)(T) * B_SPLAT(0.5) * du) /
          imin * du;
}

/* The kinetic energies of translation (*t) and rotation (*r). */
B_INLINE void B_FN(BodyEnergy)(B_V M, const B_V in[3], const B_V V[3], const B_V q[4], const B_V pm[4], B_V *t, B_V *r)
{
  B_V Lb[3], s = B_SPLAT(0.0);
  B_FN(RigidMomentumBody)(q, pm, Lb);
  for (int a = 0; a < 3; a++) s += B_SELECT(in[a] > B_SPLAT(0.0), Lb[a] * Lb[a] / in[a], B_SPLAT(0.0));
  *t = B_SPLAT(0.5) * M * (V[0] * V[0] + V[1] * V[1] + V[2] * V[2]);
  *r = B_SPLAT(0.5) * s;
}

/* The open's kick by dt / 2 and drift by dt (gravity g): V, the centre X,
 * pm; gravity's work on the drift by axis in qg; the rotation's dt / (4 I)
 * (0 for a zero moment) in tq. */
B_INLINE void B_FN(BodyDrift)(B_V M, const B_V F[3], const B_V T[3], const B_V in[3], B_V dt, const B_V g[3],
                              const B_V q[4], B_V V[3], B_V X[3], B_V pm[4], B_V qg[3], B_V tq[3])
{
  const B_V h = B_SPLAT(0.5) * dt, rm = B_SPLAT(1.0) / M;
  for (int a = 0; a < 3; a++) {
    V[a] += F[a] * rm * h;
    X[a] += V[a] * dt;
    qg[a] = M * g[a] * V[a] * dt;
  }
  B_FN(RigidKick)(q, T, h, pm);
  for (int a = 0; a < 3; a++) tq[a] = B_SELECT(in[a] > B_SPLAT(0.0), dt / (B_SPLAT(4.0) * in[a]), B_SPLAT(0.0));
}

/* What the members are placed from after the turn: the orientation's
 * matrix R, the spin w, and the predictions at the step's end Vp, wp (the
 * angular momentum kicked once more by h: linear in it at this
 * orientation). */
B_INLINE void B_FN(BodyPlaceState)(B_V M, const B_V F[3], const B_V T[3], const B_V in[3], const B_V V[3],
                                   const B_V q[4], const B_V pm[4], B_V h, B_V R[9], B_V w[3], B_V Vp[3], B_V wp[3])
{
  const B_V rm = B_SPLAT(1.0) / M;
  B_V       Iw[6];
  for (int a = 0; a < 3; a++) Vp[a] = V[a] + F[a] * rm * h;
  B_FN(QuatToMatrix)(q, R);
  B_FN(RigidInverseInertia)(R, in, Iw);
  B_FN(RigidSpin)(q, pm, in, R, w);
  wp[0] = w[0] + ((Iw[0] * T[0] + Iw[3] * T[1]) + Iw[4] * T[2]) * h;
  wp[1] = w[1] + ((Iw[3] * T[0] + Iw[1] * T[1]) + Iw[5] * T[2]) * h;
  wp[2] = w[2] + ((Iw[4] * T[0] + Iw[5] * T[1]) + Iw[2] * T[2]) * h;
}

#undef B_INLINE
