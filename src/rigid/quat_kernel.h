/* A body's rotation algebra, written once on values of a type B_V that is a
 * real (rotation.h's instantiation: QuatToMatrix, QuatMultiply, ...) or a
 * GCC vector of reals (body_lanes.c's: the same names with Lanes), as the
 * contact kernel is (contact/kernel.h): per lane the scalar IEEE operations
 * in the scalar's order, so a body's bits are the same in either.  Included
 * once per instantiation with these defined:
 *   B_V             the value type
 *   B_FN(name)      the instantiation's name for function name
 *   B_SPLAT(c)      the real c as a B_V
 *   B_SELECT(m, a, b)  m ? a : b, per lane, bits unchanged */

#define B_INLINE static inline __attribute__((always_inline))

/* row-major */
B_INLINE void B_FN(QuatToMatrix)(const B_V q[4], B_V R[9])
{
  B_V w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = w * w + x * x - y * y - z * z, R[1] = B_SPLAT(2.0) * (x * y - w * z), R[2] = B_SPLAT(2.0) * (x * z + w * y);
  R[3] = B_SPLAT(2.0) * (x * y + w * z), R[4] = w * w - x * x + y * y - z * z, R[5] = B_SPLAT(2.0) * (y * z - w * x);
  R[6] = B_SPLAT(2.0) * (x * z - w * y), R[7] = B_SPLAT(2.0) * (y * z + w * x), R[8] = w * w - x * x - y * y + z * z;
}

/* c = a (x) b (c may be a or b): with a = q0 and b = r, the rotation r in the body frame, then q0 */
B_INLINE void B_FN(QuatMultiply)(const B_V a[4], const B_V b[4], B_V c[4])
{
  B_V r[4];
  r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  for (int k = 0; k < 4; k++) c[k] = r[k];
}

/* the angular momentum in the body frame: S(q)^T p = q* (x) p, its vector part halved */
B_INLINE void B_FN(RigidMomentumBody)(const B_V q[4], const B_V p[4], B_V Lb[3])
{
  const B_V c[4] = {q[0], -q[1], -q[2], -q[3]};
  B_V       r[4];
  B_FN(QuatMultiply)(c, p, r);
  for (int a = 0; a < 3; a++) Lb[a] = B_SPLAT(0.5) * r[1 + a];
}

/* p += 2 h S(q) (0, R(q)^T torque) for a torque [N m] in the world frame over
 * h, as p += 2 h (0, torque) (x) q (q (x) (0, R^T T) = (0, T) (x) q: no matrix) */
B_INLINE void B_FN(RigidKick)(const B_V q[4], const B_V torque[3], B_V h, B_V p[4])
{
  const B_V t[4] = {B_SPLAT(0.0), B_SPLAT(2.0) * h * torque[0], B_SPLAT(2.0) * h * torque[1],
                    B_SPLAT(2.0) * h * torque[2]};
  B_V       d[4];
  B_FN(QuatMultiply)(t, q, d);
  for (int k = 0; k < 4; k++) p[k] += d[k];
}

/* The spin in the world frame at the orientation R(q): R I^-1 L_body (a zero
 * principal moment: no spin about that axis). */
B_INLINE void B_FN(RigidSpin)(const B_V q[4], const B_V p[4], const B_V inertia[3], const B_V R[9], B_V w[3])
{
  B_V Lb[3], wb[3];
  B_FN(RigidMomentumBody)(q, p, Lb);
  for (int a = 0; a < 3; a++) wb[a] = B_SELECT(inertia[a] > B_SPLAT(0.0), Lb[a] / inertia[a], B_SPLAT(0.0));
  for (int a = 0; a < 3; a++) w[a] = R[3 * a] * wb[0] + R[3 * a + 1] * wb[1] + R[3 * a + 2] * wb[2];
}

/* The inverse inertia in the world frame, R diag(1 / I) R^T as xx yy zz xy
 * xz yz (a zero moment: no rotation about that axis). */
B_INLINE void B_FN(RigidInverseInertia)(const B_V R[9], const B_V inertia[3], B_V Iw[6])
{
  B_V ri[3];
  for (int a = 0; a < 3; a++) ri[a] = B_SELECT(inertia[a] > B_SPLAT(0.0), B_SPLAT(1.0) / inertia[a], B_SPLAT(0.0));
  Iw[0] = R[0] * R[0] * ri[0] + R[1] * R[1] * ri[1] + R[2] * R[2] * ri[2];
  Iw[1] = R[3] * R[3] * ri[0] + R[4] * R[4] * ri[1] + R[5] * R[5] * ri[2];
  Iw[2] = R[6] * R[6] * ri[0] + R[7] * R[7] * ri[1] + R[8] * R[8] * ri[2];
  Iw[3] = R[0] * R[3] * ri[0] + R[1] * R[4] * ri[1] + R[2] * R[5] * ri[2];
  Iw[4] = R[0] * R[6] * ri[0] + R[1] * R[7] * ri[1] + R[2] * R[8] * ri[2];
  Iw[5] = R[3] * R[6] * ri[0] + R[4] * R[7] * ri[1] + R[5] * R[8] * ri[2];
}

#undef B_INLINE
