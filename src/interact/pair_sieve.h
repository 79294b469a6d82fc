/* The force scan's sieve: of a run of listed pairs, those that may give a
 * force or bound the step.  Most listed pairs do neither (they were apart at
 * the last step and still are): telling them apart from two positions and
 * two radii is most of the scan's work, and which ones pass is unpredictable,
 * so the sieve does it without branches, eight pairs at a time in AVX-512
 * lanes where the processor has them, else four at a time in AVX2 lanes
 * (chosen at run time).
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

/* The sieve's paths, each on the processors that have its instructions. */
typedef enum {
  PAIR_SIEVE_PORTABLE,
  PAIR_SIEVE_AVX2,
  PAIR_SIEVE_AVX512
} PairSievePath;

/* The indices of pairs k0 .. k1-1 (k1 - k0 <= PAIR_SIEVE_CHUNK) that pass,
 * in order, into at[] (room for PAIR_SIEVE_CHUNK); returns their count. */
PETSC_EXTERN PetscInt PairSieveRun(const PairSieve *, PetscInt k0, PetscInt k1, LocalInt *at);
/* The same on a given path, one at most PairSieveBest() (for tests: every
 * path a processor has gives the same passes). */
PETSC_EXTERN PetscInt PairSieveRunOn(PairSievePath, const PairSieve *, PetscInt k0, PetscInt k1, LocalInt *at);
/* The path PairSieveRun takes on this processor, and a path's name. */
PETSC_EXTERN PairSievePath PairSieveBest(void);
PETSC_EXTERN const char   *PairSievePathName(PairSievePath);

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
