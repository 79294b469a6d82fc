/* The initial state from a LAMMPS data file (insert.h): each rank's atoms
 * (io/lammps_data.h) sent to the ranks that own their positions; with
 * insert_body, each molecule's atoms to one rank (by molecule id), made a
 * body there and sent to the owner of its centre. */
#ifndef HDEM_INSERT_LAMMPS_H
#define HDEM_INSERT_LAMMPS_H

#include "insert/insert.h"

/* Collective: the atoms of ins->file (cached: read already, taken) into p;
 * rmax the largest radius of them all, on every rank. */
PETSC_INTERN PetscErrorCode InsertLammps(MPI_Comm, const Insertion *, const ClumpTemplates *, const Grid *,
                                         LammpsData *cached, Particles *, PetscReal *rmax);

#endif
