/* The particles a run starts with: a jittered lattice fill of a region, a
 * random non-overlapping fill, a LAMMPS data file, or a particle state
 * file of a run (final.h5, a snapshot: insert_h5.h) (insert_* keys).
 * Every particle is created by the rank that owns its position, and every
 * random number is keyed by its id, so the initial state does not depend on
 * the rank count. */
#ifndef HDEM_INSERT_H
#define HDEM_INSERT_H

#include "particles/particles.h"
#include "particles/random.h"
#include "decomp/grid.h"
#include "io/lammps_data.h"
#include "rigid/body_insert.h"

typedef enum {
  INSERTION_LATTICE,
  INSERTION_RANDOM,
  INSERTION_LAMMPS,
  INSERTION_HDF5
} InsertionMode;

PETSC_EXTERN const char *const InsertionModes[];

typedef struct {
  InsertionMode      mode;
  RadiusDistribution rd;
  PetscInt64         count, seed;
  PetscBool          count_set, lo_set, hi_set, file_set;
  PetscReal          rlo[3], rhi[3]; /* the fill region (default the domain) */
  PetscReal          factor;         /* lattice pitch in largest diameters */
  PetscReal          v0[3], vrand;   /* velocity and the amplitude of its random components */
  PetscInt           type, frozen_type;
  PetscReal          overlap_max; /* a data file's largest overlap accepted, over the smaller radius */
  PetscBool          overlap_set; /* given (a state file's overlaps are its run's contacts: checked only then) */
  char               file[PETSC_MAX_PATH_LEN];
  PetscBool          given; /* some insert_* key was given (a deck filled by its streams alone has none) */
  BodyChoice         body;  /* spheres or multi-sphere bodies (insert_body, ...) */
} Insertion;

/* A radius distribution's keys <prefix>_radius (one size) or
 * <prefix>_radius_distribution, _min, _max, _mean, _sigma, _values,
 * _weights (prefix "-insert", "-stream0"); given: any of them was. */
PETSC_EXTERN PetscErrorCode RadiusDistributionSetFromOptions(MPI_Comm, const char *prefix, RadiusDistribution *,
                                                             PetscBool *given);
/* The smallest radius it can draw. */
PETSC_EXTERN PetscReal RadiusDistributionMin(const RadiusDistribution *);

/* The insert_* keys, each checked on its own (the region against the domain later). */
PETSC_EXTERN PetscErrorCode InsertionSetFromOptions(MPI_Comm, Insertion *);
/* The particles into p, on the grid's ranks (not mode hdf5: InsertH5);
 * density for the fills (a data file has its own); a data file already read (to shape the grid) is taken
 * from cached.  The largest sphere radius of the whole fill (a body's
 * spheres' included) into rmax (this rank's for a data file: reduce it).
 * The fills make the bodies of ins->body from the templates ct: item k
 * (keyed by k + 1) takes the ids after those of items 0 .. k-1, one a
 * sphere, so a fill of spheres has ids 1 .. count. */
PETSC_EXTERN PetscErrorCode InsertionApply(MPI_Comm, const Insertion *, const ClumpTemplates *ct, const Grid *,
                                           PetscReal density, LammpsData *cached, Particles *p, PetscReal *rmax);

#endif
