/* The atoms a rank holds of a LAMMPS data file (io/lammps_data.h): the
 * type alone, for the reader's parts (io/lammps_share.h). */
#ifndef HDEM_LAMMPS_ATOMS_H
#define HDEM_LAMMPS_ATOMS_H

#include "hdem.h"

/* The atoms of this rank (ids id % size == rank), in file order. */
typedef struct {
  PetscInt    n;      /* this rank's */
  PetscInt64  ntotal; /* the file's, from `N atoms` */
  PetscInt    ntypes; /* from `N atom types` */
  PetscInt64 *id;     /* LAMMPS ids, 1 <= id <= 2^53, unique over the ranks */
  PetscInt64 *index;  /* place in the Atoms section, 0 .. ntotal - 1 */
  PetscInt   *type;   /* 1 .. ntypes */
  PetscReal  *diameter, *density;
  PetscReal  *x, *v, *w; /* 3n each, interleaved; v, w zero without a Velocities section */
  PetscReal   lo[3], hi[3];
  PetscBool   has_velocities, has_molecules;
  PetscBool   read; /* filled by LammpsDataRead (a file of no atoms too) */
  PetscInt64 *mol;  /* molecule ids (a Molecules section), else NULL */
} LammpsData;

#endif
