/* The impact experiment with the real contact code, integrator and step:
 * restitution, duration and overlap against the oracle, energy conservation,
 * and the Cundall-Strack oblique limits. */
#include "check_main.h"
#include "contact/contact_options.h"
#include "contact/impact.h"

static ImpactResult RunImpact(const char *opts, PetscReal v0, PetscReal angle, PetscReal mass, ImpactTarget target,
                              ContactModel *model_out)
{
  ContactModel model;
  StepControl  ctl;
  ImpactSetup  set =
    {.target = target, .v0 = v0, .angle = angle, .mass = mass, .radius = 1e-3, .phase = 0.5, .max_steps = 10000000};
  ImpactResult r;
  ck_assert_int_eq(PetscOptionsClear(NULL), 0);
  ck_assert_int_eq(PetscOptionsInsertString(NULL, opts), 0);
  ck_assert_int_eq(ContactModelSetFromOptions(PETSC_COMM_SELF, &model), 0);
  ck_assert_int_eq(StepControlSetFromOptions(PETSC_COMM_SELF, &ctl), 0);
  ck_assert_int_eq(ImpactRun(&model, &ctl, &set, &r), 0);
  if (model_out) *model_out = model;
  else ContactModelDestroy(&model);
  return r;
}

/* cases.json elastic_hertz_v1: t_contact 8.0834e-6 s, q_max 2.7464e-6 m */
START_TEST(test_elastic_hertz)
{
  ImpactResult r = RunImpact("-contact_law hertz -contact_k 1e9 -contact_damping none -contact_mu 0", 1.0, 0.0, 1e-5,
                             IMPACT_TARGET_WALL, NULL);
  ck_assert_msg(fabs(r.e - 1.0) < 1e-3, "elastic e = %.8f", r.e);
  ck_assert_rel(r.t_contact, 8.083414963983182e-06, 0.01);
  ck_assert_rel(r.delta_max, 2.7464013582582063e-06, 0.01);
  ck_assert(!r.tensile);
}
END_TEST

/* The harmonic law is exact for every law and speed, both criteria. */
START_TEST(test_harmonic_exact)
{
  static const char     *laws[]   = {"-contact_law linear -contact_k 1e5", "-contact_law hertz -contact_k 1e9",
                                     "-contact_law power -contact_k 1e17 -contact_p 2.5",
                                     "-contact_law poly -contact_poly_k 1e5,3e10 -contact_poly_p 1,2"};
  static const PetscReal speeds[] = {1e-3, 1.0, 10.0};
  static const PetscReal es[]     = {0.1, 0.5, 0.9};
  for (size_t l = 0; l < 4; l++)
    for (int c = 0; c < 2; c++)
      for (size_t v = 0; v < 3; v++)
        for (size_t k = 0; k < 3; k++) {
          char opts[512];
          snprintf(opts, sizeof(opts), "%s -contact_mu 0 -contact_e %g -contact_separation %s", laws[l], es[k],
                   c ? "force" : "overlap");
          ImpactResult r = RunImpact(opts, speeds[v], 0.0, 1e-5, IMPACT_TARGET_WALL, NULL);
          ck_assert_msg(fabs(r.e / es[k] - 1.0) < 5e-3, "%s v0 = %g: e = %.6f, target %g", opts, speeds[v], r.e, es[k]);
        }
}
END_TEST

/* The default steps per contact keeps e within 0.5 % of target for every law
 * (monomial or not), both criteria, speeds 1e-3..10 m/s, e in [0.1, 1] and
 * wherever within a step the first touch falls. */
START_TEST(test_default_accuracy_sweep)
{
  static const char     *laws[]   = {"-contact_law linear -contact_k 1e5",
                                     "-contact_law hertz -contact_k 1e9",
                                     "-contact_law power -contact_k 1e13 -contact_p 2",
                                     "-contact_law power -contact_k 1e17 -contact_p 2.5",
                                     "-contact_law poly -contact_poly_k 1e5,3e10 -contact_poly_p 1,2",
                                     "-contact_law poly -contact_poly_k 1e9,1e5 -contact_poly_p 1.5,1",
                                     "-contact_law poly -contact_poly_k 3e6,1e16 -contact_poly_p 1.2,3"};
  static const PetscReal speeds[] = {1e-3, 0.1, 10.0}, es[] = {0.1, 0.2, 0.5, 0.8, 0.99, 1.0};
  PetscReal              worst       = 0.0;
  char                   where[1024] = "";
  for (size_t l = 0; l < sizeof(laws) / sizeof(laws[0]); l++)
    for (int c = 0; c < 2; c++)
      for (size_t v = 0; v < 3; v++)
        for (size_t k = 0; k < sizeof(es) / sizeof(es[0]); k++) {
          ContactModel model;
          StepControl  ctl;
          char         opts[512];
          snprintf(opts, sizeof(opts), "%s -contact_mu 0 %s%g -contact_separation %s", laws[l],
                   es[k] < 1.0 ? "-contact_e " : "-contact_damping none -impact_v0 ", es[k] < 1.0 ? es[k] : speeds[v],
                   c ? "force" : "overlap");
          ck_assert_int_eq(PetscOptionsClear(NULL), 0);
          ck_assert_int_eq(PetscOptionsInsertString(NULL, opts), 0);
          ck_assert_int_eq(ContactModelSetFromOptions(PETSC_COMM_SELF, &model), 0);
          ck_assert_int_eq(StepControlSetFromOptions(PETSC_COMM_SELF, &ctl), 0);
          ck_assert_int_eq(ctl.steps_per_contact, HDEM_DEFAULT_STEPS_PER_CONTACT);
          for (int ph = 0; ph < 10; ph++) {
            ImpactSetup  set = {.target    = IMPACT_TARGET_WALL,
                                .v0        = speeds[v],
                                .mass      = 1e-5,
                                .radius    = 1e-3,
                                .phase     = 0.05 + 0.1 * ph,
                                .max_steps = 10000000};
            ImpactResult r;
            ck_assert_int_eq(ImpactRun(&model, &ctl, &set, &r), 0);
            if (fabs(r.e / es[k] - 1.0) > worst) {
              worst = fabs(r.e / es[k] - 1.0);
              snprintf(where, sizeof(where), "%s, v0 %g, phase %.2f: e = %.6f", opts, speeds[v], set.phase, r.e);
            }
          }
          ContactModelDestroy(&model);
        }
  ck_assert_msg(worst < 5e-3, "worst restitution error %.3f%% at %s", 100 * worst, where);
}
END_TEST

/* Sphere on sphere with the same effective mass is the same 1-D impact. */
START_TEST(test_sphere_sphere)
{
  ImpactResult
    a = RunImpact("-contact_law hertz -contact_k 1e9 -contact_mu 0 -contact_e 0.5 -contact_separation overlap", 1.0,
                  0.0, 1e-5, IMPACT_TARGET_SPHERE, NULL);
  ck_assert_rel(a.m, 1e-5, 1e-14);
  ck_assert_rel(a.e, 0.5, 5e-3);
  ck_assert_rel(a.t_contact, 8.838209e-06, 0.01); /* feng_hertz_v1_e0.5 */
  ck_assert_rel(a.delta_max, 2.162667e-06, 0.01);
}
END_TEST

/* Sliding throughout (large angle): the tangential impulse is mu (1 + e) m vn,
 * the spin 5/2 of it over m R, and et = -1 + 3.5 mu (1 + e) / tan(theta). */
START_TEST(test_oblique_sliding)
{
  PetscReal mu = 0.1, th = 70.0, R = 1e-3, v0 = 1.0, vn = v0 * cos(th * HDEM_PI / 180),
            vt   = v0 * sin(th * HDEM_PI / 180);
  ImpactResult r = RunImpact("-contact_law linear -contact_k 1e5 -contact_mu 0.1 -contact_e 0.6 -contact_separation "
                             "force -particle_density 2500",
                             v0, th, 0.0, IMPACT_TARGET_WALL, NULL);
  ck_assert_rel(r.e, 0.6, 5e-3);
  ck_assert_rel(r.vt_out, vt - mu * (1 + r.e) * vn, 2e-3);
  /* the spring takes a few steps to reach the Coulomb limit */
  ck_assert_rel(r.omega_out, 2.5 * mu * (1 + r.e) * vn / R, 1e-2);
  ck_assert_rel(r.et, -1.0 + 3.5 * mu * (1 + r.e) / tan(th * HDEM_PI / 180), 1e-2);
  ck_assert_rel(r.vn_out, -r.e * vn, 1e-12);
  ck_assert_rel(r.rebound_angle, atan2(r.vt_out, r.e * vn) * 180 / HDEM_PI, 1e-12);
}
END_TEST

/* Sticking throughout (no slip, elastic linear springs): the contact point
 * oscillates at w_t = sqrt(kt / mt), mt = 2m/7, for the contact time pi/w_n,
 * so et = -cos(pi sqrt(7 kt / (2 k))). */
START_TEST(test_oblique_sticking)
{
  static const PetscReal ratios[] = {2.0 / 7.0, 2.0 / 7.0 * 0.36, 1.0 / 14.0};
  for (int i = 0; i < 3; i++) {
    char opts[256];
    snprintf(opts, sizeof(opts),
             "-contact_law linear -contact_k 1e5 -contact_damping none -contact_mu 1e6 -contact_kt %.17g "
             "-timestep_steps_per_contact 400",
             1e5 * ratios[i]);
    ImpactResult r  = RunImpact(opts, 1.0, 20.0, 0.0, IMPACT_TARGET_WALL, NULL);
    PetscReal    et = -cos(HDEM_PI * sqrt(3.5 * ratios[i]));
    ck_assert_msg(fabs(r.et - et) < 5e-3, "kt/k = %g: et = %.5f, expected %.5f", ratios[i], r.et, et);
    ck_assert_msg(fabs(r.e - 1.0) < 1e-3, "elastic e = %.6f", r.e);
  }
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("impact");
  TCase *tc = tcase_create("impact");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_elastic_hertz);
  tcase_add_test(tc, test_harmonic_exact);
  tcase_add_test(tc, test_default_accuracy_sweep);
  tcase_add_test(tc, test_sphere_sphere);
  tcase_add_test(tc, test_oblique_sliding);
  tcase_add_test(tc, test_oblique_sticking);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
