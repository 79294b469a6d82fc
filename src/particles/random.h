/* Counter-based random numbers: a draw is a pure function of its key
 * (seed, global particle id, stream, draw index k), so a particle gets the
 * same numbers whichever rank creates it and in whatever order.
 *
 * The generator is Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel
 * random numbers: as easy as 1, 2, 3", SC'11), checked against the Random123
 * known-answer vectors: key = seed, counter = (k, stream, id). stream and k
 * are taken modulo 2^32. One block gives four 32-bit words: RandomUniform
 * uses words 0-1, RandomNormal uses words 0-1 and 2-3 of the same block, so
 * do not draw both for the same (stream, k): give each use its own stream. */
#ifndef HDEM_RANDOM_H
#define HDEM_RANDOM_H

#include <stdint.h>
#include "hdem.h"

/* Streams used inside hdem; other users pick different numbers. */
#define RANDOM_STREAM_RADIUS 1

/* in [0, 1), 53 random bits */
PETSC_EXTERN PetscReal RandomUniform(PetscInt64 seed, PetscInt64 id, PetscInt stream, PetscInt k);
/* standard normal, Box-Muller */
PETSC_EXTERN PetscReal RandomNormal(PetscInt64 seed, PetscInt64 id, PetscInt stream, PetscInt k);
PETSC_EXTERN void      RandomPhilox4x32(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

typedef enum {
  RADIUS_UNIFORM, /* uniform in r on [min, max] */
  RADIUS_NORMAL,  /* normal in r (mean, sigma), truncated to [min, max] */
  /* ln r normal: `mean` is the MEDIAN radius, `sigma` the std of ln r; truncated to [min, max] */
  RADIUS_LOGNORMAL,
  RADIUS_DISCRETE /* values[i] with probability weights[i] / sum(weights) */
} RadiusDistributionType;

PETSC_EXTERN const char *const RadiusDistributionTypes[];

typedef struct {
  RadiusDistributionType type;
  PetscReal              min, max;    /* uniform bounds; truncation bounds for normal/lognormal */
  PetscReal              mean, sigma; /* normal: of r; lognormal: median r and std of ln r */
  PetscInt               ndiscrete;
  PetscReal              values[16], weights[16]; /* discrete: radii and unnormalised weights */
} RadiusDistribution;

/* Errors are raised on comm (every rank of it checks the same
 * distribution) and name prefix's keys ("-insert", "-stream0"). */
PETSC_EXTERN PetscErrorCode RadiusDistributionCheck(MPI_Comm, const char *prefix, const RadiusDistribution *);
/* Truncated laws resample (k = 0, 1, ...) until inside [min, max]. */
PETSC_EXTERN PetscErrorCode RadiusDistributionDraw(const RadiusDistribution *, PetscInt64 seed, PetscInt64 id,
                                                   PetscReal *r);
/* largest radius it can draw */
PETSC_EXTERN PetscReal RadiusDistributionMax(const RadiusDistribution *);

#endif
