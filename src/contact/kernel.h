/* The contact kernel, written once: the force of one contact between two
 * bodies (or a body and a wall) from its kinematics, its history and the
 * normal law's elastic force and damping coefficient.  Every evaluation of a
 * contact comes from this source: ContactEvaluate (any law, contact.c), the
 * sphere engine's first touches and its lanes of four contacts
 * (contact_batch.c).  A new force term is one edit here.
 *
 * The source is written on values of a type K_V that is either a real (the
 * scalar instantiation, kernel_scalar.h) or a GCC vector of reals (the
 * lanes): +, -, *, / and comparisons read alike on both, and per lane they
 * are the scalar IEEE operations (no contraction), so the lanes give the
 * scalar bits.  A branch becomes a selection (K_SELECT) between results both
 * computed in the lanes, taken lazily in the scalar; K_ANY skips work no lane
 * needs.  Included once per instantiation (as PETSc's sfpack.c instantiates
 * its pack kernels) with these defined:
 *   K_V, K_M           the value type and the type of a comparison on it
 *   K_FN(name)         the instantiation's name for function name
 *   K_SPLAT(c)         the real c as a K_V
 *   K_SQRT(a)          the square root, per lane
 *   K_POW(a, e)        pow(a, e), per lane (e a real)
 *   K_CBRT(m, a)       the cube root of a (cube_root.h) where the mask m is set (other lanes: any value)
 *   K_POW_WHERE(m, a, e)  pow(a, e) where the mask m is set (other lanes: any value)
 *   K_NLANES, K_LANE(a, l)  the number of lanes and lane l of a, an lvalue
 *   K_SELECT(m, a, b)  m ? a : b, per lane, bits unchanged
 *   K_ANY(m)           whether some lane's m is set
 *   K_FIRST_TOUCH      1 if the instantiation evaluates first touches
 *                      (scalar), 0 if never (the lanes take contacts that
 *                      touched at the last step)
 * Orientation and meaning as in contact.h: n points from j to i, relative
 * velocities are v_i - v_j, the force acts on i; what the model says of
 * every contact alike is a ContactKernelModel (contact.h). */

#define K_INLINE static inline __attribute__((always_inline))

/* max(a, 0): PetscMax(a, 0.0) per lane (signed zeros and NaN as there) */
K_INLINE K_V K_FN(Max0)(K_V a)
{
  return K_SELECT(a < K_SPLAT(0.0), K_SPLAT(0.0), a);
}

/* The tangential part of the contact-point relative velocity
 * v - (ri wi + rj wj) x n. */
K_INLINE void K_FN(Slip)(K_V ri, K_V rj, const K_V n[3], const K_V v[3], const K_V wi[3], const K_V wj[3], K_V vt[3])
{
  K_V w[3], vc[3], vcn;
  for (int a = 0; a < 3; a++) w[a] = ri * wi[a] + rj * wj[a];
  vc[0] = v[0] - (w[1] * n[2] - w[2] * n[1]);
  vc[1] = v[1] - (w[2] * n[0] - w[0] * n[2]);
  vc[2] = v[2] - (w[0] * n[1] - w[1] * n[0]);
  vcn   = vc[0] * n[0] + vc[1] * n[1] + vc[2] * n[2];
  for (int a = 0; a < 3; a++) vt[a] = vc[a] - vcn * n[a];
}

/* A tangential vector (a spring, a force, a torque) turned into the current
 * tangent plane with its length kept: its normal part removed, the rest
 * scaled back to the old length (left as it is when nothing is left). */
K_INLINE void K_FN(Turn)(K_V x[3], const K_V n[3])
{
  K_V l0, l1, xn;
  K_M turn;

  l0 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
  xn = x[0] * n[0] + x[1] * n[1] + x[2] * n[2];
  for (int a = 0; a < 3; a++) x[a] = x[a] - xn * n[a];
  l1   = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
  turn = l1 > K_SPLAT(0.0);
  if (K_ANY(turn)) {
    K_V ratio = K_SQRT(l0 / l1);
    for (int a = 0; a < 3; a++) x[a] = K_SELECT(turn, x[a] * ratio, x[a]);
  }
}

/* Cundall-Strack spring: keep the spring xi in the current tangent plane
 * with its length, stretch it by the sliding displacement vt dt, cap the
 * force -kt xi - gt vtp at mu Fn and shorten the spring to match when it
 * slips.  Lengths are compared squared, so a spring that sticks costs one
 * root; a slip divides by kt once for three components. */
K_INLINE void K_FN(Spring)(K_V xi[3], const K_V n[3], const K_V vt[3], const K_V vtp[3], K_V dt, K_V kt, K_V gt, K_V mu,
                           K_V Fn, K_V Ft[3])
{
  K_V fsq, fmax;
  K_M slip;

  K_FN(Turn)(xi, n);
  for (int a = 0; a < 3; a++) xi[a] = xi[a] + vt[a] * dt;
  for (int a = 0; a < 3; a++) Ft[a] = -kt * xi[a] - gt * vtp[a];
  fsq  = Ft[0] * Ft[0] + Ft[1] * Ft[1] + Ft[2] * Ft[2];
  fmax = mu * K_FN(Max0)(Fn);
  slip = fsq > fmax * fmax;
  if (K_ANY(slip)) { /* fsq > 0 where it slips */
    K_V scale = fmax / K_SQRT(fsq), ikt = K_SPLAT(1.0) / kt;
    K_M kpos = kt > K_SPLAT(0.0);
    for (int a = 0; a < 3; a++) {
      K_V Fs = Ft[a] * scale;
      xi[a]  = K_SELECT(slip, K_SELECT(kpos, -(Fs + gt * vtp[a]) * ikt, K_SPLAT(0.0)), xi[a]);
      Ft[a]  = K_SELECT(slip, Fs, Ft[a]);
    }
  }
}

/* The incremental spring (LAMMPS's tangential mindlin/force): the history
 * is the elastic force itself, kept in the current tangent plane with its
 * length and incremented by -kt vt dt with the stiffness of the moment;
 * the damper -gt vtp on top; the sum capped at mu Fn, the elastic part then
 * what the cap leaves. */
K_INLINE void K_FN(SpringForce)(K_V fe[3], const K_V n[3], const K_V vt[3], const K_V vtp[3], K_V dt, K_V kt, K_V gt,
                                K_V mu, K_V Fn, K_V Ft[3])
{
  K_V fsq, fmax;
  K_M slip;

  K_FN(Turn)(fe, n);
  for (int a = 0; a < 3; a++) fe[a] = fe[a] - kt * vt[a] * dt;
  for (int a = 0; a < 3; a++) Ft[a] = fe[a] - gt * vtp[a];
  fsq  = Ft[0] * Ft[0] + Ft[1] * Ft[1] + Ft[2] * Ft[2];
  fmax = mu * K_FN(Max0)(Fn);
  slip = fsq > fmax * fmax;
  if (K_ANY(slip)) {
    K_V scale = fmax / K_SQRT(fsq);
    for (int a = 0; a < 3; a++) {
      K_V Fs = Ft[a] * scale;
      fe[a]  = K_SELECT(slip, Fs + gt * vtp[a], fe[a]);
      Ft[a]  = K_SELECT(slip, Fs, Ft[a]);
    }
  }
}

/* A pair's constants for Normal: the law's scale s, the mass m along the normal, the harmonic damping's zeta
 * sqrt(2 m) and sqrt(s k (p + 1)) (zs, cF), and the damping's own: tsuji's alpha (ca); the Hunt-Crossley family's
 * D, factor and v_min (ca, cb, cc); a fixed dashpot's C (ca); the calibrated constant damper's (ca, cb, cc); the
 * pair's damping itself (CONTACT_DAMP_OTHER). */
typedef struct {
  K_V            s, m, zs, cF, ca, cb, cc;
  const Damping *dmp[K_NLANES];
} K_FN(NormalConst);

/* The contact's elastic force Fel, its energy U and stiffness dF (each where non-NULL), the damping coefficient C and
 * the roots sd = d^(1/2), qd = d^(1/4) that the law, the damping or the Mindlin spring (roots) takes: NormalLawEval's
 * and DampingCoefficient's operations in their order, so their bits.  What no class covers goes through them contact by
 * contact. */
K_INLINE void K_FN(Normal)(const ContactNormalModel *nm, const K_FN(NormalConst) * c, K_V d, K_V v_imp, PetscBool roots,
                           K_V *sd, K_V *qd, K_V *Fel, K_V *C, K_V *U, K_V *dF)
{
  const PetscBool hertz = nm->law == CONTACT_LAW_HERTZ ? PETSC_TRUE : PETSC_FALSE;
  K_V             k     = K_SPLAT(nm->k), dp;

  *sd = *qd = *C = K_SPLAT(0.0);
  if (hertz || roots) *sd = K_SQRT(d);
  if (roots || (hertz && nm->damp == CONTACT_DAMP_HARMONIC)) *qd = K_SQRT(*sd);
  if (nm->law != CONTACT_LAW_OTHER) {
    dp   = hertz ? d * *sd : (nm->law == CONTACT_LAW_LINEAR ? d : K_POW(d, nm->p));
    *Fel = c->s * (K_SPLAT(0.0) + k * dp);
    if (U) *U = c->s * (K_SPLAT(0.0) + k * dp * d / K_SPLAT(nm->kp1));
    if (dF) *dF = c->s * (K_SPLAT(0.0) + k * K_SPLAT(nm->p) * dp / d);
  } else
    for (int l = 0; l < K_NLANES; l++) {
      PetscReal u, f, df;
      NormalLawEval(nm->nlaw, K_LANE(c->s, l), K_LANE(d, l), &u, &f, &df);
      K_LANE(*Fel, l) = f;
      if (U) K_LANE(*U, l) = u;
      if (dF) K_LANE(*dF, l) = df;
    }
  switch (nm->damp) {
  case CONTACT_DAMP_HARMONIC:
    if (hertz) *C = c->zs * (c->cF * *qd);
    else if (nm->law == CONTACT_LAW_LINEAR) *C = c->zs * c->cF;
    else *C = c->zs * (c->cF * K_POW(d, nm->hp));
    break;
  case CONTACT_DAMP_TSUJI:
    *C = c->ca * K_SQRT(c->m * (*Fel / d));
    break;
  case CONTACT_DAMP_SPEED: /* PetscMax(v_imp, v_min) */
    *C = K_SELECT(c->ca > K_SPLAT(0.0), c->ca, c->cb / K_SELECT(v_imp < c->cc, c->cc, v_imp)) * *Fel;
    break;
  case CONTACT_DAMP_FIXED:
    *C = c->ca;
    break;
  case CONTACT_DAMP_CALIBRATED: { /* a raw pair's C (or a contact's formed before) in ca (>= 0), else -1 there and
                                    c_hat m in cb, v_min in cc */
    K_M calc = c->ca < K_SPLAT(0.0);
    *C       = c->ca;
    if (K_ANY(calc)) {
      K_V v = K_SELECT(v_imp < c->cc, c->cc, v_imp), E = K_SPLAT(0.5) * c->m * v * v, del;
      del = K_POW_WHERE(calc, K_SPLAT(nm->kp1) * E / (c->s * k), nm->ikp1); /* NormalLawOverlapAtEnergy */
      del = K_SELECT(E <= K_SPLAT(0.0), K_SPLAT(0.0), del);
      *C  = K_SELECT(calc, c->cb * v / del, c->ca);
    }
    break;
  }
  case CONTACT_DAMP_OTHER:
    for (int l = 0; l < K_NLANES; l++)
      K_LANE(*C, l) = DampingCoefficient(c->dmp[l], nm->nlaw, K_LANE(c->s, l), K_LANE(c->m, l), K_LANE(v_imp, l),
                                         K_LANE(d, l));
    break;
  }
}

/* The contact (friction coefficient mu): normal force Fn = Fel + C ddot (ddot the overlap rate from
 * the predicted velocities), clipped where the model says; at a first touch
 * (first, K_FIRST_TOUCH) the weight that gives the step the impulse of the
 * part of it spent in contact, from J = int F dt since the touch; the
 * tangential spring on the unweighted Fn; then the force on i, the torques
 * on i and j.  Returns in Fn the normal force as the history keeps it
 * (clipped, unweighted), in Fn_raw the unclipped one and in Fn_applied the
 * one in F (weighted); for the energy ledger, the power the normal force
 * takes beyond the elastic one's, (Fn - Fel) ddot, and the tangential
 * force's, -Ft . vt (vt the contact points' predicted sliding velocity),
 * both unweighted, in P[0] and P[1]. */
K_INLINE void K_FN(Contact)(const ContactKernelModel *md, K_V mu, K_V ri, K_V rj, K_V kc, K_V gc, const K_V n[3],
                            const K_V v[3], const K_V vp[3], const K_V wi[3], const K_V wj[3], const K_V wip[3],
                            const K_V wjp[3], K_V dt, K_V Fel, K_V C, K_V sd, K_V qd, PetscBool first, K_V J, K_V xi[3],
                            K_V *ddot, K_V *Fn, K_V *Fn_raw, K_V *Fn_applied, K_V F[3], K_V Ti[3], K_V Tj[3], K_V P[2])
{
  K_V Ft[3] = {K_SPLAT(0.0), K_SPLAT(0.0), K_SPLAT(0.0)}, w[3], fn;

  *ddot   = -(vp[0] * n[0] + vp[1] * n[1] + vp[2] * n[2]);
  *Fn_raw = Fel + C * *ddot;
  fn      = md->clip ? K_FN(Max0)(*Fn_raw) : *Fn_raw;
  P[0]    = md->ledger ? (fn - Fel) * *ddot : K_SPLAT(0.0);
  P[1]    = K_SPLAT(0.0);
  if (md->friction) {
    K_V kt = kc, gt = gc, vt[3], vtp[3];
    if (md->mindlin) kt = kt * sd, gt = gt * qd;
    K_FN(Slip)(ri, rj, n, v, wi, wj, vt);
    K_FN(Slip)(ri, rj, n, vp, wip, wjp, vtp);
    if (md->incremental) K_FN(SpringForce)(xi, n, vt, vtp, dt, kt, gt, mu, fn, Ft);
    else K_FN(Spring)(xi, n, vt, vtp, dt, kt, gt, mu, fn, Ft);
    if (md->ledger) P[1] = -(Ft[0] * vtp[0] + Ft[1] * vtp[1] + Ft[2] * vtp[2]);
  }
  *Fn = fn;
#if K_FIRST_TOUCH
  {
    K_V weight = K_SPLAT(1.0);
    if (first && fn > 0.0) weight = PetscMin(PetscMax(0.5 + J / (fn * dt), 0.5), 1.5);
    fn = fn * weight;
    for (int a = 0; a < 3; a++) Ft[a] = Ft[a] * weight;
  }
#else
  (void)first, (void)J;
#endif
  *Fn_applied = fn;
  for (int a = 0; a < 3; a++) F[a] = fn * n[a] + Ft[a];
  w[0] = n[1] * Ft[2] - n[2] * Ft[1];
  w[1] = n[2] * Ft[0] - n[0] * Ft[2];
  w[2] = n[0] * Ft[1] - n[1] * Ft[0];
  for (int a = 0; a < 3; a++) Ti[a] = (-ri) * w[a], Tj[a] = (-rj) * w[a];
}

#include "contact/kernel_md.h"
#include "contact/kernel_rolling.h"

#undef K_INLINE
