/* hdem impact: one calibration impact, printed as one JSON object. */
#include "commands.h"
#include "contact_options.h"
#include "impact.h"
#include "../io/json.h"
#include "../io/options.h"
#include "../decomp/collective.h"

static PetscErrorCode ImpactSetupSetFromOptions(MPI_Comm comm, ImpactSetup *set)
{
  PetscFunctionBeginUser;
  set->target    = IMPACT_TARGET_WALL;
  set->v0        = 1.0;
  set->angle     = 0.0;
  set->mass      = 0.0;
  set->radius    = 1e-3;
  set->phase     = 0.5;
  set->max_steps = 10000000;
  PetscOptionsBegin(comm, NULL, "Impact experiment", NULL);
  PetscCall(PetscOptionsEnum("-impact_target", "what the sphere hits: a wall, or an equal sphere (centre-of-mass frame)", NULL, ImpactTargets, (PetscEnum)set->target, (PetscEnum *)&set->target, NULL));
  PetscCall(OptionsCheckSyntax("-impact_v0", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-impact_v0", "relative approach speed [m/s]", NULL, set->v0, &set->v0, NULL));
  PetscCall(OptionsCheckSyntax("-impact_angle", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-impact_angle", "angle of the incoming velocity from the surface normal [deg]", NULL, set->angle, &set->angle, NULL));
  PetscCall(OptionsCheckSyntax("-impact_mass", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-impact_mass", "effective mass of the contact [kg] (1-D checks); default from radius and density", NULL, set->mass, &set->mass, NULL));
  PetscCall(OptionsCheckSyntax("-particle_radius", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-particle_radius", "sphere radius [m]", NULL, set->radius, &set->radius, NULL));
  PetscCall(OptionsCheckSyntax("-impact_phase", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-impact_phase", "fraction of a step at which first touch falls [-]", NULL, set->phase, &set->phase, NULL));
  PetscCall(OptionsCheckSyntax("-impact_max_steps", PETSC_TRUE));
  PetscCall(PetscOptionsInt("-impact_max_steps", "give up after this many steps [-]", NULL, set->max_steps, &set->max_steps, NULL));
  PetscOptionsEnd();
  PetscCall(OptionsCheckReal("impact_v0", set->v0, 0.0, PETSC_MAX_REAL, RANGE_OPEN, "[m/s]"));
  PetscCall(OptionsCheckReal("impact_angle", set->angle, 0.0, 90.0, RANGE_OPEN_HI, "[deg]"));
  PetscCall(OptionsCheckReal("impact_mass", set->mass, 0.0, PETSC_MAX_REAL, RANGE_CLOSED, "[kg]"));
  PetscCall(OptionsCheckReal("particle_radius", set->radius, 0.0, PETSC_MAX_REAL, RANGE_OPEN, "[m]"));
  PetscCall(OptionsCheckReal("impact_phase", set->phase, 0.0, 1.0, RANGE_OPEN_HI, "[-]"));
  PetscCall(OptionsCheckInt("impact_max_steps", set->max_steps, 1, PETSC_MAX_INT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void ImpactResultWrite(const ContactModel *model, const ImpactSetup *set, const ImpactResult *r, FILE *fp)
{
  JsonWriter w;
  JsonBegin(&w, fp);
  JsonReal(&w, "e", r->e);
  if (model->damping.e > 0.0) JsonReal(&w, "e_target", model->damping.e);
  else JsonNull(&w, "e_target");
  JsonReal(&w, "t_contact", r->t_contact);
  JsonReal(&w, "delta_max", r->delta_max);
  JsonBool(&w, "tensile", r->tensile);
  JsonInt(&w, "steps", r->steps);
  JsonInt(&w, "contact_steps", r->contact_steps);
  JsonReal(&w, "dt_min", r->dt_min);
  JsonReal(&w, "dt_max", r->dt_max);
  JsonReal(&w, "vn_in", r->vn_in);
  JsonReal(&w, "vt_in", r->vt_in);
  JsonReal(&w, "vn_out", r->vn_out);
  JsonReal(&w, "vt_out", r->vt_out);
  JsonReal(&w, "omega_out", r->omega_out);
  JsonReal(&w, "rebound_angle", r->rebound_angle);
  if (set->angle > 0.0 && model->tangential.mu > 0.0) JsonReal(&w, "et", r->et);
  else JsonNull(&w, "et");
  JsonReal(&w, "mass_effective", r->m);
  JsonReal(&w, "mass_tangential", r->mt);
  JsonString(&w, "law", NormalLawTypes[model->law.type]);
  JsonString(&w, "damping", DampingTypes[model->damping.type]);
  JsonString(&w, "separation", SeparationTypes[model->damping.separation]);
  JsonString(&w, "target", ImpactTargets[set->target]);
  if (model->damping.type == DAMPING_HARMONIC || model->damping.type == DAMPING_LINEAR_DASHPOT) JsonReal(&w, "zeta", model->damping.zeta);
  if (model->damping.type == DAMPING_TSUJI || model->damping.type == DAMPING_TSUJI_MARSHALL) JsonReal(&w, "alpha", model->damping.alpha);
  if (model->damping.type == DAMPING_CONSTANT_DAMPER) JsonReal(&w, "c_hat", model->damping.c_hat);
  JsonEnd(&w);
}

PetscErrorCode CommandImpact(MPI_Comm comm, PetscBool help)
{
  ContactModel model;
  StepControl  ctl;
  ImpactSetup  set;
  ImpactResult res;
  PetscMPIInt  rank;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  PetscCall(ContactModelSetFromOptions(comm, &model));
  PetscCall(StepControlSetFromOptions(comm, &ctl));
  PetscCall(ImpactSetupSetFromOptions(comm, &set));
  if (help) {
    PetscCall(ContactModelDestroy(&model));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(OptionsCheckUnused(comm));
  PetscCall(ImpactRun(&model, &ctl, &set, &res));
  if (rank == 0) ImpactResultWrite(&model, &set, &res, stdout);
  PetscCall(ContactModelDestroy(&model));
  PetscFunctionReturn(PETSC_SUCCESS);
}
