/* Chung & Ooi's benchmarks at the particle-impact level (Granular Matter 13,
 * 643, 2011) through ImpactRun, against their closed forms and the
 * published curves as digitised in Kratos DEMApplication's paper_data
 * (benchmarkN_graphM.dat; a few points of each here):
 *   test 2  elastic normal impacts on a rigid plane: the peak force and
 *           the contact's duration;
 *   test 4  oblique impacts at 3.9 m/s: the tangential restitution, against
 *           the published DEM and Kharaz's experiment;
 *   test 5  elastic oblique impacts at vn 5 m/s: the recoil;
 *   test 6  a spinning sphere dropped on a plane: beta where it slides;
 *   test 8  the same on a much larger, stiffer and denser sphere.
 * What the tangential springs give in the micro-slip range, where the
 * published curves and the springs part, is in docs/deck/tangential.md. */
#include <math.h>
#include <stdio.h>
#include "check_main.h"
#include "contact/contact_options.h"
#include "contact/impact.h"

static ImpactResult Run(const char *opts, const ImpactSetup *set)
{
  ContactModel md;
  StepControl  ctl;
  ImpactResult r;
  ck_assert(!PetscOptionsClear(NULL));
  ck_assert(!PetscOptionsInsertString(NULL, opts));
  ck_assert(!ContactModelSetFromOptions(PETSC_COMM_SELF, &md));
  ck_assert(!StepControlSetFromOptions(PETSC_COMM_SELF, &ctl));
  ck_assert(!ImpactRun(&md, &ctl, set, &r));
  ck_assert(!ContactModelDestroy(&md));
  return r;
}

/* Test 2: a 0.1 m sphere at 0.2 m/s on a rigid plane, no damping: the
 * published peak force (11.357 kN for the Al alloy, 7.233 kN for the Mg
 * alloy) from the largest overlap by Hertz, and the Al alloy's contact
 * ending at 727.5 us. */
START_TEST(test_chung_ooi_2)
{
  const char     *mats[2] = {"-material1_E 7.0e10 -material1_nu 0.3 -material1_density 2699",
                             "-material1_E 4.0e10 -material1_nu 0.35 -material1_density 1800"};
  const PetscReal E[2] = {7.0e10, 4.0e10}, nu[2] = {0.3, 0.35}, Fpub[2] = {11357.0, 7233.0};
  for (int m = 0; m < 2; m++) {
    char         o[512];
    ImpactSetup  set = {.target    = IMPACT_TARGET_WALL,
                        .v0        = 0.2,
                        .radius    = 0.1,
                        .phase     = 0.5,
                        .max_steps = 10000000,
                        .type      = 1,
                        .type2     = 2};
    ImpactResult r;
    PetscReal    Es = E[m] / (1.0 - nu[m] * nu[m]), F;
    snprintf(o, sizeof(o), "%s -material2_E inf -contact_damping none -contact_mu 0 -timestep_steps_per_contact 400",
             mats[m]);
    r = Run(o, &set);
    F = 4.0 / 3.0 * Es * sqrt(0.1) * pow(r.delta_max, 1.5);
    ck_assert_rel(F, Fpub[m], 5e-3);
    if (m == 0) ck_assert_rel(r.t_contact, 727.5e-6, 1e-2);
    ck_assert_rel(r.e, 1.0, 1e-6);
  }
}
END_TEST

/* Chung & Ooi (Granular Matter 13, 643, 2011) test 4: a sphere (R 2.5 mm)
 * strikes a rigid plane at 3.9 m/s at angles from the normal, mu 0.092,
 * e 0.98; the tangential restitution of the centre's velocity against the
 * published DEM curves (as digitised in Kratos DEMApplication's
 * paper_data/benchmark4_graph1.dat), for alumina and aluminium alloy. */
static const PetscReal CO4_ANGLE[13] = {5.17,  10.16, 14.99, 20.06, 25.05, 30.12, 35.03,
                                        40.02, 50.0,  59.98, 69.96, 80.02, 85.01};
static const PetscReal CO4_OXIDE[13] = {0.948, 0.687, 0.624, 0.616, 0.634, 0.684, 0.737,
                                        0.781, 0.845, 0.893, 0.932, 0.966, 0.983};
static const PetscReal CO4_ALLOY[13] = {0.899, 0.671, 0.613, 0.609, 0.633, 0.683, 0.736,
                                        0.780, 0.844, 0.891, 0.932, 0.966, 0.983};
/* the experiment the paper shows beside them (Kharaz, Gorham & Salman, Powder Technol. 120, 281, 2001), same file */
static const PetscReal CO4_EXP[10][2] = {{2.24, 0.797},  {4.22, 0.746},  {9.84, 0.675},  {20.22, 0.599},
                                         {30.36, 0.690}, {39.54, 0.774}, {49.60, 0.848}, {71.07, 0.937},
                                         {79.23, 0.970}, {85.17, 0.979}};

static PetscReal CO4Restitution(const char *mat, const char *model, PetscReal angle)
{
  ImpactResult r;
  char         opts[512];
  ImpactSetup  set = {.target    = IMPACT_TARGET_WALL,
                      .v0        = 3.9,
                      .angle     = angle,
                      .radius    = 2.5e-3,
                      .phase     = 0.5,
                      .max_steps = 10000000,
                      .type      = 1,
                      .type2     = 2};
  snprintf(opts, sizeof(opts),
           "%s -material2_E inf -contact_damping harmonic -contact_e 0.98 -contact_mu 0.092 "
           "-timestep_steps_per_contact 400 -contact_tangential_model %s",
           mat, model);
  r = Run(opts, &set);
  return r.vt_out / r.vt_in;
}

START_TEST(test_chung_ooi_4)
{
  const char *mats[2]   = {"-material1_E 3.8e11 -material1_nu 0.23 -material1_density 4000",
                           "-material1_E 7.0e10 -material1_nu 0.33 -material1_density 2700"};
  const char *models[3] = {"shear_displacement", "incremental", "mindlin_deresiewicz"};
  /* where each model is held to the published DEM: everywhere, and where sliding rules */
  const PetscReal from[3] = {0.0, 15.0, 25.0};
  for (int m = 0; m < 2; m++)
    for (int q = 0; q < 3; q++)
      for (int k = 0; k < 13; k++) {
        PetscReal et = CO4Restitution(mats[m], models[q], CO4_ANGLE[k]), ref = m ? CO4_ALLOY[k] : CO4_OXIDE[k];
        if (CO4_ANGLE[k] >= from[q])
          ck_assert_msg(fabs(et - ref) <= (q == 0 ? 0.012 : 0.015), "%s, %s, %g deg: e_t %.4f, published %.3f",
                        m ? "Al alloy" : "alumina", models[q], CO4_ANGLE[k], et, ref);
      }
  /* Kharaz's experiment (alumina): the Mindlin-Deresiewicz spring within 0.08 at every angle, the
   * shear-displacement spring (the published DEM's) 0.2 above it at 2 and 4 deg */
  for (int k = 0; k < 10; k++) {
    PetscReal md = CO4Restitution(mats[0], models[2], CO4_EXP[k][0]),
              sd = CO4Restitution(mats[0], models[0], CO4_EXP[k][0]);
    ck_assert_msg(fabs(md - CO4_EXP[k][1]) <= 0.08, "alumina, mindlin_deresiewicz, %g deg: e_t %.4f, experiment %.3f",
                  CO4_EXP[k][0], md, CO4_EXP[k][1]);
    if (CO4_EXP[k][0] < 5.0)
      ck_assert_msg(sd - CO4_EXP[k][1] > 0.15, "alumina, shear_displacement, %g deg: e_t %.4f, experiment %.3f",
                    CO4_EXP[k][0], sd, CO4_EXP[k][1]);
  }
}
END_TEST

/* Chung & Ooi test 5: elastic impacts at vn 5 m/s, mu 0.3, at
 * psi1 = vt / (mu vn); the normalised recoil angle psi2 against the
 * published curves (Kratos DEMApplication paper_data/benchmark5_graph1.dat:
 * steel's DEM results and the finite elements', a few points of each).  In
 * gross sliding every model gives the published -1.013 at psi1 6; in the
 * micro-slip range (psi1 2 to 5) the Mindlin-Deresiewicz spring comes
 * within 0.15 of the finite elements, nearer than the others (their
 * published DEM curve, -0.747 at psi1 1 and -2.79 at 4, none of the
 * springs here reproduces: docs/deck/tangential.md). */
/* psi2 of an elastic impact at psi1 (R 2.5 mm: the normalised result does not depend on it) */
static PetscReal CO5Recoil(const char *opts, PetscReal psi1)
{
  const PetscReal mu = 0.3, vn = 5.0, vt = psi1 * mu * vn;
  ImpactSetup     set = {.target    = IMPACT_TARGET_WALL,
                         .v0        = sqrt(vn * vn + vt * vt),
                         .angle     = atan2(vt, vn) * 180.0 / HDEM_PI,
                         .radius    = 2.5e-3,
                         .phase     = 0.5,
                         .max_steps = 10000000,
                         .type      = 1,
                         .type2     = 2};
  ImpactResult    r   = Run(opts, &set);
  return -r.et * psi1;
}

static const PetscReal CO5_FEM[9][2] = {{1.190, -0.213}, {1.553, -0.373}, {1.915, -0.627},
                                        {2.314, -0.947}, {2.785, -1.253}, {3.317, -1.520},
                                        {3.970, -1.720}, {4.755, -1.707}, {5.758, -1.200}};

/* the FEM curve, linear between its points */
static PetscReal CO5Fem(PetscReal x)
{
  for (int k = 0; k + 1 < 9; k++)
    if (x <= CO5_FEM[k + 1][0])
      return CO5_FEM[k][1] +
             (x - CO5_FEM[k][0]) / (CO5_FEM[k + 1][0] - CO5_FEM[k][0]) * (CO5_FEM[k + 1][1] - CO5_FEM[k][1]);
  return CO5_FEM[8][1];
}

START_TEST(test_chung_ooi_5)
{
  const char     *steel     = "-material1_E 2.08e11 -material1_nu 0.3 -material1_density 7850 -material2_E inf "
                              "-contact_damping none -contact_mu 0.3 "
                              "-timestep_steps_per_contact 400 -contact_tangential_model ";
  const char     *models[3] = {"shear_displacement", "incremental", "mindlin_deresiewicz"};
  const PetscReal xs[4]     = {2.0, 3.0, 4.0, 5.0};
  PetscReal       off[3]    = {0, 0, 0};
  for (int q = 0; q < 3; q++) {
    char      o[512];
    PetscReal psi2;
    snprintf(o, sizeof(o), "%s%s", steel, models[q]);
    psi2 = CO5Recoil(o, 6.0); /* sliding: the published DEM's -1.013 */
    ck_assert_msg(fabs(psi2 + 1.013) < 0.04, "%s at psi1 6: psi2 %.4f, published -1.013", models[q], psi2);
    for (int k = 0; k < 4; k++) {
      psi2   = CO5Recoil(o, xs[k]);
      off[q] = PetscMax(off[q], fabs(psi2 - CO5Fem(xs[k])));
    }
  }
  /* micro-slip: Mindlin-Deresiewicz nearest the finite elements */
  ck_assert_msg(off[2] < 0.15, "mindlin_deresiewicz: %.3f off the FEM curve at psi1 2..5", off[2]);
  ck_assert_msg(off[2] < off[0], "mindlin_deresiewicz %.3f, shear_displacement %.3f off the FEM curve at psi1 2..5",
                off[2], off[0]);
}
END_TEST

/* Chung & Ooi test 6: a spinning sphere (R 0.1 m) dropped at vn 0.2 m/s,
 * mu 0.4, e 0.5; beta = -vc' / vc of the contact point against
 * x = 3.5 mu (1 + e) vn / vc (Kratos paper_data/benchmark6_graph1.dat):
 * every model on the published points where the contact slides throughout
 * (x < 1), with and without tangential damping.  Beyond, in micro-slip, the
 * published DEM curves lie below every spring here (docs/deck/tangential.md). */
static const PetscReal CO6_X[10]     = {0.176, 0.551, 0.969, 1.454, 2.093, 2.996, 4.515, 7.819, 11.894, 24.009};
static const PetscReal CO6_ALLOY[10] = {-0.820, -0.445, -0.028, 0.119, 0.058, -0.050, -0.140, -0.208, -0.258, -0.342};
static const PetscReal CO6_NYLON[10] = {-0.824, -0.443, -0.026, 0.119, 0.095, 0.007, -0.120, -0.118, -0.113, -0.116};

static PetscReal CO6Beta(const char *mat, const char *model, const char *extra, PetscReal x)
{
  ImpactResult r;
  char         opts[512];
  PetscReal    vc  = 3.5 * 0.4 * 1.5 * 0.2 / x;
  ImpactSetup  set = {.target    = IMPACT_TARGET_WALL,
                      .v0        = 0.2,
                      .radius    = 0.1,
                      .phase     = 0.5,
                      .max_steps = 10000000,
                      .type      = 1,
                      .type2     = 2,
                      .omega     = {0, vc / 0.1, 0}};
  snprintf(opts, sizeof(opts),
           "%s -material2_E inf -contact_damping harmonic -contact_e 0.5 -contact_mu 0.4 -timestep_steps_per_contact "
           "400 -contact_tangential_model %s %s",
           mat, model, extra);
  r = Run(opts, &set);
  return r.et;
}

START_TEST(test_chung_ooi_6)
{
  const char *mats[2]   = {"-material1_E 7.0e10 -material1_nu 0.33 -material1_density 2700",
                           "-material1_E 2.5e9 -material1_nu 0.4 -material1_density 1000"};
  const char *models[3] = {"shear_displacement", "incremental", "mindlin_deresiewicz"};
  for (int m = 0; m < 2; m++)
    for (int q = 0; q < 3; q++)
      for (int z = 0; z < 2; z++)
        for (int k = 0; k < 3; k++) { /* sliding throughout: beta = x - 1, the published points */
          PetscReal b, ref = m ? CO6_NYLON[k] : CO6_ALLOY[k];
          /* the shear-displacement spring stores its damper's force when it slips */
          if (z && q == 0) continue;
          b = CO6Beta(mats[m], models[q], z ? "-contact_tangential_damping 0.4" : "", CO6_X[k]);
          ck_assert_msg(fabs(b - ref) < 0.04, "%s, %s, tangential damping %d, x %g: beta %.4f, published %.3f",
                        m ? "nylon" : "Al alloy", models[q], z, CO6_X[k], b, ref);
        }
}
END_TEST

/* Test 8: the spinning sphere of test 6 (Al alloy) on a sphere five times
 * larger, a hundred times stiffer and denser: where it slides throughout
 * (x up to 0.77: nearer 1 the end of the contact sticks), beta = x - 1 for two solid spheres whatever their masses, and
 * the published case A points. */
static const PetscReal CO8_X[4] = {0.187, 0.358, 0.551, 0.765};
static const PetscReal CO8_A[4] = {-0.815, -0.626, -0.439, -0.238};

START_TEST(test_chung_ooi_8)
{
  const char *models[3] = {"shear_displacement", "incremental", "mindlin_deresiewicz"};
  for (int q = 0; q < 3; q++)
    for (int k = 0; k < 4; k++) {
      char         o[512];
      PetscReal    vc  = 3.5 * 0.4 * 1.5 * 0.2 / CO8_X[k];
      ImpactSetup  set = {.target    = IMPACT_TARGET_SPHERE,
                          .v0        = 0.2,
                          .radius    = 0.1,
                          .radius2   = 0.5,
                          .density2  = 2.7e5,
                          .phase     = 0.5,
                          .max_steps = 10000000,
                          .type      = 1,
                          .type2     = 2,
                          .omega     = {0, vc / 0.1, 0}};
      ImpactResult r;
      snprintf(o, sizeof(o),
               "-material1_E 7.0e10 -material1_nu 0.33 -material1_density 2700 -material2_E 7.0e12 -material2_nu 0.33 "
               "-material2_density 2.7e5 "
               "-contact_damping harmonic -contact_e 0.5 -contact_mu 0.4 -timestep_steps_per_contact 400 "
               "-contact_tangential_model %s",
               models[q]);
      r = Run(o, &set);
      ck_assert_msg(fabs(r.et - (CO8_X[k] - 1.0)) < 0.02, "%s, x %g: beta %.4f, closed form %.4f", models[q], CO8_X[k],
                    r.et, CO8_X[k] - 1.0);
      ck_assert_msg(fabs(r.et - CO8_A[k]) < 0.03, "%s, x %g: beta %.4f, published %.3f", models[q], CO8_X[k], r.et,
                    CO8_A[k]);
    }
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("chung_ooi");
  TCase *tc = tcase_create("chung_ooi");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_chung_ooi_2);
  tcase_add_test(tc, test_chung_ooi_4);
  tcase_add_test(tc, test_chung_ooi_5);
  tcase_add_test(tc, test_chung_ooi_6);
  tcase_add_test(tc, test_chung_ooi_8);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
