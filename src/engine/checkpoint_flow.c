/* The streams' and outflows' counters in a checkpoint (engine/flowstate.h),
 * so a run with a feed and an outlet continues bitwise on any rank count:
 *   /flow/counts  int64 [K]    next_id, then per stream seq, inserted,
 *                              shortfall, warned, then per outflow and class removed
 *   /flow/times   float64 [S]  per stream the time of its last insertion
 *   /flow/mass    int64 [M][EXACTSUM_DIGITS + 1]  the exact mass sums, canonical
 *                              digits and the special flags: per stream inserted,
 *                              then per outflow and class removed
 *   /flow/energy  int64 [FLOW_ENERGY_TERMS][EXACTSUM_DIGITS + 1]  the energy
 *                              ledger's sums of the particles that came and
 *                              went, alike (absent before the ledger: zero)
 * Totals over the ranks, written by rank 0, read whole by every rank; rank 0
 * carries them on (FlowStateLocal). */
#include "engine/checkpoint.h"
#include "engine/flow.h"
#include "decomp/collective.h"

#define CKPT_FLOW_COUNTS (1 + 4 * STREAMS_MAX + OUTFLOWS_MAX * FLOW_CLASSES_MAX)
#define CKPT_FLOW_SUMS   (STREAMS_MAX + OUTFLOWS_MAX * FLOW_CLASSES_MAX)
#define CKPT_FLOW_WIDTH  (EXACTSUM_DIGITS + 1)
_Static_assert(FLOW_ENERGY_TERMS <= CKPT_FLOW_SUMS, "the energy sums fit the mass sums' buffer");

static ExactSum *CkptFlowSum(FlowState *s, PetscInt k)
{
  return k < STREAMS_MAX ? &s->inserted_mass[k] : &s->removed_mass[(k - STREAMS_MAX) / FLOW_CLASSES_MAX][(k - STREAMS_MAX) % FLOW_CLASSES_MAX];
}

static PetscInt64 *CkptFlowCount(FlowState *s, PetscInt k)
{
  if (k == 0) return &s->next_id;
  k--;
  if (k < 4 * STREAMS_MAX) {
    PetscInt64 *a[4] = {s->seq, s->inserted, s->shortfall, s->warned};
    return &a[k / STREAMS_MAX][k % STREAMS_MAX];
  }
  k -= 4 * STREAMS_MAX;
  return &s->removed[k / FLOW_CLASSES_MAX][k % FLOW_CLASSES_MAX];
}

/* An exact sum as its canonical digits and its special flags. */
static void CkptSumDigits(ExactSum *s, PetscInt64 *row)
{
  ExactSumNormalize(s);
  for (PetscInt d = 0; d < EXACTSUM_DIGITS; d++) row[d] = s->d[d];
  row[EXACTSUM_DIGITS] = s->special;
}

/* Row k of dataset name back into an exact sum, its digits checked canonical. */
static PetscErrorCode CkptSumFromDigits(H5File f, const char *name, PetscInt k, const PetscInt64 *row, ExactSum *x)
{
  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < EXACTSUM_DIGITS; d++) {
    PetscInt64 v = row[d];
    /* canonical digits: an exact sum has exactly one such form */
    PetscCheck(d == EXACTSUM_DIGITS - 1 || (v >= 0 && v < ((PetscInt64)1 << 32)), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "checkpoint %s: /%s row %" PetscInt_FMT " digit %" PetscInt_FMT " is %" PetscInt64_FMT ": not an exact sum", H5FilePath(f), name, k, d, v);
    x->d[d] = v;
  }
  x->adds    = 0;
  x->special = (int32_t)row[EXACTSUM_DIGITS];
  PetscCheck(x->special >= 0 && x->special <= (EXACTSUM_NAN | EXACTSUM_POS_INF | EXACTSUM_NEG_INF), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "checkpoint %s: /%s row %" PetscInt_FMT " has flags %d", H5FilePath(f), name, k, (int)x->special);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointWriteFlow(H5File f, Engine *e, PetscInt64 *removed)
{
  FlowState   tot;
  PetscInt64 *cnt, *sums;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  *removed = 0;
  if (!e->flow.on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CollectiveRank(e->grid.comm, &rank, NULL));
  PetscCall(FlowStateTotals(e, &tot));
  *removed = FlowRemovedAll(&e->flow, &tot);
  PetscCall(PetscMalloc2(CKPT_FLOW_COUNTS, &cnt, CKPT_FLOW_SUMS * CKPT_FLOW_WIDTH, &sums));
  for (PetscInt k = 0; k < CKPT_FLOW_COUNTS; k++) cnt[k] = *CkptFlowCount(&tot, k);
  for (PetscInt k = 0; k < CKPT_FLOW_SUMS; k++) CkptSumDigits(CkptFlowSum(&tot, k), sums + k * CKPT_FLOW_WIDTH);
  PetscCall(H5FileWriteRows(f, "flow/counts", H5FILE_INT64, 1, rank ? 0 : CKPT_FLOW_COUNTS, cnt));
  PetscCall(H5FileWriteRows(f, "flow/times", H5FILE_REAL, 1, rank ? 0 : STREAMS_MAX, tot.t_insert));
  PetscCall(H5FileWriteRows(f, "flow/mass", H5FILE_INT64, CKPT_FLOW_WIDTH, rank ? 0 : CKPT_FLOW_SUMS, sums));
  for (PetscInt k = 0; k < FLOW_ENERGY_TERMS; k++) CkptSumDigits(&tot.energy[k], sums + k * CKPT_FLOW_WIDTH);
  PetscCall(H5FileWriteRows(f, "flow/energy", H5FILE_INT64, CKPT_FLOW_WIDTH, rank ? 0 : FLOW_ENERGY_TERMS, sums));
  PetscCall(PetscFree2(cnt, sums));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One dataset whole, its shape and checksum checked. */
static PetscErrorCode CkptFlowRead(H5File f, const char *name, H5FileType type, PetscInt ncomp, PetscInt n, void *buf)
{
  PetscInt64 N;
  PetscBool  has;

  PetscFunctionBeginUser;
  PetscCall(H5FileRows(f, name, type, ncomp, &N, &has));
  PetscCheck(has, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s has no /%s: it was written by a run without streams or outflows", H5FilePath(f),
             name);
  PetscCheck(N == n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: /%s has %" PetscInt64_FMT " rows, this hdem writes %" PetscInt_FMT,
             H5FilePath(f), name, N, n);
  PetscCall(H5FileReadRows(f, name, type, ncomp, 0, n, buf));
  PetscCall(H5FileVerifyRows(f, name, type, ncomp, N, 0, n, buf, PETSC_TRUE, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointReadFlow(H5File f, Engine *e)
{
  FlowState  *s = &e->flow.state;
  PetscInt64 *cnt, *sums;

  PetscFunctionBeginUser;
  if (!e->flow.on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(CKPT_FLOW_COUNTS, &cnt, CKPT_FLOW_SUMS * CKPT_FLOW_WIDTH, &sums));
  PetscCall(CkptFlowRead(f, "flow/counts", H5FILE_INT64, 1, CKPT_FLOW_COUNTS, cnt));
  PetscCall(CkptFlowRead(f, "flow/times", H5FILE_REAL, 1, STREAMS_MAX, s->t_insert));
  PetscCall(CkptFlowRead(f, "flow/mass", H5FILE_INT64, CKPT_FLOW_WIDTH, CKPT_FLOW_SUMS, sums));
  for (PetscInt k = 0; k < CKPT_FLOW_COUNTS; k++) {
    PetscCheck(cnt[k] >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint %s: /flow/counts row %" PetscInt_FMT " is %" PetscInt64_FMT ": counts are >= 0",
               H5FilePath(f), k, cnt[k]);
    *CkptFlowCount(s, k) = cnt[k];
  }
  for (PetscInt k = 0; k < STREAMS_MAX; k++)
    PetscCheck(PetscIsNormalReal(s->t_insert[k]) || s->t_insert[k] == 0.0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "checkpoint %s: /flow/times row %" PetscInt_FMT " is %g: it must be finite", H5FilePath(f), k, (double)s->t_insert[k]);
  for (PetscInt k = 0; k < CKPT_FLOW_SUMS; k++) PetscCall(CkptSumFromDigits(f, "flow/mass", k, sums + k * CKPT_FLOW_WIDTH, CkptFlowSum(s, k)));
  {
    PetscInt64 N;
    PetscBool  has;
    PetscCall(H5FileRows(f, "flow/energy", H5FILE_INT64, CKPT_FLOW_WIDTH, &N, &has));
    if (has) { /* a checkpoint from before the ledger has none: zero */
      PetscCall(CkptFlowRead(f, "flow/energy", H5FILE_INT64, CKPT_FLOW_WIDTH, FLOW_ENERGY_TERMS, sums));
      for (PetscInt k = 0; k < FLOW_ENERGY_TERMS; k++) PetscCall(CkptSumFromDigits(f, "flow/energy", k, sums + k * CKPT_FLOW_WIDTH, &s->energy[k]));
    }
  }
  PetscCall(PetscFree2(cnt, sums));
  PetscCall(FlowStateLocal(e));
  PetscFunctionReturn(PETSC_SUCCESS);
}
