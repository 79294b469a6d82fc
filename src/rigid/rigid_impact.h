/* One multi-sphere body striking a wall, with the real contact code:
 * velocity Verlet for the centre, NO_SQUISH for the rotation (rotation.h),
 * each contact of a member sphere evaluated by ContactEvaluate with the
 * body's mass projected on the contact point (body_contact.h), and its
 * force and torque about the centre summed in member order.  The wall is
 * the plane z = 0 (normal +z) unless a callback gives each sphere's overlap
 * and normal (a mesh, in the tests).  The run ends when the first impact
 * does (every member apart again; a later one, the body turning onto
 * another sphere, is another experiment).  Results: the contact-point
 * normal restitution of the first contact, the centre's velocity and the
 * angular velocity after, and the impulse solution for a single contact
 * point at the first touch. */
#ifndef HDEM_RIGID_IMPACT_H
#define HDEM_RIGID_IMPACT_H

#include "contact/stepbound.h"
#include "rigid/clump_template.h"

/* a sphere of centre x, radius r against the wall: overlap *d (<= 0 apart)
 * and the unit normal from the wall towards the sphere */
typedef PetscErrorCode (*RigidWallFn)(void *ctx, const PetscReal x[3], PetscReal r, PetscReal *d, PetscReal n[3]);

typedef struct {
  const ClumpTemplate *tmpl;        /* in its principal frame */
  PetscReal            density;     /* the template's when it has one */
  PetscInt             type, type2; /* material types of the body and the wall */
  /* approach speed [m/s], incidence from the normal [deg] (the tangential part along +x) */
  PetscReal v0, angle;
  PetscReal q[4];     /* orientation: body to world */
  PetscReal omega[3]; /* initial angular velocity, world [rad/s] */
  PetscReal phase;    /* where within a step the first touch falls, [0, 1) */
  PetscInt  max_steps;
  /* damp with the body's mass, not the projected one (what other codes do; for comparison) */
  PetscBool   total_mass;
  RigidWallFn wall; /* NULL: the plane z = 0 */
  void       *wall_ctx;
} RigidImpactSetup;

typedef struct {
  PetscReal e; /* contact-point normal restitution of the first contact */
  PetscReal v_out[3], w_out[3];
  PetscReal v_ref[3], w_ref[3]; /* the impulse solution at the first touch's contact point */
  PetscReal mass, inertia[3];
  PetscReal mass_normal; /* the projected normal mass at the first touch [kg] */
  PetscReal dt;
  PetscInt  steps, spheres; /* steps taken; member spheres that touched */
} RigidImpactResult;

PETSC_EXTERN PetscErrorCode RigidImpactRun(const ContactModel *, const StepControl *, const RigidImpactSetup *,
                                           RigidImpactResult *);

#endif
