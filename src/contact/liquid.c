#include "contact/liquid.h"
#include <math.h>

/* The least S+ the full fit is evaluated at: below it the fit's exponent
 * f3 ln S+ + f4 ln^2 S+ has long gone to -inf (f4 < 0 in its range), so
 * F* is exp(f1), the touching value, to round-off. */
#define LIQUID_SPLUS_MIN 1e-8

/* Willett et al. (2000) eq. 15: the f's as polynomials in ln V* with
 * coefficients quadratic in theta [rad]. */
static void WillettCoefficients(PetscReal th, PetscReal lv, PetscReal f[4])
{
  PetscReal t2 = th * th, l2 = lv * lv, l3 = l2 * lv;
  f[0] = (-0.44507 + 0.050832 * th - 1.1466 * t2) + (-0.1119 - 0.000411 * th - 0.1490 * t2) * lv +
         (-0.012101 - 0.0036456 * th - 0.01255 * t2) * l2 + (-0.0005 - 0.0003505 * th - 0.00029076 * t2) * l3;
  f[1] = (1.9222 - 0.57473 * th - 1.2918 * t2) + (-0.0668 - 0.1201 * th - 0.22574 * t2) * lv +
         (-0.0013375 - 0.0068988 * th - 0.01137 * t2) * l2;
  f[2] = (1.268 - 0.01396 * th - 0.23566 * t2) + (0.198 + 0.092 * th - 0.06418 * t2) * lv +
         (0.02232 + 0.02238 * th - 0.009853 * t2) * l2 + (0.0008585 + 0.001318 * th - 0.00053 * t2) * l3;
  f[3] = (-0.010703 + 0.073776 * th - 0.34742 * t2) + (0.03345 + 0.04543 * th - 0.09056 * t2) * lv +
         (0.0018574 + 0.004456 * th - 0.006257 * t2) * l2;
}

void LiquidShapeOf(const Liquid *lq, PetscReal R, PetscReal V, LiquidShape *s)
{
  s->V = V, s->R = R, s->rupture = LiquidRupture(lq, V), s->sv = sqrt(V / R);
  if (lq->force == LIQUID_WILLETT_SIMPLE) s->f[0] = s->f[1] = s->f[2] = s->f[3] = 0.0;
  else WillettCoefficients(lq->theta, log(V / (R * R * R)), s->f);
}

PetscReal LiquidCapillaryForceShaped(const Liquid *lq, const LiquidShape *s, PetscReal S)
{
  /* Willett's S is half the gap */
  PetscReal sp = 0.5 * PetscMax(S, 0.0) / s->sv, scale = 2.0 * HDEM_PI * s->R * lq->gamma, x;

  if (lq->force == LIQUID_WILLETT_SIMPLE) return scale * cos(lq->theta) / (1.0 + 2.1 * sp + 10.0 * sp * sp);
  x = log(PetscMax(sp, LIQUID_SPLUS_MIN));
  return scale * exp(s->f[0] - s->f[1] * exp(s->f[2] * x + s->f[3] * x * x));
}

PetscReal LiquidCapillaryForce(const Liquid *lq, PetscReal R, PetscReal V, PetscReal S)
{
  LiquidShape s;
  LiquidShapeOf(lq, R, V, &s);
  return LiquidCapillaryForceShaped(lq, &s, S);
}

PetscReal LiquidBridgeForceShaped(const Liquid *lq, const LiquidShape *s, PetscReal Rstar, PetscReal S, PetscReal ddot)
{
  PetscReal F = -LiquidCapillaryForceShaped(lq, s, S);
  if (lq->viscosity > 0.0) F += 6.0 * HDEM_PI * lq->viscosity * Rstar * Rstar * ddot / PetscMax(S, lq->cutoff * Rstar);
  return F;
}

PetscReal LiquidBridgeForce(const Liquid *lq, PetscReal R, PetscReal Rstar, PetscReal V, PetscReal S, PetscReal ddot)
{
  LiquidShape s;
  LiquidShapeOf(lq, R, V, &s);
  return LiquidBridgeForceShaped(lq, &s, Rstar, S, ddot);
}

/* The capillary force falls from its touching value 2 pi R gamma F*(0) over
 * a separation of order sqrt(V / R): its stiffness is taken as
 * 2 pi R gamma 2.1 sqrt(R / V), twice the simple form's slope at S = 0; the lubrication damper c = 6 pi eta R*^2 /
 * (cutoff R*) at its
 * closest.  Velocity Verlet's limit 2 / w for the first, sf m / c for the
 * second (half its limit 2 m / c for a damper alone); and, as a contact's
 * duration, N steps at least to cross the bridge's reach at the rate
 * ddot, so that its work is resolved wherever the particles part. */
PetscReal LiquidBridgeBound(const Liquid *lq, PetscReal R, PetscReal Rstar, PetscReal V, PetscReal m, PetscReal ddot,
                            const StepControl *ctl)
{
  PetscReal k = 2.0 * HDEM_PI * R * lq->gamma * 2.1 * sqrt(R / V), b = PETSC_MAX_REAL, sf = ctl->stability_factor,
            rate = PetscAbsReal(ddot);
  if (k > 0.0) b = sf * 2.0 / sqrt(k / m);
  if (lq->viscosity > 0.0) b = PetscMin(b, sf * m / (6.0 * HDEM_PI * lq->viscosity * Rstar / lq->cutoff));
  if (rate > 0.0) b = PetscMin(b, LiquidRupture(lq, V) / (rate * (PetscReal)ctl->steps_per_contact));
  return b;
}

/* The simple form in closed form; the full fit by 16-point Gauss-Legendre
 * on [0, S] (the force is smooth there, and S below the rupture distance,
 * a few of its length sqrt(V / R)).  Overlapping (S < 0) the force keeps
 * its touching value, whose work F(0) S is the energy's (negative). */
PetscReal LiquidBridgeEnergy(const Liquid *lq, PetscReal R, PetscReal V, PetscReal S)
{
  static const PetscReal x[8] = {0.0950125098376374, 0.2816035507792589, 0.4580167776572274, 0.6178762444026438,
                                 0.7554044083550030, 0.8656312023878318, 0.9445750230732326, 0.9894009349916499};
  static const PetscReal w[8] = {0.1894506104550685, 0.1826034150449236, 0.1691565193950025, 0.1495959888165767,
                                 0.1246289712555339, 0.0951585116824928, 0.0622535239386479, 0.0271524594117541};
  PetscReal              h = 0.5 * PetscMax(S, 0.0), sum = 0.0;

  if (S < 0.0) return LiquidCapillaryForce(lq, R, V, 0.0) * S;
  if (!(h > 0.0)) return 0.0;
  if (lq->force == LIQUID_WILLETT_SIMPLE) { /* int_0^X dx / (1 + 2.1 x + 10 x^2), x = s / (2 q) */
    PetscReal q = sqrt(V / R), D = sqrt(40.0 - 2.1 * 2.1);
    return 2.0 * HDEM_PI * R * lq->gamma * cos(lq->theta) * 2.0 * q * (2.0 / D) *
           (atan((20.0 * h / q + 2.1) / D) - atan(2.1 / D));
  }
  for (int k = 0; k < 8; k++)
    sum += w[k] * (LiquidCapillaryForce(lq, R, V, h * (1.0 - x[k])) + LiquidCapillaryForce(lq, R, V, h * (1.0 + x[k])));
  return h * sum;
}

PetscReal LiquidBridgeForm(const Liquid *lq, PetscReal Li, PetscReal Lj, PetscReal *gi, PetscReal *gj)
{
  PetscReal ti = lq->fraction * Li, tj = Lj > 0.0 ? lq->fraction * Lj : 0.0, V = ti + tj;

  *gi = *gj = 0.0;
  if (!(V > 0.0)) return 0.0;
  if (V > lq->vmax) { /* the largest bridge: each gives its share of it */
    PetscReal s = lq->vmax / V;
    ti *= s, tj *= s;
    V = ti + tj;
  }
  *gi = ti, *gj = tj;
  return V;
}

void LiquidSetLargest(ContactModel *model, PetscReal rmax)
{
  Liquid   *lq   = &model->liquid;
  PetscReal lmax = 0.0;
  PetscBool wet  = PETSC_FALSE;

  for (PetscInt k = 0; k < MATERIAL_SLOTS; k++) {
    const Material *mat = &model->mat[k];
    PetscReal       m   = (4.0 / 3.0) * HDEM_PI * rmax * rmax * rmax * mat->density;
    if (mat->moisture > 0.0) wet = PETSC_TRUE;
    lmax = PetscMax(lmax, LiquidOfParticle(lq, mat, m));
  }
  if (!lq->on || lq->vmax_set || !wet) return;
  lq->vmax  = 2.0 * lq->fraction * lmax;
  lq->reach = LiquidRupture(lq, lq->vmax);
}
