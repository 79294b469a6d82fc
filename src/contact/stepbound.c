#include "contact/stepbound.h"

const char *const TimestepModes[] = {"adaptive", "fixed", "TimestepMode", "TIMESTEP_", NULL};

/* Velocity Verlet with the damping force taken at the half-step velocity is
 * stable for w dt < 2 (sqrt(1 + z^2) - z). */
static PetscReal DampedStabilityFactor(PetscReal z)
{
  return sqrt(1.0 + z * z) - z;
}

PetscReal ContactStepBound(const ContactModel *model, const ContactPair *pair, const StepControl *ctl, PetscReal E,
                           PetscReal v_imp)
{
  const NormalLaw *law   = &model->law;
  const Damping   *dmp   = &pair->co->damping;
  PetscReal        bound = PETSC_MAX_REAL, dmax, K, z = 0.0, T, kt;

  if (!(E > 0.0)) return bound;
  dmax = NormalLawOverlapAtEnergy(law, pair->s, E);
  K    = NormalLawMaxStiffness(law, pair->s, dmax);
  if (K > 0.0) {
    z     = DampingCoefficient(dmp, law, pair->s, pair->m, v_imp, dmax) / (2.0 * sqrt(pair->m * K));
    bound = ctl->stability_factor * 2.0 * sqrt(pair->m / K) * DampedStabilityFactor(z);
  }
  T = NormalLawElasticDuration(law, pair->s, pair->m, E);
  if (dmp->separation == SEPARATION_FORCE)
    T *= DampingForceDurationRatio(dmp->type == DAMPING_HARMONIC ? dmp->zeta : z);
  bound = PetscMin(bound, T / ctl->steps_per_contact);
  /* the rolling oscillator */
  if (model->rolls && pair->co->rolling.mu > 0.0 && pair->co->rolling.type == ROLLING_EPSD && K > 0.0) {
    PetscReal wr = sqrt(ContactRollingStiffness(pair, K) / pair->Ir);
    bound        = PetscMin(bound, ctl->stability_factor * 2.0 / wr * DampedStabilityFactor(pair->co->rolling.eta));
    bound        = PetscMin(bound, HDEM_PI / wr / ctl->steps_per_contact);
  }
  kt = ContactTangentialStiffness(model, pair, dmax);
  if (kt > 0.0) {
    PetscReal wt = sqrt(kt / pair->mt), zt = pair->co->tangential.zeta;
    bound = PetscMin(bound, ctl->stability_factor * 2.0 / wt * DampedStabilityFactor(zt));
    bound = PetscMin(bound, HDEM_PI / wt / ctl->steps_per_contact);
  }
  return bound;
}

PetscReal StepControlNext(const StepControl *ctl, PetscReal bound, PetscReal dt_prev)
{
  if (ctl->mode == TIMESTEP_FIXED) return ctl->dt_fixed;
  PetscReal dt = PetscMin(bound, ctl->dt_max);
  if (dt_prev > 0.0) dt = PetscMin(dt, ctl->growth * dt_prev);
  return dt;
}
