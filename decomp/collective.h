/* Thin collectives for the layers that must not call MPI themselves
 * (io/ reading on rank 0 and sharing, src/ reductions of set-up values). */
#ifndef HDEM_COLLECTIVE_H
#define HDEM_COLLECTIVE_H

#include "hdem.h"

PETSC_EXTERN PetscErrorCode CollectiveRank(MPI_Comm, PetscMPIInt *rank, PetscMPIInt *size);
PETSC_EXTERN PetscErrorCode CollectiveBcastInt(MPI_Comm, PetscInt *, PetscInt n);
PETSC_EXTERN PetscErrorCode CollectiveBcastReal(MPI_Comm, PetscReal *, PetscInt n);
PETSC_EXTERN PetscErrorCode CollectiveBcastChars(MPI_Comm, char *, PetscInt len);
PETSC_EXTERN PetscErrorCode CollectiveSumToRoot(MPI_Comm, PetscReal *, PetscInt n);
PETSC_EXTERN PetscErrorCode CollectiveOffset(MPI_Comm, PetscInt64 n, PetscInt64 *offset, PetscInt64 *total); /* exclusive prefix sum and total */
PETSC_EXTERN PetscErrorCode CollectiveSumAll(MPI_Comm, PetscReal *, PetscInt n);
PETSC_EXTERN PetscErrorCode CollectiveMaxAll(MPI_Comm, PetscReal *, PetscInt n);
/* The one reduction per step: v[0] min (timestep bound), v[1] bitwise or
 * (the rebuild criterion's bits), v[2] sum (particle count), v[3] max (a stop or checkpoint request:
 * a signal may reach one rank only), v[4..6] min and v[7..9] max (the
 * displacements' ranges since the lists were built), in a single message. */
#define COLLECTIVE_STEP_REALS 10
PETSC_EXTERN PetscErrorCode CollectiveStepReduce(MPI_Comm, PetscReal v[COLLECTIVE_STEP_REALS]);
/* Sends each of n records (width reals) to rank dest[i]; *out (PetscFree it)
 * holds what arrived, by source rank then the sender's order. */
PETSC_EXTERN PetscErrorCode CollectiveRoute(MPI_Comm, PetscInt n, PetscInt width, const PetscReal *items, const PetscMPIInt *dest, PetscInt *nout, PetscReal **out);
PETSC_EXTERN PetscErrorCode CollectiveGatherReal(MPI_Comm, PetscReal v, PetscReal *all); /* all: size entries on rank 0 */
PETSC_EXTERN PetscErrorCode CollectiveBarrier(MPI_Comm);
PETSC_EXTERN void           CollectiveAbort(MPI_Comm, int code);

#endif
