/* The streams' and outflows' counters (engine/flowstate.h FlowState):
 * summed over the ranks exactly, each rank's own carried on by rank 0
 * after a checkpoint. */
#include "engine/flow.h"
#include "decomp/collective.h"

_Static_assert(FLOW_ENERGY_TERMS == FLOW_ENERGY_LEDGER + LEDGER_TERMS + 1,
               "the flow's energy sums: in, out, the ledger's terms and gravity's");

/* The outflow counters of the outflows on, summed over the ranks in place. */
static PetscErrorCode FlowRemovedSum(MPI_Comm comm, const Flow *f, FlowState *st)
{
  PetscInt   nc = f->settings.nedges + 1, n = 0;
  PetscReal *cnt;
  ExactSum  *mass;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(OUTFLOWS_MAX * FLOW_CLASSES_MAX, &cnt, OUTFLOWS_MAX * FLOW_CLASSES_MAX, &mass));
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++)
    for (PetscInt c = 0; c < nc && f->outflow[k].on; c++, n++)
      cnt[n] = (PetscReal)st->removed[k][c], mass[n] = st->removed_mass[k][c];
  if (n) {                                     /* the same n on every rank: no outflow, no reduction */
    PetscCall(CollectiveSumAll(comm, cnt, n)); /* counts below 2^53: exact */
    PetscCall(ExactSumAllreduce(comm, mass, n));
  }
  n = 0;
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++)
    for (PetscInt c = 0; c < nc && f->outflow[k].on; c++, n++)
      st->removed[k][c] = (PetscInt64)cnt[n], st->removed_mass[k][c] = mass[n];
  PetscCall(PetscFree2(cnt, mass));
  /* every rank calls: the same reduction on each */
  PetscCall(ExactSumAllreduce(comm, st->energy, FLOW_ENERGY_TERMS));
  if (f->liquid) {
    ExactSum l[STREAMS_MAX + OUTFLOWS_MAX];
    for (PetscInt k = 0; k < STREAMS_MAX; k++) l[k] = st->inserted_liquid[k];
    for (PetscInt k = 0; k < OUTFLOWS_MAX; k++) l[STREAMS_MAX + k] = st->removed_liquid[k];
    PetscCall(ExactSumAllreduce(comm, l, STREAMS_MAX + OUTFLOWS_MAX));
    for (PetscInt k = 0; k < STREAMS_MAX; k++) st->inserted_liquid[k] = l[k];
    for (PetscInt k = 0; k < OUTFLOWS_MAX; k++) st->removed_liquid[k] = l[STREAMS_MAX + k];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowStateGlobal(Engine *e)
{
  PetscFunctionBeginUser;
  PetscCall(FlowRemovedSum(e->grid.comm, &e->flow, &e->flow.state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowStateLocal(Engine *e)
{
  FlowState *st = &e->flow.state;

  PetscFunctionBeginUser;
  st->removed_local = 0;
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++)
    for (PetscInt c = 0; c < FLOW_CLASSES_MAX; c++) {
      if (e->grid.rank) {
        st->removed[k][c] = 0;
        ExactSumZero(&st->removed_mass[k][c]);
      }
      /* a counter's particles stay */
      if (e->flow.outflow[k].remove) st->removed_local += st->removed[k][c];
    }
  for (PetscInt k = 0; k < FLOW_ENERGY_TERMS && e->grid.rank; k++) ExactSumZero(&st->energy[k]);
  for (PetscInt k = 0; k < STREAMS_MAX && e->grid.rank; k++) ExactSumZero(&st->inserted_liquid[k]);
  for (PetscInt k = 0; k < OUTFLOWS_MAX && e->grid.rank; k++) ExactSumZero(&st->removed_liquid[k]);
  if (e->grid.rank) PetscCall(FlowStatsZero(&e->flow.stats));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowStateTotals(Engine *e, FlowState *tot)
{
  PetscFunctionBeginUser;
  *tot = e->flow.state;
  PetscCall(FlowRemovedSum(e->grid.comm, &e->flow, tot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt64 FlowInsertedAll(const Flow *f, const FlowState *st)
{
  PetscInt64 n = 0;
  for (PetscInt k = 0; k < STREAMS_MAX; k++) n += f->streams.s[k].on ? st->inserted[k] : 0;
  return n;
}

PetscInt64 FlowRemovedAll(const Flow *f, const FlowState *st)
{
  PetscInt64 n = 0;
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++)
    for (PetscInt c = 0; c < FLOW_CLASSES_MAX && f->outflow[k].on && f->outflow[k].remove; c++) n += st->removed[k][c];
  return n;
}

void FlowLiquidTotals(const Flow *f, const FlowState *st, PetscReal *in, PetscReal *out)
{
  ExactSum a, b;
  ExactSumZero(&a), ExactSumZero(&b);
  for (PetscInt k = 0; k < STREAMS_MAX; k++)
    if (f->streams.s[k].on) ExactSumAddSum(&a, &st->inserted_liquid[k]);
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++)
    if (f->outflow[k].on && f->outflow[k].remove) ExactSumAddSum(&b, &st->removed_liquid[k]);
  *in = ExactSumValue(&a), *out = ExactSumValue(&b);
}
