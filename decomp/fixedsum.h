/* Fixed-point sums in a stated window, exact and order-independent, small
 * enough to keep several per triangle of a large mesh (geometry/wear.h):
 * 24 bytes where an ExactSum (decomp/exactsum.h) takes 544.
 *
 * A value is an integer multiple of 2^-100 (FIXEDSUM_LSB) held as a 192-bit
 * two's complement integer in three uint64 limbs (least significant first):
 * the window is [-2^91, 2^91) with a resolution of 2^-100 (7.9e-31).  Each
 * addend x is rounded to that resolution once, from its own bits (to
 * nearest, ties to even), so an addend below 2^-101 in magnitude adds
 * nothing; the addends are then summed as integers modulo 2^192, which is
 * associative and commutative: any order, any split over ranks, gives the
 * same bits.  An addend must be finite and below 2^64 (1.8e19) in
 * magnitude (FixedSumAdd says false otherwise, adding nothing), and a total
 * must stay below 2^91 (2.5e27): far above any load, work or energy a
 * contact deposits in SI units. */
#ifndef HDEM_FIXEDSUM_H
#define HDEM_FIXEDSUM_H

#include "hdem.h"

#define FIXEDSUM_LIMBS   3
#define FIXEDSUM_LSB_EXP (-100) /* the resolution: 2^FIXEDSUM_LSB_EXP */
#define FIXEDSUM_MAX_EXP 64     /* an addend must be below 2^FIXEDSUM_MAX_EXP in magnitude */

typedef struct {
  uint64_t l[FIXEDSUM_LIMBS];
} FixedSum;

/* s += x, exactly (modulo 2^192: no carry is lost within the window). */
static inline void FixedSumAddSum(FixedSum *s, const FixedSum *x)
{
  uint64_t c = 0;
  for (int k = 0; k < FIXEDSUM_LIMBS; k++) {
    uint64_t a = s->l[k] + c, b;
    c          = a < c ? 1 : 0;
    b          = a + x->l[k];
    c += b < a ? 1 : 0;
    s->l[k] = b;
  }
}

static inline PetscBool FixedSumIsZero(const FixedSum *s)
{
  return s->l[0] == 0 && s->l[1] == 0 && s->l[2] == 0 ? PETSC_TRUE : PETSC_FALSE;
}

/* x rounded to the window's resolution; false (and zero) when x is not
 * finite or not below 2^FIXEDSUM_MAX_EXP in magnitude. */
PETSC_EXTERN PetscBool FixedSumFrom(PetscReal x, FixedSum *q);
/* s += x rounded (FixedSumFrom); false when x was refused. */
PETSC_EXTERN PetscBool FixedSumAdd(FixedSum *s, PetscReal x);
/* The total correctly rounded to a double (nearest, ties to even). */
PETSC_EXTERN PetscReal FixedSumValue(const FixedSum *s);
/* Collective: each of n records of width int64 to rank dest[i]; *out
 * (PetscFree it) holds what arrived, by source rank then the sender's order. */
PETSC_EXTERN PetscErrorCode FixedSumRoute(MPI_Comm, PetscInt n, PetscInt width, const PetscInt64 *items,
                                          const PetscMPIInt *dest, PetscInt *nout, PetscInt64 **out);

#endif
