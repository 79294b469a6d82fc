/* The per-contact timestep bound and the step controller. */
#include "check_main.h"
#include "contact/contact_options.h"

static void ModelFromString(const char *opts, ContactModel *model, StepControl *ctl)
{
  ck_assert_int_eq(PetscOptionsClear(NULL), 0);
  ck_assert_int_eq(PetscOptionsInsertString(NULL, opts), 0);
  ck_assert_int_eq(ContactModelSetFromOptions(PETSC_COMM_SELF, model), 0);
  ck_assert_int_eq(StepControlSetFromOptions(PETSC_COMM_SELF, ctl), 0);
}

START_TEST(test_linear)
{
  ContactModel model;
  StepControl  ctl;
  ContactPair  pair;
  PetscReal    m = 1e-5, k = 1e5, E = 0.5 * m;
  ModelFromString("-contact_law linear -contact_k 1e5 -contact_mu 0 -contact_damping none -timestep_steps_per_contact "
                  "50",
                  &model, &ctl);
  ContactPairSetUp(&model, 1, 1, 1e-3, m, 1.0, 0, 0, 0, PETSC_TRUE, &pair);
  /* elastic: T = pi sqrt(m/k), stability 0.7 * 2 sqrt(m/k) */
  ck_assert_rel(ContactStepBound(&model, &pair, &ctl, E, 1.0),
                PetscMin(HDEM_PI * sqrt(m / k) / 50.0, 0.7 * 2.0 * sqrt(m / k)), 1e-12);
  ctl.steps_per_contact = 1;
  ck_assert_rel(ContactStepBound(&model, &pair, &ctl, E, 1.0), 0.7 * 2.0 * sqrt(m / k), 1e-12);
  /* the linear law's bound does not depend on the energy */
  ck_assert_rel(ContactStepBound(&model, &pair, &ctl, 1e3 * E, 1.0), 0.7 * 2.0 * sqrt(m / k), 1e-12);
  ContactModelDestroy(&model);
}
END_TEST

/* Hertz: the tangent limit 2 sqrt(m/U''(d_max)) is sqrt(2p/(p+1)) of the
 * secant form 2 m v0/U'(d_max) (shared/refs: 0.9129 for p = 1.5). */
START_TEST(test_hertz_tangent)
{
  ContactModel model;
  StepControl  ctl;
  ContactPair  pair;
  PetscReal    m = 1e-5, v0 = 1.0, E = 0.5 * m * v0 * v0, dmax, secant, tangent;
  ModelFromString("-contact_law hertz -contact_k 1e9 -contact_mu 0 -contact_damping none -timestep_steps_per_contact 1 "
                  "-timestep_stability_factor 1",
                  &model, &ctl);
  ContactPairSetUp(&model, 1, 1, 1e-3, m, 1.0, 0, 0, 0, PETSC_TRUE, &pair);
  dmax    = NormalLawOverlapAtEnergy(&model.law, pair.s, E);
  secant  = 2.0 * m * v0 / NormalLawForce(&model.law, pair.s, dmax);
  tangent = ContactStepBound(&model, &pair, &ctl, E, v0);
  ck_assert_rel(tangent / secant, 0.9128709291752759, 1e-12);
  /* stiffening law: faster impacts need shorter steps */
  ck_assert(ContactStepBound(&model, &pair, &ctl, 100 * E, 10 * v0) < tangent);
  ContactModelDestroy(&model);
}
END_TEST

START_TEST(test_force_criterion_shortens)
{
  ContactModel a, b;
  StepControl  ctl;
  ContactPair  pa, pb;
  PetscReal    m = 1e-5, E = 0.5 * m;
  ModelFromString("-contact_law hertz -contact_k 1e9 -contact_mu 0 -contact_e 0.2 -contact_separation overlap", &a,
                  &ctl);
  ModelFromString("-contact_law hertz -contact_k 1e9 -contact_mu 0 -contact_e 0.2 -contact_separation force", &b, &ctl);
  ContactPairSetUp(&a, 1, 1, 1e-3, m, 1.0, 0, 0, 0, PETSC_TRUE, &pa);
  ContactPairSetUp(&b, 1, 1, 1e-3, m, 1.0, 0, 0, 0, PETSC_TRUE, &pb);
  ck_assert(ContactStepBound(&b, &pb, &ctl, E, 1.0) < ContactStepBound(&a, &pa, &ctl, E, 1.0));
  ck_assert_rel(DampingForceDurationRatio(0.0), 1.0, 1e-15);
  ck_assert(DampingForceDurationRatio(2.0) < DampingForceDurationRatio(0.5));
  ContactModelDestroy(&a);
  ContactModelDestroy(&b);
}
END_TEST

START_TEST(test_tangential_bound)
{
  ContactModel a, b;
  StepControl  ctl;
  ContactPair  pa, pb;
  PetscReal    m = 1e-5, inertia = 0.4 * m * 1e-6, E = 0.5 * m;
  ModelFromString("-contact_law linear -contact_k 1e5 -contact_mu 0 -contact_damping none", &a, &ctl);
  ModelFromString("-contact_law linear -contact_k 1e5 -contact_mu 0.5 -contact_kt 1e5 -contact_damping none", &b, &ctl);
  ContactPairSetUp(&a, 1, 1, 1e-3, m, inertia, 0, 0, 0, PETSC_TRUE, &pa);
  ContactPairSetUp(&b, 1, 1, 1e-3, m, inertia, 0, 0, 0, PETSC_TRUE, &pb);
  ck_assert_rel(pb.mt, 2.0 * m / 7.0, 1e-12);
  /* kt = k on the reduced mass 2m/7: the tangential oscillator is sqrt(7/2) faster */
  ck_assert_rel(ContactStepBound(&b, &pb, &ctl, E, 1.0), ContactStepBound(&a, &pa, &ctl, E, 1.0) / sqrt(3.5), 1e-12);
  ContactModelDestroy(&a);
  ContactModelDestroy(&b);
}
END_TEST

START_TEST(test_controller)
{
  StepControl ctl = {TIMESTEP_ADAPTIVE, 0.0, 64, 0.7, 1.2, 1e-3};
  ck_assert(StepControlNext(&ctl, 1e-6, 0.0) == 1e-6);
  ck_assert_rel(StepControlNext(&ctl, 1e-5, 1e-6), 1.2e-6, 1e-15);
  ck_assert(StepControlNext(&ctl, 1.0, 0.0) == 1e-3);
  ck_assert(StepControlNext(&ctl, 1e-9, 1e-6) == 1e-9);
  ctl.mode     = TIMESTEP_FIXED;
  ctl.dt_fixed = 3e-7;
  ck_assert(StepControlNext(&ctl, 1e-9, 1e-6) == 3e-7);
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("stepbound");
  TCase *tc = tcase_create("bounds");
  tcase_add_test(tc, test_linear);
  tcase_add_test(tc, test_hertz_tangent);
  tcase_add_test(tc, test_force_criterion_shortens);
  tcase_add_test(tc, test_tangential_bound);
  tcase_add_test(tc, test_controller);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
