#include "contact/tangential_md.h"
#include "contact/kernel_scalar.h"

static inline PetscReal Norm(const PetscReal x[3])
{
  return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
}

/* x moved by s along itself (to zero at most) */
static void Along(PetscReal x[3], PetscReal s)
{
  PetscReal l = Norm(x), f;
  if (!(l > 0.0)) return;
  f = (l + s) / l;
  if (f < 0.0) f = 0.0;
  for (int a = 0; a < 3; a++) x[a] *= f;
}

static void Forget(ContactTurning *tn)
{
  for (int a = 0; a < 3; a++) tn->ts[a] = tn->tss[a] = 0.0;
  tn->phase = 0.0;
}

void ContactTangentialMD(ContactTurning *tn, PetscReal T[3], const PetscReal n[3], const PetscReal vt[3],
                         const PetscReal vtp[3], PetscReal dt, PetscReal kt0, PetscReal gt, PetscReal mu, PetscReal Fn,
                         PetscReal Ft[3])
{
  PetscReal muN = mu * (Fn > 0.0 ? Fn : 0.0), dmuN, dd[3], ldd, fsq;

  if (!(muN > 0.0)) { /* no normal force: no friction, no memory */
    PetscCallVoid(PetscMemzero(tn, sizeof(*tn)));
    for (int a = 0; a < 3; a++) T[a] = Ft[a] = 0.0;
    return;
  }
  ContactScalarTurn(T, n);
  /* on the virgin curve (phase 0) no turning point is kept: ts and tss are +0 (Forget, a new contact), which turning
   * and moving leave as they are */
  if (tn->phase != 0.0) ContactScalarTurn(tn->ts, n), ContactScalarTurn(tn->tss, n);
  for (int a = 0; a < 3; a++) dd[a] = vt[a] * dt;
  ldd  = Norm(dd);
  dmuN = muN - tn->mun;
  if (ldd > 0.0 && dd[0] * tn->dlast[0] + dd[1] * tn->dlast[1] + dd[2] * tn->dlast[2] < 0.0) {
    /* the displacement reverses: a turning point (phase -1, +1: of a loop from the virgin curve; -2, +2: inside one) */
    if (tn->phase >= 0.0) {
      tn->phase = tn->phase == 0.0 ? -1.0 : -2.0;
      for (int a = 0; a < 3; a++) tn->ts[a] = T[a];
    } else {
      tn->phase = -tn->phase;
      for (int a = 0; a < 3; a++) tn->tss[a] = T[a];
    }
  }
  if (tn->phase != 0.0) { /* the turning points move with mu N, whether or not the contact point does */
    Along(tn->ts, dmuN);
    Along(tn->tss, dmuN);
  }
  if (ldd > 0.0) {
    PetscReal q, theta, k;
    /* the normal force grows faster than the elastic increment: no slip */
    if (dmuN > 0.0 && kt0 * ldd < dmuN) q = 1.0;
    else {
      PetscReal d[3];
      if (tn->phase == 0.0) q = 1.0 - (Norm(T) + dmuN) / muN;
      else if (tn->phase < 0.0) {
        for (int a = 0; a < 3; a++) d[a] = T[a] - tn->ts[a];
        q = 1.0 - (Norm(d) + 2.0 * dmuN) / (2.0 * muN);
      } else {
        for (int a = 0; a < 3; a++) d[a] = tn->tss[a] - T[a];
        q = 1.0 - (Norm(d) + 2.0 * dmuN) / (2.0 * muN);
      }
    }
    theta = q > 0.0 ? (q == 1.0 ? 1.0 : cbrt(q)) : 0.0; /* cbrt(1) is 1: the no-slip step takes no root */
    /* the mu dN term along the displacement on every branch (Thornton's (-1)^k is the sign of dd in 1D) */
    k = kt0 * theta + dmuN * (1.0 - theta) / ldd;
    for (int a = 0; a < 3; a++) T[a] -= k * dd[a], tn->dlast[a] = dd[a];
    /* Masing: past the ends of a loop from the virgin curve, the virgin curve goes on */
    if (PetscAbsReal(tn->phase) == 1.0) {
      PetscReal lT = Norm(T), ls = Norm(tn->ts), dot = T[0] * tn->ts[0] + T[1] * tn->ts[1] + T[2] * tn->ts[2];
      if (lT >= ls && (tn->phase > 0.0 ? dot > 0.0 : dot < 0.0)) Forget(tn);
    }
  }
  tn->mun = muN;
  fsq     = T[0] * T[0] + T[1] * T[1] + T[2] * T[2];
  if (fsq > muN * muN) { /* sliding: the elastic force at the limit */
    PetscReal s = muN / sqrt(fsq);
    for (int a = 0; a < 3; a++) T[a] *= s;
  }
  for (int a = 0; a < 3; a++) Ft[a] = T[a] - gt * vtp[a];
  fsq = Ft[0] * Ft[0] + Ft[1] * Ft[1] + Ft[2] * Ft[2];
  if (fsq > muN * muN) { /* the damper takes no more than the limit leaves */
    PetscReal s = muN / sqrt(fsq);
    for (int a = 0; a < 3; a++) Ft[a] *= s;
  }
}
