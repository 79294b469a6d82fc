/* Normal contact laws as potentials U(d) of the overlap d >= 0.
 *
 * Every law supplies U, U' (the elastic force) and U'' in closed form, the
 * quantity U'/sqrt(U) that the harmonic damping law needs (with its d -> 0
 * limit, so no 0/0 ever appears), the inverse of U (overlap at a given
 * energy), the largest tangent stiffness over [0, d] and the elastic contact
 * duration at a given energy.
 *
 * All forces carry a pair scale s: F(d) = s * f(d).  For Hertz s is
 * (4/3) E* sqrt(R*) and f(d) = d^1.5; for the other laws s = 1 and the
 * coefficients are the user's. */
#ifndef HDEM_NORMALLAW_H
#define HDEM_NORMALLAW_H

#include "hdem.h"

#define NORMAL_LAW_MAX_TERMS 8

typedef enum {
  NORMAL_LAW_LINEAR,
  NORMAL_LAW_HERTZ,
  NORMAL_LAW_POWER,
  NORMAL_LAW_POLY,
  NORMAL_LAW_TABLE
} NormalLawType;

PETSC_EXTERN const char *const NormalLawTypes[];

/* Monotone piecewise-cubic (Fritsch-Carlson) force table; U is the exact
 * integral of the interpolant, so U' == F to rounding. */
typedef struct {
  PetscInt   n;
  PetscReal *d, *f, *m, *u; /* knots, forces, slopes, U at knots */
} NormalTable;

typedef struct {
  NormalLawType type;
  PetscInt      nterm; /* F = s * sum_i k[i] d^p[i] (all but table) */
  PetscReal     k[NORMAL_LAW_MAX_TERMS], p[NORMAL_LAW_MAX_TERMS];
  PetscReal     duration_coeff; /* monomials: T = 2 (d_max / v) * duration_coeff */
  NormalTable  *table;          /* owned by the law when type == table */
} NormalLaw;

PETSC_EXTERN PetscErrorCode NormalLawCreatePoly(NormalLawType, PetscInt, const PetscReal[], const PetscReal[],
                                                NormalLaw *);
PETSC_EXTERN PetscErrorCode NormalLawCreateTable(PetscInt, const PetscReal[], const PetscReal[], NormalLaw *);
PETSC_EXTERN PetscErrorCode NormalLawDestroy(NormalLaw *);

PETSC_EXTERN PetscBool NormalLawIsMonomial(const NormalLaw *);
PETSC_EXTERN void NormalLawEval(const NormalLaw *, PetscReal s, PetscReal d, PetscReal *U, PetscReal *F, PetscReal *dF);
PETSC_EXTERN PetscReal NormalLawForce(const NormalLaw *, PetscReal s, PetscReal d);
PETSC_EXTERN PetscReal NormalLawForceOverSqrtU(const NormalLaw *, PetscReal s, PetscReal d);
PETSC_EXTERN PetscReal NormalLawOverlapAtEnergy(const NormalLaw *, PetscReal s, PetscReal E);
PETSC_EXTERN PetscReal NormalLawMaxStiffness(const NormalLaw *, PetscReal s, PetscReal dmax);
PETSC_EXTERN PetscReal NormalLawElasticDuration(const NormalLaw *, PetscReal s, PetscReal m, PetscReal E);

#endif
