#include "contact/damping.h"

const char *const DampingTypes[] =
  {"harmonic", "tsuji",           "tsuji_marshall", "hunt_crossley", "lankarani_nikravesh", "flores",   "hu_guo",
   "gonthier", "constant_damper", "linear_dashpot", "none",          "DampingType",         "DAMPING_", NULL};

const char *const SeparationTypes[] = {"overlap", "force", "SeparationType", "SEPARATION_", NULL};

/* h(z) = arccos(z)/sqrt(1-z^2), continued by arccosh(z)/sqrt(z^2-1) above 1;
 * the series 1 - (z-1)/3 bridges z = 1 where both forms are 0/0. */
static PetscReal ArcRatio(PetscReal z)
{
  if (fabs(z - 1.0) < 1e-6) return 1.0 - (z - 1.0) / 3.0;
  if (z < 1.0) return acos(z) / sqrt(1.0 - z * z);
  return acosh(z) / sqrt(z * z - 1.0);
}

PetscReal DampingEFromZeta(PetscReal zeta, SeparationType sep)
{
  if (zeta <= 0.0) return 1.0;
  if (sep == SEPARATION_OVERLAP) return zeta >= 1.0 ? 0.0 : exp(-HDEM_PI * zeta / sqrt(1.0 - zeta * zeta));
  return exp(-2.0 * zeta * ArcRatio(zeta));
}

/* Inverse of DampingEFromZeta for e in (0, 1]: closed form for 'overlap',
 * bisection on the monotone closed form for 'force' (set-up only). */
PetscReal DampingZetaFromE(PetscReal e, SeparationType sep)
{
  if (e >= 1.0) return 0.0;
  PetscReal le = log(e);
  if (sep == SEPARATION_OVERLAP) return -le / sqrt(HDEM_PI * HDEM_PI + le * le);
  PetscReal lo = 0.0, hi = 1.0;
  while (-2.0 * hi * ArcRatio(hi) > le) hi *= 2.0;
  for (int it = 0; it < 200 && hi - lo > 1e-16 * hi; it++) {
    PetscReal mid = 0.5 * (lo + hi);
    if (-2.0 * mid * ArcRatio(mid) > le) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/* Contact duration of the force criterion relative to the elastic one, for
 * a linear oscillator of damping ratio zeta: (2/w) h(zeta) over pi/w. */
PetscReal DampingForceDurationRatio(PetscReal zeta)
{
  return zeta <= 0.0 ? 1.0 : 2.0 * ArcRatio(zeta) / HDEM_PI;
}

/* Marshall (2009) fit of Tsuji's alpha(e), times sqrt(2) for the
 * effective-mass convention (the LAMMPS 'damping tsuji' form). */
PetscReal DampingAlphaMarshall(PetscReal e)
{
  PetscReal a = 1.2728 - 4.2783 * e + 11.087 * e * e - 22.348 * pow(e, 3) + 27.467 * pow(e, 4) - 18.022 * pow(e, 5) +
                4.8218 * pow(e, 6);
  return a * sqrt(2.0);
}

PetscReal DampingHuntCrossleyFactor(DampingType type, PetscReal e)
{
  switch (type) {
  case DAMPING_HUNT_CROSSLEY:
    return 1.5 * (1.0 - e);
  case DAMPING_LANKARANI_NIKRAVESH:
    return 0.75 * (1.0 - e * e);
  case DAMPING_FLORES:
    return 1.6 * (1.0 - e) / e;
  case DAMPING_HU_GUO:
    return 1.5 * (1.0 - e) / e;
  case DAMPING_GONTHIER:
    return (1.0 - e * e) / e;
  default:
    return 0.0;
  }
}

/* Scaled constant-damper impact Q'' + c Q' + ((n+1)/2) Q^n = 0, Q(0) = 0,
 * Q'(0) = 1 (overlap in units of the elastic maximum, time in d_el/v0). */
typedef struct {
  PetscReal c, n;
} ScaledDamper;

static PetscReal ScaledForce(const ScaledDamper *sd, PetscReal q, PetscReal v)
{
  return sd->c * v + 0.5 * (sd->n + 1.0) * (q > 0.0 ? pow(q, sd->n) : 0.0);
}

static void ScaledRK4(const ScaledDamper *sd, PetscReal h, const PetscReal y[2], PetscReal out[2])
{
  PetscReal k1q = y[1], k1v = -ScaledForce(sd, y[0], y[1]);
  PetscReal k2q = y[1] + 0.5 * h * k1v, k2v = -ScaledForce(sd, y[0] + 0.5 * h * k1q, k2q);
  PetscReal k3q = y[1] + 0.5 * h * k2v, k3v = -ScaledForce(sd, y[0] + 0.5 * h * k2q, k3q);
  PetscReal k4q = y[1] + h * k3v, k4v = -ScaledForce(sd, y[0] + h * k3q, k4q);
  out[0] = y[0] + h / 6.0 * (k1q + 2.0 * k2q + 2.0 * k3q + k4q);
  out[1] = y[1] + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
}

/* Restitution of the constant damper with separation at zero total force. */
PetscErrorCode DampingConstantDamperE(PetscReal c_hat, PetscReal n, PetscReal *e)
{
  ScaledDamper sd   = {c_hat, n};
  PetscReal    y[2] = {0.0, 1.0}, h = 2e-4 / PetscMax(1.0, c_hat);
  PetscInt     maxit = 200000000;

  PetscFunctionBeginUser;
  PetscCheck(c_hat >= 0.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "c_hat must be >= 0, got %g", (double)c_hat);
  if (c_hat == 0.0) {
    *e = 1.0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt it = 0; it < maxit; it++) {
    PetscReal z[2];
    ScaledRK4(&sd, h, y, z);
    if (ScaledForce(&sd, z[0], z[1]) <= 0.0 && z[1] < 0.0) {
      /* locate the force zero inside the step by bisection on the sub-step */
      PetscReal lo = 0.0, hi = 1.0;
      for (int b = 0; b < 60; b++) {
        PetscReal mid = 0.5 * (lo + hi), w[2];
        ScaledRK4(&sd, mid * h, y, w);
        if (ScaledForce(&sd, w[0], w[1]) > 0.0) lo = mid;
        else hi = mid;
      }
      ScaledRK4(&sd, 0.5 * (lo + hi) * h, y, z);
      *e = -z[1];
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    y[0] = z[0];
    y[1] = z[1];
  }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "constant damper impact did not separate (c_hat = %g, n = %g)",
          (double)c_hat, (double)n);
}

/* Exact c_hat(e, n) by bisection on the monotone e(c_hat). */
PetscErrorCode DampingConstantDamperCHat(PetscReal e, PetscReal n, PetscReal *c_hat)
{
  PetscReal lo = 0.0, hi = 0.5, ehi;

  PetscFunctionBeginUser;
  PetscCheck(e > 0.0 && e <= 1.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "restitution %g outside (0, 1]",
             (double)e);
  if (e == 1.0) {
    *c_hat = 0.0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DampingConstantDamperE(hi, n, &ehi));
  while (ehi > e) {
    lo = hi;
    hi *= 2.0;
    PetscCall(DampingConstantDamperE(hi, n, &ehi));
  }
  for (int it = 0; it < 60 && hi - lo > 1e-12 * hi; it++) {
    PetscReal mid = 0.5 * (lo + hi), em;
    PetscCall(DampingConstantDamperE(mid, n, &em));
    if (em > e) lo = mid;
    else hi = mid;
  }
  *c_hat = 0.5 * (lo + hi);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Turn the user's e (or raw coefficient) into the law's constants. */
PetscErrorCode DampingSetUp(Damping *dmp, const NormalLaw *law, PetscReal e, PetscReal coeff, PetscBool coeff_set)
{
  PetscFunctionBeginUser;
  dmp->e    = coeff_set ? -1.0 : e;
  dmp->zeta = dmp->alpha = dmp->hc_factor = dmp->D = dmp->c_hat = dmp->c = 0.0;
  switch (dmp->type) {
  case DAMPING_HARMONIC:
    dmp->zeta = coeff_set ? coeff : DampingZetaFromE(e, dmp->separation);
    break;
  case DAMPING_TSUJI:
    PetscCheck(NormalLawIsMonomial(law), PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP,
               "-contact_damping tsuji needs a power law (linear, hertz or power); use harmonic for other laws");
    dmp->alpha = coeff_set ? coeff : sqrt(2.0 * (law->p[0] + 1.0)) * DampingZetaFromE(e, dmp->separation);
    break;
  case DAMPING_TSUJI_MARSHALL:
    dmp->alpha = coeff_set ? coeff : DampingAlphaMarshall(e);
    break;
  case DAMPING_HUNT_CROSSLEY:
  case DAMPING_LANKARANI_NIKRAVESH:
  case DAMPING_FLORES:
  case DAMPING_HU_GUO:
  case DAMPING_GONTHIER:
    if (coeff_set) dmp->D = coeff;
    else dmp->hc_factor = DampingHuntCrossleyFactor(dmp->type, e);
    break;
  case DAMPING_CONSTANT_DAMPER:
    PetscCheck(NormalLawIsMonomial(law) && law->p[0] <= 2.0, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP,
               "-contact_damping constant_damper needs F = k d^n with n in [1, 2] (law linear, hertz or power)");
    PetscCheck(coeff_set || dmp->separation == SEPARATION_FORCE, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP,
               "-contact_damping constant_damper is calibrated from -contact_e for -contact_separation force (give "
               "-contact_damping_coeff for a raw dashpot "
               "with 'overlap')");
    if (coeff_set) dmp->c = coeff;
    else PetscCall(DampingConstantDamperCHat(e, law->p[0], &dmp->c_hat));
    break;
  case DAMPING_LINEAR_DASHPOT:
    PetscCheck(law->type == NORMAL_LAW_LINEAR, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP,
               "-contact_damping linear_dashpot needs -contact_law linear");
    if (coeff_set) dmp->c = coeff;
    else dmp->zeta = DampingZetaFromE(e, SEPARATION_OVERLAP);
    break;
  case DAMPING_NONE:
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C such that the damping force is C * ddot. */
PetscReal DampingCoefficient(const Damping *dmp, const NormalLaw *law, PetscReal s, PetscReal m, PetscReal v_imp,
                             PetscReal d)
{
  switch (dmp->type) {
  case DAMPING_HARMONIC:
    return dmp->zeta * sqrt(2.0 * m) * NormalLawForceOverSqrtU(law, s, d);
  case DAMPING_TSUJI:
  case DAMPING_TSUJI_MARSHALL: {
    PetscReal stiff = d > 0.0 ? NormalLawForce(law, s, d) / d : NormalLawMaxStiffness(law, s, 0.0);
    return dmp->alpha * sqrt(m * stiff);
  }
  case DAMPING_HUNT_CROSSLEY:
  case DAMPING_LANKARANI_NIKRAVESH:
  case DAMPING_FLORES:
  case DAMPING_HU_GUO:
  case DAMPING_GONTHIER:
    return (dmp->D > 0.0 ? dmp->D : dmp->hc_factor / PetscMax(v_imp, dmp->v_imp_min)) * NormalLawForce(law, s, d);
  case DAMPING_CONSTANT_DAMPER: {
    if (dmp->c > 0.0 || dmp->c_hat == 0.0) return dmp->c;
    PetscReal v = PetscMax(v_imp, dmp->v_imp_min);
    return dmp->c_hat * m * v / NormalLawOverlapAtEnergy(law, s, 0.5 * m * v * v);
  }
  case DAMPING_LINEAR_DASHPOT:
    return dmp->c > 0.0 ? dmp->c : 2.0 * dmp->zeta * sqrt(m * s * law->k[0]);
  case DAMPING_NONE:
    return 0.0;
  }
  return 0.0;
}

/* int_0^d C(x) dx: the damping impulse per unit overlap rate over an overlap
 * change d (closed form where the law allows, else a Gauss rule after
 * x = d u^4, which tames the x^((p-1)/2) behaviour at 0). */
PetscReal DampingCoefficientIntegral(const Damping *dmp, const NormalLaw *law, PetscReal s, PetscReal m,
                                     PetscReal v_imp, PetscReal d)
{
  static const PetscReal gx[4] = {0.0694318442029737, 0.3300094782075719, 0.6699905217924281, 0.9305681557970263};
  static const PetscReal gw[4] = {0.1739274225687269, 0.3260725774312731, 0.3260725774312731, 0.1739274225687269};
  PetscReal              U, F, dF, sum = 0.0;

  if (d <= 0.0) return 0.0;
  switch (dmp->type) {
  case DAMPING_HARMONIC:
    NormalLawEval(law, s, d, &U, &F, &dF);
    return dmp->zeta * sqrt(2.0 * m) * 2.0 * sqrt(U);
  case DAMPING_HUNT_CROSSLEY:
  case DAMPING_LANKARANI_NIKRAVESH:
  case DAMPING_FLORES:
  case DAMPING_HU_GUO:
  case DAMPING_GONTHIER:
    NormalLawEval(law, s, d, &U, &F, &dF);
    return (dmp->D > 0.0 ? dmp->D : dmp->hc_factor / PetscMax(v_imp, dmp->v_imp_min)) * U;
  case DAMPING_CONSTANT_DAMPER:
  case DAMPING_LINEAR_DASHPOT:
    return DampingCoefficient(dmp, law, s, m, v_imp, d) * d;
  case DAMPING_TSUJI:
  case DAMPING_TSUJI_MARSHALL:
    if (NormalLawIsMonomial(law)) return DampingCoefficient(dmp, law, s, m, v_imp, d) * d * 2.0 / (law->p[0] + 1.0);
    for (int q = 0; q < 4; q++) {
      PetscReal u = gx[q], u3 = u * u * u;
      sum += gw[q] * DampingCoefficient(dmp, law, s, m, v_imp, d * u3 * u) * 4.0 * u3;
    }
    return sum * d;
  case DAMPING_NONE:
    return 0.0;
  }
  return 0.0;
}
