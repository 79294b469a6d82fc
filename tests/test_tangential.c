/* The tangential models in oblique elastic impacts of a sphere on a rigid
 * plane (alumina on a rigid wall, as Chung & Ooi's tests 4-6: E 380 GPa,
 * nu 0.23, mu 0.092, no normal damping): the incremental spring never
 * returns more energy than came in (the shear-displacement spring with the
 * Mindlin stiffness does, in the micro-slip range); in gross sliding both
 * give the closed form psi2 = psi1 - 3.5 (1 + e); with a constant stiffness
 * the two are the same spring; a sphere spinning fast slides throughout and
 * leaves with the closed form's speed and spin. */
#include <math.h>
#include "check_main.h"
#include "contact/contact_options.h"
#include "contact/impact.h"

#define ALUMINA "-material1_E 3.8e11 -material1_nu 0.23 -material1_density 4000 -material2_E inf -contact_damping none -contact_mu 0.092 " \
                "-timestep_steps_per_contact 400 "

/* psi1 = vt / (mu vn) at vn = 5 m/s: the rebound's psi2 = v_ct,out / (mu vn) and its energy gain (KE_out / KE_in - 1). */
static void Oblique(const char *opts, PetscReal psi1, PetscReal *psi2, PetscReal *gain)
{
  ContactModel md;
  StepControl  ctl;
  ImpactResult r;
  PetscReal    mu = 0.092, vn = 5.0, vt = psi1 * mu * vn, R = 2.5e-3, m = 4.0 / 3.0 * HDEM_PI * R * R * R * 4000.0, I0 = 0.4 * m * R * R;
  ImpactSetup  set = {.target = IMPACT_TARGET_WALL, .v0 = sqrt(vn * vn + vt * vt), .angle = atan2(vt, vn) * 180.0 / HDEM_PI, .radius = R, .phase = 0.5,
                      .max_steps = 10000000, .type = 1, .type2 = 2};
  ck_assert(!PetscOptionsClear(NULL));
  ck_assert(!PetscOptionsInsertString(NULL, opts));
  ck_assert(!ContactModelSetFromOptions(PETSC_COMM_SELF, &md));
  ck_assert(!StepControlSetFromOptions(PETSC_COMM_SELF, &ctl));
  ck_assert(!ImpactRun(&md, &ctl, &set, &r));
  *psi2 = -r.et * psi1;
  *gain = (0.5 * m * (r.vn_out * r.vn_out + r.vt_out * r.vt_out) + 0.5 * I0 * r.omega_out * r.omega_out) / (0.5 * m * set.v0 * set.v0) - 1.0;
  ck_assert(!ContactModelDestroy(&md));
}

START_TEST(test_incremental_no_energy_gain)
{
  PetscReal most = -1.0, sd_most = -1.0;
  for (int k = 1; k <= 12; k++) {
    PetscReal psi1 = 0.15 * k, psi2, gain;
    Oblique(ALUMINA "-contact_tangential_model incremental", psi1, &psi2, &gain);
    most = PetscMax(most, gain);
    Oblique(ALUMINA "-contact_tangential_model shear_displacement", psi1, &psi2, &gain);
    sd_most = PetscMax(sd_most, gain);
  }
  ck_assert_msg(most <= 1e-9, "the incremental spring returned %g more energy than came in", (double)most);
  ck_assert_msg(sd_most > 1e-5, "the shear-displacement spring gained at most %g: the check does not tell the models apart", (double)sd_most);
}
END_TEST

START_TEST(test_gross_sliding)
{
  for (int m = 0; m < 2; m++) {
    PetscReal psi2, gain;
    Oblique(m ? ALUMINA "-contact_tangential_model incremental" : ALUMINA, 10.0, &psi2, &gain);
    ck_assert_msg(fabs(psi2 - (10.0 - 7.0)) < 2e-3, "model %d: psi2 %.6f, sliding throughout gives 3", m, (double)psi2);
  }
}
END_TEST

START_TEST(test_constant_stiffness_same)
{
  for (int k = 1; k <= 4; k++) {
    PetscReal a2, b2, ga, gb;
    Oblique(ALUMINA "-contact_tangential_stiffness constant -contact_kt 2e6", 0.4 * k, &a2, &ga);
    Oblique(ALUMINA "-contact_tangential_stiffness constant -contact_kt 2e6 -contact_tangential_model incremental", 0.4 * k, &b2, &gb);
    ck_assert_msg(fabs(a2 - b2) <= 1e-9 * fabs(a2) + 1e-12, "psi1 %g: psi2 %.15g (displacement) and %.15g (incremental)", 0.4 * k, (double)a2, (double)b2);
  }
}
END_TEST

/* A spinning sphere dropped normally (Chung & Ooi's test 6, spin fast enough
 * to slide throughout): it leaves with vt = mu (1 + e) vn along the slip's
 * friction and its spin less (5/2) mu (1 + e) vn / R, whatever the model. */
START_TEST(test_spinning_sphere)
{
  for (int m = 0; m < 2; m++) {
    ContactModel md;
    StepControl  ctl;
    ImpactResult r;
    PetscReal    R = 2.5e-3, vn = 5.0, w0 = 4000.0, mu = 0.092, J = mu * 2.0 * vn;
    ImpactSetup  set = {.target = IMPACT_TARGET_WALL, .v0 = vn, .radius = R, .phase = 0.5, .max_steps = 10000000, .type = 1, .type2 = 2, .omega = {0, w0, 0}};
    ck_assert(!PetscOptionsClear(NULL));
    ck_assert(!PetscOptionsInsertString(NULL, m ? ALUMINA "-contact_tangential_model incremental" : ALUMINA));
    ck_assert(!ContactModelSetFromOptions(PETSC_COMM_SELF, &md));
    ck_assert(!StepControlSetFromOptions(PETSC_COMM_SELF, &ctl));
    ck_assert(!ImpactRun(&md, &ctl, &set, &r));
    ck_assert_rel(fabs(r.vt_out), J, 2e-3);
    ck_assert_rel(fabs(r.omega_out), w0 - 2.5 * J / R, 2e-3);
    ck_assert_rel(-r.vn_out, vn, 1e-3);
    ck_assert(!ContactModelDestroy(&md));
  }
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("tangential");
  TCase *tc = tcase_create("tangential");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_incremental_no_energy_gain);
  tcase_add_test(tc, test_gross_sliding);
  tcase_add_test(tc, test_constant_stiffness_same);
  tcase_add_test(tc, test_spinning_sphere);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
