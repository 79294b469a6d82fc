#include "interact/pair_sieve.h"
#include "interact/neighbor.h"

#if defined(__x86_64__)
  #define PAIR_SIEVE_AVX512 1
  #include <immintrin.h>
#endif

#define PAIR_SIEVE_STOP (NEIGHBOR_TOUCHED | NEIGHBOR_IMAGED)

/* Whether a pair of squared separation rr and radii sum rs passes on distance. */
static inline int PairSieveNear(PetscReal rr, PetscReal rs, PetscReal reach)
{
  return rr < (reach >= 0.0 ? PairSieveReach2(rs, reach) : rs * rs);
}

/* One pair at a time, the pass decided by arithmetic, not branches. */
PetscInt PairSieveRunPortable(const PairSieve *sv, PetscInt k0, PetscInt k1, LocalInt *at)
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

#if defined(PAIR_SIEVE_AVX512)
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
#endif

PetscBool PairSieveVectorised(void)
{
#if defined(PAIR_SIEVE_AVX512)
  static int avx512 = -1;
  if (avx512 < 0) avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
  return avx512 ? PETSC_TRUE : PETSC_FALSE;
#else
  return PETSC_FALSE;
#endif
}

PetscInt PairSieveRun(const PairSieve *sv, PetscInt k0, PetscInt k1, LocalInt *at)
{
#if defined(PAIR_SIEVE_AVX512)
  if (PairSieveVectorised()) return PairSieveAVX512(sv, k0, k1, at);
#endif
  return PairSieveRunPortable(sv, k0, k1, at);
}
