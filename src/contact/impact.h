/* One impact, sphere on wall or sphere on sphere, run with the real contact
 * code, the real integrator and the real adaptive step: hdem's restitution
 * calibration experiment. */
#ifndef HDEM_IMPACT_H
#define HDEM_IMPACT_H

#include "contact/stepbound.h"

typedef enum {
  IMPACT_TARGET_SPHERE,
  IMPACT_TARGET_WALL
} ImpactTarget;

PETSC_EXTERN const char *const ImpactTargets[];

typedef struct {
  ImpactTarget target;
  PetscReal    v0;     /* relative approach speed [m/s] */
  PetscReal    angle;  /* incidence from the normal [deg] */
  PetscReal    mass;   /* effective normal mass [kg]; <= 0: from radius and density */
  PetscReal    radius; /* [m] */
  PetscReal    phase;  /* where within a step the first touch falls, [0, 1) */
  PetscInt     max_steps;
  /* the target sphere's [m], [kg/m^3] (<= 0: the first's radius, its type's density) */
  PetscReal radius2, density2;
  PetscInt  type, type2; /* material types of the sphere and of its target (sphere or wall) */
  PetscReal omega[3];    /* the sphere's initial angular velocity [rad/s] */
} ImpactSetup;

typedef struct {
  PetscReal e, t_contact, delta_max;
  PetscBool tensile;
  PetscInt  steps, contact_steps;
  PetscReal dt_min, dt_max;
  PetscReal vn_in, vt_in, vn_out, vt_out, omega_out, rebound_angle, et;
  PetscReal m, mt, v_imp;
} ImpactResult;

PETSC_EXTERN PetscErrorCode ImpactRun(const ContactModel *, const StepControl *, const ImpactSetup *, ImpactResult *);

#endif
