/* Thin collectives for the layers that must not call MPI themselves
 * (io/ reading on rank 0 and sharing, src/ reductions of set-up values). */
#ifndef HDEM_COLLECTIVE_H
#define HDEM_COLLECTIVE_H

#include "hdem.h"

PETSC_EXTERN PetscErrorCode CollectiveRank(MPI_Comm, PetscMPIInt *rank, PetscMPIInt *size);
PETSC_EXTERN PetscErrorCode CollectiveBcastInt(MPI_Comm, PetscInt *, PetscInt n);
PETSC_EXTERN PetscErrorCode CollectiveBcastReal(MPI_Comm, PetscReal *, PetscInt n);
PETSC_EXTERN PetscErrorCode CollectiveBcastChars(MPI_Comm, char *, PetscInt len);
PETSC_EXTERN PetscErrorCode CollectiveBcastCharsFrom(MPI_Comm, char *, PetscInt len, PetscMPIInt root);
PETSC_EXTERN PetscErrorCode CollectiveSumToRoot(MPI_Comm, PetscReal *, PetscInt n);
/* exclusive prefix sum and total */
PETSC_EXTERN PetscErrorCode CollectiveOffset(MPI_Comm, PetscInt64 n, PetscInt64 *offset, PetscInt64 *total);
PETSC_EXTERN PetscErrorCode CollectiveSumAll(MPI_Comm, PetscReal *, PetscInt n);
PETSC_EXTERN PetscErrorCode CollectiveMaxAll(MPI_Comm, PetscReal *, PetscInt n);
/* One reduction of n reals in a single message, each element with its own
 * operation: the time loop's one per step (a minimum of the contact bounds,
 * an or of decision bits, a particle count, ...).  Bitwise or acts on
 * small whole numbers held as reals. */
typedef enum {
  COLLECTIVE_MIN,
  COLLECTIVE_MAX,
  COLLECTIVE_SUM,
  COLLECTIVE_BOR
} CollectiveOp;
#define COLLECTIVE_MIXED_MAX 64
PETSC_EXTERN PetscErrorCode CollectiveReduceMixed(MPI_Comm, PetscInt n, PetscReal v[], const CollectiveOp ops[]);
/* Sends each of n records (width reals) to rank dest[i]; *out (PetscFree it)
 * holds what arrived, by source rank then the sender's order.  MPI counts
 * are records, so a rank may send or receive up to 2^31 - 1 of them. */
PETSC_EXTERN PetscErrorCode CollectiveRoute(MPI_Comm, PetscInt n, PetscInt width, const PetscReal *items,
                                            const PetscMPIInt *dest, PetscInt *nout, PetscReal **out);
/* CollectiveRoute of records of width int64s. */
PETSC_EXTERN PetscErrorCode CollectiveRouteInt64(MPI_Comm, PetscInt n, PetscInt width, const PetscInt64 *items,
                                                 const PetscMPIInt *dest, PetscInt *nout, PetscInt64 **out);
/* CollectiveRoute, *items freed (and NULL) once copied out: one copy less at the peak. */
PETSC_EXTERN PetscErrorCode CollectiveRouteTake(MPI_Comm, PetscInt n, PetscInt width, PetscReal **items,
                                                const PetscMPIInt *dest, PetscInt *nout, PetscReal **out);
/* A route in parts, for records that would not fit twice: how many
 * records this rank will receive (nin, to size out), then part p of
 * parts (p = 0 .. parts - 1, every rank each in turn) sends the p-th
 * slice of items from the end, cuts it off *items and appends what
 * arrives to out at *filled. */
PETSC_EXTERN PetscErrorCode CollectiveRouteCount(MPI_Comm, PetscInt n, const PetscMPIInt *dest, PetscInt *nin);
PETSC_EXTERN PetscErrorCode CollectiveRoutePart(MPI_Comm, PetscInt n, PetscInt width, PetscReal **items,
                                                const PetscMPIInt *dest, PetscInt part, PetscInt parts, PetscInt nin,
                                                PetscReal *out, PetscInt *filled);
/* Point-to-point swaps with n partner ranks (no collective): to partner[i]
 * the count[i] reals of send at the sum of the counts before i, from it as
 * many into recv at the same place.  The lists must agree: rank p lists q
 * with count c exactly when q lists p with count c (each side derives them
 * from what both know).  What arrives does not depend on timing. */
PETSC_EXTERN PetscErrorCode CollectiveSwap(MPI_Comm, PetscInt n, const PetscMPIInt partner[], const PetscInt count[],
                                           const PetscReal *send, PetscReal *recv);
/* The smallest key over the ranks and the lowest rank that holds it. */
PETSC_EXTERN PetscErrorCode CollectiveMinLoc(MPI_Comm, PetscInt64 key, PetscInt64 *min, PetscMPIInt *rank);
PETSC_EXTERN PetscErrorCode CollectiveBcastIntFrom(MPI_Comm, PetscInt *, PetscInt n, PetscMPIInt root);
/* Every rank's len bytes, concatenated in rank order on every rank (*all: PetscFree it). */
PETSC_EXTERN PetscErrorCode CollectiveGatherAllBytes(MPI_Comm, const void *mine, PetscInt len, PetscInt *total,
                                                     char **all);
/* Errors found apart, raised together: of the ranks whose ierr is set, the
 * one with the smallest key (then the lowest rank) has its error (msg, or
 * else its last PETSc message) raised on comm by every rank; nothing when
 * no rank failed.  Keys order errors as a serial reader would meet them. */
PETSC_EXTERN PetscErrorCode CollectiveFirstError(MPI_Comm, PetscErrorCode ierr, PetscInt64 key, const char *msg);
/* A call that one rank makes alone (a root's file; the others' call
 * evaluates to PETSC_SUCCESS), its outcome raised on every rank of comm
 * together (CollectiveFirstError): a full disk ends the run on every rank,
 * its message once, not in MPI_Abort.  Collective. */
#define CollectiveShared(comm, call) \
  do { \
    PetscErrorCode shared_ierr_; \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    shared_ierr_ = (call); \
    PetscCall(PetscPopErrorHandler()); \
    PetscCall(CollectiveFirstError((comm), shared_ierr_, 0, NULL)); \
  } while (0)
/* all: size entries on rank 0 */
PETSC_EXTERN PetscErrorCode CollectiveGatherReal(MPI_Comm, PetscReal v, PetscReal *all);
PETSC_EXTERN PetscErrorCode CollectiveBarrier(MPI_Comm);
PETSC_EXTERN void           CollectiveAbort(MPI_Comm, int code);
PETSC_EXTERN void           CollectiveAbortAlways(MPI_Comm, int code); /* ends the process at any size */
/* Every rank of comm calls it: all end here with code (not 0), without
 * MPI_Finalize, for a state in which it would crash (HDF5's, after a file
 * that could not be closed); with a non-zero code mpirun says only that the
 * job failed, not MPI_Abort's banner. */
PETSC_EXTERN void CollectiveExitTogether(MPI_Comm, int code);

#endif
