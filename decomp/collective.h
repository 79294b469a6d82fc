/* Thin collectives for the layers that must not call MPI themselves
 * (io/ reading on rank 0 and sharing, src/ reductions of set-up values). */
#ifndef HDEM_COLLECTIVE_H
#define HDEM_COLLECTIVE_H

#include "../src/hdem.h"

PETSC_EXTERN PetscErrorCode CollectiveRank(MPI_Comm, PetscMPIInt *rank, PetscMPIInt *size);
PETSC_EXTERN PetscErrorCode CollectiveBcastInt(MPI_Comm, PetscInt *, PetscInt n);
PETSC_EXTERN PetscErrorCode CollectiveBcastReal(MPI_Comm, PetscReal *, PetscInt n);
PETSC_EXTERN PetscErrorCode CollectiveSumToRoot(MPI_Comm, PetscReal *, PetscInt n);
PETSC_EXTERN void           CollectiveAbort(MPI_Comm, int code);

#endif
