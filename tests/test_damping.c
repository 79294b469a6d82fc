/* Damping calibrations: zeta(e) for both separation criteria, the baselines'
 * coefficients against the oracle, the constant damper's exact c_hat. */
#include "check_main.h"
#include "contact/damping.h"

START_TEST(test_zeta_roundtrip)
{
  for (int c = 0; c < 2; c++)
    for (int i = 1; i <= 100; i++) {
      PetscReal e = i / 100.0, z = DampingZetaFromE(e, (SeparationType)c);
      ck_assert_rel(DampingEFromZeta(z, (SeparationType)c), e, 1e-12);
    }
  for (PetscReal e = 1e-8; e < 1e-2; e *= 3.0)
    ck_assert_rel(DampingEFromZeta(DampingZetaFromE(e, SEPARATION_FORCE), SEPARATION_FORCE), e, 1e-10);
  ck_assert(DampingZetaFromE(1.0, SEPARATION_FORCE) == 0.0);
}
END_TEST

/* shared/refs/README.md: for e = 0.5, zeta is 0.2155 (overlap) and 0.2553 (force). */
START_TEST(test_zeta_values)
{
  ck_assert_rel(DampingZetaFromE(0.5, SEPARATION_OVERLAP), 0.2154537619662468, 1e-14);
  ck_assert(fabs(DampingZetaFromE(0.5, SEPARATION_FORCE) - 0.2553) < 1e-4);
  ck_assert_rel(DampingEFromZeta(1.0, SEPARATION_FORCE), exp(-2.0), 1e-14);
  /* the two branches meet smoothly at zeta = 1 */
  ck_assert_rel(DampingEFromZeta(1.0 - 1e-5, SEPARATION_FORCE), DampingEFromZeta(1.0 + 1e-5, SEPARATION_FORCE), 1e-4);
  /* cases.json feng_force_hertz_v1_e0.5: the unclipped zeta, separated at zero force, gives 0.550283 */
  ck_assert_rel(DampingEFromZeta(DampingZetaFromE(0.5, SEPARATION_OVERLAP), SEPARATION_FORCE), 0.5502831, 1e-6);
}
END_TEST

START_TEST(test_baseline_coefficients)
{
  /* cases.json: alpha of tsuji_marshall_hertz_e0.3/e0.9; D of the Hunt-Crossley family at v0 = 1 */
  ck_assert_rel(DampingAlphaMarshall(0.3), 0.8003718069996741, 1e-12);
  ck_assert_rel(DampingAlphaMarshall(0.9), 0.07480925824418329, 1e-12);
  ck_assert_rel(DampingHuntCrossleyFactor(DAMPING_HUNT_CROSSLEY, 0.5), 0.75, 1e-15);
  ck_assert_rel(DampingHuntCrossleyFactor(DAMPING_LANKARANI_NIKRAVESH, 0.5), 0.5625, 1e-15);
  ck_assert_rel(DampingHuntCrossleyFactor(DAMPING_FLORES, 0.5), 1.6, 1e-15);
  ck_assert_rel(DampingHuntCrossleyFactor(DAMPING_HU_GUO, 0.5), 1.5, 1e-15);
  ck_assert_rel(DampingHuntCrossleyFactor(DAMPING_GONTHIER, 0.5), 1.5, 1e-15);
  ck_assert_rel(DampingHuntCrossleyFactor(DAMPING_FLORES, 0.9) / 10.0, 0.017777777777777774, 1e-12);
}
END_TEST

/* shared/refs/cases.json poursina_nikravesh: exact c_hat(e, n). */
START_TEST(test_constant_damper)
{
  static const PetscReal tab[][3] = {{1.0, 0.1, 2.4863757020439},     {1.0, 0.5, 0.5105512753054737},
                                     {1.0, 0.9, 0.06853040825880134}, {1.5, 0.1, 2.1196100990484834},
                                     {1.5, 0.5, 0.49390829253797974}, {1.5, 0.9, 0.06730459610838173},
                                     {2.0, 0.5, 0.4850688046966636},  {2.0, 0.9, 0.06725858287402227}};
  for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
    PetscReal c, e;
    ck_assert_int_eq(DampingConstantDamperCHat(tab[i][1], tab[i][0], &c), 0);
    ck_assert_rel(c, tab[i][2], 1e-7);
    ck_assert_int_eq(DampingConstantDamperE(c, tab[i][0], &e), 0);
    ck_assert_rel(e, tab[i][1], 1e-9);
  }
  /* lindamp_hertz_chat2_force: c_hat = 2 gives e = 0.109963 */
  {
    PetscReal e;
    ck_assert_int_eq(DampingConstantDamperE(2.0, 1.5, &e), 0);
    ck_assert_rel(e, 0.10996334178684007, 1e-7);
  }
}
END_TEST

/* For power laws the exact Tsuji law is the harmonic law; for the linear law
 * the harmonic law is the classic dashpot 2 zeta sqrt(m k). */
START_TEST(test_coefficients_agree)
{
  NormalLaw lin, hz;
  Damping   h = {0}, t = {0}, l = {0};
  PetscReal k = 1e5, p1 = 1.0, kh = 1e9, ph = 1.5, m = 1e-5;
  ck_assert_int_eq(NormalLawCreatePoly(NORMAL_LAW_LINEAR, 1, &k, &p1, &lin), 0);
  ck_assert_int_eq(NormalLawCreatePoly(NORMAL_LAW_HERTZ, 1, &kh, &ph, &hz), 0);
  for (int c = 0; c < 2; c++) {
    h.type = DAMPING_HARMONIC, h.separation = (SeparationType)c;
    t.type = DAMPING_TSUJI, t.separation = (SeparationType)c;
    ck_assert_int_eq(DampingSetUp(&h, &hz, 0.4, 0, PETSC_FALSE), 0);
    ck_assert_int_eq(DampingSetUp(&t, &hz, 0.4, 0, PETSC_FALSE), 0);
    for (int j = 1; j < 10; j++)
      ck_assert_rel(DampingCoefficient(&t, &hz, 2.0, m, 1.0, j * 1e-7),
                    DampingCoefficient(&h, &hz, 2.0, m, 1.0, j * 1e-7), 1e-12);
  }
  h.separation = l.separation = SEPARATION_OVERLAP;
  l.type                      = DAMPING_LINEAR_DASHPOT;
  ck_assert_int_eq(DampingSetUp(&h, &lin, 0.3, 0, PETSC_FALSE), 0);
  ck_assert_int_eq(DampingSetUp(&l, &lin, 0.3, 0, PETSC_FALSE), 0);
  ck_assert_rel(DampingCoefficient(&h, &lin, 1.0, m, 1.0, 1e-6), 2.0 * h.zeta * sqrt(m * k), 1e-14);
  ck_assert_rel(DampingCoefficient(&l, &lin, 1.0, m, 1.0, 1e-6), 2.0 * h.zeta * sqrt(m * k), 1e-14);
  /* harmonic C is finite and non-zero at d = 0 for the linear law, zero for Hertz */
  ck_assert(DampingCoefficient(&h, &lin, 1.0, m, 1.0, 0.0) > 0.0);
  ck_assert(DampingCoefficient(&h, &hz, 1.0, m, 1.0, 0.0) == 0.0);
  NormalLawDestroy(&lin);
  NormalLawDestroy(&hz);
}
END_TEST

START_TEST(test_incompatible)
{
  NormalLaw poly;
  Damping   d    = {0};
  PetscReal k[2] = {1e5, 1e9}, p[2] = {1.0, 1.5};
  ck_assert_int_eq(NormalLawCreatePoly(NORMAL_LAW_POLY, 2, k, p, &poly), 0);
  PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
  d.type = DAMPING_TSUJI;
  ck_assert_int_ne(DampingSetUp(&d, &poly, 0.5, 0, PETSC_FALSE), 0);
  d.type = DAMPING_LINEAR_DASHPOT;
  ck_assert_int_ne(DampingSetUp(&d, &poly, 0.5, 0, PETSC_FALSE), 0);
  d.type = DAMPING_CONSTANT_DAMPER, d.separation = SEPARATION_FORCE;
  ck_assert_int_ne(DampingSetUp(&d, &poly, 0.5, 0, PETSC_FALSE), 0);
  PetscPopErrorHandler();
  NormalLawDestroy(&poly);
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("damping");
  TCase *tc = tcase_create("calibration");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_zeta_roundtrip);
  tcase_add_test(tc, test_zeta_values);
  tcase_add_test(tc, test_baseline_coefficients);
  tcase_add_test(tc, test_constant_damper);
  tcase_add_test(tc, test_coefficients_agree);
  tcase_add_test(tc, test_incompatible);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
