/* Fixed-point sums (decomp/fixedsum.h): known values and the window's
 * edges, rounding to the resolution (ties to even), refused addends, any
 * order of addition giving the same limbs, the total against a correctly
 * rounded sum of the rounded addends (decomp/exactsum.h), cancellation to
 * zero, and partial sums routed over ranks (FixedSumRoute) adding up to one
 * rank's limbs. */
#include <math.h>
#include <string.h>
#include "check_main.h"
#include "decomp/fixedsum.h"
#include "decomp/exactsum.h"

static uint64_t SplitMix(uint64_t *st)
{
  uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
  z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z          = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* A random double of either sign with exponent in [lo, hi). */
static double RandomValue(uint64_t *st, int lo, int hi)
{
  double m = (double)(SplitMix(st) >> 11) * 0x1p-53;
  int    e = lo + (int)(SplitMix(st) % (uint64_t)(hi - lo));
  return (SplitMix(st) & 1 ? -1.0 : 1.0) * ldexp(0.5 + 0.5 * m, e);
}

static FixedSum From(double x)
{
  FixedSum q;
  ck_assert(FixedSumFrom(x, &q));
  return q;
}

START_TEST(test_known_values)
{
  FixedSum q = From(1.0);
  EXPECT(q.l[0] == 0 && q.l[1] == (uint64_t)1 << 36 && q.l[2] == 0, "1.0: limbs %llx %llx %llx",
         (unsigned long long)q.l[0], (unsigned long long)q.l[1], (unsigned long long)q.l[2]);
  EXPECT(FixedSumValue(&q) == 1.0, "1.0 back: %a", FixedSumValue(&q));
  q = From(0x1p-100);
  EXPECT(q.l[0] == 1 && q.l[1] == 0 && q.l[2] == 0, "the resolution is one unit");
  q = From(0x1p-101); /* half a unit: ties to even, 0 */
  EXPECT(FixedSumIsZero(&q), "half a unit rounds to 0");
  q = From(3 * 0x1p-101); /* 1.5 units: 2 */
  EXPECT(q.l[0] == 2, "1.5 units round to 2: %llu", (unsigned long long)q.l[0]);
  q = From(5 * 0x1p-102); /* 1.25 units: 1 */
  EXPECT(q.l[0] == 1, "1.25 units round to 1");
  q = From(-0x1p-100);
  EXPECT(q.l[0] == ~(uint64_t)0 && q.l[1] == ~(uint64_t)0 && q.l[2] == ~(uint64_t)0, "-1 unit: all ones");
  EXPECT(FixedSumValue(&q) == -0x1p-100, "-1 unit back: %a", FixedSumValue(&q));
  q = From(-2.75e12);
  EXPECT(FixedSumValue(&q) == -2.75e12, "-2.75e12 back: %a", FixedSumValue(&q));
  q = From(0x1p64 - 0x1p11); /* the largest addend */
  EXPECT(FixedSumValue(&q) == 0x1p64 - 0x1p11, "the largest addend back");
  EXPECT(!FixedSumFrom(0x1p64, &q) && FixedSumIsZero(&q), "2^64 refused");
  EXPECT(!FixedSumFrom(-0x1p64, &q), "-2^64 refused");
  EXPECT(!FixedSumFrom(INFINITY, &q) && !FixedSumFrom(NAN, &q), "inf and NaN refused");
  q = From(1.0);
  EXPECT(!FixedSumAdd(&q, NAN) && FixedSumValue(&q) == 1.0, "a refused addend adds nothing");
  ASSERT_ALL_RANKS();
}
END_TEST

START_TEST(test_orders)
{
  enum {
    N = 4000
  };
  double  *v;
  uint64_t st = 7;
  FixedSum ref, s, z;
  ExactSum e;

  ck_assert(PetscMalloc1(N, &v) == 0);
  for (int i = 0; i < N; i++) v[i] = RandomValue(&st, -110, 60);
  memset(&ref, 0, sizeof(ref));
  ExactSumZero(&e);
  for (int i = 0; i < N; i++) {
    FixedSum q = From(v[i]);
    FixedSumAddSum(&ref, &q);
    ExactSumAdd(&e, FixedSumValue(&q)); /* a rounded addend is a double, exactly */
  }
  EXPECT(FixedSumValue(&ref) == ExactSumValue(&e), "total %a, the exact sum of the rounded addends %a",
         FixedSumValue(&ref), ExactSumValue(&e));
  for (int order = 0; order < 20; order++) {
    for (int i = N - 1; i > 0; i--) { /* Fisher-Yates */
      int    j = (int)(SplitMix(&st) % (uint64_t)(i + 1));
      double t = v[i];
      v[i] = v[j], v[j] = t;
    }
    memset(&s, 0, sizeof(s));
    for (int i = 0; i < N; i++) ck_assert(FixedSumAdd(&s, v[i]));
    EXPECT(!memcmp(&s, &ref, sizeof(s)), "order %d: other limbs", order);
  }
  memset(&z, 0, sizeof(z));
  for (int i = 0; i < N; i++) ck_assert(FixedSumAdd(&z, v[i]) && FixedSumAdd(&z, -v[i]));
  EXPECT(FixedSumIsZero(&z) && FixedSumValue(&z) == 0.0, "x and -x cancel to zero");
  ck_assert(PetscFree(v) == 0);
  ASSERT_ALL_RANKS();
}
END_TEST

START_TEST(test_route)
{
  enum {
    N = 1001
  };
  PetscMPIInt rank, size, *dest;
  uint64_t    st = 11;
  double     *v;
  FixedSum    ref, part, tot;
  PetscInt64 *items, *out;
  PetscInt    nout;

  ck_assert(MPI_Comm_rank(PETSC_COMM_WORLD, &rank) == 0 && MPI_Comm_size(PETSC_COMM_WORLD, &size) == 0);
  ck_assert(PetscMalloc1(N, &v) == 0);
  for (int i = 0; i < N; i++) v[i] = RandomValue(&st, -40, 40);
  memset(&ref, 0, sizeof(ref)), memset(&part, 0, sizeof(part));
  for (int i = 0; i < N; i++) {
    ck_assert(FixedSumAdd(&ref, v[i]));
    if ((i * 7) % size == rank) ck_assert(FixedSumAdd(&part, v[i]));
  }
  /* each rank's partial sum, and a marker row to the next rank */
  ck_assert(PetscMalloc2(2 * (FIXEDSUM_LIMBS + 1), &items, 2, &dest) == 0);
  items[0] = rank;
  for (int l = 0; l < FIXEDSUM_LIMBS; l++) items[1 + l] = (PetscInt64)part.l[l];
  dest[0]                   = 0;
  items[FIXEDSUM_LIMBS + 1] = -1 - rank;
  for (int l = 0; l < FIXEDSUM_LIMBS; l++) items[FIXEDSUM_LIMBS + 2 + l] = -(PetscInt64)l;
  dest[1] = (rank + 1) % size;
  ck_assert(FixedSumRoute(PETSC_COMM_WORLD, 2, FIXEDSUM_LIMBS + 1, items, dest, &nout, &out) == 0);
  memset(&tot, 0, sizeof(tot));
  {
    PetscInt parts = 0, markers = 0;
    for (PetscInt k = 0; k < nout; k++) {
      const PetscInt64 *r = out + (FIXEDSUM_LIMBS + 1) * k;
      if (r[0] < 0) {
        EXPECT(r[0] == -1 - (rank + size - 1) % size, "a marker from rank %lld", (long long)(-1 - r[0]));
        markers++;
        continue;
      }
      FixedSum q;
      for (int l = 0; l < FIXEDSUM_LIMBS; l++) q.l[l] = (uint64_t)r[1 + l];
      FixedSumAddSum(&tot, &q);
      parts++;
    }
    EXPECT(markers == 1, "one marker arrived, %d", (int)markers);
    EXPECT(parts == (rank == 0 ? size : 0), "partial sums on rank 0: %d", (int)parts);
  }
  if (rank == 0) EXPECT(!memcmp(&tot, &ref, sizeof(tot)), "the ranks' partial sums add up to one rank's limbs");
  ck_assert(PetscFree(out) == 0);
  ck_assert(PetscFree2(items, dest) == 0);
  ck_assert(PetscFree(v) == 0);
  ASSERT_ALL_RANKS();
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("fixedsum");
  TCase *tc = tcase_create("fixedsum");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_known_values);
  tcase_add_test(tc, test_orders);
  tcase_add_test(tc, test_route);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
