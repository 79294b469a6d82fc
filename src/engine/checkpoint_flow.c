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
 *   /flow/liquid  int64 [STREAMS_MAX + OUTFLOWS_MAX][EXACTSUM_DIGITS + 1]  wet
 *                              runs: the liquid each stream brought, then each
 *                              outflow took, alike (absent before: zero)
 * and, with the outflows' statistics (engine/flowstate.h FlowStats):
 *   /flow/stats_counts  int64 [B + R FLOW_RES_BINS]  the bins' counts, then the
 *                              residence histograms'
 *   /flow/stats_sums    int64 [B + R][EXACTSUM_DIGITS + 1]  the bins' masses,
 *                              then the residence times' sums
 *   /flow/stats_range   float64 [R][2]  least and largest residence time (with
 *                              flow_residence; inf, -inf before any)
 * Totals over the ranks, written by rank 0, read whole by every rank and
 * checked with the rest of the file before any of it is used (counts and
 * times >= 0, sums canonical, checksums); rank 0 carries them on
 * (FlowStateLocal). */
#include "engine/checkpoint_flow.h"
#include "engine/flow.h"
#include "decomp/collective.h"
#include <math.h>

#define CKPT_FLOW_COUNTS (1 + 4 * STREAMS_MAX + OUTFLOWS_MAX * FLOW_CLASSES_MAX)
#define CKPT_FLOW_SUMS   (STREAMS_MAX + OUTFLOWS_MAX * FLOW_CLASSES_MAX)
#define CKPT_FLOW_WIDTH  (EXACTSUM_DIGITS + 1)
#define CKPT_FLOW_LIQUID (STREAMS_MAX + OUTFLOWS_MAX)
_Static_assert(FLOW_ENERGY_TERMS <= CKPT_FLOW_SUMS && CKPT_FLOW_LIQUID <= CKPT_FLOW_SUMS,
               "the energy and liquid sums fit the mass sums' buffer");

static ExactSum *CkptFlowLiquid(FlowState *s, PetscInt k)
{
  return k < STREAMS_MAX ? &s->inserted_liquid[k] : &s->removed_liquid[k - STREAMS_MAX];
}

static ExactSum *CkptFlowSum(FlowState *s, PetscInt k)
{
  return k < STREAMS_MAX ? &s->inserted_mass[k]
                         : &s->removed_mass[(k - STREAMS_MAX) / FLOW_CLASSES_MAX][(k - STREAMS_MAX) % FLOW_CLASSES_MAX];
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

/* Row k of /flow/<j's name> back into an exact sum, its digits checked canonical. */
static PetscErrorCode CkptSumFromDigits(H5File f, PetscInt j, const char *name, PetscInt k, const PetscInt64 *row,
                                        ExactSum *x, CkptFault *ft)
{
  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < EXACTSUM_DIGITS; d++) {
    PetscInt64 v = row[d];
    /* canonical digits: an exact sum has exactly one such form */
    if (!(d == EXACTSUM_DIGITS - 1 || (v >= 0 && v < ((PetscInt64)1 << 32))))
      PetscCall(CkptFail(f, ft, CKPT_CHECK_FLOW + j, k,
                         "/%s row %" PetscInt_FMT " digit %" PetscInt_FMT " is %" PetscInt64_FMT ": not an exact sum",
                         name, k, d, v));
    x->d[d] = v;
  }
  x->adds    = 0;
  x->special = (int32_t)row[EXACTSUM_DIGITS];
  if (!(row[EXACTSUM_DIGITS] >= 0 && row[EXACTSUM_DIGITS] <= (EXACTSUM_NAN | EXACTSUM_POS_INF | EXACTSUM_NEG_INF)))
    PetscCall(CkptFail(f, ft, CKPT_CHECK_FLOW + j, k,
                       "/%s row %" PetscInt_FMT " has flags %" PetscInt64_FMT ": not an exact sum's", name, k,
                       row[EXACTSUM_DIGITS]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The statistics' totals, by rank 0, where the deck has them. */
static PetscErrorCode CkptWriteFlowStats(H5File f, Engine *e, PetscMPIInt rank)
{
  const FlowStats *s  = &e->flow.stats;
  const PetscInt   nh = s->nres * FLOW_RES_BINS;
  FlowStats        tot;
  PetscInt64      *cnt, *sums;
  PetscReal       *range;

  PetscFunctionBeginUser;
  if (!(s->nbins + s->nres)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(FlowStatsAlloc(&e->flow, &tot));
  PetscCall(FlowStatsTotals(e->grid.comm, s, &tot));
  PetscCall(PetscMalloc3(s->nbins + nh, &cnt, (s->nbins + s->nres) * CKPT_FLOW_WIDTH, &sums, 2 * s->nres + 1, &range));
  PetscCall(PetscArraycpy(cnt, tot.count, s->nbins));
  PetscCall(PetscArraycpy(cnt + s->nbins, tot.hist, nh));
  for (PetscInt r = 0; r < s->nbins; r++) CkptSumDigits(&tot.mass[r], sums + r * CKPT_FLOW_WIDTH);
  for (PetscInt r = 0; r < s->nres; r++) CkptSumDigits(&tot.tsum[r], sums + (s->nbins + r) * CKPT_FLOW_WIDTH);
  for (PetscInt r = 0; r < s->nres; r++) range[2 * r] = tot.tmin[r], range[2 * r + 1] = tot.tmax[r];
  PetscCall(H5FileWriteRows(f, "flow/stats_counts", H5FILE_INT64, 1, rank ? 0 : s->nbins + nh, cnt));
  PetscCall(H5FileWriteRows(f, "flow/stats_sums", H5FILE_INT64, CKPT_FLOW_WIDTH, rank ? 0 : s->nbins + s->nres, sums));
  if (s->nres) PetscCall(H5FileWriteRows(f, "flow/stats_range", H5FILE_REAL, 2, rank ? 0 : s->nres, range));
  PetscCall(PetscFree3(cnt, sums, range));
  PetscCall(FlowStatsFree(&tot));
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
  for (PetscInt k = 0; e->flow.liquid && k < CKPT_FLOW_LIQUID; k++)
    CkptSumDigits(CkptFlowLiquid(&tot, k), sums + k * CKPT_FLOW_WIDTH);
  if (e->flow.liquid)
    PetscCall(H5FileWriteRows(f, "flow/liquid", H5FILE_INT64, CKPT_FLOW_WIDTH, rank ? 0 : CKPT_FLOW_LIQUID, sums));
  PetscCall(PetscFree2(cnt, sums));
  PetscCall(CkptWriteFlowStats(f, e, rank));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /flow's datasets, in the order of their checks (CKPT_CHECK_FLOW + j, their
 * checksums' CKPT_CHECK_FLOW + CKPT_FLOW_SETS + j). */
#define CKPT_FLOW_SETS 8
static const char *const CkptFlowName[CKPT_FLOW_SETS] = {"flow/counts",      "flow/times",        "flow/mass",
                                                         "flow/energy",      "flow/stats_counts", "flow/stats_sums",
                                                         "flow/stats_range", "flow/liquid"};
_Static_assert(CKPT_CHECK_FLOW + 2 * CKPT_FLOW_SETS <= CKPT_CHECK_CHECKSUM, "/flow's checks before the checksums'");

/* One of /flow's datasets, read whole on every rank. */
typedef struct {
  H5FileType type;
  PetscInt   ncomp, n;
  void      *buf;
  PetscBool  read, has_sum;
  uint64_t   stored, sum; /* sum: this rank's share of the data's checksum */
} CkptFlowSet;

/* Dataset j whole into d->buf, its shape checked, its checksum kept. */
static PetscErrorCode CkptFlowRead(H5File f, MPI_Comm comm, PetscInt j, CkptFlowSet *d, CkptFault *ft)
{
  const char *name = CkptFlowName[j];
  PetscInt64  N;
  PetscBool   has;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  d->read = d->has_sum = PETSC_FALSE, d->sum = 0;
  PetscCall(H5FileRows(f, name, d->type, d->ncomp, &N, &has));
  if (!has)
    PetscCall(CkptFail(f, ft, CKPT_CHECK_FLOW + j, -1, "it has no dataset /%s: it was written by a run without %s",
                       name,
                       j < 4 ? "streams or outflows" : "these outflow statistics (outflowN_bin_*, flow_residence)"));
  else if (N != d->n)
    PetscCall(CkptFail(f, ft, CKPT_CHECK_FLOW + j, -1,
                       "/%s has %" PetscInt64_FMT " rows, this hdem writes %" PetscInt_FMT, name, N, d->n));
  if (!has || N != d->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(H5FileReadRows(f, name, d->type, d->ncomp, 0, d->n, d->buf));
  PetscCall(H5FileReadChecksum(f, name, &d->stored, &d->has_sum));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (d->has_sum && rank == 0) /* once: the shares are summed */
    PetscCall(H5FileChecksumRows(d->type, d->ncomp, 0, d->n, d->buf, &d->sum));
  d->read = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The values read: counts >= 0, times finite and >= 0, exact sums canonical. */
static PetscErrorCode CkptFlowValues(H5File f, FlowState *s, const CkptFlowSet *d, const PetscInt64 *cnt,
                                     const PetscInt64 *sums, CkptFault *ft)
{
  char b[32];

  PetscFunctionBeginUser;
  for (PetscInt k = 0; d[0].read && k < CKPT_FLOW_COUNTS; k++) {
    if (cnt[k] < 0)
      PetscCall(CkptFail(f, ft, CKPT_CHECK_FLOW, k,
                         "/flow/counts row %" PetscInt_FMT " is %" PetscInt64_FMT ": counts are >= 0", k, cnt[k]));
    *CkptFlowCount(s, k) = cnt[k];
  }
  for (PetscInt k = 0; d[1].read && k < STREAMS_MAX; k++) /* a stream's last insertion, or its start */
    if (!(isfinite(s->t_insert[k]) && s->t_insert[k] >= 0.0))
      PetscCall(CkptFail(f, ft, CKPT_CHECK_FLOW + 1, k,
                         "/flow/times row %" PetscInt_FMT " (stream%" PetscInt_FMT
                         ") is %s: a stream's time must be finite and >= 0",
                         k, k, CkptNum(s->t_insert[k], b)));
  for (PetscInt k = 0; d[2].read && k < CKPT_FLOW_SUMS; k++)
    PetscCall(CkptSumFromDigits(f, 2, CkptFlowName[2], k, sums + k * CKPT_FLOW_WIDTH, CkptFlowSum(s, k), ft));
  for (PetscInt k = 0; d[3].read && k < FLOW_ENERGY_TERMS; k++)
    PetscCall(
      CkptSumFromDigits(f, 3, CkptFlowName[3], k, sums + (CKPT_FLOW_SUMS + k) * CKPT_FLOW_WIDTH, &s->energy[k], ft));
  for (PetscInt k = 0; d[7].read && k < CKPT_FLOW_LIQUID; k++)
    PetscCall(CkptSumFromDigits(f, 7, CkptFlowName[7], k,
                                sums + (CKPT_FLOW_SUMS + FLOW_ENERGY_TERMS + k) * CKPT_FLOW_WIDTH, CkptFlowLiquid(s, k),
                                ft));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The statistics read into the engine's: counts >= 0, sums canonical, the
 * residence range none yet (inf, -inf) or 0 <= least <= largest. */
static PetscErrorCode CkptFlowStatsValues(H5File f, FlowStats *s, const CkptFlowSet *d, const PetscInt64 *cnt,
                                          const PetscInt64 *sums, const PetscReal *range, CkptFault *ft)
{
  const PetscInt nh = s->nres * FLOW_RES_BINS;
  char           b[2][32];

  PetscFunctionBeginUser;
  for (PetscInt k = 0; d[4].read && k < s->nbins + nh; k++) {
    if (cnt[k] < 0)
      PetscCall(CkptFail(f, ft, CKPT_CHECK_FLOW + 4, k,
                         "/%s row %" PetscInt_FMT " is %" PetscInt64_FMT ": counts are >= 0", CkptFlowName[4], k,
                         cnt[k]));
    if (k < s->nbins) s->count[k] = cnt[k];
    else s->hist[k - s->nbins] = cnt[k];
  }
  for (PetscInt k = 0; d[5].read && k < s->nbins + s->nres; k++)
    PetscCall(CkptSumFromDigits(f, 5, CkptFlowName[5], k, sums + k * CKPT_FLOW_WIDTH,
                                k < s->nbins ? &s->mass[k] : &s->tsum[k - s->nbins], ft));
  for (PetscInt k = 0; d[6].read && k < s->nres; k++) {
    PetscReal lo = range[2 * k], hi = range[2 * k + 1];
    if (!((lo == PETSC_INFINITY && hi == PETSC_NINFINITY) || (isfinite(lo) && isfinite(hi) && lo >= 0.0 && lo <= hi)))
      PetscCall(CkptFail(f, ft, CKPT_CHECK_FLOW + 6, k,
                         "/%s row %" PetscInt_FMT " is %s, %s: residence times 0 <= least <= largest (or inf, -inf)",
                         CkptFlowName[6], k, CkptNum(lo, b[0]), CkptNum(hi, b[1])));
    s->tmin[k] = lo, s->tmax[k] = hi;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CkptReadFlow(H5File f, Engine *e, CkptFault *ft)
{
  FlowState      *s     = &e->flow.state;
  FlowStats      *fs    = &e->flow.stats;
  const PetscInt  nh    = fs->nres * FLOW_RES_BINS;
  const PetscBool stats = fs->nbins + fs->nres ? PETSC_TRUE : PETSC_FALSE;
  PetscInt64     *cnt, *sums, *scnt, *ssums, N[CKPT_FLOW_SETS];
  PetscReal      *range;
  uint64_t        sum[CKPT_FLOW_SETS];
  PetscBool       energy, liquid, want[CKPT_FLOW_SETS];
  CkptFlowSet     d[CKPT_FLOW_SETS];

  PetscFunctionBeginUser;
  if (!e->flow.on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(CKPT_FLOW_COUNTS, &cnt,
                         (CKPT_FLOW_SUMS + FLOW_ENERGY_TERMS + CKPT_FLOW_LIQUID) * CKPT_FLOW_WIDTH, &sums));
  PetscCall(PetscMalloc3(fs->nbins + nh + 1, &scnt, (fs->nbins + fs->nres) * CKPT_FLOW_WIDTH + 1, &ssums,
                         2 * fs->nres + 1, &range));
  d[0] = (CkptFlowSet){H5FILE_INT64, 1, CKPT_FLOW_COUNTS, cnt, PETSC_FALSE, PETSC_FALSE, 0, 0};
  d[1] = (CkptFlowSet){H5FILE_REAL, 1, STREAMS_MAX, s->t_insert, PETSC_FALSE, PETSC_FALSE, 0, 0};
  d[2] = (CkptFlowSet){H5FILE_INT64, CKPT_FLOW_WIDTH, CKPT_FLOW_SUMS, sums, PETSC_FALSE, PETSC_FALSE, 0, 0};
  d[3] = (CkptFlowSet){H5FILE_INT64,
                       CKPT_FLOW_WIDTH,
                       FLOW_ENERGY_TERMS,
                       sums + CKPT_FLOW_SUMS * CKPT_FLOW_WIDTH,
                       PETSC_FALSE,
                       PETSC_FALSE,
                       0,
                       0};
  d[4] = (CkptFlowSet){H5FILE_INT64, 1, fs->nbins + nh, scnt, PETSC_FALSE, PETSC_FALSE, 0, 0};
  d[5] = (CkptFlowSet){H5FILE_INT64, CKPT_FLOW_WIDTH, fs->nbins + fs->nres, ssums, PETSC_FALSE, PETSC_FALSE, 0, 0};
  d[6] = (CkptFlowSet){H5FILE_REAL, 2, fs->nres, range, PETSC_FALSE, PETSC_FALSE, 0, 0};
  d[7] = (CkptFlowSet){H5FILE_INT64,
                       CKPT_FLOW_WIDTH,
                       CKPT_FLOW_LIQUID,
                       sums + (CKPT_FLOW_SUMS + FLOW_ENERGY_TERMS) * CKPT_FLOW_WIDTH,
                       PETSC_FALSE,
                       PETSC_FALSE,
                       0,
                       0};
  PetscCall(
    /* absent before the ledger: zero */
    H5FileRows(f, CkptFlowName[3], H5FILE_INT64, CKPT_FLOW_WIDTH, &N[3], &energy));
  /* absent from a dry run's, and from one older than the liquid's counters: zero */
  PetscCall(H5FileRows(f, CkptFlowName[7], H5FILE_INT64, CKPT_FLOW_WIDTH, &N[7], &liquid));
  for (PetscInt j = 0; j < CKPT_FLOW_SETS; j++) {
    want[j] = j < 3 || (j == 3 && energy) || (j == 7 && liquid && e->flow.liquid) ||
                  (j > 3 && j < 7 && stats && (j < 6 || fs->nres))
              ? PETSC_TRUE
              : PETSC_FALSE;
    if (want[j]) PetscCall(CkptFlowRead(f, e->grid.comm, j, &d[j], ft));
    N[j] = d[j].n, sum[j] = d[j].sum;
  }
  /* every rank reads every row: the same verdict on all */
  PetscCall(H5FileChecksumCombine(e->grid.comm, CKPT_FLOW_SETS, N, sum));
  PetscCall(CkptFlowValues(f, s, d, cnt, sums, ft));
  PetscCall(CkptFlowStatsValues(f, fs, d, scnt, ssums, range, ft));
  for (PetscInt j = 0; j < CKPT_FLOW_SETS; j++)
    if (d[j].read && d[j].has_sum && sum[j] != d[j].stored)
      PetscCall(CkptFail(f, ft, CKPT_CHECK_FLOW + CKPT_FLOW_SETS + j, -1,
                         "/%s: " H5FILE_CHECKSUM_MISMATCH " (stored checksum %016llx, the data's %016llx)",
                         CkptFlowName[j], (unsigned long long)d[j].stored, (unsigned long long)sum[j]));
  PetscCall(PetscFree2(cnt, sums));
  PetscCall(PetscFree3(scnt, ssums, range));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CkptLoadFlow(Engine *e)
{
  PetscFunctionBeginUser;
  if (e->flow.on) PetscCall(FlowStateLocal(e)); /* the totals, read by every rank, carried on by rank 0 */
  PetscFunctionReturn(PETSC_SUCCESS);
}
