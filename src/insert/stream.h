/* Streams: particles poured into a box during the run (stream0_* ..
 * stream7_* keys), at a rate in particles or in kilograms per second.
 * A stream's particles are numbered by a sequence number; each one's
 * radius, velocity and trial positions are pure functions of (seed,
 * stream, sequence number, attempt) (particles/random.h), so what a stream
 * makes does not depend on the rank count.  Where and when they are placed
 * is the engine's (engine/flow.h). */
#ifndef HDEM_STREAM_H
#define HDEM_STREAM_H

#include "particles/random.h"
#include "rigid/body_insert.h"

#define STREAMS_MAX      8  /* stream0 .. stream7 */
#define STREAM_SEQ_BITS  53 /* a sequence number's bits in the random key */
#define STREAM_ATTEMPTS  20 /* trial positions per particle and insertion */
#define STREAM_UNLIMITED -1 /* count */
#define STREAM_SIEVE_MAX 32 /* sizes of a sieve curve */

/* A feed given by a sieve curve (streamN_sieve_sizes, _sieve_passing):
 * the cumulative mass fraction passing each size.  Within each interval of
 * sizes the mass is spread uniformly in size, so the number density there
 * is proportional to 1 / d^3: an interval is drawn by its number
 * probability, w (a + b) / (2 a^2 b^2) normalised (w its mass fraction, a
 * and b its ends), and a size within it by inverting the 1 / d^3 law.  The
 * size is a sphere's diameter, a body's sieve size (rigid/sieve_size.h). */
typedef struct {
  PetscInt  n;                         /* sizes; 0: no sieve curve (the radius keys) */
  PetscReal size[STREAM_SIEVE_MAX];    /* [m], increasing */
  PetscReal passing[STREAM_SIEVE_MAX]; /* cumulative mass fraction, 0 first, 1 last */
  PetscReal cum[STREAM_SIEVE_MAX];     /* cumulative number probability at each size */
  /* a template's volume-equivalent radius over its sieve size (StreamsSetUpBodies) */
  PetscReal req[CLUMP_TEMPLATES_MAX];
} StreamSieve;

typedef struct {
  PetscBool          on; /* some streamN_* key was given */
  PetscReal          lo[3], hi[3];
  PetscBool          by_mass;     /* mass_rate, not rate */
  PetscReal          rate;        /* [1/s] or [kg/s] */
  PetscReal          start, stop; /* [s]; stop may be infinite */
  PetscReal          interval;    /* [s] between insertions */
  PetscInt64         count;       /* at most this many in all, or STREAM_UNLIMITED */
  RadiusDistribution rd;
  StreamSieve        sieve;      /* a sieve curve instead of rd */
  PetscReal          rmin, rmax; /* of rd or the sieve curve: the radii (volume-equivalent) it can make */
  PetscReal          v0[3], vrand;
  PetscInt           type;
  PetscInt64         seed;
  BodyChoice         body; /* spheres or multi-sphere bodies (streamN_body, ...) */
} Stream;

typedef struct {
  PetscInt n; /* streams on */
  Stream   s[STREAMS_MAX];
} Streams;

/* The keys of stream0 .. stream7, each checked on its own; the regions
 * against the domain (StreamsCheckDomain) once it is known. */
PETSC_EXTERN PetscErrorCode StreamsSetFromOptions(MPI_Comm, Streams *);
PETSC_EXTERN PetscErrorCode StreamsCheckDomain(MPI_Comm, const Streams *, const PetscReal lo[3], const PetscReal hi[3]);
/* Once the templates are known: a sieve curve's radii for the bodies it makes, and rmin, rmax with them. */
PETSC_EXTERN void StreamsSetUpBodies(Streams *, const ClumpTemplates *);
/* The sieve size of particle seq of stream k with a sieve curve [m]. */
PETSC_EXTERN PetscReal StreamSieveDraw(const Stream *, PetscInt k, PetscInt64 seq);
/* Particle seq of stream k: its radius (a body's volume-equivalent one;
 * with a sieve curve, from its sieve size and its body's template), its
 * velocity, the centre of trial `attempt` (uniform in the region shrunk by
 * the radius). */
PETSC_EXTERN PetscErrorCode StreamRadius(const Stream *, PetscInt k, PetscInt64 seq, PetscReal *r);
/* The key of particle seq of stream k for its draws (and its body's). */
PETSC_EXTERN PetscInt64 StreamKey(PetscInt k, PetscInt64 seq);
PETSC_EXTERN void       StreamVelocity(const Stream *, PetscInt k, PetscInt64 seq, PetscReal v[3]);
PETSC_EXTERN void       StreamPosition(const Stream *, PetscInt k, PetscInt64 seq, PetscReal r, PetscInt attempt,
                                       PetscReal x[3]);
/* StreamPosition within the box [lo, hi] (a part of the region) instead of the region. */
PETSC_EXTERN void StreamPositionIn(const Stream *, PetscInt k, PetscInt64 seq, PetscReal r, PetscInt attempt,
                                   const PetscReal lo[3], const PetscReal hi[3], PetscReal x[3]);
/* A sphere's mass, bitwise as ParticlesAppend computes it. */
PETSC_EXTERN PetscReal StreamMass(PetscReal r, PetscReal density);
/* How many particles of stream k are due at time t and not yet inserted,
 * at most cap: the rate's floor(rate (t - start)), or the next particles
 * (from sequence number seq on) whose masses fit in mass_rate (t - start)
 * beyond the mass inserted; capped by count. */
PETSC_EXTERN PetscErrorCode StreamDue(const Stream *, PetscInt k, PetscReal t, PetscInt64 seq, PetscInt64 inserted,
                                      PetscReal inserted_mass, PetscReal density, PetscInt64 cap, PetscInt64 *n);

#endif
