#include "interact/pair_sieve.h"
#include "interact/neighbor.h"
#include <string.h>

#if defined(__x86_64__)
  #define PAIR_SIEVE_X86 1 /* AVX-512 and AVX2 lanes */
  #include <immintrin.h>
#endif

#define PAIR_SIEVE_STOP (NEIGHBOR_TOUCHED | NEIGHBOR_IMAGED)

/* Whether a pair of squared separation rr and radii sum rs passes on distance. */
static inline int PairSieveNear(PetscReal rr, PetscReal rs, PetscReal reach)
{
  return rr < (reach >= 0.0 ? PairSieveReach2(rs, reach) : rs * rs);
}

/* One pair at a time, the pass decided by arithmetic, not branches. */
static PetscInt PairSieveRunPortable(const PairSieve *sv, PetscInt k0, PetscInt k1, LocalInt *at)
{
  const LocalInt      *ij = sv->ij;
  const unsigned char *fl = sv->flag;
  const PetscReal     *x = sv->x, *rad = sv->radius;
  PetscInt             na = 0;

  for (PetscInt k = k0; k < k1; k++) {
    const PetscInt  i = ij[2 * k], j = ij[2 * k + 1];
    const PetscReal r0 = x[3 * i] - x[3 * j], r1 = x[3 * i + 1] - x[3 * j + 1], r2 = x[3 * i + 2] - x[3 * j + 2];
    at[na] = k;
    na += ((fl[k] & PAIR_SIEVE_STOP) != 0) | PairSieveNear(r0 * r0 + r1 * r1 + r2 * r2, rad[i] + rad[j], sv->reach);
  }
  return na;
}

#if defined(PAIR_SIEVE_X86)
/* Eight pairs at a time: their indices split from the interleaved list, the
 * members' coordinates and radii gathered, the passes compressed into at[]. */
__attribute__((target("avx512f,avx512vl"))) static PetscInt PairSieveAVX512(const PairSieve *sv, PetscInt k0,
                                                                            PetscInt k1, LocalInt *at)
{
  const __m512i    even = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 14, 12, 10, 8, 6, 4, 2, 0);
  const __m512i    odd  = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 15, 13, 11, 9, 7, 5, 3, 1);
  const __m256i    lane = _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0), stop = _mm256_set1_epi32(PAIR_SIEVE_STOP);
  const __m512d    grow = _mm512_set1_pd(PAIR_SIEVE_GROW), reach = _mm512_set1_pd(sv->reach);
  const PetscReal *x         = sv->x;
  const int        use_reach = sv->reach >= 0.0;
  PetscInt         na = 0, k = k0;

  for (; k + 8 <= k1; k += 8) {
    const __m512i pq   = _mm512_loadu_si512((const void *)(sv->ij + 2 * k));
    const __m256i vi   = _mm512_castsi512_si256(_mm512_permutexvar_epi32(even, pq));
    const __m256i vj   = _mm512_castsi512_si256(_mm512_permutexvar_epi32(odd, pq));
    const __m256i f    = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(sv->flag + k)));
    __mmask8      pass = _mm256_test_epi32_mask(f, stop);
    __m256i       i3, j3;
    __m512d       r0, r1, r2, rr, rs, lim;

    i3 = _mm256_add_epi32(_mm256_add_epi32(vi, vi), vi);
    j3 = _mm256_add_epi32(_mm256_add_epi32(vj, vj), vj);
    r0 = _mm512_sub_pd(_mm512_i32gather_pd(i3, x, 8), _mm512_i32gather_pd(j3, x, 8));
    r1 = _mm512_sub_pd(_mm512_i32gather_pd(i3, x + 1, 8), _mm512_i32gather_pd(j3, x + 1, 8));
    r2 = _mm512_sub_pd(_mm512_i32gather_pd(i3, x + 2, 8), _mm512_i32gather_pd(j3, x + 2, 8));
    rr = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(r0, r0), _mm512_mul_pd(r1, r1)), _mm512_mul_pd(r2, r2));
    rs = _mm512_add_pd(_mm512_i32gather_pd(vi, sv->radius, 8), _mm512_i32gather_pd(vj, sv->radius, 8));
    if (use_reach) {
      const __m512d t = _mm512_add_pd(_mm512_mul_pd(rs, grow), reach);
      lim             = _mm512_mul_pd(t, t);
    } else lim = _mm512_mul_pd(rs, rs);
    pass |= _mm512_cmp_pd_mask(rr, lim, _CMP_LT_OQ);
    _mm256_mask_compressstoreu_epi32(at + na, pass, _mm256_add_epi32(_mm256_set1_epi32((int)k), lane));
    na += __builtin_popcount(pass);
  }
  return na + PairSieveRunPortable(sv, k, k1, at + na);
}

/* Four pairs at a time in AVX2 lanes.  Gathers are slow on some AVX2
 * processors (AMD's Zen): each member's coordinates are one masked load
 * instead, and the four squared lengths are summed across lanes in the
 * definition's order, (r0 r0 + r1 r1) + r2 r2 (the masked lane is +0, which
 * adds nothing). */
__attribute__((target("avx2"))) static PetscInt PairSieveAVX2(const PairSieve *sv, PetscInt k0, PetscInt k1,
                                                              LocalInt *at)
{
  static const int32_t pick[16][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
                                      {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
                                      {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
                                      {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
  const __m256i        xyz         = _mm256_set_epi64x(0, -1, -1, -1);
  const __m128i        stop        = _mm_set1_epi32(PAIR_SIEVE_STOP);
  const __m256d        grow = _mm256_set1_pd(PAIR_SIEVE_GROW), reach = _mm256_set1_pd(sv->reach);
  const LocalInt      *ij = sv->ij;
  const PetscReal     *x = sv->x, *rad = sv->radius;
  const int            use_reach = sv->reach >= 0.0;
  PetscInt             na = 0, k = k0;

  for (; k + 4 <= k1; k += 4) {
    const LocalInt *q = ij + 2 * k;
    __m256d         s[4], h01, h23, rr, rs, lim;
    int32_t         fb;
    __m128i         f;
    int             pass;

    for (int l = 0; l < 4; l++) {
      const __m256d d = _mm256_sub_pd(_mm256_maskload_pd(x + 3 * (size_t)q[2 * l], xyz),
                                      _mm256_maskload_pd(x + 3 * (size_t)q[2 * l + 1], xyz));
      s[l]            = _mm256_mul_pd(d, d);
    }
    h01 = _mm256_hadd_pd(s[0], s[1]); /* r0 r0 + r1 r1 of 0, 1 | r2 r2 of 0, 1 */
    h23 = _mm256_hadd_pd(s[2], s[3]);
    rr  = _mm256_add_pd(_mm256_permute2f128_pd(h01, h23, 0x20), _mm256_permute2f128_pd(h01, h23, 0x31));
    rs  = _mm256_set_pd(rad[q[6]] + rad[q[7]], rad[q[4]] + rad[q[5]], rad[q[2]] + rad[q[3]], rad[q[0]] + rad[q[1]]);
    memcpy(&fb, sv->flag + k, sizeof(fb));
    f    = _mm_and_si128(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(fb)), stop);
    pass = ~_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f, _mm_setzero_si128()))) & 15;
    if (use_reach) {
      const __m256d t = _mm256_add_pd(_mm256_mul_pd(rs, grow), reach);
      lim             = _mm256_mul_pd(t, t);
    } else lim = _mm256_mul_pd(rs, rs);
    pass |= _mm256_movemask_pd(_mm256_cmp_pd(rr, lim, _CMP_LT_OQ));
    _mm_storeu_si128((__m128i *)(at + na),
                     _mm_add_epi32(_mm_set1_epi32((int)k), _mm_loadu_si128((const __m128i *)pick[pass])));
    na += __builtin_popcount((unsigned)pass);
  }
  return na + PairSieveRunPortable(sv, k, k1, at + na);
}
#endif

PairSievePath PairSieveBest(void)
{
  static int best = -1;
  if (best < 0) {
    best = PAIR_SIEVE_PORTABLE;
#if defined(PAIR_SIEVE_X86)
    if (__builtin_cpu_supports("avx2")) best = PAIR_SIEVE_AVX2;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) best = PAIR_SIEVE_AVX512;
#endif
  }
  return (PairSievePath)best;
}

const char *PairSievePathName(PairSievePath path)
{
  static const char *name[] = {"portable", "AVX2", "AVX-512"};
  return name[path];
}

PetscInt PairSieveRunOn(PairSievePath path, const PairSieve *sv, PetscInt k0, PetscInt k1, LocalInt *at)
{
  switch (path) {
#if defined(PAIR_SIEVE_X86)
  case PAIR_SIEVE_AVX512:
    return PairSieveAVX512(sv, k0, k1, at);
  case PAIR_SIEVE_AVX2:
    return PairSieveAVX2(sv, k0, k1, at);
#endif
  default:
    return PairSieveRunPortable(sv, k0, k1, at);
  }
}

PetscInt PairSieveRun(const PairSieve *sv, PetscInt k0, PetscInt k1, LocalInt *at)
{
  return PairSieveRunOn(PairSieveBest(), sv, k0, k1, at);
}
