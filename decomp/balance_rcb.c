/* Recursive coordinate bisection of weighted points spread over the ranks:
 * each level splits every range of ranks in two at the weighted share of
 * its lower half, along the longest edge of its points' bounding box.  The
 * split point is found by histograms of integer weights (exact sums: every
 * rank derives the same cut from the same reduced numbers), refined until
 * the bin holding the share cannot shrink, then moved to the middle of the
 * gap between the nearest points on either side. */
#include "decomp/balance_rcb.h"
#include <math.h>

#define RCB_BINS  32 /* per refinement: 32^11 > 2^53 */
#define RCB_ITERS 11

typedef struct {
  PetscInt         n, stride;
  const PetscReal *x;
  PetscInt64       w;
  PetscReal        glo[3], ghi[3];
  PetscMPIInt     *node; /* per point: the first rank of its range */
} RcbPoints;

/* One range being split at a level. */
typedef struct {
  PetscMPIInt r0, r1, axis;
  PetscReal   lo[3], hi[3];     /* the range's box */
  PetscReal   a, b;             /* the interval [a, b) along axis holding the share */
  PetscInt64  total, below, in; /* weights: all, below a, in [a, b) */
  PetscReal   target;
  PetscBool   done;
} RcbNode;

static inline PetscReal RcbCoord(const RcbPoints *pt, PetscInt i, int a)
{
  PetscReal v = pt->x[(size_t)i * pt->stride + a];
  return PetscMin(PetscMax(v, pt->glo[a]), pt->ghi[a]);
}

/* Bounding boxes and total weights of the nodes' points, and from them each
 * node's axis and starting interval. */
static PetscErrorCode RcbBounds(MPI_Comm comm, const RcbPoints *pt, const PetscInt *slot, PetscInt k, RcbNode *nd)
{
  PetscReal  *bb;
  PetscInt64 *wt;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(6 * k, &bb, k, &wt));
  for (PetscInt s = 0; s < 6 * k; s++) bb[s] = -PETSC_MAX_REAL;
  for (PetscInt s = 0; s < k; s++) wt[s] = 0;
  for (PetscInt i = 0; i < pt->n; i++) {
    PetscInt s = slot[pt->node[i]];
    if (s < 0) continue;
    wt[s] += pt->w;
    for (int a = 0; a < 3; a++) {
      PetscReal v       = RcbCoord(pt, i, a);
      bb[6 * s + a]     = PetscMax(bb[6 * s + a], -v);
      bb[6 * s + 3 + a] = PetscMax(bb[6 * s + 3 + a], v);
    }
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, bb, (PetscMPIInt)(6 * k), MPIU_REAL, MPI_MAX, comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, wt, (PetscMPIInt)k, MPIU_INT64, MPI_SUM, comm));
  for (PetscInt s = 0; s < k; s++) {
    RcbNode  *d    = &nd[s];
    PetscReal best = -1.0;
    d->total = wt[s], d->below = 0, d->in = wt[s];
    d->done = wt[s] > 0 ? PETSC_FALSE : PETSC_TRUE;
    d->axis = 0;
    for (int a = 0; a < 3; a++) { /* the longest edge of the points, else of the box */
      PetscReal e = d->done ? d->hi[a] - d->lo[a] : bb[6 * s + 3 + a] + bb[6 * s + a];
      if (e > best) best = e, d->axis = a;
    }
    d->target = (PetscReal)d->total * (PetscReal)(GridTreeSplit(d->r0, d->r1) - d->r0) / (PetscReal)(d->r1 - d->r0);
    if (d->done) d->a = d->b = 0.5 * (d->lo[d->axis] + d->hi[d->axis]); /* no points: the middle */
    else d->a = -bb[6 * s + d->axis], d->b = nextafter(bb[6 * s + 3 + d->axis], PETSC_MAX_REAL);
  }
  PetscCall(PetscFree2(bb, wt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscReal RcbEdge(const RcbNode *d, PetscInt j)
{
  return j <= 0 ? d->a : j >= RCB_BINS ? d->b : d->a + (d->b - d->a) * (PetscReal)j / RCB_BINS;
}

/* One refinement: the weights in RCB_BINS bins of each open node's
 * interval, and the bin where the share falls becomes the interval. */
static PetscErrorCode RcbRefine(MPI_Comm comm, const RcbPoints *pt, const PetscInt *slot, PetscInt k, RcbNode *nd)
{
  PetscInt64 *h;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(k * RCB_BINS, &h));
  for (PetscInt i = 0; i < pt->n; i++) {
    PetscInt       s = slot[pt->node[i]], lo = 0, hi = RCB_BINS - 1;
    const RcbNode *d;
    PetscReal      v;
    if (s < 0 || nd[s].done) continue;
    d = &nd[s], v = RcbCoord(pt, i, d->axis);
    if (!(v >= d->a && v < d->b)) continue;
    while (lo < hi) { /* the last bin whose lower edge is <= v, by the same edges as below */
      PetscInt mid = lo + (hi - lo + 1) / 2;
      if (v >= RcbEdge(d, mid)) lo = mid;
      else hi = mid - 1;
    }
    h[s * RCB_BINS + lo] += pt->w;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, h, (PetscMPIInt)(k * RCB_BINS), MPIU_INT64, MPI_SUM, comm));
  for (PetscInt s = 0; s < k; s++) {
    RcbNode   *d   = &nd[s];
    PetscInt64 cum = d->below;
    PetscInt   j   = 0;
    PetscReal  a, b;
    if (d->done) continue;
    while (j < RCB_BINS - 1 && (PetscReal)(cum + h[s * RCB_BINS + j]) < d->target) cum += h[s * RCB_BINS + j++];
    a = RcbEdge(d, j), b = RcbEdge(d, j + 1);
    if (a == d->a && b == d->b) d->done = PETSC_TRUE; /* as fine as the reals go */
    d->a = a, d->b = b, d->below = cum, d->in = h[s * RCB_BINS + j];
    if ((PetscReal)cum >= d->target) d->done = PETSC_TRUE; /* the share is exactly below a */
  }
  PetscCall(PetscFree(h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The cut: a or b, whichever shares the weight closer, then moved to the
 * middle of the gap between the points either side of it (the same split). */
static PetscErrorCode RcbPlace(MPI_Comm comm, const RcbPoints *pt, const PetscInt *slot, PetscInt k, RcbNode *nd,
                               PetscReal *cut)
{
  PetscReal *g;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(2 * k, &g));
  for (PetscInt s = 0; s < k; s++) {
    RcbNode *d = &nd[s];
    cut[s]     = d->total == 0 || d->target - (PetscReal)d->below <= (PetscReal)(d->below + d->in) - d->target ? d->a
                                                                                                               : d->b;
    g[2 * s] = g[2 * s + 1] = -PETSC_MAX_REAL;
  }
  for (PetscInt i = 0; i < pt->n; i++) {
    PetscInt  s = slot[pt->node[i]];
    PetscReal v;
    if (s < 0) continue;
    v = RcbCoord(pt, i, nd[s].axis);
    if (v < cut[s]) g[2 * s] = PetscMax(g[2 * s], v);
    else g[2 * s + 1] = PetscMax(g[2 * s + 1], -v);
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, g, (PetscMPIInt)(2 * k), MPIU_REAL, MPI_MAX, comm));
  for (PetscInt s = 0; s < k; s++) {
    RcbNode  *d   = &nd[s];
    PetscReal low = g[2 * s], high = -g[2 * s + 1];
    if (low > -PETSC_MAX_REAL && g[2 * s + 1] > -PETSC_MAX_REAL) {
      PetscReal mid = low + 0.5 * (high - low);
      cut[s]        = mid > low && mid <= high ? mid : high;
    }
    cut[s] = PetscMin(PetscMax(cut[s], d->lo[d->axis]), d->hi[d->axis]);
  }
  PetscCall(PetscFree(g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One level: every range of two or more ranks split; end[r0] is the end of the range starting at r0. */
static PetscErrorCode RcbLevel(MPI_Comm comm, PetscMPIInt size, RcbPoints *pt, PetscMPIInt *end, PetscReal *box,
                               PetscInt *slot, PetscMPIInt axis[], PetscReal cutv[], PetscBool *more)
{
  PetscInt   k = 0;
  RcbNode   *nd;
  PetscReal *cut;

  PetscFunctionBeginUser;
  for (PetscMPIInt r = 0; r < size; r = end[r]) slot[r] = end[r] - r >= 2 ? k++ : -1;
  *more = k > 0 ? PETSC_TRUE : PETSC_FALSE;
  if (!k) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscCalloc2(k, &nd, k, &cut));
  for (PetscMPIInt r = 0; r < size; r = end[r]) {
    if (slot[r] < 0) continue;
    nd[slot[r]].r0 = r, nd[slot[r]].r1 = end[r];
    for (int a = 0; a < 3; a++) nd[slot[r]].lo[a] = box[6 * r + a], nd[slot[r]].hi[a] = box[6 * r + 3 + a];
  }
  PetscCall(RcbBounds(comm, pt, slot, k, nd));
  for (int it = 0; it < RCB_ITERS; it++) {
    PetscBool open = PETSC_FALSE; /* the same on every rank: from reduced numbers */
    for (PetscInt s = 0; s < k; s++) open = open || !nd[s].done ? PETSC_TRUE : PETSC_FALSE;
    if (!open) break;
    PetscCall(RcbRefine(comm, pt, slot, k, nd));
  }
  PetscCall(RcbPlace(comm, pt, slot, k, nd, cut));
  for (PetscInt i = 0; i < pt->n; i++) {
    PetscInt s = slot[pt->node[i]];
    if (s >= 0 && RcbCoord(pt, i, nd[s].axis) >= cut[s]) pt->node[i] = GridTreeSplit(nd[s].r0, nd[s].r1);
  }
  for (PetscInt s = 0; s < k; s++) {
    PetscMPIInt r0 = nd[s].r0, m = GridTreeSplit(r0, nd[s].r1);
    int         a = nd[s].axis;
    axis[m] = a, cutv[m] = cut[s];
    end[m] = end[r0], end[r0] = m;
    for (int c = 0; c < 6; c++) box[6 * m + c] = box[6 * r0 + c];
    box[6 * r0 + 3 + a] = cut[s], box[6 * m + a] = cut[s];
  }
  PetscCall(PetscFree2(nd, cut));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BalanceRcbTree(const Grid *g, PetscInt n, const PetscReal *x, PetscInt stride, PetscInt64 w,
                              PetscMPIInt axis[], PetscReal cut[])
{
  RcbPoints    pt = {n, stride, x, w, {0}, {0}, NULL};
  PetscMPIInt *end;
  PetscInt    *slot;
  PetscReal   *box;
  PetscBool    more = PETSC_TRUE;

  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++) pt.glo[a] = g->lo[a], pt.ghi[a] = g->hi[a];
  PetscCall(PetscCalloc1(n + 1, &pt.node));
  PetscCall(PetscMalloc3(g->size, &end, g->size, &slot, 6 * g->size, &box));
  end[0] = g->size;
  for (int a = 0; a < 3; a++) box[a] = g->lo[a], box[3 + a] = g->hi[a];
  axis[0] = -1, cut[0] = 0.0;
  while (more) PetscCall(RcbLevel(g->comm, g->size, &pt, end, box, slot, axis, cut, &more));
  PetscCall(PetscFree3(end, slot, box));
  PetscCall(PetscFree(pt.node));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the tree differs from the grid's (a grid of slabs always does). */
PetscBool BalanceRcbDiffers(const Grid *g, const PetscMPIInt axis[], const PetscReal cut[])
{
  if (!g->tree) return PETSC_TRUE;
  for (PetscMPIInt m = 1; m < g->size; m++)
    if (axis[m] != g->tree_axis[m] || cut[m] != g->tree_cut[m]) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* The ratio of the largest cost to the mean, and the totals of cost and of rows. */
PetscErrorCode BalanceRcbRatio(const Grid *g, PetscReal cost, PetscInt n, PetscReal *ratio, PetscReal tot[2])
{
  PetscReal max = cost;

  PetscFunctionBeginUser;
  tot[0] = cost, tot[1] = (PetscReal)n;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, tot, 2, MPIU_REAL, MPI_SUM, g->comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &max, 1, MPIU_REAL, MPI_MAX, g->comm));
  *ratio = tot[0] > 0.0 ? max * g->size / tot[0] : 1.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Points weigh their rank's cost per row in units of 1/1024 of the mean,
 * integers so that their sums are exact, kept within a factor 2 of the
 * mean: one noisy measurement (a core shared for a moment) must not pile
 * the particles on one rank; a lasting difference is followed over a few
 * balances. */
PetscErrorCode BalanceRcbApply(Grid *g, const FieldStore *st, PetscReal cost, PetscReal threshold, PetscReal *imbalance,
                               PetscBool *moved)
{
  PetscInt     n = *st->n;
  PetscReal    tot[2], *x, mean;
  PetscInt64   w = 1;
  PetscMPIInt *axis;
  PetscReal   *cut;

  PetscFunctionBeginUser;
  *moved = PETSC_FALSE;
  PetscCall(BalanceRcbRatio(g, cost, n, imbalance, tot));
  if (*imbalance <= threshold && g->tree) PetscFunctionReturn(PETSC_SUCCESS);
  mean = tot[1] > 0.0 ? tot[0] / tot[1] : 0.0;
  if (n > 0 && mean > 0.0) w = (PetscInt64)PetscMax(512.0, PetscMin(llround(1024.0 * cost / n / mean), 2048.0));
  PetscCall(PetscMalloc1(3 * n + 1, &x));
  for (PetscInt i = 0; i < n; i++)
    for (int a = 0; a < 3; a++) x[3 * i + a] = FieldStoreHomeOf(st, i)[a];
  PetscCall(PetscMalloc2(g->size, &axis, g->size, &cut));
  PetscCall(BalanceRcbTree(g, n, x, 3, w, axis, cut));
  *moved = BalanceRcbDiffers(g, axis, cut);
  if (*moved) PetscCall(GridSetTree(g, axis, cut));
  PetscCall(PetscFree2(axis, cut));
  PetscCall(PetscFree(x));
  PetscFunctionReturn(PETSC_SUCCESS);
}
