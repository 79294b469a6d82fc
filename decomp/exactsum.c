#include "decomp/exactsum.h"
#include <string.h>

#define EXACTSUM_LOW   ((uint64_t)0xffffffffu)
#define EXACTSUM_MANT  (((uint64_t)1 << 52) - 1)
#define EXACTSUM_RADIX ((int64_t)1 << 32)

/* The largest double's lowest bit is 2^(2045 - 1074): its three digits end below the last. */
_Static_assert((2045 >> 5) + 2 < EXACTSUM_DIGITS - 1, "the last digit must be carries only");
_Static_assert(EXACTSUM_RENORM <= (1 << 30), "two sums' digits add below 2^63 and their counts in int32");

void ExactSumZero(ExactSum *s)
{
  memset(s, 0, sizeof(*s));
}

void ExactSumNormalize(ExactSum *s)
{
  for (int k = 0; k < EXACTSUM_DIGITS - 1; k++) {
    /* the residue mod 2^32 (int64_t is two's complement) */
    int64_t lo = (int64_t)((uint64_t)s->d[k] & EXACTSUM_LOW);
    s->d[k + 1] += (s->d[k] - lo) / EXACTSUM_RADIX; /* exact, so no rounding direction matters */
    s->d[k] = lo;
  }
  s->adds = 0;
}

/* x = m 2^(sh - 1074) with m < 2^53 from the bit pattern (subnormals: the
 * exponent field 0 means sh = 0 without the hidden bit); m << (sh % 32)
 * spans at most three digits, added with x's sign: no branch on the value. */
void ExactSumAdd(ExactSum *s, PetscReal v)
{
  double   x = (double)v;
  uint64_t u, m;
  int64_t  e, normal, sh, neg, c0, c1, c2;
  int      k, o;

  memcpy(&u, &x, sizeof(u));
  e = (int64_t)((u >> 52) & 0x7ff);
  if (PetscUnlikely(e == 0x7ff)) {
    s->special |= (u & EXACTSUM_MANT) ? EXACTSUM_NAN : ((u >> 63) ? EXACTSUM_NEG_INF : EXACTSUM_POS_INF);
    return;
  }
  normal = e != 0;
  m      = (u & EXACTSUM_MANT) | ((uint64_t)normal << 52);
  sh     = e - normal;
  k      = (int)(sh >> 5);
  o      = (int)(sh & 31);
  neg    = -(int64_t)(u >> 63); /* 0 or -1: (c ^ neg) - neg is c or -c */
  c0     = (int64_t)((m << o) & EXACTSUM_LOW);
  c1     = (int64_t)((m >> (32 - o)) & EXACTSUM_LOW);
  c2     = (int64_t)((m >> 32) >> (32 - o)); /* m >> (64 - o) without a shift by 64 */
  s->d[k] += (c0 ^ neg) - neg;
  s->d[k + 1] += (c1 ^ neg) - neg;
  s->d[k + 2] += (c2 ^ neg) - neg;
  if (PetscUnlikely(++s->adds >= EXACTSUM_RENORM)) ExactSumNormalize(s);
}

/* A digit that was canonical and took adds pieces is at most (adds + 1)
 * (2^32 - 1) in magnitude; with both counts below 2^30 the digits' sum is
 * below 2^63 and its count, s->adds + t->adds + 1, below 2^31.  s may be t. */
void ExactSumAddSum(ExactSum *s, const ExactSum *t)
{
  for (int k = 0; k < EXACTSUM_DIGITS; k++) s->d[k] += t->d[k];
  s->adds += t->adds + 1;
  s->special |= t->special;
  if (s->adds >= EXACTSUM_RENORM) ExactSumNormalize(s);
}

static int TopBit32(uint32_t v) /* v != 0 */
{
  int b = 0;
  if (v >> 16) b += 16, v >>= 16;
  if (v >> 8) b += 8, v >>= 8;
  if (v >> 4) b += 4, v >>= 4;
  if (v >> 2) b += 2, v >>= 2;
  return b + (int)(v >> 1);
}

/* The magnitude, canonical and non-negative, as an integer count of 2^-1074:
 * its top bit p, the 64 bits below and at p, and whether anything lies below
 * them (sticky) decide the one rounding.  The biased exponent is p - 51 (p >=
 * 52) and the significand carries into it when rounding reaches 2^53, up to
 * the infinity's bit pattern; below p = 52 the integer is the subnormal's
 * bit pattern itself. */
PetscReal ExactSumValue(const ExactSum *s)
{
  ExactSum a = *s;
  uint64_t neg, W, sticky = 0, keep, rem, bits;
  double   x;
  int      k, p;

  if (s->special) {
    if ((s->special & EXACTSUM_NAN) ||
        (s->special & (EXACTSUM_POS_INF | EXACTSUM_NEG_INF)) == (EXACTSUM_POS_INF | EXACTSUM_NEG_INF))
      return (PetscReal)NAN;
    return (s->special & EXACTSUM_POS_INF) ? (PetscReal)INFINITY : (PetscReal)-INFINITY;
  }
  ExactSumNormalize(&a);
  neg = a.d[EXACTSUM_DIGITS - 1] < 0;
  if (neg) {
    for (k = 0; k < EXACTSUM_DIGITS; k++) a.d[k] = -a.d[k];
    ExactSumNormalize(&a);
  }
  if (a.d[EXACTSUM_DIGITS - 1]) return neg ? (PetscReal)-INFINITY : (PetscReal)INFINITY;
  for (k = EXACTSUM_DIGITS - 2; k >= 0 && !a.d[k]; k--) { }
  if (k < 0) return 0.0;
  p = 32 * k + TopBit32((uint32_t)a.d[k]);
  if (p >= 1024 + 1074) return neg ? (PetscReal)-INFINITY : (PetscReal)INFINITY;
  if (p < 53) bits = (uint64_t)a.d[0] | ((uint64_t)a.d[1] << 32); /* exact */
  else {
    if (p < 64) W = ((uint64_t)a.d[0] | ((uint64_t)a.d[1] << 32)) << (63 - p);
    else {
      int q = p - 63, j = q >> 5, o = q & 31;
      W      = (((uint64_t)a.d[j] | ((uint64_t)a.d[j + 1] << 32)) >> o) | (o ? (uint64_t)a.d[j + 2] << (64 - o) : 0);
      sticky = (uint64_t)a.d[j] & ((((uint64_t)1) << o) - 1);
      for (int i = 0; i < j && !sticky; i++) sticky = (uint64_t)a.d[i];
    }
    keep = W >> 11;
    rem  = W & 0x7ff;
    bits = ((uint64_t)(p - 52) << 52) + keep + (rem > 0x400 || (rem == 0x400 && (sticky || (keep & 1))));
  }
  bits |= neg << 63;
  memcpy(&x, &bits, sizeof(x));
  return (PetscReal)x;
}

/* Canonical digits (each below 2^32 but the last) and the flags as counts,
 * all int64: the sum over any number of ranks is exact. */
PetscErrorCode ExactSumAllreduce(MPI_Comm comm, ExactSum *s, PetscInt n)
{
  const PetscInt w = EXACTSUM_DIGITS + 3;
  int64_t       *buf;
  PetscMPIInt    cnt;

  PetscFunctionBeginUser;
  PetscCheck(n >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "a reduction of %" PetscInt_FMT " exact sums", n);
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMPIIntCast(n * w, &cnt));
  PetscCall(PetscMalloc1(n * w, &buf));
  for (PetscInt i = 0; i < n; i++) {
    int64_t *b = buf + i * w;
    ExactSumNormalize(&s[i]);
    memcpy(b, s[i].d, sizeof(s[i].d));
    b[EXACTSUM_DIGITS]     = (s[i].special & EXACTSUM_NAN) != 0;
    b[EXACTSUM_DIGITS + 1] = (s[i].special & EXACTSUM_POS_INF) != 0;
    b[EXACTSUM_DIGITS + 2] = (s[i].special & EXACTSUM_NEG_INF) != 0;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, buf, cnt, MPIU_INT64, MPI_SUM, comm));
  for (PetscInt i = 0; i < n; i++) {
    const int64_t *b = buf + i * w;
    memcpy(s[i].d, b, sizeof(s[i].d));
    s[i].special = (b[EXACTSUM_DIGITS] ? EXACTSUM_NAN : 0) | (b[EXACTSUM_DIGITS + 1] ? EXACTSUM_POS_INF : 0) |
                   (b[EXACTSUM_DIGITS + 2] ? EXACTSUM_NEG_INF : 0);
    ExactSumNormalize(&s[i]);
  }
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}
