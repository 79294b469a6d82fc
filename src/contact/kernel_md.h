/* The Mindlin-Deresiewicz spring of the contact kernel (tangential_md.h
 * states the model), written once on K_V as kernel.h is and included by it:
 * the scalar instantiation is ContactTangentialMD's, the lanes' runs four
 * contacts at once with the same bits per lane.  Each branch of the scalar
 * statement is a selection between values both formed in the lanes (the
 * scalar takes them lazily, K_SELECT being ?:); K_CBRT(m, a) is the cube
 * root of a where m is set (cube_root.h: the scalar's and the lanes' bits are
 * the same). */

/* The spring's memory, as ContactTurning holds it. */
typedef struct {
  K_V ts[3], tss[3], dlast[3], mun, phase;
} K_FN(Turning);

K_INLINE K_V K_FN(Norm3)(const K_V x[3])
{
  return K_SQRT(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
}

/* Where m: x moved by s along itself, to zero at most (left as it is when it is zero). */
K_INLINE void K_FN(Along)(K_M m, K_V x[3], K_V s)
{
  K_V l, f;
  K_M pos;
  if (!K_ANY(m)) return;
  l   = K_FN(Norm3)(x);
  pos = m & (l > K_SPLAT(0.0));
  if (!K_ANY(pos)) return;
  f = (l + s) / l;
  f = K_SELECT(f < K_SPLAT(0.0), K_SPLAT(0.0), f);
  for (int a = 0; a < 3; a++) x[a] = K_SELECT(pos, x[a] * f, x[a]);
}

/* The elastic force T capped at mu N (lengths compared squared). */
K_INLINE void K_FN(CapAt)(K_V T[3], K_V muN)
{
  K_V fsq  = T[0] * T[0] + T[1] * T[1] + T[2] * T[2];
  K_M over = fsq > muN * muN;
  if (K_ANY(over)) {
    K_V s = muN / K_SQRT(fsq);
    for (int a = 0; a < 3; a++) T[a] = K_SELECT(over, T[a] * s, T[a]);
  }
}

/* The spring's step (ContactTangentialMD): T the elastic force (the
 * history's xi), n the normal, vt and vtp the sliding velocities at the half
 * step and predicted, kt0 the no-slip stiffness, gt the damper, mu Fn the
 * limit; Ft the tangential force on i. */
K_INLINE void K_FN(TangentialMD)(K_FN(Turning) * tn, K_V T[3], const K_V n[3], const K_V vt[3], const K_V vtp[3],
                                 K_V dt, K_V kt0, K_V gt, K_V mu, K_V Fn, K_V Ft[3])
{
  const K_V zero = K_SPLAT(0.0), one = K_SPLAT(1.0), two = K_SPLAT(2.0);
  K_V       muN = mu * K_SELECT(Fn > zero, Fn, zero), dmuN, dd[3], ldd, dot;
  K_M       on  = muN > zero, loop, rev, go;

  if (!K_ANY(on)) { /* no normal force: no friction, no memory */
    for (int a = 0; a < 3; a++) T[a] = Ft[a] = tn->ts[a] = tn->tss[a] = tn->dlast[a] = zero;
    tn->mun = tn->phase = zero;
    return;
  }
  K_FN(Turn)(T, n);
  /* on the virgin curve (phase 0) ts and tss are +0, which turning and moving leave as they are */
  loop = tn->phase != zero;
  if (K_ANY(loop)) {
    K_V ts[3], tss[3];
    for (int a = 0; a < 3; a++) ts[a] = tn->ts[a], tss[a] = tn->tss[a];
    K_FN(Turn)(ts, n), K_FN(Turn)(tss, n);
    for (int a = 0; a < 3; a++)
      tn->ts[a] = K_SELECT(loop, ts[a], tn->ts[a]), tn->tss[a] = K_SELECT(loop, tss[a], tn->tss[a]);
  }
  for (int a = 0; a < 3; a++) dd[a] = vt[a] * dt;
  ldd  = K_FN(Norm3)(dd);
  dmuN = muN - tn->mun;
  dot  = dd[0] * tn->dlast[0] + dd[1] * tn->dlast[1] + dd[2] * tn->dlast[2];
  rev  = (ldd > zero) & (dot < zero);
  if (K_ANY(rev)) { /* a turning point: -1, +1 of a loop from the virgin curve; -2, +2 inside one */
    K_M up = tn->phase >= zero;
    for (int a = 0; a < 3; a++) {
      tn->ts[a]  = K_SELECT(rev, K_SELECT(up, T[a], tn->ts[a]), tn->ts[a]);
      tn->tss[a] = K_SELECT(rev, K_SELECT(up, tn->tss[a], T[a]), tn->tss[a]);
    }
    tn->phase = K_SELECT(rev, K_SELECT(up, K_SELECT(tn->phase == zero, -one, -two), -tn->phase), tn->phase);
  }
  /* the turning points move with mu N, whether or not the contact point does */
  loop = tn->phase != zero;
  K_FN(Along)(loop, tn->ts, dmuN);
  K_FN(Along)(loop, tn->tss, dmuN);
  go = ldd > zero;
  if (K_ANY(go)) {
    K_M noslip = (dmuN > zero) & (kt0 * ldd < dmuN), virgin = tn->phase == zero, m1;
    K_V q, theta, k, x[3], nx;
    /* the force's distance from where its branch starts: from zero on the virgin curve, else from T* unloading and
     * from T** reloading (one root for the lanes of every branch) */
    for (int a = 0; a < 3; a++)
      x[a] = K_SELECT(virgin, T[a], K_SELECT(tn->phase < zero, T[a] - tn->ts[a], tn->tss[a] - T[a]));
    nx = K_FN(Norm3)(x);
    /* the normal force grows faster than the elastic increment: no slip */
    q = K_SELECT(noslip, one, one - K_SELECT(virgin, nx + dmuN, nx + two * dmuN) / K_SELECT(virgin, muN, two * muN));
    /* cbrt(1) is 1: the no-slip step takes no root */
    theta = K_SELECT(q > zero, K_SELECT(q == one, one, K_CBRT(go & (q > zero) & (q != one), q)), zero);
    /* the mu dN term along the displacement on every branch */
    k = kt0 * theta + dmuN * (one - theta) / ldd;
    for (int a = 0; a < 3; a++)
      T[a] = K_SELECT(go, T[a] - k * dd[a], T[a]), tn->dlast[a] = K_SELECT(go, dd[a], tn->dlast[a]);
    /* Masing: past the ends of a loop from the virgin curve, the virgin curve goes on */
    m1 = go & ((tn->phase == one) | (tn->phase == -one));
    if (K_ANY(m1)) {
      K_V lT = K_FN(Norm3)(T), ls = K_FN(Norm3)(tn->ts), tdot = T[0] * tn->ts[0] + T[1] * tn->ts[1] + T[2] * tn->ts[2];
      K_M forget = m1 & (lT >= ls) & (((tn->phase > zero) & (tdot > zero)) | ((tn->phase < zero) & (tdot < zero)));
      for (int a = 0; a < 3; a++)
        tn->ts[a] = K_SELECT(forget, zero, tn->ts[a]), tn->tss[a] = K_SELECT(forget, zero, tn->tss[a]);
      tn->phase = K_SELECT(forget, zero, tn->phase);
    }
  }
  tn->mun = muN;
  K_FN(CapAt)(T, muN); /* sliding: the elastic force at the limit */
  for (int a = 0; a < 3; a++) Ft[a] = T[a] - gt * vtp[a];
  K_FN(CapAt)(Ft, muN);         /* the damper takes no more than the limit leaves */
  for (int a = 0; a < 3; a++) { /* lanes without a normal force: no friction, no memory */
    T[a] = K_SELECT(on, T[a], zero), Ft[a] = K_SELECT(on, Ft[a], zero), tn->ts[a] = K_SELECT(on, tn->ts[a], zero);
    tn->tss[a] = K_SELECT(on, tn->tss[a], zero), tn->dlast[a] = K_SELECT(on, tn->dlast[a], zero);
  }
  tn->mun = K_SELECT(on, tn->mun, zero), tn->phase = K_SELECT(on, tn->phase, zero);
}

/* The spring after the kernel's normal force (ContactTurningAddSlip): its
 * force weighted as the kernel weighs a first touch's (Fn_applied / Fn),
 * added to F, its torques into Ti and Tj; with the ledger its power in P1. */
K_INLINE void K_FN(TurningAdd)(const ContactKernelModel *km, K_V kc, K_V gc, K_V mu, K_V ri, K_V rj, K_V xi[3],
                               K_FN(Turning) * tn, const K_V n[3], const K_V vt[3], const K_V vtp[3], K_V dt, K_V sd,
                               K_V qd, K_V Fn, K_V Fn_applied, K_V F[3], K_V Ti[3], K_V Tj[3], K_V *P1)
{
  K_V Ft[3], w[3], kt = kc, gt = gc, wgt = K_SELECT(Fn > K_SPLAT(0.0), Fn_applied / Fn, K_SPLAT(1.0));
  if (km->mindlin) kt = kt * sd, gt = gt * qd;
  K_FN(TangentialMD)(tn, xi, n, vt, vtp, dt, kt, gt, mu, Fn, Ft);
  if (km->ledger) *P1 = -(Ft[0] * vtp[0] + Ft[1] * vtp[1] + Ft[2] * vtp[2]);
  for (int a = 0; a < 3; a++) Ft[a] = Ft[a] * wgt, F[a] = F[a] + Ft[a];
  w[0] = n[1] * Ft[2] - n[2] * Ft[1];
  w[1] = n[2] * Ft[0] - n[0] * Ft[2];
  w[2] = n[0] * Ft[1] - n[1] * Ft[0];
  for (int a = 0; a < 3; a++) Ti[a] = (-ri) * w[a], Tj[a] = (-rj) * w[a];
}
