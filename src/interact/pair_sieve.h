/* The force scan's sieve: of a run of listed pairs, those that may give a
 * force or bound the step.  Most listed pairs do neither (they were apart at
 * the last step and still are): telling them apart from two positions and
 * two radii is most of the scan's work, and which ones pass is unpredictable,
 * so the sieve does it without branches, eight pairs at a time in AVX-512
 * lanes where the processor has them (chosen at run time).
 *
 * A pair passes when it touched at the last step, is imaged (its shift is
 * the scan's to apply), or when its squared separation
 * x_i - x_j, summed as (r0 r0 + r1 r1) + r2 r2, is below lim: the squared
 * radii sum (r_i + r_j)^2, or with reach >= 0 the squared reach
 * ((r_i + r_j)(1 + 1e-9) + reach)^2.  Every path does these IEEE operations
 * in this order, so which pairs pass does not depend on the path. */
#ifndef HDEM_PAIR_SIEVE_H
#define HDEM_PAIR_SIEVE_H

#include "hdem.h"

#define PAIR_SIEVE_CHUNK 256 /* pairs per call at most */

typedef struct {
  const LocalInt      *ij;   /* 2 per pair, as NeighborList */
  const unsigned char *flag; /* NeighborList flag: NEIGHBOR_TOUCHED, NEIGHBOR_IMAGED */
  const PetscReal     *x, *radius;
  PetscReal            reach; /* < 0: no reach (the step bound is not wanted) */
} PairSieve;

/* The indices of pairs k0 .. k1-1 (k1 - k0 <= PAIR_SIEVE_CHUNK) that pass,
 * in order, into at[] (room for PAIR_SIEVE_CHUNK); returns their count. */
PETSC_EXTERN PetscInt PairSieveRun(const PairSieve *, PetscInt k0, PetscInt k1, LocalInt *at);
/* The same without vector lanes: what PairSieveRun does where AVX-512 is
 * missing (and on the tail of a run), callable alone for tests. */
PETSC_EXTERN PetscInt PairSieveRunPortable(const PairSieve *, PetscInt k0, PetscInt k1, LocalInt *at);
/* Whether PairSieveRun takes the AVX-512 lanes on this processor. */
PETSC_EXTERN PetscBool PairSieveVectorised(void);

/* The squared reach of a pair of radii sum rs (the scan's own threshold):
 * a hair over rs, so that rounding in the approach bound's own arithmetic
 * cannot put a passed-over pair in. */
#define PAIR_SIEVE_GROW (1.0 + 1e-9)
static inline PetscReal PairSieveReach2(PetscReal rs, PetscReal reach)
{
  PetscReal t = rs * PAIR_SIEVE_GROW + reach;
  return t * t;
}

#endif
