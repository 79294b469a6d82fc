#include "collective.h"

PetscErrorCode CollectiveRank(MPI_Comm comm, PetscMPIInt *rank, PetscMPIInt *size)
{
  PetscFunctionBeginUser;
  if (rank) PetscCallMPI(MPI_Comm_rank(comm, rank));
  if (size) PetscCallMPI(MPI_Comm_size(comm, size));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveBcastInt(MPI_Comm comm, PetscInt *v, PetscInt n)
{
  PetscMPIInt cnt;

  PetscFunctionBeginUser;
  PetscCall(PetscMPIIntCast(n, &cnt));
  PetscCallMPI(MPI_Bcast(v, cnt, MPIU_INT, 0, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveBcastReal(MPI_Comm comm, PetscReal *v, PetscInt n)
{
  PetscMPIInt cnt;

  PetscFunctionBeginUser;
  PetscCall(PetscMPIIntCast(n, &cnt));
  PetscCallMPI(MPI_Bcast(v, cnt, MPIU_REAL, 0, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On one rank a clean exit is possible; with several, a rank that failed
 * alone would leave the others waiting in a collective, so abort them all. */
void CollectiveAbort(MPI_Comm comm, int code)
{
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size > 1) MPI_Abort(comm, code);
}
