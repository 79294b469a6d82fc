/* Exact sums of doubles (decomp/exactsum.h): sums that rounding ruins,
 * subnormals, DBL_MAX and overflow, ties to even, random data of wide
 * exponent ranges in many orders against independent correctly rounded
 * sums (CPython's math.fsum algorithm; __float128 where it is exact),
 * renormalisation, specials, and the reduction over ranks bitwise equal to
 * one rank's total for several ways of sharing the values out. */
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include "check_main.h"
#include "decomp/exactsum.h"

#define MANT (((uint64_t)1 << 52) - 1)

static uint64_t Bits(double x)
{
  uint64_t u;
  memcpy(&u, &x, sizeof(u));
  return u;
}

static double FromBits(uint64_t u)
{
  double x;
  memcpy(&x, &u, sizeof(x));
  return x;
}

static PetscBool SameBits(double a, double b)
{
  return Bits(a) == Bits(b) ? PETSC_TRUE : PETSC_FALSE;
}

static uint64_t SplitMix(uint64_t *st)
{
  uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
  z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z          = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* A random sign and significand, the biased exponent uniform in [elo, ehi] (0: subnormal). */
static double RandomDouble(uint64_t *st, int elo, int ehi)
{
  uint64_t r = SplitMix(st), e = (uint64_t)elo + r % (uint64_t)(ehi - elo + 1);
  return FromBits((r >> 63) << 63 | e << 52 | (SplitMix(st) & MANT));
}

static void Shuffle(double *v, int n, uint64_t *st)
{
  for (int i = n - 1; i > 0; i--) {
    int    j = (int)(SplitMix(st) % (uint64_t)(i + 1));
    double t = v[i];
    v[i] = v[j], v[j] = t;
  }
}

static double Exact(const double *v, int n)
{
  ExactSum s;
  ExactSumZero(&s);
  for (int i = 0; i < n; i++) ExactSumAdd(&s, v[i]);
  return ExactSumValue(&s);
}

/* CPython's math.fsum (Shewchuk's non-overlapping partials by TwoSum, then
 * the half-way correction): the correctly rounded sum while nothing overflows. */
static double Fsum(const double *v, int n)
{
  double p[256], hi = 0.0, lo = 0.0;
  int    np = 0;

  for (int i = 0; i < n; i++) {
    double x = v[i];
    int    k = 0;
    for (int j = 0; j < np; j++) {
      double y = p[j], h, l;
      if (fabs(x) < fabs(y)) {
        double t = x;
        x = y, y = t;
      }
      h = x + y;
      l = y - (h - x);
      if (l != 0.0) p[k++] = l;
      x = h;
    }
    np = k;
    if (x != 0.0) p[np++] = x;
    ck_assert(np < 256 && isfinite(x));
  }
  if (np > 0) {
    hi = p[--np];
    while (np > 0) {
      double x = hi, y = p[--np];
      hi = x + y;
      lo = y - (hi - x);
      if (lo != 0.0) break;
    }
    if (np > 0 && ((lo < 0.0 && p[np - 1] < 0.0) || (lo > 0.0 && p[np - 1] > 0.0))) {
      double y = lo * 2.0, x = hi + y;
      if (y == x - hi) hi = x;
    }
  }
  return hi;
}

#define CHECK_SUM(expect, ...) \
  do { \
    const double _v[] = {__VA_ARGS__}; \
    double       _g = Exact(_v, (int)(sizeof(_v) / sizeof(_v[0]))), _e = (expect); \
    ck_assert_msg(SameBits(_g, _e), "sum of {%s} = %a, expected %a", #__VA_ARGS__, _g, _e); \
  } while (0)

START_TEST(test_rounding_ruins)
{
  const double tiny = 0x1p-1074;
  double       big[400], v[803];
  uint64_t     st = 1;
  int          n = 0, naive_wrong = 0;
  ExactSum     s;

  CHECK_SUM(1.0, 1e100, 1.0, -1e100);
  CHECK_SUM(1.0, 1e100, 1.0, -1e100, 1e-100, 1e300, -1e-100, -1e300);
  CHECK_SUM(tiny, 1e100, tiny, -1e100);
  CHECK_SUM(-tiny, -DBL_MAX, -tiny, DBL_MAX);
  CHECK_SUM(0.1, 1e308, 0.1, -1e308, 1e-308, -1e-308);
  /* subnormals, and across the boundary to the normal numbers */
  CHECK_SUM(0x1p-1073, tiny, tiny);
  CHECK_SUM(DBL_MIN, DBL_MIN - tiny, tiny);
  CHECK_SUM(DBL_MIN - tiny, DBL_MIN, -tiny);
  CHECK_SUM(3 * tiny, 0x1p-1060, tiny, -0x1p-1060, tiny, tiny);
  CHECK_SUM(0x1.8p-1022, DBL_MIN - tiny, DBL_MIN - tiny, 2 * tiny, -DBL_MIN / 2);
  CHECK_SUM(-0x1p-1074 * 1000, -0x1p-1074 * 999, -tiny);
  /* near DBL_MAX: intermediate totals beyond it, and its last half ulp */
  CHECK_SUM(DBL_MAX, DBL_MAX, DBL_MAX, -DBL_MAX);
  CHECK_SUM(-DBL_MAX, -DBL_MAX, -DBL_MAX, -DBL_MAX, DBL_MAX, DBL_MAX);
  CHECK_SUM(0x1p1023, 0x1p1023, 0x1p1023, 0x1p1023, 0x1p1023, -0x1p1023, -0x1p1023, -0x1p1023);
  CHECK_SUM(DBL_MAX, DBL_MAX, 0x1p969);
  CHECK_SUM(DBL_MAX, DBL_MAX, 0x1p970, -tiny);
  CHECK_SUM(INFINITY, DBL_MAX, 0x1p970); /* a tie, to even: 2^1024 */
  CHECK_SUM(-INFINITY, -DBL_MAX, -0x1p970);
  CHECK_SUM(INFINITY, DBL_MAX, DBL_MAX);
  CHECK_SUM(-INFINITY, -DBL_MAX, -DBL_MAX, -DBL_MAX, DBL_MAX);
  CHECK_SUM(nextafter(DBL_MAX, 0.0), DBL_MAX, DBL_MAX, -DBL_MAX, -0x1p970); /* a tie, to even, below */
  /* totals of 2^1038 and more, which only the last digit holds */
  ExactSumZero(&s);
  for (int i = 0; i < 1 << 15; i++) ExactSumAdd(&s, -0x1p1023);
  ck_assert(ExactSumValue(&s) == -INFINITY);
  for (int i = 0; i < 1 << 16; i++) ExactSumAdd(&s, 0x1p1023);
  ck_assert(ExactSumValue(&s) == INFINITY);
  for (int i = 0; i < 1 << 15; i++) ExactSumAdd(&s, -0x1p1023);
  ck_assert(SameBits(ExactSumValue(&s), 0.0));
  for (int i = 0; i < 1 << 16; i++) ExactSumAdd(&s, DBL_MAX);
  for (int i = 1; i < 1 << 16; i++) ExactSumAdd(&s, -DBL_MAX);
  ck_assert(SameBits(ExactSumValue(&s), DBL_MAX));
  /* zeros: +0.0, also for -0.0 alone (documented) */
  ExactSumZero(&s);
  ck_assert(SameBits(ExactSumValue(&s), 0.0));
  CHECK_SUM(0.0, -0.0);
  CHECK_SUM(0.0, -0.0, -0.0);
  CHECK_SUM(0.0, 1.5, -1.5);
  CHECK_SUM(0.0, DBL_MAX, DBL_MAX, -DBL_MAX, -DBL_MAX);
  /* huge cancellation: pairs +-x of all exponents around a small total, in several orders */
  for (int i = 0; i < 400; i++) big[i] = RandomDouble(&st, 1, 2040);
  for (int i = 0; i < 400; i++) v[n++] = big[i], v[n++] = -big[i];
  v[n++] = 1.0, v[n++] = 0x1p-53, v[n++] = tiny; /* 1 + 2^-52 after a tie's sticky bit */
  for (int t = 0; t < 10; t++) {
    double naive = 0.0;
    Shuffle(v, n, &st);
    ck_assert_msg(SameBits(Exact(v, n), 1.0 + 0x1p-52), "cancelling order %d: %a", t, Exact(v, n));
    for (int i = 0; i < n; i++) naive += v[i];
    naive_wrong += !SameBits(naive, 1.0 + 0x1p-52);
  }
  ck_assert(naive_wrong > 0); /* the data is hard */
  /* one double is itself, for every kind of bit pattern */
  for (int i = 0; i < 100000; i++) {
    double x = RandomDouble(&st, 0, i % 2 ? 2046 : 12), got = Exact(&x, 1);
    ck_assert_msg(SameBits(got, x) || (x == 0.0 && SameBits(got, 0.0)), "single %a gave %a", x, got);
  }
}
END_TEST

START_TEST(test_ties_to_even)
{
  const double tiny = 0x1p-1074;
  uint64_t     st   = 7;

  CHECK_SUM(1.0, 1.0, 0x1p-53);
  CHECK_SUM(1.0 + 0x1p-52, 1.0, 0x1p-53, 0x1p-106);
  CHECK_SUM(1.0, 1.0, 0x1p-53, -0x1p-106);
  CHECK_SUM(1.0 + 0x1p-52, 1.0, 0x1p-53, tiny);
  CHECK_SUM(1.0, 1.0, 0x1p-53, -tiny);
  CHECK_SUM(1.0 + 0x1p-51, 1.0 + 0x1p-52, 0x1p-53);
  CHECK_SUM(-1.0, -1.0, -0x1p-53);
  CHECK_SUM(-1.0 - 0x1p-52, -1.0, -0x1p-53, -0x1p-106);
  CHECK_SUM(2.0, 2.0 - 0x1p-52, 0x1p-53);  /* the significand carries into the exponent */
  CHECK_SUM(1.0 - 0x1p-53, 1.0, -0x1p-53); /* exact below a power of two */
  CHECK_SUM(1.0, 1.0, -0x1p-54);           /* a tie below a power of two: even is 1 */
  CHECK_SUM(1.0 - 0x1p-53, 1.0, -0x1p-54, -tiny);
  /* ties of totals a few dozen bits above 2^-1074 (the top word holds the whole integer) */
  CHECK_SUM(0x1p-1014, 0x1p-1014, 0x1p-1067);
  CHECK_SUM(0x1p-1014 + 0x1p-1066, 0x1p-1014, 0x1p-1067, tiny);
  CHECK_SUM(0x1p-1014 + 0x1p-1065, 0x1p-1014 + 0x1p-1066, 0x1p-1067);
  /* random x: x + half an ulp goes to the even neighbour; a bit more or less decides */
  for (int i = 0; i < 20000; i++) {
    double x = RandomDouble(&st, 60, 2000), ax = fabs(x), up = nextafter(ax, INFINITY), h = (up - ax) / 2,
           s    = x < 0 ? -1.0 : 1.0;
    double ev   = (Bits(ax) & 1) ? up : ax;
    double a[3] = {x, s * h, 0.0};
    ck_assert_msg(SameBits(Exact(a, 2), s * ev), "%a + half ulp: %a, expected %a", x, Exact(a, 2), s * ev);
    a[2] = s * tiny;
    ck_assert_msg(SameBits(Exact(a, 3), s * up), "%a + half ulp + tiny: %a", x, Exact(a, 3));
    a[2] = -s * tiny;
    ck_assert_msg(SameBits(Exact(a, 3), x), "%a + half ulp - tiny: %a", x, Exact(a, 3));
  }
}
END_TEST

/* v in NPERM orders, alone or in eight partial sums merged in random order:
 * the same digits, the value expect, and a naive sum that is wrong at least once. */
#define NPERM 40
static void CheckOrders(const double *v, int n, double expect, uint64_t st, const char *what)
{
  double  *w;
  ExactSum first;
  int      naive_wrong = 0;

  ck_assert(PetscMalloc1(n, &w) == 0);
  ExactSumZero(&first);
  for (int t = 0; t < NPERM; t++) {
    ExactSum s, part[8];
    double   got, naive = 0.0;
    int      order[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    memcpy(w, v, (size_t)n * sizeof(*w));
    Shuffle(w, n, &st);
    ExactSumZero(&s);
    if (t % 2 == 0)
      for (int i = 0; i < n; i++) ExactSumAdd(&s, w[i]);
    else {
      for (int k = 0; k < 8; k++) ExactSumZero(&part[k]);
      for (int i = 0; i < n; i++) ExactSumAdd(&part[SplitMix(&st) % 8], w[i]);
      for (int k = 7; k > 0; k--) {
        int j = (int)(SplitMix(&st) % (uint64_t)(k + 1)), o = order[k];
        order[k] = order[j], order[j] = o;
      }
      for (int k = 0; k < 8; k++) ExactSumAddSum(&s, &part[order[k]]);
    }
    got = ExactSumValue(&s);
    ck_assert_msg(SameBits(got, expect), "%s, order %d: %a, expected %a", what, t, got, expect);
    ExactSumNormalize(&s);
    if (t == 0) first = s;
    ck_assert_msg(!memcmp(first.d, s.d, sizeof(s.d)), "%s, order %d: other digits", what, t);
    for (int i = 0; i < n; i++) naive += w[i];
    naive_wrong += !SameBits(naive, expect);
  }
  ck_assert_msg(naive_wrong > 0, "%s: every naive order was right, the data is too easy", what);
  ck_assert(PetscFree(w) == 0);
}

START_TEST(test_orders_against_oracles)
{
  enum {
    N = 3000
  };
  double  *v;
  uint64_t st = 42;

  ck_assert(PetscMalloc1(N, &v) == 0);
  /* every exponent from the subnormals to 2^977 */
  for (int i = 0; i < N; i++) v[i] = RandomDouble(&st, 0, 2000);
  CheckOrders(v, N, Fsum(v, N), 11, "wide");
  /* subnormals and the smallest normals only */
  for (int i = 0; i < N; i++) v[i] = RandomDouble(&st, 0, 3);
  CheckOrders(v, N, Fsum(v, N), 12, "subnormal");
  /* near-cancelling pairs of wide exponents around small values */
  for (int i = 0; i < N / 3; i++) {
    v[3 * i]     = RandomDouble(&st, 200, 2040);
    v[3 * i + 1] = -v[3 * i] * (1.0 + 0x1p-52 * (double)(SplitMix(&st) % 5));
    v[3 * i + 2] = RandomDouble(&st, 100, 900);
  }
  CheckOrders(v, N, Fsum(v, N), 13, "cancelling");
  /* a few hundred binades (2^-20 .. 2^20): __float128 holds every partial sum exactly */
  for (int i = 0; i < N; i++) v[i] = RandomDouble(&st, 1023 - 20, 1023 + 20);
#if defined(__SIZEOF_FLOAT128__)
  {
    __float128 q = 0;
    for (int i = 0; i < N; i++) q += v[i];
    ck_assert_msg(SameBits((double)q, Fsum(v, N)), "the oracles differ: %a and %a", (double)q, Fsum(v, N));
  }
#endif
  CheckOrders(v, N, Fsum(v, N), 14, "moderate");
  ck_assert(PetscFree(v) == 0);
}
END_TEST

START_TEST(test_specials)
{
  ExactSum a, b;

  CHECK_SUM(INFINITY, INFINITY);
  CHECK_SUM(-INFINITY, -INFINITY, 1.0, -INFINITY);
  CHECK_SUM(INFINITY, 1.0, INFINITY, -DBL_MAX, -DBL_MAX);
  CHECK_SUM(-INFINITY, DBL_MAX, -INFINITY, DBL_MAX, DBL_MAX);
  ck_assert(isnan(Exact((const double[]){NAN}, 1)));
  ck_assert(isnan(Exact((const double[]){1.0, -NAN, 2.0}, 3)));
  ck_assert(isnan(Exact((const double[]){INFINITY, -INFINITY}, 2)));
  ck_assert(isnan(Exact((const double[]){-INFINITY, 1.0, INFINITY}, 3)));
  ck_assert(isnan(Exact((const double[]){INFINITY, NAN}, 2)));
  /* a signalling NaN's pattern */
  ck_assert(isnan(Exact((const double[]){FromBits(0x7ff0000000000001ull), 0.0}, 2)));
  /* flags travel through merges; the digits are kept beside them */
  ExactSumZero(&a), ExactSumZero(&b);
  ExactSumAdd(&a, 2.0), ExactSumAdd(&b, INFINITY);
  ExactSumAddSum(&a, &b);
  ck_assert(ExactSumValue(&a) == INFINITY);
  ExactSumZero(&b), ExactSumAdd(&b, -INFINITY);
  ExactSumAddSum(&a, &b);
  ck_assert(isnan(ExactSumValue(&a)));
  a.special = 0;
  ck_assert(ExactSumValue(&a) == 2.0);
}
END_TEST

/* Past EXACTSUM_RENORM additions to one digit, which int64 holds only with
 * carries propagated; merges of a sum with itself, each doubling it. */
START_TEST(test_renormalisation)
{
  PetscMPIInt size;
  double      x  = FromBits((uint64_t)236 << 52 | MANT), v[64], w[64];
  uint64_t    st = 3;
  ExactSum    s;

  ck_assert(MPI_Comm_size(PETSC_COMM_WORLD, &size) == 0);
  if (size == 1) { /* 2^31 additions, once */
    const int64_t n = ((int64_t)1 << 31) + 1000;
    ExactSumZero(&s);
    for (int64_t i = 0; i < n; i++) ExactSumAdd(&s, -x); /* 2^32 - 1 into one digit each time */
    ck_assert_msg(SameBits(ExactSumValue(&s), -(double)n * x), "%a, expected %a", ExactSumValue(&s), -(double)n * x);
  }
  for (int i = 0; i < 64; i++) v[i] = RandomDouble(&st, 0, 1023);
  ExactSumZero(&s);
  for (int i = 0; i < 64; i++) ExactSumAdd(&s, v[i]);
  for (int k = 1; k <= 1000; k++) {
    ExactSumAddSum(&s, &s);
    ck_assert(s.adds >= 0 && s.adds < EXACTSUM_RENORM);
    for (int i = 0; i < 64; i++) w[i] = ldexp(v[i], k);
    ck_assert_msg(SameBits(ExactSumValue(&s), Fsum(w, 64)), "doubled %d times: %a, expected %a", k, ExactSumValue(&s),
                  Fsum(w, 64));
  }
  /* on to overflow: rounding commutes with doubling until the rounded value reaches 2^1024 */
  for (int k = 1001; k <= 1100; k++) {
    ExactSumAddSum(&s, &s);
    ck_assert_msg(SameBits(ExactSumValue(&s), ldexp(Fsum(v, 64), k)), "doubled %d times: %a, expected %a", k,
                  ExactSumValue(&s), ldexp(Fsum(v, 64), k));
  }
  ck_assert(isinf(ExactSumValue(&s)));
}
END_TEST

/* Who adds global value i under each way of sharing them out. */
static PetscMPIInt Owner(int scheme, int i, int n, PetscMPIInt size)
{
  uint64_t h = (uint64_t)i * 0x9e3779b97f4a7c15ull;
  switch (scheme) {
  case 0:
    return (PetscMPIInt)(i % size);
  case 1:
    return (PetscMPIInt)((int64_t)i * size / n);
  case 2:
    return (PetscMPIInt)(SplitMix(&h) % (uint64_t)size);
  case 3:
    return size - 1;
  default:
    return (PetscMPIInt)((n - 1 - i) % size);
  }
}

#define NACC 6
/* The accumulators' contents, for value i of n: all, the even ones, +inf
 * (on one rank), +inf and -inf (NaN, from two), a NaN, nothing. */
static void AddShare(ExactSum acc[NACC], const double *v, int n, int scheme, PetscMPIInt rank, PetscMPIInt size)
{
  for (int i = 0; i < NACC; i++) ExactSumZero(&acc[i]);
  for (int i = 0; i < n; i++) {
    if (Owner(scheme, i, n, size) != rank) continue;
    ExactSumAdd(&acc[0], v[i]);
    if (i % 2 == 0) ExactSumAdd(&acc[1], v[i]);
    ExactSumAdd(&acc[2], i == 7 ? INFINITY : v[i]);
    ExactSumAdd(&acc[3], i == 7 ? INFINITY : i == n - 2 ? -INFINITY : v[i]);
    if (i == n / 2) ExactSumAdd(&acc[4], NAN);
  }
}

START_TEST(test_allreduce)
{
  enum {
    N = 3001
  };
  PetscMPIInt rank, size;
  double     *v;
  uint64_t    st = 99;
  ExactSum    ref[NACC], acc[NACC];
  int         n = 0;

  ck_assert(MPI_Comm_rank(PETSC_COMM_WORLD, &rank) == 0 && MPI_Comm_size(PETSC_COMM_WORLD, &size) == 0);
  ck_assert(PetscMalloc1(N, &v) == 0);
  /* wide values, their exact negatives, moderate ones, and +-DBL_MAX that cancel */
  for (; n < 1000; n++) v[n] = RandomDouble(&st, 0, 2040);
  for (; n < 2000; n++) v[n] = -v[n - 1000];
  for (; n < N - 6; n++) v[n] = RandomDouble(&st, 900, 1100);
  for (; n < N; n++) v[n] = n % 2 ? DBL_MAX : -DBL_MAX;
  Shuffle(v, N, &st);
  {
    double  *w;
    int      m = 0;
    ExactSum s;
    ck_assert(PetscMalloc1(N, &w) == 0);
    for (int i = 0; i < N; i++)
      if (fabs(v[i]) != DBL_MAX) w[m++] = v[i];
    ExactSumZero(&s);
    for (int i = 0; i < N; i++) ExactSumAdd(&s, v[i]);
    EXPECT(SameBits(ExactSumValue(&s), Fsum(w, m)), "one rank's total %a, the oracle's %a", ExactSumValue(&s),
           Fsum(w, m));
    ck_assert(PetscFree(w) == 0);
  }
  AddShare(ref, v, N, 3, 0, 1); /* everything on one rank */
  for (int i = 0; i < NACC; i++) ExactSumNormalize(&ref[i]);
  for (int scheme = 0; scheme < 5; scheme++) {
    AddShare(acc, v, N, scheme, rank, size);
    EXPECT(ExactSumAllreduce(PETSC_COMM_WORLD, acc, NACC) == 0, "ExactSumAllreduce");
    for (int i = 0; i < NACC; i++) {
      double got = ExactSumValue(&acc[i]), want = ExactSumValue(&ref[i]);
      EXPECT(SameBits(got, want) || (isnan(got) && isnan(want)), "scheme %d accumulator %d: %a, one rank's %a", scheme,
             i, got, want);
      EXPECT(!memcmp(acc[i].d, ref[i].d, sizeof(acc[i].d)) && acc[i].special == ref[i].special && acc[i].adds == 0,
             "scheme %d accumulator %d: other digits", scheme, i);
    }
    EXPECT(isnan(ExactSumValue(&acc[3])) && isnan(ExactSumValue(&acc[4])) && ExactSumValue(&acc[2]) == INFINITY &&
             SameBits(ExactSumValue(&acc[5]), 0.0),
           "scheme %d: the specials", scheme);
    /* the reduced sums go on adding */
    ExactSumAdd(&acc[0], 0.5), ExactSumAdd(&ref[0], 0.5);
    EXPECT(SameBits(ExactSumValue(&acc[0]), ExactSumValue(&ref[0])), "scheme %d: adding after the reduction", scheme);
    ExactSumAdd(&ref[0], -0.5), ExactSumNormalize(&ref[0]);
  }
  EXPECT(ExactSumAllreduce(PETSC_COMM_WORLD, acc, 0) == 0, "no accumulators");
  ck_assert(PetscFree(v) == 0);
  ASSERT_ALL_RANKS();
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("exactsum");
  TCase *tc = tcase_create("exactsum");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_rounding_ruins);
  tcase_add_test(tc, test_ties_to_even);
  tcase_add_test(tc, test_orders_against_oracles);
  tcase_add_test(tc, test_specials);
  tcase_add_test(tc, test_renormalisation);
  tcase_add_test(tc, test_allreduce);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
