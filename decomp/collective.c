#include "decomp/collective.h"
#include <stdint.h>
#include <string.h>
#include <unistd.h>

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

/* Alone, the process ends without MPI_Abort's banner (the error is said);
 * with others, MPI_Abort is what reaches them wherever they wait. */
void CollectiveAbortAlways(MPI_Comm comm, int code)
{
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size > 1) MPI_Abort(comm, code);
  (void)fflush(NULL);
  _exit(code);
}

void CollectiveExitTogether(MPI_Comm comm, int code)
{
  (void)MPI_Barrier(comm); /* no rank ends before every rank has said its part */
  (void)fflush(NULL);
  _exit(code);
}

/* In-place sum onto rank 0 (each slot written by one rank: exact). */
PetscErrorCode CollectiveSumToRoot(MPI_Comm comm, PetscReal *v, PetscInt n)
{
  PetscMPIInt rank, cnt;

  PetscFunctionBeginUser;
  PetscCall(PetscMPIIntCast(n, &cnt));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) PetscCallMPI(MPI_Reduce(MPI_IN_PLACE, v, cnt, MPIU_REAL, MPI_SUM, 0, comm));
  else PetscCallMPI(MPI_Reduce(v, NULL, cnt, MPIU_REAL, MPI_SUM, 0, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CollectiveAllReduce(MPI_Comm comm, PetscReal *v, PetscInt n, MPI_Op op)
{
  PetscMPIInt cnt;

  PetscFunctionBeginUser;
  PetscCall(PetscMPIIntCast(n, &cnt));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, v, cnt, MPIU_REAL, op, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveSumAll(MPI_Comm comm, PetscReal *v, PetscInt n)
{
  PetscFunctionBeginUser;
  PetscCall(CollectiveAllReduce(comm, v, n, MPI_SUM));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveMaxAll(MPI_Comm comm, PetscReal *v, PetscInt n)
{
  PetscFunctionBeginUser;
  PetscCall(CollectiveAllReduce(comm, v, n, MPI_MAX));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Where this rank's rows start in a shared file (offsets by MPI_Exscan). */
PetscErrorCode CollectiveOffset(MPI_Comm comm, PetscInt64 n, PetscInt64 *offset, PetscInt64 *total)
{
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  *offset = 0;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Exscan(&n, offset, 1, MPIU_INT64, MPI_SUM, comm));
  if (rank == 0) *offset = 0; /* MPI_Exscan leaves rank 0's result undefined */
  PetscCallMPI(MPI_Allreduce(&n, total, 1, MPIU_INT64, MPI_SUM, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each layout of operations its own contiguous datatype, committed once;
 * the operation finds its layout by the datatype it is handed. */
typedef struct {
  PetscInt     n;
  CollectiveOp ops[COLLECTIVE_MIXED_MAX];
  MPI_Datatype type;
} CollectiveLayout;

#define COLLECTIVE_LAYOUTS 8
static CollectiveLayout collective_layout[COLLECTIVE_LAYOUTS];
static PetscInt         collective_nlayout = 0;
static MPI_Op           collective_op      = MPI_OP_NULL;

static void CollectiveMixedOp(void *in, void *inout, int *len, MPI_Datatype *type)
{
  const CollectiveLayout *l = NULL;
  const double           *a = (const double *)in;
  double                 *b = (double *)inout;

  for (PetscInt k = 0; k < collective_nlayout && !l; k++)
    if (collective_layout[k].type == *type) l = &collective_layout[k];
  if (!l) return; /* not ours: cannot happen */
  for (int e = 0; e < *len; e++, a += l->n, b += l->n)
    for (PetscInt k = 0; k < l->n; k++) switch (l->ops[k]) {
      case COLLECTIVE_MIN:
        b[k] = a[k] < b[k] ? a[k] : b[k];
        break;
      case COLLECTIVE_MAX:
        b[k] = a[k] > b[k] ? a[k] : b[k];
        break;
      case COLLECTIVE_SUM:
        b[k] = a[k] + b[k];
        break;
      case COLLECTIVE_BOR:
        b[k] = (double)((long long)a[k] | (long long)b[k]);
        break;
      }
}

PetscErrorCode CollectiveReduceMixed(MPI_Comm comm, PetscInt n, PetscReal v[], const CollectiveOp ops[])
{
  CollectiveLayout *l = NULL;

  PetscFunctionBeginUser;
  PetscCheck(n > 0 && n <= COLLECTIVE_MIXED_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "a mixed reduction of %" PetscInt_FMT " values (at most %d)", n, COLLECTIVE_MIXED_MAX);
  for (PetscInt k = 0; k < collective_nlayout && !l; k++)
    if (collective_layout[k].n == n && !memcmp(collective_layout[k].ops, ops, (size_t)n * sizeof(*ops)))
      l = &collective_layout[k];
  if (!l) { /* the values as one element, so that no implementation splits them */
    PetscCheck(collective_nlayout < COLLECTIVE_LAYOUTS, PETSC_COMM_SELF, PETSC_ERR_SUP,
               "more than %d layouts of mixed reductions", COLLECTIVE_LAYOUTS);
    l    = &collective_layout[collective_nlayout];
    l->n = n;
    PetscCall(PetscArraycpy(l->ops, ops, n));
    PetscCallMPI(MPI_Type_contiguous((PetscMPIInt)n, MPI_DOUBLE, &l->type));
    PetscCallMPI(MPI_Type_commit(&l->type));
    collective_nlayout++;
    /* commutative */
    if (collective_op == MPI_OP_NULL) PetscCallMPI(MPI_Op_create(CollectiveMixedOp, 1, &collective_op));
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, v, 1, l->type, collective_op, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveGatherReal(MPI_Comm comm, PetscReal v, PetscReal *all)
{
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Gather(&v, 1, MPIU_REAL, all, 1, MPIU_REAL, 0, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveBarrier(MPI_Comm comm)
{
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Barrier(comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CollectiveRoute; *take (when given) is freed once packed, before the exchange. */
static PetscErrorCode CollectiveRouteCore(MPI_Comm comm, PetscInt n, PetscInt width, MPI_Datatype type, size_t esize,
                                          const void *items, void **take, const PetscMPIInt *dest, PetscInt *nout,
                                          void **out)
{
  PetscMPIInt  size, *scnt, *sdsp, *rcnt, *rdsp, *fill, w;
  char        *sbuf;
  const size_t rbytes = (size_t)width * esize; /* one record */
  PetscInt64   total = 0, sent = 0;
  MPI_Datatype rec;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMPIIntCast(width, &w));
  PetscCall(PetscCalloc5(size, &scnt, size + 1, &sdsp, size, &rcnt, size + 1, &rdsp, size, &fill));
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(dest[i] >= 0 && dest[i] < size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "route: destination rank %d of item %" PetscInt_FMT " is not in [0, %d)", dest[i], i, size);
    scnt[dest[i]]++;
  }
  PetscCallMPI(MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, comm));
  for (PetscMPIInt r = 0; r < size; r++) {
    total += rcnt[r], sent += scnt[r];
    PetscCheck(sent < PETSC_MPI_INT_MAX && total < PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW,
               "route: more than 2^31 records for one rank; use more ranks");
    sdsp[r + 1] = sdsp[r] + scnt[r];
    rdsp[r + 1] = rdsp[r] + rcnt[r];
  }
  PetscCall(PetscMalloc((size_t)n * rbytes + esize, &sbuf));
  PetscCall(PetscMalloc((size_t)total * rbytes + esize, out));
  for (PetscInt i = 0; i < n; i++) { /* in item order within each destination: the result is deterministic */
    PetscCall(PetscMemcpy(sbuf + ((size_t)sdsp[dest[i]] + fill[dest[i]]) * rbytes,
                          (const char *)items + (size_t)i * rbytes, rbytes));
    fill[dest[i]]++;
  }
  if (take) PetscCall(PetscFree(*take));
  PetscCallMPI(MPI_Type_contiguous(w, type, &rec));
  PetscCallMPI(MPI_Type_commit(&rec));
  PetscCallMPI(MPI_Alltoallv(sbuf, scnt, sdsp, rec, *out, rcnt, rdsp, rec, comm));
  PetscCallMPI(MPI_Type_free(&rec));
  *nout = (PetscInt)total;
  PetscCall(PetscFree(sbuf));
  PetscCall(PetscFree5(scnt, sdsp, rcnt, rdsp, fill));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveRoute(MPI_Comm comm, PetscInt n, PetscInt width, const PetscReal *items,
                               const PetscMPIInt *dest, PetscInt *nout, PetscReal **out)
{
  PetscFunctionBeginUser;
  PetscCall(CollectiveRouteCore(comm, n, width, MPIU_REAL, sizeof(PetscReal), items, NULL, dest, nout, (void **)out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveRouteInt64(MPI_Comm comm, PetscInt n, PetscInt width, const PetscInt64 *items,
                                    const PetscMPIInt *dest, PetscInt *nout, PetscInt64 **out)
{
  PetscFunctionBeginUser;
  PetscCall(CollectiveRouteCore(comm, n, width, MPIU_INT64, sizeof(PetscInt64), items, NULL, dest, nout, (void **)out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveRouteTake(MPI_Comm comm, PetscInt n, PetscInt width, PetscReal **items,
                                   const PetscMPIInt *dest, PetscInt *nout, PetscReal **out)
{
  PetscFunctionBeginUser;
  PetscCall(CollectiveRouteCore(comm, n, width, MPIU_REAL, sizeof(PetscReal), *items, (void **)items, dest, nout,
                                (void **)out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveRouteCount(MPI_Comm comm, PetscInt n, const PetscMPIInt *dest, PetscInt *nin)
{
  PetscMPIInt size;
  PetscInt64 *cnt, mine = 0;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscCalloc1(size, &cnt));
  for (PetscInt i = 0; i < n; i++) cnt[dest[i]]++;
  PetscCallMPI(MPI_Reduce_scatter_block(cnt, &mine, 1, MPIU_INT64, MPI_SUM, comm));
  PetscCall(PetscFree(cnt));
  *nin = (PetscInt)mine;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveRoutePart(MPI_Comm comm, PetscInt n, PetscInt width, PetscReal **items,
                                   const PetscMPIInt *dest, PetscInt part, PetscInt parts, PetscInt nin, PetscReal *out,
                                   PetscInt *filled)
{
  PetscInt   hi = n - (PetscInt)((PetscInt64)n * part / parts), lo = n - (PetscInt)((PetscInt64)n * (part + 1) / parts);
  PetscInt   m;
  PetscReal *in;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRouteCore(comm, hi - lo, width, MPIU_REAL, sizeof(PetscReal), *items + (size_t)lo * width, NULL,
                                dest + lo, &m, (void **)&in));
  PetscCall(PetscRealloc(sizeof(PetscReal) * ((size_t)lo * width + 1), items));
  PetscCheck(*filled + m <= nin, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "route: %" PetscInt_FMT " records arrived, %" PetscInt_FMT " counted", *filled + m, nin);
  PetscCall(PetscArraycpy(out + (size_t)*filled * width, in, (size_t)m * width));
  *filled += m;
  PetscCall(PetscFree(in));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveMinLoc(MPI_Comm comm, PetscInt64 key, PetscInt64 *min, PetscMPIInt *rank)
{
  struct {
    long key;
    int  rank;
  } in, res;

  PetscFunctionBeginUser;
  in.key = (long)key;
  PetscCallMPI(MPI_Comm_rank(comm, &in.rank));
  PetscCallMPI(MPI_Allreduce(&in, &res, 1, MPI_LONG_INT, MPI_MINLOC, comm));
  *min  = (PetscInt64)res.key;
  *rank = res.rank;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveBcastIntFrom(MPI_Comm comm, PetscInt *v, PetscInt n, PetscMPIInt root)
{
  PetscMPIInt cnt;

  PetscFunctionBeginUser;
  PetscCall(PetscMPIIntCast(n, &cnt));
  PetscCallMPI(MPI_Bcast(v, cnt, MPIU_INT, root, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define COLLECTIVE_SWAP_TAG 31

PetscErrorCode CollectiveSwap(MPI_Comm comm, PetscInt n, const PetscMPIInt partner[], const PetscInt count[],
                              const PetscReal *send, PetscReal *recv)
{
  MPI_Request *req;
  PetscInt64   off = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(2 * n + 1, &req));
  for (PetscInt i = 0; i < n; i++) {
    PetscMPIInt cnt;
    PetscCall(PetscMPIIntCast(count[i], &cnt));
    PetscCallMPI(MPI_Irecv(recv + off, cnt, MPIU_REAL, partner[i], COLLECTIVE_SWAP_TAG, comm, &req[i]));
    PetscCallMPI(MPI_Isend(send + off, cnt, MPIU_REAL, partner[i], COLLECTIVE_SWAP_TAG, comm, &req[n + i]));
    off += count[i];
  }
  PetscCallMPI(MPI_Waitall((PetscMPIInt)(2 * n), req, MPI_STATUSES_IGNORE));
  PetscCall(PetscFree(req));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveGatherAllBytes(MPI_Comm comm, const void *mine, PetscInt len, PetscInt *total, char **all)
{
  PetscMPIInt size, cnt, *rcnt, *rdsp;
  PetscInt64  sum = 0;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMPIIntCast(len, &cnt));
  PetscCall(PetscMalloc2(size, &rcnt, size, &rdsp));
  PetscCallMPI(MPI_Allgather(&cnt, 1, MPI_INT, rcnt, 1, MPI_INT, comm));
  for (PetscMPIInt r = 0; r < size; r++) {
    PetscCall(PetscMPIIntCast(sum, &rdsp[r]));
    sum += rcnt[r];
  }
  PetscCall(PetscMPIIntCast(sum, &cnt)); /* the displacements are ints too */
  PetscCall(PetscMalloc1(sum + 1, all));
  PetscCallMPI(MPI_Allgatherv(mine, (PetscMPIInt)len, MPI_BYTE, *all, rcnt, rdsp, MPI_BYTE, comm));
  *total = (PetscInt)sum;
  PetscCall(PetscFree2(rcnt, rdsp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveFirstError(MPI_Comm comm, PetscErrorCode ierr, PetscInt64 key, const char *msg)
{
  PetscInt64  min;
  PetscMPIInt who, rank;
  PetscInt    code      = 0;
  char        buf[1024] = "";

  PetscFunctionBeginUser;
  PetscCall(CollectiveMinLoc(comm, ierr ? PetscMin(key, INT64_MAX - 1) : INT64_MAX, &min, &who));
  if (min == INT64_MAX) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == who) {
    char *specific = NULL;
    if (!msg) (void)PetscErrorMessage(ierr, NULL, &specific);
    PetscCall(PetscStrncpy(buf, msg ? msg : specific ? specific : "", sizeof(buf)));
    code = (PetscInt)ierr;
  }
  PetscCallMPI(MPI_Bcast(buf, (PetscMPIInt)sizeof(buf), MPI_CHAR, who, comm));
  PetscCall(CollectiveBcastIntFrom(comm, &code, 1, who));
  SETERRQ(comm, (PetscErrorCode)code, "%s", buf[0] ? buf : "an input could not be read");
}

PetscErrorCode CollectiveBcastChars(MPI_Comm comm, char *s, PetscInt len)
{
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Bcast(s, (PetscMPIInt)len, MPI_CHAR, 0, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CollectiveBcastCharsFrom(MPI_Comm comm, char *s, PetscInt len, PetscMPIInt root)
{
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Bcast(s, (PetscMPIInt)len, MPI_CHAR, root, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
