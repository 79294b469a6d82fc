/* Counter-based random numbers: Philox known answers, statistics, keying
 * (determinism, order independence) and the radius distributions. */
#include <string.h>
#include "check_main.h"
#include "particles/random.h"

#define NDRAW 100000

/* Random123 kat_vectors, philox4x32 with 10 rounds */
START_TEST(test_philox_known_answers)
{
  static const uint32_t ctr[3][4] = {{0, 0, 0, 0},
                                     {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
                                     {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}};
  static const uint32_t key[3][2] = {{0, 0}, {0xffffffffu, 0xffffffffu}, {0xa4093822u, 0x299f31d0u}};
  static const uint32_t ref[3][4] = {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
                                     {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
                                     {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
  for (int t = 0; t < 3; t++) {
    uint32_t out[4];
    RandomPhilox4x32(ctr[t], key[t], out);
    for (int j = 0; j < 4; j++)
      ck_assert_msg(out[j] == ref[t][j], "vector %d word %d: %08x, expected %08x", t, j, out[j], ref[t][j]);
  }
}
END_TEST

START_TEST(test_uniform_statistics)
{
  double   s = 0, s2 = 0, lo = 1, hi = 0;
  PetscInt bin[10] = {0};
  for (PetscInt i = 0; i < NDRAW; i++) {
    PetscReal u = RandomUniform(42, i, 3, 0);
    ck_assert(u >= 0.0 && u < 1.0);
    s += u, s2 += (u - 0.5) * (u - 0.5);
    lo = PetscMin(lo, u), hi = PetscMax(hi, u);
    bin[(int)(10 * u)]++;
  }
  /* 5 standard errors: mean sd sqrt(1/12/N), variance sd sqrt((1/80 - 1/144)/N) */
  ck_assert(fabs(s / NDRAW - 0.5) < 5 * sqrt(1.0 / 12 / NDRAW));
  ck_assert(fabs(s2 / NDRAW - 1.0 / 12) < 5 * sqrt((1.0 / 80 - 1.0 / 144) / NDRAW));
  ck_assert(lo < 1e-3 && hi > 1 - 1e-3);
  for (int b = 0; b < 10; b++)
    ck_assert_msg(fabs(bin[b] - 0.1 * NDRAW) < 5 * sqrt(0.09 * NDRAW), "bin %d holds %d", b, (int)bin[b]);
  /* the index k also runs a sequence for one particle */
  s = 0;
  for (PetscInt k = 0; k < NDRAW; k++) s += RandomUniform(7, 123456789012345LL, 0, k);
  ck_assert(fabs(s / NDRAW - 0.5) < 5 * sqrt(1.0 / 12 / NDRAW));
}
END_TEST

START_TEST(test_determinism)
{
  PetscReal a = RandomUniform(1, 77, 2, 5), b = RandomUniform(1, 77, 2, 5);
  PetscReal n = RandomNormal(1, 77, 2, 5), m = RandomNormal(1, 77, 2, 5);
  ck_assert(memcmp(&a, &b, sizeof(a)) == 0);
  ck_assert(memcmp(&n, &m, sizeof(n)) == 0);
  ck_assert(RandomUniform(2, 77, 2, 5) != a);
  ck_assert(RandomUniform(1, 78, 2, 5) != a);
  ck_assert(RandomUniform(1, 77, 3, 5) != a);
  ck_assert(RandomUniform(1, 77, 2, 6) != a);
  /* the high half of a 64-bit id and seed is part of the key */
  ck_assert(RandomUniform(1, 77 + (1LL << 40), 2, 5) != a);
  ck_assert(RandomUniform(1 + (1LL << 40), 77, 2, 5) != a);
}
END_TEST

START_TEST(test_order_independence)
{
  enum {
    N = 1000
  };
  PetscReal fwd[N], rev[N];
  for (PetscInt i = 0; i < N; i++) fwd[i] = RandomNormal(9, 1000 + i, 1, i % 3);
  for (PetscInt i = N - 1; i >= 0; i--) rev[i] = RandomNormal(9, 1000 + i, 1, i % 3);
  ck_assert(memcmp(fwd, rev, sizeof(fwd)) == 0);
  for (PetscInt i = 1; i < N; i++) ck_assert(fwd[i] != fwd[i - 1]);
}
END_TEST

START_TEST(test_normal_statistics)
{
  double s = 0, s2 = 0, s4 = 0;
  for (PetscInt i = 0; i < NDRAW; i++) {
    PetscReal z = RandomNormal(5, i, 4, 0);
    ck_assert(isfinite(z));
    s += z, s2 += z * z, s4 += z * z * z * z;
  }
  ck_assert(fabs(s / NDRAW) < 5 / sqrt(NDRAW));
  ck_assert(fabs(s2 / NDRAW - 1) < 5 * sqrt(2.0 / NDRAW));
  ck_assert(fabs(s4 / NDRAW - 3) < 5 * sqrt(96.0 / NDRAW));
}
END_TEST

static PetscReal Phi(PetscReal x)
{
  return 0.5 * erfc(-x / sqrt(2.0));
}

/* Mean and standard deviation of NDRAW draws, each checked inside [lo, hi]. */
static void DrawMoments(const RadiusDistribution *d, PetscReal lo, PetscReal hi, double *mean, double *sd)
{
  double s = 0, s2 = 0;
  ck_assert_int_eq(RadiusDistributionCheck(PETSC_COMM_SELF, "-insert", d), 0);
  for (PetscInt i = 0; i < NDRAW; i++) {
    PetscReal r;
    ck_assert_int_eq(RadiusDistributionDraw(d, 11, i, &r), 0);
    ck_assert_msg(r >= lo && r <= hi, "draw %g outside [%g, %g]", r, lo, hi);
    s += r, s2 += r * r;
  }
  *mean = s / NDRAW;
  *sd   = sqrt(s2 / NDRAW - *mean * *mean);
}

START_TEST(test_radius_uniform)
{
  RadiusDistribution d = {.type = RADIUS_UNIFORM, .min = 1e-3, .max = 2e-3};
  double             mean, sd;
  DrawMoments(&d, 1e-3, 2e-3, &mean, &sd);
  ck_assert(fabs(mean - 1.5e-3) < 5 * 1e-3 / sqrt(12.0 * NDRAW));
  ck_assert_rel(sd, 1e-3 / sqrt(12.0), 0.01);
  ck_assert(RadiusDistributionMax(&d) == 2e-3);
  /* min = max: monodisperse */
  d.max = d.min;
  DrawMoments(&d, 1e-3, 1e-3, &mean, &sd);
}
END_TEST

START_TEST(test_radius_normal)
{
  /* truncated at -0.5 and +2.5 sigma: mean mu + sigma (phi(a) - phi(b)) / (Phi(b) - Phi(a)) */
  RadiusDistribution d = {.type = RADIUS_NORMAL, .min = 0.9e-3, .max = 1.5e-3, .mean = 1e-3, .sigma = 2e-4};
  double a = -0.5, b = 2.5, phia = exp(-a * a / 2) / sqrt(2 * HDEM_PI), phib = exp(-b * b / 2) / sqrt(2 * HDEM_PI);
  double expect = 1e-3 + 2e-4 * (phia - phib) / (Phi(b) - Phi(a)), mean, sd;
  DrawMoments(&d, 0.9e-3, 1.5e-3, &mean, &sd);
  ck_assert(fabs(mean - expect) < 5 * sd / sqrt(NDRAW));
  ck_assert(RadiusDistributionMax(&d) == 1.5e-3);
}
END_TEST

START_TEST(test_radius_lognormal)
{
  /* truncated lognormal: E r = median e^{s^2/2} (Phi(b - s) - Phi(a - s)) / (Phi(b) - Phi(a)) */
  RadiusDistribution d = {.type = RADIUS_LOGNORMAL, .min = 0.7e-3, .max = 2e-3, .mean = 1e-3, .sigma = 0.3};
  double             s = 0.3, a = log(0.7) / s, b = log(2.0) / s;
  double             expect = 1e-3 * exp(s * s / 2) * (Phi(b - s) - Phi(a - s)) / (Phi(b) - Phi(a)), mean, sd;
  DrawMoments(&d, 0.7e-3, 2e-3, &mean, &sd);
  ck_assert(fabs(mean - expect) < 5 * sd / sqrt(NDRAW));
  /* the median is `mean` (truncation here is not symmetric in ln r, so check the untruncated case) */
  {
    RadiusDistribution w     = {.type = RADIUS_LOGNORMAL, .min = 1e-6, .max = 1, .mean = 1e-3, .sigma = 0.3};
    PetscInt           below = 0;
    for (PetscInt i = 0; i < NDRAW; i++) {
      PetscReal r;
      ck_assert_int_eq(RadiusDistributionDraw(&w, 3, i, &r), 0);
      below += r < 1e-3;
    }
    ck_assert(fabs(below - 0.5 * NDRAW) < 5 * sqrt(0.25 * NDRAW));
  }
}
END_TEST

START_TEST(test_radius_discrete)
{
  RadiusDistribution d      = {.type      = RADIUS_DISCRETE,
                               .ndiscrete = 4,
                               .values    = {1e-3, 2e-3, 3e-3, 9e-3},
                               .weights   = {1, 0, 3, 0}};
  PetscInt           cnt[4] = {0};
  ck_assert_int_eq(RadiusDistributionCheck(PETSC_COMM_SELF, "-insert", &d), 0);
  for (PetscInt i = 0; i < NDRAW; i++) {
    PetscReal r;
    int       j;
    ck_assert_int_eq(RadiusDistributionDraw(&d, 21, i, &r), 0);
    for (j = 0; j < 4 && r != d.values[j]; j++) { }
    ck_assert(j < 4);
    cnt[j]++;
  }
  ck_assert(cnt[1] == 0 && cnt[3] == 0);
  ck_assert(fabs(cnt[0] - 0.25 * NDRAW) < 5 * sqrt(0.25 * 0.75 * NDRAW));
  ck_assert(fabs(cnt[2] - 0.75 * NDRAW) < 5 * sqrt(0.25 * 0.75 * NDRAW));
  /* the zero-weight 9e-3 is never drawn */
  ck_assert(RadiusDistributionMax(&d) == 3e-3);
}
END_TEST

START_TEST(test_radius_errors)
{
  const RadiusDistribution bad[] = {
    {.type = RADIUS_UNIFORM, .min = 0, .max = 1},
    {.type = RADIUS_UNIFORM, .min = 2, .max = 1},
    {.type = RADIUS_UNIFORM, .min = 1, .max = INFINITY},
    {.type = RADIUS_NORMAL, .min = 0.5, .max = 1.5, .mean = 1, .sigma = 0},
    {.type = RADIUS_NORMAL, .min = 0.5, .max = 1.5, .mean = -1, .sigma = 0.1},
    {.type = RADIUS_NORMAL, .min = 0, .max = 1.5, .mean = 1, .sigma = 0.1},
    {.type = RADIUS_NORMAL, .min = 1.5, .max = 1.5, .mean = 1, .sigma = 0.1},
    {.type = RADIUS_NORMAL, .min = 2, .max = 3, .mean = 1, .sigma = 0.1}, /* window 10 sigma off */
    {.type = RADIUS_LOGNORMAL, .min = 0.5, .max = 2, .mean = 0, .sigma = 0.1},
    {.type = RADIUS_LOGNORMAL, .min = 0.5, .max = 2, .mean = 1, .sigma = NAN},
    {.type = RADIUS_LOGNORMAL, .min = 3, .max = 4, .mean = 1, .sigma = 0.1},
    {.type = RADIUS_DISCRETE, .ndiscrete = 0},
    {.type = RADIUS_DISCRETE, .ndiscrete = 17},
    {.type = RADIUS_DISCRETE, .ndiscrete = 2, .values = {1, 0}, .weights = {1, 1}},
    {.type = RADIUS_DISCRETE, .ndiscrete = 2, .values = {1, 2}, .weights = {1, -1}},
    {.type = RADIUS_DISCRETE, .ndiscrete = 2, .values = {1, 2}, .weights = {0, 0}},
    {.type = (RadiusDistributionType)9, .min = 1, .max = 2},
  };
  PetscReal r;
  PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    ck_assert_msg(RadiusDistributionCheck(PETSC_COMM_SELF, "-insert", &bad[i]) != 0, "bad case %d accepted", (int)i);
  /* drawing from an unchecked, hopeless window fails instead of looping */
  ck_assert(RadiusDistributionDraw(&bad[7], 1, 1, &r) != 0);
  PetscPopErrorHandler();
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("random");
  TCase *tc = tcase_create("random");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_philox_known_answers);
  tcase_add_test(tc, test_uniform_statistics);
  tcase_add_test(tc, test_determinism);
  tcase_add_test(tc, test_order_independence);
  tcase_add_test(tc, test_normal_statistics);
  tcase_add_test(tc, test_radius_uniform);
  tcase_add_test(tc, test_radius_normal);
  tcase_add_test(tc, test_radius_lognormal);
  tcase_add_test(tc, test_radius_discrete);
  tcase_add_test(tc, test_radius_errors);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
