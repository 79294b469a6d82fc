/* Rolling resistance in the contact kernel, written once on K_V as kernel.h
 * is and included by it: the scalar instantiation is ContactRollingAdd's,
 * the lanes' runs four contacts at once with the same bits per lane.  The
 * torque M on i (j receives -M) from the normal force Fn and the law's
 * stiffness kn.  epsd: the spring's torque mr kept in the tangent plane with
 * its length, incremented by -k_r wr dt (wr the rolling rate over the step,
 * as the tangential spring's), capped at mu R* Fn; below the cap the dashpot
 * -C_r wrp (wrp the rate predicted at the step's end), C_r = 2 eta
 * sqrt(I_r k_r), k_r = 2.25 kn mu^2 R*^2; at the cap none.  constant: mu R*
 * Fn against wr. */

/* The tangential part of the relative angular velocity wi - wj (the
 * rolling; the twist about n is free). */
K_INLINE void K_FN(RollingRate)(const K_V wi[3], const K_V wj[3], const K_V n[3], K_V wr[3])
{
  K_V wn;
  for (int a = 0; a < 3; a++) wr[a] = wi[a] - wj[a];
  wn = wr[0] * n[0] + wr[1] * n[1] + wr[2] * n[2];
  for (int a = 0; a < 3; a++) wr[a] = wr[a] - wn * n[a];
}

/* A pair's rolling constants: mu (0: none), eta, R*, I_r and whether the
 * torque is the constant one (else epsd). */
typedef struct {
  K_V mu, eta, Rstar, Ir;
  K_M constant;
} K_FN(RollingConst);

/* The rolling torque tq onto Ti and Tj, its power -tq . wrp into *P2 (the lanes
 * without rolling: neither, and mr as it is). */
K_INLINE void K_FN(RollingAdd)(const K_FN(RollingConst) * c, K_V mr[3], const K_V n[3], const K_V wi[3],
                               const K_V wj[3], const K_V wip[3], const K_V wjp[3], K_V dt, K_V Fn, K_V kn, K_V Ti[3],
                               K_V Tj[3], K_V *P2)
{
  const K_V zero = K_SPLAT(0.0);
  K_M       on = c->mu > zero, epsd = on & (c->constant == 0);
  K_V       wr[3], wrp[3], tq[3], Mmax;

  if (!K_ANY(on)) return;
  K_FN(RollingRate)(wip, wjp, n, wrp); /* the dashpot's and the power's */
  K_FN(RollingRate)(wi, wj, n, wr);
  Mmax = c->mu * c->Rstar * K_FN(Max0)(Fn);
  for (int a = 0; a < 3; a++) tq[a] = zero;
  if (K_ANY(on & c->constant)) {
    K_V len = K_SQRT(wr[0] * wr[0] + wr[1] * wr[1] + wr[2] * wr[2]);
    for (int a = 0; a < 3; a++) tq[a] = K_SELECT(len > zero, -Mmax * wr[a] / len, zero);
  }
  if (K_ANY(epsd)) {
    K_V kr = K_SPLAT(2.25) * kn * c->mu * c->mu * c->Rstar * c->Rstar, m[3], msq;
    K_M cap;
    for (int a = 0; a < 3; a++) m[a] = mr[a];
    K_FN(Turn)(m, n);
    for (int a = 0; a < 3; a++) m[a] = m[a] - kr * wr[a] * dt;
    msq = m[0] * m[0] + m[1] * m[1] + m[2] * m[2];
    cap = msq > Mmax * Mmax;
    /* fully mobilised: plastic rolling, no damping; below, the dashpot */
    {
      K_V scale = Mmax / K_SQRT(msq), Cr = K_SPLAT(2.0) * c->eta * K_SQRT(c->Ir * kr);
      for (int a = 0; a < 3; a++) {
        K_V capped = m[a] * scale;
        tq[a]      = K_SELECT(epsd, K_SELECT(cap, capped, m[a] - Cr * wrp[a]), tq[a]);
        mr[a]      = K_SELECT(epsd, K_SELECT(cap, capped, m[a]), mr[a]);
      }
    }
  }
  for (int a = 0; a < 3; a++) Ti[a] = K_SELECT(on, Ti[a] + tq[a], Ti[a]), Tj[a] = K_SELECT(on, Tj[a] - tq[a], Tj[a]);
  *P2 = K_SELECT(on, -(tq[0] * wrp[0] + tq[1] * wrp[1] + tq[2] * wrp[2]), *P2);
}
