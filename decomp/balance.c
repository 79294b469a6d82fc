#include "decomp/balance.h"

const char *const BalanceModes[]   = {"none", "count", "time", "rcb", "BalanceMode", "BALANCE_", NULL};
const char *const BalanceWeights[] = {"time", "count", "BalanceWeight", "BALANCE_WEIGHT_", NULL};

void BalanceShiftCuts(PetscMPIInt n, const PetscReal cost[], const PetscReal old[], PetscReal wmin, PetscReal frac,
                      PetscReal cuts[])
{
  PetscReal   total = 0.0, below = 0.0; /* below: cost of the slabs before slab c */
  PetscMPIInt c = 0;

  for (PetscMPIInt s = 0; s < n; s++) total += cost[s];
  for (PetscMPIInt k = 0; k <= n; k++) cuts[k] = old[k];
  if (!(total > 0.0)) return;
  for (PetscMPIInt k = 1; k < n; k++) {
    PetscReal target = total * k / n, pos, room, wl = old[k] - old[k - 1], wr = old[k + 1] - old[k];
    while (c < n - 1 && below + cost[c] < target) below += cost[c++];
    /* below < target <= below + cost[c], so cost[c] > 0 but for rounding */
    pos     = cost[c] > 0.0 ? old[c] + (target - below) / cost[c] * (old[c + 1] - old[c]) : old[k];
    pos     = old[k] + frac * (pos - old[k]);
    room    = 0.5 * PetscMax(PetscMin(wl, wr) - wmin, 0.0);
    cuts[k] = PetscMin(PetscMax(pos, old[k] - room), old[k] + room);
  }
}

PetscErrorCode GridBalance(Grid *g, PetscReal cost, PetscReal wmin, PetscReal threshold, PetscReal *imbalance,
                           PetscBool *moved)
{
  PetscInt   ncut = 2; /* the broadcast: imbalance, moved, then every axis's cuts */
  PetscReal *all  = NULL, *buf;

  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++) ncut += g->dims[a] + 1;
  PetscCall(PetscMalloc1(ncut, &buf));
  if (g->rank == 0) PetscCall(PetscMalloc1(g->size, &all));
  PetscCallMPI(MPI_Gather(&cost, 1, MPIU_REAL, all, 1, MPIU_REAL, 0, g->comm));
  if (g->rank == 0) {
    PetscReal sum = 0.0, max = 0.0, *slab, *out = buf + 2;
    PetscInt  off[3] = {0, g->dims[0], g->dims[0] + g->dims[1]}; /* each axis's slabs in slab[] */
    for (PetscMPIInt r = 0; r < g->size; r++) sum += all[r], max = PetscMax(max, all[r]);
    buf[0] = sum > 0.0 ? max * g->size / sum : 1.0;
    buf[1] = 0.0;
    /* every axis's slab costs from one pass over the ranks, in rank order */
    PetscCall(PetscCalloc1(off[2] + g->dims[2], &slab));
    if (buf[0] > threshold)
      for (PetscMPIInt r = 0; r < g->size; r++) {
        PetscMPIInt rc[3];
        PetscCallMPI(MPI_Cart_coords(g->comm, r, 3, rc));
        for (int a = 0; a < 3; a++) slab[off[a] + rc[a]] += all[r];
      }
    for (int a = 0; a < 3; a++) {
      PetscMPIInt d = g->dims[a];
      PetscCall(PetscArraycpy(out, g->cuts[a], d + 1));
      if (d > 1 && buf[0] > threshold) {
        BalanceShiftCuts(d, slab + off[a], g->cuts[a], wmin, BALANCE_FRACTION, out);
        for (PetscMPIInt c = 0; c <= d; c++)
          if (out[c] != g->cuts[a][c]) buf[1] = 1.0;
      }
      out += d + 1;
    }
    PetscCall(PetscFree(slab));
    PetscCall(PetscFree(all));
  }
  PetscCallMPI(MPI_Bcast(buf, (PetscMPIInt)ncut, MPIU_REAL, 0, g->comm));
  *imbalance = buf[0];
  *moved     = buf[1] > 0.0 ? PETSC_TRUE : PETSC_FALSE;
  if (*moved) {
    const PetscReal *in = buf + 2;
    for (int a = 0; a < 3; a++) {
      PetscCall(GridSetCuts(g, a, in));
      in += g->dims[a] + 1;
    }
  }
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void BalancerDefaults(Balancer *b)
{
  b->mode            = BALANCE_TIME;
  b->weight          = BALANCE_WEIGHT_TIME;
  b->restored        = PETSC_FALSE;
  b->imbalance_first = 1.0;
  b->interval        = 100;
  b->threshold       = 1.05;
  b->imbalance       = 1.0;
  b->moves           = 0;
  b->step            = 0;
  b->start           = 0;
  b->count           = 0.0;
  b->owned           = 1.0;
  b->reached         = 1.0;
  b->fresh           = PETSC_FALSE;
  b->t0 = b->wait0 = 0.0;
}

PetscBool BalancerWatches(const Balancer *b, PetscMPIInt size)
{
  return size > 1 && (b->mode == BALANCE_COUNT || (b->mode == BALANCE_RCB && b->weight == BALANCE_WEIGHT_COUNT))
         ? PETSC_TRUE
         : PETSC_FALSE;
}

void BalancerObserve(Balancer *b, PetscReal ratio)
{
  b->owned = ratio;
  if (b->fresh) b->reached = PetscMax(1.0, ratio), b->fresh = PETSC_FALSE;
}

PetscErrorCode BalancerMark(Balancer *b, PetscInt64 step, PetscLogDouble wait)
{
  PetscFunctionBeginUser;
  b->step = step;
  PetscCall(PetscTime(&b->t0));
  b->wait0 = wait;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BalancerStart(Balancer *b, const Grid *g, const FieldStore *st, PetscInt64 step, PetscLogDouble wait)
{
  PetscReal n = (PetscReal)*st->n;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPIU_REAL, MPI_SUM, g->comm));
  b->start = step, b->count = n;
  PetscCall(BalancerMark(b, step, wait));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool BalancerDue(const Balancer *b, PetscInt64 step, PetscReal present, PetscBool *grown)
{
  PetscInt64 since = step - b->step;

  *grown = b->count * b->threshold < present || present * b->threshold < b->count ? PETSC_TRUE : PETSC_FALSE;
  if (since >= b->interval || *grown) return PETSC_TRUE;
  if (since > 0 && !b->fresh && b->owned > b->threshold * b->reached) return PETSC_TRUE;
  return step - b->start < BALANCE_RAMP_STEPS && since >= PetscMin(b->interval, BALANCE_RAMP_INTERVAL) ? PETSC_TRUE
                                                                                                       : PETSC_FALSE;
}

PetscErrorCode BalancerApply(Balancer *b, Grid *g, const FieldStore *st, PetscInt64 step, PetscLogDouble wait,
                             PetscReal wmin, PetscReal present)
{
  PetscLogDouble now;
  PetscReal      cost;
  PetscBool      moved, grown;
  PetscInt       nowned = *st->n;

  PetscFunctionBeginUser;
  if (b->mode == BALANCE_NONE || g->size == 1 || !BalancerDue(b, step, present, &grown))
    PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscTime(&now));
  cost = grown || b->mode == BALANCE_COUNT || (b->mode == BALANCE_RCB && b->weight == BALANCE_WEIGHT_COUNT)
         ? (PetscReal)nowned
         : (PetscReal)((now - b->t0) - (wait - b->wait0));
  if (b->mode == BALANCE_RCB)
    PetscCall(BalanceRcbApply(g, st, PetscMax(cost, 0.0), b->threshold, &b->imbalance, &moved));
  else PetscCall(GridBalance(g, PetscMax(cost, 0.0), wmin, b->threshold, &b->imbalance, &moved));
  if (moved) b->moves++;
  b->count = present;
  b->fresh = PETSC_TRUE;
  PetscCall(BalancerMark(b, step, wait));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BalancerFirst(Balancer *b, Grid *g, PetscInt n, const PetscReal *x, PetscInt stride)
{
  PetscReal    tot[2];
  PetscMPIInt *axis;
  PetscReal   *cut;

  PetscFunctionBeginUser;
  if (b->mode != BALANCE_RCB || g->size == 1 || b->restored) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(BalanceRcbRatio(g, (PetscReal)n, n, &b->imbalance_first, tot));
  b->imbalance = b->imbalance_first, b->count = tot[1];
  PetscCall(PetscMalloc2(g->size, &axis, g->size, &cut));
  PetscCall(BalanceRcbTree(g, n, x, stride, 1, axis, cut));
  if (BalanceRcbDiffers(g, axis, cut)) b->moves++;
  PetscCall(GridSetTree(g, axis, cut));
  PetscCall(PetscFree2(axis, cut));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BalancerFirstRows(Balancer *b, Grid *g, const FieldStore *st)
{
  PetscReal *x;

  PetscFunctionBeginUser;
  if (b->mode != BALANCE_RCB || g->size == 1 || b->restored) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(3 * *st->n + 1, &x));
  for (PetscInt i = 0; i < *st->n; i++)
    for (int a = 0; a < 3; a++) x[3 * i + a] = FieldStoreHomeOf(st, i)[a];
  PetscCall(BalancerFirst(b, g, *st->n, x, 3));
  PetscCall(PetscFree(x));
  PetscFunctionReturn(PETSC_SUCCESS);
}
