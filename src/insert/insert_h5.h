/* The initial state from a particle state file, a final.h5 or a snapshot
 * (insert.h, insert_mode hdf5): each rank reads its block of the rows
 * (io/h5state.h), checks them, and sends them to the ranks that own
 * their positions.  Ids, types, radii, positions, velocities, angular
 * velocities and a wet run's liquid are the file's, bit for bit. */
#ifndef HDEM_INSERT_H5_H
#define HDEM_INSERT_H5_H

#include "particles/particles.h"
#include "decomp/grid.h"

/* What InsertH5 needs of the deck: the file, the type that does not move
 * (-1: none), each type's density (a file holds no masses): type t of
 * 0 .. ndensity - 2 has density[t], every other type density[ndensity - 1]. */
typedef struct {
  const char      *file;
  PetscInt         frozen_type;
  const PetscReal *density;
  PetscInt         ndensity;
} InsertH5Keys;

/* Collective: the particles of keys->file into p, every error (the file's
 * kind, a dataset, a row's value, a repeated id) raised on comm before
 * anything is appended, naming the file, the dataset, the row and the id;
 * rmax the largest radius of them all, on every rank; liquid whether each
 * particle's liquid is the file's (a wet run's state into a store with
 * liquid), the same on every rank. */
PETSC_INTERN PetscErrorCode InsertH5(MPI_Comm, const InsertH5Keys *keys, const Grid *, Particles *, PetscReal *rmax,
                                     PetscBool *liquid);
/* Collective: the box around the file's positions (for the shape of the
 * process grid), clipped by the caller; the domain when it cannot say. */
PETSC_INTERN PetscErrorCode InsertH5Extent(MPI_Comm, const char *file, PetscReal lo[3], PetscReal hi[3]);

#endif
