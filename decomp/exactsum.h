/* Exact, order-independent sums of doubles: a fixed-point superaccumulator
 * holding every finite double, so that a total over contacts that live on
 * different ranks (the force on a wall) is the same bits on any number of
 * ranks and in any order of addition.
 *
 * Digit k holds a multiple of 2^(32k - 1074); 66 digits reach every finite
 * double's top bit (2^1023 sits in digit 65), and one more is headroom for
 * carries, so the exact total overflows int64 only after some 2^77 additions
 * of numbers near DBL_MAX.  An addition adds the 53-bit significand, split
 * in 32-bit pieces, to at most three digits, as signed int64: no carries.
 * Digits are renormalised (carries propagated) every EXACTSUM_RENORM
 * additions, which keeps every digit below 2^63 in magnitude.  Canonical
 * form: digits 0..DIGITS-2 in [0, 2^32), the last one signed; an integer has
 * exactly one, so equal totals have equal digits whatever the order.
 *
 * NaN and infinities are flags, not digits: the value is NaN if a NaN was
 * added or infinities of both signs were, else the infinity that was added.
 * A zero total is +0.0, also for -0.0 + -0.0. */
#ifndef HDEM_EXACTSUM_H
#define HDEM_EXACTSUM_H

#include "hdem.h"

#define EXACTSUM_DIGITS  67
#define EXACTSUM_RENORM  (1 << 30) /* additions between renormalisations */
#define EXACTSUM_NAN     1         /* special: a NaN was added */
#define EXACTSUM_POS_INF 2         /* special: +inf was added */
#define EXACTSUM_NEG_INF 4         /* special: -inf was added */

/* adds: additions since the digits were last canonical (each digit but the
 * last then at most (adds + 1) (2^32 - 1) in magnitude; a merge counts as
 * the other's adds + 1); special: the EXACTSUM_* flags. */
typedef struct {
  int64_t d[EXACTSUM_DIGITS];
  int32_t adds;
  int32_t special;
} ExactSum;

PETSC_EXTERN void ExactSumZero(ExactSum *);
PETSC_EXTERN void ExactSumAdd(ExactSum *, PetscReal);           /* exact: no rounding at all */
PETSC_EXTERN void ExactSumAddSum(ExactSum *, const ExactSum *); /* exact */
/* canonical digits, adds = 0; the total unchanged */
PETSC_EXTERN void ExactSumNormalize(ExactSum *);
/* the exact total rounded to nearest, ties to even; +-inf beyond DBL_MAX */
PETSC_EXTERN PetscReal ExactSumValue(const ExactSum *);
/* Collective: in place, n accumulators (the same n on every rank), every
 * rank gets the totals, by one integer MPI_SUM of canonical digits (exact on any number of ranks). */
PETSC_EXTERN PetscErrorCode ExactSumAllreduce(MPI_Comm, ExactSum *, PetscInt n);

#endif
