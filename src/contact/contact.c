#include "contact/contact.h"
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
  {{"rolling", sizeof(ContactRolling), offsetof(ContactRecord, r), ContactRolls, "rolling_", 3, 0},
   {"bridge", sizeof(ContactBridge), offsetof(ContactRecord, b), ContactWet, "bridge_", 4, 0},
   {"turning", sizeof(ContactTurning), offsetof(ContactRecord, t), ContactTurns, "turning_", 5, sizeof(PetscReal)}};

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

PetscReal ContactRollingStiffness(const ContactPair *pair, PetscReal kn)
{
  PetscReal mu = pair->co->rolling.mu;
  return 2.25 * kn * mu * mu * pair->Rstar * pair->Rstar;
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
  ContactNormalModel nm  = {CONTACT_LAW_OTHER,       CONTACT_DAMP_OTHER,      law->k[0], law->p[0], law->p[0] + 1.0,
                            0.5 * (law->p[0] - 1.0), 1.0 / (law->p[0] + 1.0), law};

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
  case DAMPING_CONSTANT_DAMPER: /* a constant where every pair's dashpot is raw (or zero); calibrated: a monomial */
    nm.damp = CONTACT_DAMP_FIXED;
    for (PetscInt a = 0; a < MATERIAL_SLOTS && nm.damp == CONTACT_DAMP_FIXED; a++)
      for (PetscInt b = 0; b < MATERIAL_SLOTS; b++)
        if (!(m->coeff[a][b].damping.c > 0.0 || m->coeff[a][b].damping.c_hat == 0.0)) {
          nm.damp = nm.law != CONTACT_LAW_OTHER ? CONTACT_DAMP_CALIBRATED : CONTACT_DAMP_OTHER;
          break;
        }
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
