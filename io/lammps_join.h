/* Records of reals (the LAMMPS reader's and its users'), sorted in place. */
#ifndef HDEM_LAMMPS_JOIN_H
#define HDEM_LAMMPS_JOIN_H

#include "hdem.h"

/* Records of w reals in place into the order of key (ties: as they were),
 * with 24 bytes a record beside them rather than a copy. */
PETSC_EXTERN PetscErrorCode LammpsRecordsSort(PetscReal *rec, PetscInt n, PetscInt w,
                                              PetscInt64 (*key)(const PetscReal *));

#endif
