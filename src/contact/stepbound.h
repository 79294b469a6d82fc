/* The per-contact timestep bound and the step controller.
 *
 * A contact of energy E = m ddot^2/2 + U(d) (an approaching pair: its
 * predicted impact, d = 0) is bounded by
 *   stability: sf * 2 / sqrt(max U''/m) * (sqrt(1 + z^2) - z), the tangent
 *              stiffness maximised over 0 < d <= d_max(E), z the local damping
 *              ratio at d_max (velocity Verlet's limit for a damped oscillator);
 *   accuracy:  T(E) / N, T the contact duration: the elastic action-integral
 *              duration, shortened by the harmonic factor 2 h(zeta)/pi when the
 *              contact ends at zero force;
 *   tangential: the same two limits for the tangential spring's oscillator
 *              (mass mt, stiffness kt(d_max)), with T = pi / w_t. */
#ifndef HDEM_STEPBOUND_H
#define HDEM_STEPBOUND_H

#include "contact/contact.h"

typedef enum {
  TIMESTEP_ADAPTIVE,
  TIMESTEP_FIXED
} TimestepMode;

PETSC_EXTERN const char *const TimestepModes[];

typedef struct {
  TimestepMode mode;
  PetscReal    dt_fixed;          /* fixed mode step [s] */
  PetscInt     steps_per_contact; /* N of the accuracy limit */
  PetscReal    stability_factor;  /* sf of the stability limit */
  PetscReal    growth;            /* largest dt_new / dt_old */
  PetscReal    dt_max;            /* cap [s] */
} StepControl;

PETSC_EXTERN PetscReal ContactStepBound(const ContactModel *, const ContactPair *, const StepControl *, PetscReal E,
                                        PetscReal v_imp);
PETSC_EXTERN PetscReal StepControlNext(const StepControl *, PetscReal bound, PetscReal dt_prev);

#endif
