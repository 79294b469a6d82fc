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

typedef struct {
  PetscBool          on; /* some streamN_* key was given */
  PetscReal          lo[3], hi[3];
  PetscBool          by_mass;     /* mass_rate, not rate */
  PetscReal          rate;        /* [1/s] or [kg/s] */
  PetscReal          start, stop; /* [s]; stop may be infinite */
  PetscReal          interval;    /* [s] between insertions */
  PetscInt64         count;       /* at most this many in all, or STREAM_UNLIMITED */
  RadiusDistribution rd;
  PetscReal          rmin, rmax; /* of rd */
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
/* Particle seq of stream k: its radius, its velocity, the centre of trial
 * `attempt` (uniform in the region shrunk by the radius). */
PETSC_EXTERN PetscErrorCode StreamRadius(const Stream *, PetscInt k, PetscInt64 seq, PetscReal *r);
/* The key of particle seq of stream k for its draws (and its body's). */
PETSC_EXTERN PetscInt64 StreamKey(PetscInt k, PetscInt64 seq);
PETSC_EXTERN void       StreamVelocity(const Stream *, PetscInt k, PetscInt64 seq, PetscReal v[3]);
PETSC_EXTERN void       StreamPosition(const Stream *, PetscInt k, PetscInt64 seq, PetscReal r, PetscInt attempt,
                                       PetscReal x[3]);
/* A sphere's mass, bitwise as ParticlesAppend computes it. */
PETSC_EXTERN PetscReal StreamMass(PetscReal r, PetscReal density);
/* How many particles of stream k are due at time t and not yet inserted,
 * at most cap: the rate's floor(rate (t - start)), or the next particles
 * (from sequence number seq on) whose masses fit in mass_rate (t - start)
 * beyond the mass inserted; capped by count. */
PETSC_EXTERN PetscErrorCode StreamDue(const Stream *, PetscInt k, PetscReal t, PetscInt64 seq, PetscInt64 inserted,
                                      PetscReal inserted_mass, PetscReal density, PetscInt64 cap, PetscInt64 *n);

#endif
