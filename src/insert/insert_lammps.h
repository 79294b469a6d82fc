/* The initial state from a LAMMPS data file (insert.h): each rank's atoms
 * (io/lammps_data.h) sent to the ranks that own their positions; with
 * insert_body, each molecule's atoms to one rank (by molecule id), made a
 * body there and sent to the owner of its centre. */
#ifndef HDEM_INSERT_LAMMPS_H
#define HDEM_INSERT_LAMMPS_H

#include "particles/particles.h"
#include "decomp/grid.h"
#include "io/lammps_data.h"
#include "rigid/body_insert.h"

/* What InsertLammps needs of the insert_* keys (insert.h's Insertion). */
typedef struct {
  const char       *file;
  const BodyChoice *body;
  PetscInt          frozen_type; /* the type of atoms that do not move (-1: none) */
} InsertLammpsKeys;

/* Collective: the atoms of ins->file (cached: read already, taken) into p;
 * rmax the largest radius of them all, on every rank. */
PETSC_INTERN PetscErrorCode InsertLammps(MPI_Comm, const InsertLammpsKeys *ins, const ClumpTemplates *, const Grid *,
                                         LammpsData *cached, Particles *, PetscReal *rmax);

#endif
