#include "contact/contact.h"
#include "contact/tangential_md.h"
#include "contact/kernel_scalar.h"
#include <stddef.h>

#define CH(f) (offsetof(ContactRecord, h) + offsetof(ContactHistory, f))
const RecordField ContactHistoryFields[] =
  {{"spring", FIELD_REAL, 3, CH(xi)},
   {"impact_speed", FIELD_REAL, 1, CH(v_imp)},
   {"overlap", FIELD_REAL, 1, CH(d_last)},
   {"normal_force", FIELD_REAL, 1, CH(Fn_last)},
   {"step", FIELD_REAL, 1, CH(dt_last)},
   {"touched", FIELD_INT64, 1, CH(touched)},
   {"rolling_torque", FIELD_REAL, 3, offsetof(ContactRecord, r) + offsetof(ContactRolling, mr)},
   {"bridge_liquid", FIELD_REAL, 1, offsetof(ContactRecord, b) + offsetof(ContactBridge, V)},
   {"turning_force_unloading", FIELD_REAL, 3, offsetof(ContactRecord, t) + offsetof(ContactTurning, ts)},
   {"turning_force_reloading", FIELD_REAL, 3, offsetof(ContactRecord, t) + offsetof(ContactTurning, tss)},
   {"turning_last_increment", FIELD_REAL, 3, offsetof(ContactRecord, t) + offsetof(ContactTurning, dlast)},
   {"turning_friction_limit", FIELD_REAL, 1, offsetof(ContactRecord, t) + offsetof(ContactTurning, mun)},
   {"turning_phase", FIELD_REAL, 1, offsetof(ContactRecord, t) + offsetof(ContactTurning, phase)},
   {NULL, FIELD_REAL, 0, 0}};
#undef CH

static PetscBool ContactRolls(const ContactModel *m)
{
  return m->rolls;
}
static PetscBool ContactWet(const ContactModel *m)
{
  return m->liquid.on;
}
static PetscBool ContactTurns(const ContactModel *m)
{
  return m->tangential.model == TANGENTIAL_MINDLIN_DERESIEWICZ ? PETSC_TRUE : PETSC_FALSE;
}

const ContactSideState ContactSides[CONTACT_SIDES] =
  {{"rolling", sizeof(ContactRolling), offsetof(ContactRecord, r), ContactRolls, "rolling_", 3},
   {"bridge", sizeof(ContactBridge), offsetof(ContactRecord, b), ContactWet, "bridge_", 4},
   {"turning", sizeof(ContactTurning), offsetof(ContactRecord, t), ContactTurns, "turning_", 5}};

const char *const TangentialStiffnessTypes[] = {"constant", "mindlin", "TangentialStiffnessType", "TANGENTIAL_", NULL};
const char *const TangentialModels[]         = {"shear_displacement", "incremental", "mindlin_deresiewicz",
                                                "TangentialModel",    "TANGENTIAL_", NULL};
const char *const RollingTypes[]             = {"epsd", "constant", "RollingType", "ROLLING_", NULL};
const char *const LiquidForceTypes[]         = {"willett", "willett_simple", "LiquidForceType", "LIQUID_", NULL};

PetscErrorCode ContactModelDestroy(ContactModel *model)
{
  PetscFunctionBeginUser;
  PetscCall(NormalLawDestroy(&model->law));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A wall is a flat body of the particles' material with infinite mass. */
void ContactPairSetUp(const ContactModel *model, PetscInt ti, PetscInt tj, PetscReal Ri, PetscReal mi, PetscReal Ii,
                      PetscReal Rj, PetscReal mj, PetscReal Ij, PetscBool wall, ContactPair *pair)
{
  const ContactCoeff *co = ContactCoeffOf(model, ti, tj);

  pair->co    = co;
  pair->Rstar = wall ? Ri : Ri * Rj / (Ri + Rj);
  pair->Gstar = co->Gstar;
  pair->ri    = Ri;
  pair->rj    = wall ? 0.0 : Rj;
  pair->m     = wall ? mi : 1.0 / (1.0 / mi + 1.0 / mj);
  pair->mt    = 1.0 / (1.0 / mi + Ri * Ri / Ii + (wall ? 0.0 : 1.0 / mj + Rj * Rj / Ij));
  pair->Ir    = wall ? Ii + mi * Ri * Ri : 1.0 / (1.0 / (Ii + mi * Ri * Ri) + 1.0 / (Ij + mj * Rj * Rj));
  pair->s     = model->hertz_from_material ? (4.0 / 3.0) * co->Estar * sqrt(pair->Rstar) : 1.0;
  ContactPairTangential(model, pair);
}

/* Mindlin kt = 8 G* sqrt(R* d) and gt = 2 zeta sqrt(mt kt) split into the
 * pair's roots and those of the overlap (d^(1/2), d^(1/4): the normal law
 * takes them anyway). */
void ContactPairTangential(const ContactModel *model, ContactPair *pair)
{
  const Tangential *tg = &pair->co->tangential;
  (void)model;
  pair->kc = tg->stiffness == TANGENTIAL_MINDLIN ? 8.0 * pair->Gstar * sqrt(pair->Rstar) : tg->kt;
  pair->gc = 2.0 * tg->zeta * sqrt(pair->mt * pair->kc);
}

PetscReal ContactTangentialStiffness(const ContactModel *model, const ContactPair *pair, PetscReal d)
{
  (void)model;
  if (pair->co->tangential.mu <= 0.0) return 0.0;
  if (pair->co->tangential.stiffness == TANGENTIAL_CONSTANT) return pair->co->tangential.kt;
  return d > 0.0 ? pair->kc * sqrt(d) : 0.0;
}

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

PetscReal ContactRollingStiffness(const ContactPair *pair, PetscReal kn)
{
  PetscReal mu = pair->co->rolling.mu;
  return 2.25 * kn * mu * mu * pair->Rstar * pair->Rstar;
}

/* Rolling resistance: the torque M on i (j receives -M) from the normal
 * force Fn and the law's stiffness kn.  epsd: the spring's torque kept in
 * the tangent plane with its length, incremented by -k_r wr dt (wr over the
 * step, as the tangential spring), capped at mu R* Fn; below the cap the
 * dashpot -C_r wr (wr predicted at the step's end), C_r = 2 eta sqrt(I_r k_r),
 * at the cap none.  constant: mu R* Fn against wr. */
static void ContactRollingTorque(const ContactPair *pair, ContactRolling *h, const ContactKinematics *k, PetscReal dt,
                                 PetscReal Fn, PetscReal kn, PetscReal M[3])
{
  const Rolling *rl   = &pair->co->rolling;
  PetscReal      Mmax = rl->mu * pair->Rstar * PetscMax(Fn, 0.0), wr[3], wrp[3], kr, msq;

  RollingRate(k->wi, k->wj, k->n, wr);
  if (rl->type == ROLLING_CONSTANT) {
    PetscReal len = PetscSqrtReal(Dot3(wr, wr));
    for (int a = 0; a < 3; a++) M[a] = len > 0.0 ? -Mmax * wr[a] / len : 0.0;
    return;
  }
  RollingRate(k->wip, k->wjp, k->n, wrp);
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
  ContactRollingTorque(pair, rl, k, dt, Fn, kn, M);
  for (int a = 0; a < 3; a++) r->Ti[a] += M[a], r->Tj[a] -= M[a];
  RollingRate(k->wip, k->wjp, k->n, wrp);
  r->P[2] = -Dot3(M, wrp);
}

PetscReal ContactTangentialEnergy(const ContactModel *model, const ContactPair *pair, const ContactHistory *h,
                                  PetscReal d)
{
  PetscReal kt = ContactTangentialStiffness(model, pair, d), x2 = Dot3(h->xi, h->xi);
  if (!(kt > 0.0)) return 0.0;
  return model->tangential.model != TANGENTIAL_SHEAR_DISPLACEMENT ? 0.5 * x2 / kt : 0.5 * kt * x2;
}

PetscReal ContactRollingEnergy(const ContactModel *model, const ContactPair *pair, const ContactRolling *rl,
                               PetscReal d)
{
  PetscReal U, F, kn, kr;
  if (!rl || pair->co->rolling.mu <= 0.0 || pair->co->rolling.type != ROLLING_EPSD || !(d > 0.0)) return 0.0;
  NormalLawEval(&model->law, pair->s, d, &U, &F, &kn);
  kr = ContactRollingStiffness(pair, kn);
  return kr > 0.0 ? 0.5 * Dot3(rl->mr, rl->mr) / kr : 0.0;
}

ContactNormalModel ContactNormalModelOf(const ContactModel *m)
{
  const NormalLaw   *law = &m->law;
  ContactNormalModel nm  = {CONTACT_LAW_OTHER, CONTACT_DAMP_OTHER,      law->k[0], law->p[0],
                            law->p[0] + 1.0,   0.5 * (law->p[0] - 1.0), law};

  if (NormalLawIsMonomial(law))
    nm.law = law->p[0] == 1.5 ? CONTACT_LAW_HERTZ : (law->p[0] == 1.0 ? CONTACT_LAW_LINEAR : CONTACT_LAW_POWER);
  switch (m->damping.type) {
  case DAMPING_HARMONIC: /* NormalLawForceOverSqrtU's closed form: monomials only */
    if (nm.law != CONTACT_LAW_OTHER) nm.damp = CONTACT_DAMP_HARMONIC;
    break;
  case DAMPING_TSUJI:
  case DAMPING_TSUJI_MARSHALL:
    nm.damp = CONTACT_DAMP_TSUJI;
    break;
  case DAMPING_HUNT_CROSSLEY:
  case DAMPING_LANKARANI_NIKRAVESH:
  case DAMPING_FLORES:
  case DAMPING_HU_GUO:
  case DAMPING_GONTHIER:
    nm.damp = CONTACT_DAMP_SPEED;
    break;
  case DAMPING_CONSTANT_DAMPER: /* a constant where every pair's dashpot is raw (or zero) */
    nm.damp = CONTACT_DAMP_FIXED;
    for (PetscInt a = 0; a < MATERIAL_SLOTS; a++)
      for (PetscInt b = 0; b < MATERIAL_SLOTS; b++)
        if (!(m->coeff[a][b].damping.c > 0.0 || m->coeff[a][b].damping.c_hat == 0.0)) nm.damp = CONTACT_DAMP_OTHER;
    break;
  case DAMPING_LINEAR_DASHPOT:
  case DAMPING_NONE:
    nm.damp = CONTACT_DAMP_FIXED;
    break;
  }
  return nm;
}

/* The damping's work over the part of a step in contact at a first touch
 * or a separation, v int_0^d C (the overlap changing at speed v; IC =
 * int_0^d C), where the step's trapezoid of the power P books dt P / 2:
 * their difference.  The power grows from zero at the touch like C, as
 * d^(1/4) under Hertz, which the trapezoid misses at first order. */
PetscReal ContactDampingWork(PetscReal v, PetscReal IC, PetscReal P, PetscReal dt)
{
  return v * IC - 0.5 * dt * P;
}

/* The Mindlin-Deresiewicz spring (tangential_md.c) after the kernel's
 * normal force: its force weighted as the kernel weighs a first touch's
 * (Fn_applied / Fn), added with its torques; the ledger's power. */
void ContactTurningAdd(const ContactKernelModel *km, PetscReal kc, PetscReal gc, PetscReal mu, PetscReal ri,
                       PetscReal rj, ContactHistory *h, ContactTurning *tn, const ContactKinematics *k, PetscReal dt,
                       PetscReal sd, PetscReal qd, PetscReal Fn, ContactResult *r)
{
  PetscReal vt[3], vtp[3], Ft[3], w[3], kt = kc, gt = gc, wgt = Fn > 0.0 ? r->Fn / Fn : 1.0;
  if (km->mindlin) kt = kt * sd, gt = gt * qd;
  ContactScalarSlip(ri, rj, k->n, k->v, k->wi, k->wj, vt);
  ContactScalarSlip(ri, rj, k->n, k->vp, k->wip, k->wjp, vtp);
  ContactTangentialMD(tn, h->xi, k->n, vt, vtp, dt, kt, gt, mu, Fn, Ft);
  if (km->ledger) r->P[1] = -Dot3(Ft, vtp);
  for (int a = 0; a < 3; a++) Ft[a] = Ft[a] * wgt, r->F[a] += Ft[a];
  w[0] = k->n[1] * Ft[2] - k->n[2] * Ft[1];
  w[1] = k->n[2] * Ft[0] - k->n[0] * Ft[2];
  w[2] = k->n[0] * Ft[1] - k->n[1] * Ft[0];
  for (int a = 0; a < 3; a++) r->Ti[a] = -ri * w[a], r->Tj[a] = -rj * w[a];
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

/* The pair was in contact at the last step and is apart now (d <= 0).
 * Velocity Verlet applied the last force F for half the last step after the
 * last in-contact time; the tail really carried (U(d) - v int_0^d C) / v up
 * to separation (overlap shrinking at v, the unclipped 'overlap' criterion
 * only: under 'force' the clipped force ends continuously).  The difference
 * is returned as a force that this step's two half-kicks apply. */
void ContactSeparate(const ContactModel *model, const ContactPair *pair, ContactHistory *h, ContactRolling *rl,
                     ContactTurning *tn, const ContactKinematics *k, PetscReal dt, ContactResult *r)
{
  PetscReal v = Dot3(k->v, k->n), corr = 0.0;

  PetscCallVoid(PetscMemzero(r, sizeof(*r)));
  if (h->touched && model->damping.separation == SEPARATION_OVERLAP && h->d_last > 0.0 && v > 0.0) {
    PetscReal U, F, dF, J,
      IC = DampingCoefficientIntegral(&pair->co->damping, &model->law, pair->s, pair->m, h->v_imp, h->d_last);
    NormalLawEval(&model->law, pair->s, h->d_last, &U, &F, &dF);
    J    = U / v - IC;
    corr = (J - 0.5 * h->Fn_last * h->dt_last) / dt;
    /* the damping's work up to the separation, where the trapezoid booked half the last power C(d) v^2 */
    r->W = ContactDampingWork(v, IC,
                              DampingCoefficient(&pair->co->damping, &model->law, pair->s, pair->m, h->v_imp,
                                                 h->d_last) *
                                v * v,
                              dt);
  }
  r->Fn = corr;
  for (int a = 0; a < 3; a++) r->F[a] = corr * k->n[a];
  PetscCallVoid(PetscMemzero(h, sizeof(*h)));
  if (rl) PetscCallVoid(PetscMemzero(rl, sizeof(*rl)));
  if (tn) PetscCallVoid(PetscMemzero(tn, sizeof(*tn)));
}
