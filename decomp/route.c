#include "decomp/route.h"

/* Tags of their own: no other message between two ranks is taken for one of these. */
#define ROUTE_TAG_COUNT 31
#define ROUTE_TAG_DATA  32

/* The counts: each receiver learns how many records each partner sends. */
static PetscErrorCode RouteSparseCounts(MPI_Comm comm, PetscInt nsend, const PetscMPIInt to[], const PetscInt nto[],
                                        PetscInt nrecv, const PetscMPIInt from[], PetscInt64 nfrom[])
{
  MPI_Request *req;
  PetscInt64  *sc;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(nsend + nrecv + 1, &req, nsend + 1, &sc));
  for (PetscInt j = 0; j < nrecv; j++)
    PetscCallMPI(MPI_Irecv(&nfrom[j], 1, MPIU_INT64, from[j], ROUTE_TAG_COUNT, comm, &req[j]));
  for (PetscInt i = 0; i < nsend; i++) {
    sc[i] = nto[i];
    PetscCallMPI(MPI_Isend(&sc[i], 1, MPIU_INT64, to[i], ROUTE_TAG_COUNT, comm, &req[nrecv + i]));
  }
  PetscCallMPI(MPI_Waitall((PetscMPIInt)(nsend + nrecv), req, MPI_STATUSES_IGNORE));
  PetscCall(PetscFree2(req, sc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RouteSparse(MPI_Comm comm, PetscInt width, PetscInt nsend, const PetscMPIInt to[], const PetscInt nto[],
                           const PetscReal *items, PetscInt nrecv, const PetscMPIInt from[], PetscInt *nout,
                           PetscReal **out)
{
  MPI_Request *req;
  PetscInt64  *nfrom, total = 0;
  PetscInt     nreq = 0;
  size_t       off  = 0;
  PetscMPIInt  w, cnt;
  MPI_Datatype rec;

  PetscFunctionBeginUser;
  PetscCall(PetscMPIIntCast(width, &w));
  PetscCall(PetscMalloc2(nrecv + 1, &nfrom, nsend + nrecv + 1, &req));
  PetscCall(RouteSparseCounts(comm, nsend, to, nto, nrecv, from, nfrom));
  for (PetscInt j = 0; j < nrecv; j++) total += nfrom[j];
  PetscCheck(total < PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW,
             "route: %" PetscInt64_FMT " records for one rank, more than 2^31 - 1; use more ranks", total);
  PetscCall(PetscMalloc1((size_t)total * width + 1, out));
  PetscCallMPI(MPI_Type_contiguous(w, MPIU_REAL, &rec));
  PetscCallMPI(MPI_Type_commit(&rec));
  for (PetscInt j = 0; j < nrecv; j++) { /* an empty block is said by its count alone */
    if (!nfrom[j]) continue;
    PetscCall(PetscMPIIntCast(nfrom[j], &cnt));
    PetscCallMPI(MPI_Irecv(*out + off * width, cnt, rec, from[j], ROUTE_TAG_DATA, comm, &req[nreq++]));
    off += (size_t)nfrom[j];
  }
  off = 0;
  for (PetscInt i = 0; i < nsend; i++) {
    if (nto[i]) {
      PetscCall(PetscMPIIntCast(nto[i], &cnt));
      PetscCallMPI(MPI_Isend(items + off * width, cnt, rec, to[i], ROUTE_TAG_DATA, comm, &req[nreq++]));
    }
    off += (size_t)nto[i];
  }
  PetscCallMPI(MPI_Waitall((PetscMPIInt)nreq, req, MPI_STATUSES_IGNORE));
  PetscCallMPI(MPI_Type_free(&rec));
  *nout = (PetscInt)total;
  PetscCall(PetscFree2(nfrom, req));
  PetscFunctionReturn(PETSC_SUCCESS);
}
