/* A contact evaluated through the contact kernel's scalar instantiation (kernel_scalar.h): the normal force and
 * damping of any law, the tangential spring, the Mindlin-Deresiewicz turning spring (tangential_md.h) and rolling
 * resistance, as the generic pair path and the fused scan's side terms take them. */
#include "contact/contact.h"
#include "contact/tangential_md.h"
#include "contact/kernel_scalar.h"

static inline PetscReal Dot3(const PetscReal a[3], const PetscReal b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The tangential part of the relative angular velocity wi - wj (the
 * rolling; the twist about n is free). */
static void RollingRate(const PetscReal wi[3], const PetscReal wj[3], const PetscReal n[3], PetscReal wr[3])
{
  PetscReal wn;
  for (int a = 0; a < 3; a++) wr[a] = wi[a] - wj[a];
  wn = Dot3(wr, n);
  for (int a = 0; a < 3; a++) wr[a] -= wn * n[a];
}

/* Rolling resistance: the torque M on i (j receives -M) from the normal
 * force Fn and the law's stiffness kn.  epsd: the spring's torque kept in
 * the tangent plane with its length, incremented by -k_r wr dt (wr over the
 * step, as the tangential spring), capped at mu R* Fn; below the cap the
 * dashpot -C_r wr (wr predicted at the step's end), C_r = 2 eta sqrt(I_r k_r),
 * at the cap none.  constant: mu R* Fn against wr. */
static void ContactRollingTorque(const ContactPair *pair, ContactRolling *h, const ContactKinematics *k, PetscReal dt,
                                 PetscReal Fn, PetscReal kn, const PetscReal wrp[3], PetscReal M[3])
{
  const Rolling *rl   = &pair->co->rolling;
  PetscReal      Mmax = rl->mu * pair->Rstar * PetscMax(Fn, 0.0), wr[3], kr, msq;

  RollingRate(k->wi, k->wj, k->n, wr);
  if (rl->type == ROLLING_CONSTANT) {
    PetscReal len = PetscSqrtReal(Dot3(wr, wr));
    for (int a = 0; a < 3; a++) M[a] = len > 0.0 ? -Mmax * wr[a] / len : 0.0;
    return;
  }
  kr = ContactRollingStiffness(pair, kn);
  ContactScalarTurn(h->mr, k->n);
  for (int a = 0; a < 3; a++) h->mr[a] -= kr * wr[a] * dt;
  msq = Dot3(h->mr, h->mr);
  if (msq > Mmax * Mmax) { /* fully mobilised: plastic rolling, no damping */
    PetscReal scale = Mmax / PetscSqrtReal(msq);
    for (int a = 0; a < 3; a++) M[a] = h->mr[a] *= scale;
  } else {
    PetscReal Cr = 2.0 * rl->eta * PetscSqrtReal(pair->Ir * kr);
    for (int a = 0; a < 3; a++) M[a] = h->mr[a] - Cr * wrp[a];
  }
}

void ContactRollingAdd(const ContactPair *pair, ContactRolling *rl, const ContactKinematics *k, PetscReal dt,
                       PetscReal Fn, PetscReal kn, ContactResult *r)
{
  PetscReal M[3], wrp[3];
  if (!(pair->co->rolling.mu > 0.0)) return;
  RollingRate(k->wip, k->wjp, k->n, wrp); /* the dashpot's and the power's */
  ContactRollingTorque(pair, rl, k, dt, Fn, kn, wrp, M);
  for (int a = 0; a < 3; a++) r->Ti[a] += M[a], r->Tj[a] -= M[a];
  r->P[2] = -Dot3(M, wrp);
}

/* The Mindlin-Deresiewicz spring (tangential_md.c) after the kernel's
 * normal force: its force weighted as the kernel weighs a first touch's
 * (Fn_applied / Fn), added with its torques; the ledger's power. */
void ContactTurningAddSlip(const ContactKernelModel *km, PetscReal kc, PetscReal gc, PetscReal mu, PetscReal ri,
                           PetscReal rj, ContactHistory *h, ContactTurning *tn, const PetscReal n[3],
                           const PetscReal vt[3], const PetscReal vtp[3], PetscReal dt, PetscReal sd, PetscReal qd,
                           PetscReal Fn, ContactResult *r)
{
  PetscReal Ft[3], w[3], kt = kc, gt = gc, wgt = Fn > 0.0 ? r->Fn / Fn : 1.0;
  if (km->mindlin) kt = kt * sd, gt = gt * qd;
  ContactTangentialMD(tn, h->xi, n, vt, vtp, dt, kt, gt, mu, Fn, Ft);
  if (km->ledger) r->P[1] = -Dot3(Ft, vtp);
  for (int a = 0; a < 3; a++) Ft[a] = Ft[a] * wgt, r->F[a] += Ft[a];
  w[0] = n[1] * Ft[2] - n[2] * Ft[1];
  w[1] = n[2] * Ft[0] - n[0] * Ft[2];
  w[2] = n[0] * Ft[1] - n[1] * Ft[0];
  for (int a = 0; a < 3; a++) r->Ti[a] = -ri * w[a], r->Tj[a] = -rj * w[a];
}

void ContactTurningAdd(const ContactKernelModel *km, PetscReal kc, PetscReal gc, PetscReal mu, PetscReal ri,
                       PetscReal rj, ContactHistory *h, ContactTurning *tn, const ContactKinematics *k, PetscReal dt,
                       PetscReal sd, PetscReal qd, PetscReal Fn, ContactResult *r)
{
  PetscReal vt[3], vtp[3];
  ContactScalarSlip(ri, rj, k->n, k->v, k->wi, k->wj, vt);
  ContactScalarSlip(ri, rj, k->n, k->vp, k->wip, k->wjp, vtp);
  ContactTurningAddSlip(km, kc, gc, mu, ri, rj, h, tn, k->n, vt, vtp, dt, sd, qd, Fn, r);
}

/* Any law through the kernel: its elastic force and damping coefficient
 * from the law's and the damping's own functions. */
void ContactEvaluate(const ContactModel *model, const ContactPair *pair, ContactHistory *h, ContactRolling *rl,
                     ContactTurning *tn, const ContactKinematics *k, PetscReal dt, ContactResult *r)
{
  ContactKernelModel km = ContactKernelModelOf(model), kk = km;
  PetscReal          Fel, dF, C, J = 0.0, sd = 0.0, qd = 0.0, Fn;

  PetscBool first = PETSC_FALSE;

  if (!h->touched) {
    h->touched = 1;
    h->v_imp   = -Dot3(k->v, k->n);
    /* dt = 0: a contact present at the start */
    first = dt > 0.0 && h->v_imp > 0.0 ? PETSC_TRUE : PETSC_FALSE;
  }
  NormalLawEval(&model->law, pair->s, k->d, &r->U, &Fel, &dF);
  C = DampingCoefficient(&pair->co->damping, &model->law, pair->s, pair->m, h->v_imp, k->d);
  /* impulse since first touch: int F dt = (U(d) + v int_0^d C) / v */
  if (first)
    J = r->U / h->v_imp + DampingCoefficientIntegral(&pair->co->damping, &model->law, pair->s, pair->m, h->v_imp, k->d);
  r->W = 0.0;
  if (km.friction && km.mindlin) sd = sqrt(k->d), qd = sqrt(sd);
  if (tn) kk.friction = PETSC_FALSE; /* the kernel's normal force, then the turning spring's */
  ContactScalarContact(&kk, pair->co->tangential.mu, pair->ri, pair->rj, pair->kc, pair->gc, k->n, k->v, k->vp, k->wi,
                       k->wj, k->wip, k->wjp, dt, Fel, C, sd, qd, first, J, h->xi, &r->ddot, &Fn, &r->Fn_raw, &r->Fn,
                       r->F, r->Ti, r->Tj, r->P);
  r->P[2] = 0.0;
  if (tn && km.friction)
    ContactTurningAdd(&km, pair->kc, pair->gc, pair->co->tangential.mu, pair->ri, pair->rj, h, tn, k, dt, sd, qd, Fn,
                      r);
  if (first) r->W = ContactDampingWork(h->v_imp, J - r->U / h->v_imp, r->P[0], dt);
  if (rl) ContactRollingAdd(pair, rl, k, dt, Fn, dF, r);
  h->d_last  = k->d;
  h->Fn_last = Fn;
  h->dt_last = dt;
}
