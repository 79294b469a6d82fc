/* Normal laws: U' = dU/dd and U'' = dU'/dd, monotonicity, the d -> 0 limits,
 * the energy inverse, the stiffness maximum and the elastic duration. */
#include "check_main.h"
#include "contact/normallaw.h"

#define NLAWS 6
static NormalLaw       laws[NLAWS];
static const char     *names[NLAWS]  = {"linear", "hertz", "power2.5", "poly23", "hertz+linear", "table"};
static const PetscReal dscale[NLAWS] = {1e-5, 3e-6, 5e-7, 5e-6, 2e-6, 2e-6};

static void setup(void)
{
  PetscReal k1 = 1e5, p1 = 1.0, kh = 1e9, ph = 1.5, k25 = 1e17, p25 = 2.5;
  PetscReal kp[2] = {1e5, 3e10}, pp[2] = {1.0, 2.0}, kq[2] = {1e9, 1e5}, pq[2] = {1.5, 1.0};
  PetscReal td[41], tf[41];
  ck_assert_int_eq(NormalLawCreatePoly(NORMAL_LAW_LINEAR, 1, &k1, &p1, &laws[0]), 0);
  ck_assert_int_eq(NormalLawCreatePoly(NORMAL_LAW_HERTZ, 1, &kh, &ph, &laws[1]), 0);
  ck_assert_int_eq(NormalLawCreatePoly(NORMAL_LAW_POWER, 1, &k25, &p25, &laws[2]), 0);
  ck_assert_int_eq(NormalLawCreatePoly(NORMAL_LAW_POLY, 2, kp, pp, &laws[3]), 0);
  ck_assert_int_eq(NormalLawCreatePoly(NORMAL_LAW_POLY, 2, kq, pq, &laws[4]), 0);
  for (int i = 0; i <= 40; i++) { /* Hertz sampled on 0..4 um */
    td[i] = 1e-7 * i;
    tf[i] = 1e9 * pow(td[i], 1.5);
  }
  ck_assert_int_eq(NormalLawCreateTable(41, td, tf, &laws[5]), 0);
}

static void teardown(void)
{
  for (int i = 0; i < NLAWS; i++) NormalLawDestroy(&laws[i]);
}

START_TEST(test_derivatives)
{
  for (int l = 0; l < NLAWS; l++) {
    for (int j = 1; j <= 20; j++) {
      PetscReal d = dscale[l] * j / 10.0, h = 1e-5 * d, Up, Fp, Kp, Um, Fm, Km, U, F, K;
      NormalLawEval(&laws[l], 1.0, d, &U, &F, &K);
      NormalLawEval(&laws[l], 1.0, d + h, &Up, &Fp, &Kp);
      NormalLawEval(&laws[l], 1.0, d - h, &Um, &Fm, &Km);
      ck_assert_msg(fabs((Up - Um) / (2 * h) - F) <= 1e-6 * F, "%s: U' != F at d = %g", names[l], d);
      if (l == 5 && fabs(fmod(d, 1e-7)) < 2 * h) continue; /* U'' jumps at table knots */
      ck_assert_msg(fabs((Fp - Fm) / (2 * h) - K) <= 1e-5 * K + 1e-9, "%s: U'' != dF/dd at d = %g (%g vs %g)", names[l],
                    d, (Fp - Fm) / (2 * h), K);
      ck_assert_msg(F > 0 && U > 0, "%s: not positive at %g", names[l], d);
    }
  }
}
END_TEST

START_TEST(test_monotone_and_limits)
{
  for (int l = 0; l < NLAWS; l++) {
    PetscReal Fprev = 0.0, U, F, K;
    NormalLawEval(&laws[l], 1.0, 0.0, &U, &F, &K);
    ck_assert(U == 0.0 && F == 0.0);
    for (int j = 1; j <= 400; j++) {
      PetscReal d = dscale[l] * j / 100.0;
      NormalLawEval(&laws[l], 1.0, d, &U, &F, &K);
      ck_assert_msg(F > Fprev, "%s: force not increasing at %g", names[l], d);
      Fprev = F;
      ck_assert_rel(NormalLawForceOverSqrtU(&laws[l], 1.0, d), F / sqrt(U), 1e-12);
    }
    /* no 0/0: the limit at d = 0 is finite and continuous */
    PetscReal lim  = NormalLawForceOverSqrtU(&laws[l], 1.0, 0.0),
              near = NormalLawForceOverSqrtU(&laws[l], 1.0, 1e-6 * dscale[l]);
    ck_assert(isfinite(lim));
    /* Hertz approaches its limit as d^(1/4): (1e-6)^(1/4) = 0.03 of the typical value */
    ck_assert_msg(fabs(near - lim) <= 0.05 * NormalLawForceOverSqrtU(&laws[l], 1.0, dscale[l]),
                  "%s: F/sqrt(U) discontinuous at 0 (%g vs %g)", names[l], lim, near);
  }
  ck_assert_rel(NormalLawForceOverSqrtU(&laws[0], 1.0, 0.0), sqrt(2e5), 1e-14);
  ck_assert(NormalLawForceOverSqrtU(&laws[1], 1.0, 0.0) == 0.0);
}
END_TEST

START_TEST(test_inverse)
{
  for (int l = 0; l < NLAWS; l++)
    for (int j = 1; j <= 30; j++) {
      PetscReal d = dscale[l] * j / 10.0, U, F, K;
      NormalLawEval(&laws[l], 1.0, d, &U, &F, &K);
      ck_assert_rel(NormalLawOverlapAtEnergy(&laws[l], 1.0, U), d, 1e-12);
    }
  /* a scale s multiplies the force: the overlap at energy E is that of E/s */
  ck_assert_rel(NormalLawOverlapAtEnergy(&laws[1], 7.0, 7e-6), NormalLawOverlapAtEnergy(&laws[1], 1.0, 1e-6), 1e-13);
}
END_TEST

START_TEST(test_max_stiffness)
{
  for (int l = 0; l < NLAWS; l++) {
    PetscReal dmax = 1.7 * dscale[l], kmax = 0.0, U, F, K;
    for (int j = 0; j <= 20000; j++) {
      NormalLawEval(&laws[l], 1.0, dmax * j / 20000.0, &U, &F, &K);
      kmax = PetscMax(kmax, K);
    }
    ck_assert_msg(NormalLawMaxStiffness(&laws[l], 1.0, dmax) >= kmax * (1 - 1e-9), "%s: max stiffness too small",
                  names[l]);
    ck_assert_rel(NormalLawMaxStiffness(&laws[l], 1.0, dmax), kmax, 1e-4);
  }
}
END_TEST

/* Durations against the oracle (shared/refs/cases.json): elastic_hertz_v1 and
 * elastic_poly23_v1, m = 1e-5 kg, v0 = 1 m/s. */
START_TEST(test_duration)
{
  PetscReal E = 0.5 * 1e-5 * 1.0;
  ck_assert_rel(NormalLawElasticDuration(&laws[1], 1.0, 1e-5, E), 8.083414963983182e-06, 1e-10);
  ck_assert_rel(NormalLawOverlapAtEnergy(&laws[1], 1.0, E), 2.7464013582582063e-06, 1e-10);
  ck_assert_rel(NormalLawElasticDuration(&laws[3], 1.0, 1e-5, E), 1.9266043977907428e-05, 1e-6);
  ck_assert_rel(NormalLawOverlapAtEnergy(&laws[3], 1.0, E), 6.572981061383761e-06, 1e-10);
  ck_assert_rel(NormalLawElasticDuration(&laws[0], 1.0, 1e-5, E), HDEM_PI * sqrt(1e-5 / 1e5), 1e-12);
  /* the Hertz table agrees with Hertz itself */
  ck_assert_rel(NormalLawElasticDuration(&laws[5], 1.0, 1e-5, E), 8.083414963983182e-06, 2e-3);
}
END_TEST

START_TEST(test_bad_tables)
{
  NormalLaw law;
  PetscReal d1[3] = {0, 1e-6, 1e-6}, f1[3] = {0, 1, 2}, d2[3] = {0, 1e-6, 2e-6}, f2[3] = {0, 1, 1},
            d3[2] = {1e-7, 1e-6}, f3[2] = {0, 1};
  PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
  ck_assert_int_ne(NormalLawCreateTable(3, d1, f1, &law), 0);
  ck_assert_int_ne(NormalLawCreateTable(3, d2, f2, &law), 0);
  ck_assert_int_ne(NormalLawCreateTable(2, d3, f3, &law), 0);
  PetscPopErrorHandler();
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("normallaw");
  TCase *tc = tcase_create("laws");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_derivatives);
  tcase_add_test(tc, test_monotone_and_limits);
  tcase_add_test(tc, test_inverse);
  tcase_add_test(tc, test_max_stiffness);
  tcase_add_test(tc, test_duration);
  tcase_add_test(tc, test_bad_tables);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
