/* Capillary liquid bridges between two particles, or a particle and a wall.
 *
 * A bridge forms when a pair touches and holds liquid to give: it takes
 * liquid_bridge_fraction of each particle's liquid (as it was at the step's
 * start), at most liquid_bridge_max in all.  While it stands it pulls the
 * two together with Willett's capillary force (Willett, Adams, Johnson &
 * Seville, Langmuir 16 (2000) 9396): with R = 2 R1 R2 / (R1 + R2) (2 R1
 * against a wall), V* = V / R^3 and S+ = (S / 2) sqrt(R / V) (their S is
 * half the gap S),
 *   willett:        ln F* = f1 - f2 exp(f3 ln S+ + f4 ln^2 S+), F = 2 pi R gamma F*,
 *                   f1 .. f4 their polynomials in theta and ln V*;
 *   willett_simple: F = 2 pi R gamma cos(theta) / (1 + 2.1 S+ + 10 S+^2),
 * at S = 0 while the pair touches; with a viscosity, the normal lubrication
 * force 6 pi eta R*^2 (dS/dt) / max(S, cutoff R*) resists the approach and
 * the parting.  It ruptures beyond Lian, Thornton & Adams' distance
 * S_c = (1 + theta/2) V^(1/3) (J. Colloid Interface Sci. 161 (1993) 138),
 * and gives its liquid back, half to each particle (all of it to the
 * particle, against a wall). */
#ifndef HDEM_LIQUID_H
#define HDEM_LIQUID_H

#include "contact/stepbound.h"

/* Lian's rupture distance of a bridge of volume V [m]. */
static inline PetscReal LiquidRupture(const Liquid *lq, PetscReal V)
{
  return (1.0 + 0.5 * lq->theta) * cbrt(V);
}

/* Willett's radius of two spheres (Rj = 0: a wall). */
static inline PetscReal LiquidRadius(PetscReal Ri, PetscReal Rj)
{
  return Rj > 0.0 ? 2.0 * Ri * Rj / (Ri + Rj) : 2.0 * Ri;
}

/* The capillary force's magnitude [N] (it pulls) of a bridge of volume V
 * between bodies of Willett radius R at separation S (S <= 0: touching). */
PETSC_EXTERN PetscReal LiquidCapillaryForce(const Liquid *, PetscReal R, PetscReal V, PetscReal S);

/* What a bridge's force and rupture take of its volume V and Willett radius
 * R alone, formed once for a standing bridge: Lian's distance, sqrt(V / R)
 * and Willett's f1 .. f4 (the full fit's); V = 0: none formed. */
typedef struct {
  PetscReal V, R, rupture, sv, f[4];
} LiquidShape;

PETSC_EXTERN void LiquidShapeOf(const Liquid *, PetscReal R, PetscReal V, LiquidShape *);
/* LiquidCapillaryForce and LiquidBridgeForce from the bridge's shape: the same bits. */
PETSC_EXTERN PetscReal LiquidCapillaryForceShaped(const Liquid *, const LiquidShape *, PetscReal S);
PETSC_EXTERN PetscReal LiquidBridgeForceShaped(const Liquid *, const LiquidShape *, PetscReal Rstar, PetscReal S,
                                               PetscReal ddot);

/* A bridge's normal force on i along n (n from j to i; negative: it pulls)
 * at separation S closing at ddot (> 0: approaching), and the step bound
 * its capillary stiffness, lubrication damping and reach set for the
 * normal mass m. */
PETSC_EXTERN PetscReal LiquidBridgeForce(const Liquid *, PetscReal R, PetscReal Rstar, PetscReal V, PetscReal S,
                                         PetscReal ddot);
PETSC_EXTERN PetscReal LiquidBridgeBound(const Liquid *, PetscReal R, PetscReal Rstar, PetscReal V, PetscReal m,
                                         PetscReal ddot, const StepControl *);

/* The energy a bridge of volume V holds at separation S: the capillary
 * force's work from touching, int_0^S F (F(0) S, negative, while the
 * particles overlap and the force keeps its touching value) [J]; its
 * rupture dissipates it. */
PETSC_EXTERN PetscReal LiquidBridgeEnergy(const Liquid *, PetscReal R, PetscReal V, PetscReal S);

/* A new bridge between particles holding Li and Lj (Lj < 0: a wall): the
 * liquid taken from each into *gi, *gj; returns the bridge's volume (0:
 * none forms). */
PETSC_EXTERN PetscReal LiquidBridgeForm(const Liquid *, PetscReal Li, PetscReal Lj, PetscReal *gi, PetscReal *gj);

/* The liquid a new particle of material mat holds [m^3]: the material's
 * volume, or from its moisture content w (liquid mass over wet mass) and
 * its solid mass m, the volume of w m / (1 - w) kilograms of liquid,
 * w m / ((1 - w) rho_liquid). */
static inline PetscReal LiquidOfParticle(const Liquid *lq, const Material *mat, PetscReal m)
{
  return mat->moisture > 0.0 ? mat->moisture * m / ((1.0 - mat->moisture) * lq->density) : mat->liquid;
}

/* With some moisture content and no liquid_bridge_max: the largest bridge
 * (2 liquid_bridge_fraction times the most liquid a particle holds) and
 * its reach, from rmax, the largest sphere a particle has (a body's
 * sphere holds at most its own solid mass's share). */
PETSC_EXTERN void LiquidSetLargest(ContactModel *, PetscReal rmax);

#endif
