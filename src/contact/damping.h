/* Normal damping laws and their calibration from a target restitution.
 *
 * The damping force is C * ddot, ddot the rate of overlap (> 0 while
 * compressing); C depends on the law, the overlap and, for the
 * impact-speed-scaled laws, on the normal speed at first touch v_imp. */
#ifndef HDEM_DAMPING_H
#define HDEM_DAMPING_H

#include "contact/normallaw.h"

typedef enum {
  DAMPING_HARMONIC,
  DAMPING_TSUJI,
  DAMPING_TSUJI_MARSHALL,
  DAMPING_HUNT_CROSSLEY,
  DAMPING_LANKARANI_NIKRAVESH,
  DAMPING_FLORES,
  DAMPING_HU_GUO,
  DAMPING_GONTHIER,
  DAMPING_CONSTANT_DAMPER,
  DAMPING_LINEAR_DASHPOT,
  DAMPING_NONE
} DampingType;

PETSC_EXTERN const char *const DampingTypes[];

/* overlap: the force is not clipped, contact ends when d returns to 0;
 * force:   the normal force is clipped at zero (no attraction). */
typedef enum {
  SEPARATION_OVERLAP,
  SEPARATION_FORCE
} SeparationType;

PETSC_EXTERN const char *const SeparationTypes[];

typedef struct {
  DampingType    type;
  SeparationType separation;
  PetscReal      e;         /* target restitution (or -1 when a raw coefficient is given) */
  PetscReal      zeta;      /* harmonic, linear_dashpot: damping ratio */
  PetscReal      alpha;     /* tsuji, tsuji_marshall */
  PetscReal      hc_factor; /* Hunt-Crossley family: D = hc_factor / v_imp */
  PetscReal      D;         /* Hunt-Crossley family raw D [s/m], 0 if from e */
  PetscReal      c_hat;     /* constant_damper: c = c_hat m v_imp / d_el */
  PetscReal      c;         /* linear_dashpot / constant_damper raw dashpot [N s/m], 0 if from e */
  PetscReal      v_imp_min; /* floor on v_imp for the speed-scaled laws */
} Damping;

PETSC_EXTERN PetscReal      DampingZetaFromE(PetscReal e, SeparationType);
PETSC_EXTERN PetscReal      DampingEFromZeta(PetscReal zeta, SeparationType);
PETSC_EXTERN PetscReal      DampingForceDurationRatio(PetscReal zeta);
PETSC_EXTERN PetscReal      DampingAlphaMarshall(PetscReal e);
PETSC_EXTERN PetscReal      DampingHuntCrossleyFactor(DampingType, PetscReal e);
PETSC_EXTERN PetscErrorCode DampingConstantDamperE(PetscReal c_hat, PetscReal n, PetscReal *e);
PETSC_EXTERN PetscErrorCode DampingConstantDamperCHat(PetscReal e, PetscReal n, PetscReal *c_hat);

PETSC_EXTERN PetscErrorCode DampingSetUp(Damping *, const NormalLaw *, PetscReal e, PetscReal coeff,
                                         PetscBool coeff_set);
PETSC_EXTERN PetscReal DampingCoefficient(const Damping *, const NormalLaw *, PetscReal s, PetscReal m, PetscReal v_imp,
                                          PetscReal d);
PETSC_EXTERN PetscReal DampingCoefficientIntegral(const Damping *, const NormalLaw *, PetscReal s, PetscReal m,
                                                  PetscReal v_imp, PetscReal d);

#endif
