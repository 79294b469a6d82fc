#include "decomp/grid.h"
#include <petscviewer.h>

static const char GridAxisName[3] = {'x', 'y', 'z'};

/* One formula for every cut, so the two ranks sharing a face compute it from
 * the same operands and agree bit for bit; the outer faces are the box's own. */
PetscReal GridCut(PetscReal lo, PetscReal hi, PetscMPIInt c, PetscMPIInt dims)
{
  if (c <= 0) return lo;
  if (c >= dims) return hi;
  return lo + (hi - lo) * c / dims;
}

static PetscErrorCode GridFormatRequest(const PetscInt req[3], char *buf, size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(buf, len, "%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT, req[0], req[1], req[2]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The cost is the total subdomain surface over the box volume, sum_a dims[a] / len[a]
 * (all P subdomains have the same shape). Factorisations are visited with more
 * cuts along earlier axes first and only a strictly cheaper one replaces the
 * best, which breaks ties that way. Costs within a relative 1e-12 count as tied:
 * edges such as 0.1 are not exact, and an exact tie must not be decided by rounding. */
PetscErrorCode GridChooseDims(PetscMPIInt size, const PetscReal len[3], const PetscInt dims_req[3], PetscMPIInt dims[3])
{
  PetscMPIInt div[2048], ndiv = 0; /* no int below 2^31 has more than 1600 divisors */
  PetscInt    req[3] = {0, 0, 0};
  PetscInt64  fixed  = 1;
  PetscBool   full = PETSC_TRUE, too_big = PETSC_FALSE, found = PETSC_FALSE;
  PetscReal   best = 0.0;
  char        rs[96];

  PetscFunctionBeginUser;
  PetscCheck(size >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "a process grid needs at least one rank, got %d",
             size);
  for (int a = 0; a < 3; a++)
    PetscCheck(len[a] > 0.0 && isfinite(len[a]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "box edge along %c is %g; it must be finite and > 0 (-domain_lo/-domain_hi)", GridAxisName[a],
               (double)len[a]);
  if (dims_req)
    for (int a = 0; a < 3; a++) req[a] = dims_req[a];
  PetscCall(GridFormatRequest(req, rs, sizeof(rs)));
  for (int a = 0; a < 3; a++) {
    PetscCheck(req[a] >= 0, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
               "-domain_grid %s: entries must be >= 0 (0 lets hdem choose that axis)", rs);
    if (req[a] == 0) full = PETSC_FALSE;
    else if (req[a] > size) too_big = PETSC_TRUE;
    else fixed *= req[a]; /* each factor <= size < 2^31: no overflow */
  }
  PetscCheck(!too_big, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
             "-domain_grid %s asks for more than the %d ranks of this run: the product must equal the rank count", rs,
             size);
  PetscCheck(!full || fixed == size, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
             "-domain_grid %s asks for %" PetscInt64_FMT " ranks but this run has %d: the product must equal the rank "
             "count (or give 0 for an axis to let hdem choose it)",
             rs, fixed, size);
  PetscCheck(size % fixed == 0, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
             "-domain_grid %s: the fixed entries use %" PetscInt64_FMT
             " ranks, which does not divide the %d ranks of this run",
             rs, fixed, size);

  for (PetscInt64 i = 1; i * i <= size; i++) {
    if (size % i) continue;
    div[ndiv++] = (PetscMPIInt)i;
    if (i * i != size) div[ndiv++] = (PetscMPIInt)(size / i);
  }
  PetscCall(PetscSortMPIInt(ndiv, div));
  for (PetscMPIInt i = ndiv - 1; i >= 0; i--) {
    PetscMPIInt px = div[i], q = size / px;
    if (req[0] && req[0] != px) continue;
    for (PetscMPIInt j = ndiv - 1; j >= 0; j--) {
      PetscMPIInt py = div[j], pz;
      PetscReal   cost;
      if (py > q || q % py) continue;
      pz = q / py;
      if ((req[1] && req[1] != py) || (req[2] && req[2] != pz)) continue;
      cost = px / len[0] + py / len[1] + pz / len[2];
      if (!found || cost < best * (1.0 - 1e-12)) {
        found   = PETSC_TRUE;
        best    = cost;
        dims[0] = px, dims[1] = py, dims[2] = pz;
      }
    }
  }
  /* fixed divides size, so the fixed entries with the rest on one free axis always fit */
  PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "no factorisation of %d ranks fits -domain_grid %s", size, rs);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every rank must build the same grid, or MPI_Cart_create mismatches or the
 * bounds disagree: compare all inputs bitwise with rank 0's before using them. */
static PetscErrorCode GridCheckSameInputs(MPI_Comm comm, const PetscReal in[12])
{
  PetscReal   root[12];
  PetscMPIInt differ;

  PetscFunctionBeginUser;
  PetscCall(PetscArraycpy(root, in, 12));
  PetscCallMPI(MPI_Bcast(root, 12, MPIU_REAL, 0, comm));
  differ = memcmp(root, in, sizeof(root)) != 0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_INT, MPI_LOR, comm));
  PetscCheck(!differ, comm, PETSC_ERR_ARG_WRONG,
             "the ranks were given different -domain_lo/-domain_hi/-domain_periodic/-domain_grid values");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode GridCreate(MPI_Comm comm, const PetscReal lo[3], const PetscReal hi[3], const PetscBool periodic[3],
                          const PetscInt dims_req[3], Grid *grid)
{
  PetscReal   in[12], len[3];
  PetscInt    req[3] = {0, 0, 0};
  PetscMPIInt periods[3];

  PetscFunctionBeginUser;
  PetscCheck(lo && hi && grid, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "GridCreate needs lo, hi and grid");
  PetscCall(PetscMemzero(grid, sizeof(*grid)));
  grid->comm = MPI_COMM_NULL;
  if (dims_req)
    for (int a = 0; a < 3; a++) req[a] = dims_req[a];
  for (int a = 0; a < 3; a++) {
    grid->lo[a]       = lo[a];
    grid->hi[a]       = hi[a];
    grid->periodic[a] = periodic ? periodic[a] : PETSC_FALSE;
    in[a] = lo[a], in[3 + a] = hi[a], in[6 + a] = grid->periodic[a], in[9 + a] = (PetscReal)req[a];
  }
  PetscCall(GridCheckSameInputs(comm, in));
  PetscCallMPI(MPI_Comm_size(comm, &grid->size));
  /* From here on every rank has the same inputs, so every check below fails on all ranks or none. */
  for (int a = 0; a < 3; a++) {
    PetscCheck(isfinite(lo[a]) && isfinite(hi[a]) && hi[a] > lo[a], comm, PETSC_ERR_USER_INPUT,
               "-domain_lo/-domain_hi: the box along %c is [%g, %g]; it needs finite bounds with hi > lo",
               GridAxisName[a], (double)lo[a], (double)hi[a]);
    len[a] = hi[a] - lo[a];
    PetscCheck(isfinite(len[a]), comm, PETSC_ERR_USER_INPUT,
               "-domain_lo/-domain_hi: the box edge along %c overflows ([%g, %g])", GridAxisName[a], (double)lo[a],
               (double)hi[a]);
  }
  PetscCall(GridChooseDims(grid->size, len, req, grid->dims));
  /* A box a few ulps thick could give empty or reversed slabs. */
  for (int a = 0; a < 3; a++)
    for (PetscMPIInt c = 0; c < grid->dims[a]; c++)
      PetscCheck(GridCut(lo[a], hi[a], c, grid->dims[a]) < GridCut(lo[a], hi[a], c + 1, grid->dims[a]), comm,
                 PETSC_ERR_USER_INPUT,
                 "-domain_lo/-domain_hi: the box along %c, [%g, %g], is too thin to cut into %d slabs", GridAxisName[a],
                 (double)lo[a], (double)hi[a], grid->dims[a]);

  for (int a = 0; a < 3; a++) periods[a] = grid->periodic[a] ? 1 : 0;
  PetscCallMPI(MPI_Cart_create(comm, 3, grid->dims, periods, 0, &grid->comm));
  PetscCallMPI(MPI_Comm_rank(grid->comm, &grid->rank));
  PetscCallMPI(MPI_Cart_coords(grid->comm, grid->rank, 3, grid->coords));
  for (int a = 0; a < 3; a++) {
    PetscCall(PetscMalloc1(grid->dims[a] + 1, &grid->cuts[a]));
    for (PetscMPIInt c = 0; c <= grid->dims[a]; c++) grid->cuts[a][c] = GridCut(lo[a], hi[a], c, grid->dims[a]);
    grid->sublo[a] = grid->cuts[a][grid->coords[a]];
    grid->subhi[a] = grid->cuts[a][grid->coords[a] + 1];
    /* periodic with dims 1 gives the rank itself on both sides: kept, the halo code wraps onto itself */
    PetscCallMPI(MPI_Cart_shift(grid->comm, a, 1, &grid->nbr[a][0], &grid->nbr[a][1]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode GridDestroy(Grid *grid)
{
  PetscFunctionBeginUser;
  if (!grid) PetscFunctionReturn(PETSC_SUCCESS);
  /* a zero-filled Grid (an owner struct destroyed before GridCreate ran) holds no communicator either */
  if (grid->comm != MPI_COMM_NULL && grid->comm != (MPI_Comm)0) PetscCallMPI(MPI_Comm_free(&grid->comm));
  grid->comm = MPI_COMM_NULL;
  for (int a = 0; a < 3; a++) PetscCall(PetscFree(grid->cuts[a]));
  PetscCall(PetscFree2(grid->tree_axis, grid->tree_cut));
  grid->tree = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode GridOwnerOf(const Grid *grid, const PetscReal x[3], PetscMPIInt coords[3])
{
  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++) {
    PetscReal lo = grid->lo[a], hi = grid->hi[a];

    /* %.17g: a point one ulp outside must not print as a point on the face */
    PetscCheck(x[a] >= lo && x[a] <= hi, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "point (%.17g, %.17g, %.17g) is outside the box along %c: [%.17g, %.17g]", (double)x[0], (double)x[1],
               (double)x[2], GridAxisName[a], (double)lo, (double)hi);
    PetscCheck(!(grid->periodic[a] && x[a] == hi), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "point (%.17g, %.17g, %.17g) is on the high face of periodic axis %c (%.17g): wrap it into [lo, hi) "
               "first",
               (double)x[0], (double)x[1], (double)x[2], GridAxisName[a], (double)hi);
    coords[a] = grid->tree ? 0 : GridSlabOf(grid, a, x[a]);
  }
  if (grid->tree) coords[0] = GridRankAt(grid, x);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bisection over the cuts themselves, so the answer is exactly the bounds'
 * half-open [sublo, subhi) whatever the balancing made of them. */
PetscMPIInt GridSlabOf(const Grid *grid, int a, PetscReal x)
{
  const PetscReal *cut = grid->cuts[a];
  PetscMPIInt      lo = 0, hi = grid->dims[a] - 1; /* the answer is in [lo, hi] */

  while (lo < hi) {
    PetscMPIInt mid = lo + (hi - lo + 1) / 2;
    if (x >= cut[mid]) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

PetscErrorCode GridSetCuts(Grid *grid, int a, const PetscReal cuts[])
{
  PetscMPIInt d = grid->dims[a];

  PetscFunctionBeginUser;
  PetscCheck(cuts[0] == grid->lo[a] && cuts[d] == grid->hi[a], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "new cuts along %c must keep the box bounds [%g, %g]", GridAxisName[a], (double)grid->lo[a],
             (double)grid->hi[a]);
  for (PetscMPIInt c = 0; c < d; c++)
    PetscCheck(cuts[c] < cuts[c + 1], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "new cuts along %c are not increasing at slab %d: [%.17g, %.17g]", GridAxisName[a], c, (double)cuts[c],
               (double)cuts[c + 1]);
  PetscCall(PetscArraycpy(grid->cuts[a], cuts, d + 1));
  grid->sublo[a] = cuts[grid->coords[a]];
  grid->subhi[a] = cuts[grid->coords[a] + 1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode GridRankOfCoords(const Grid *grid, const PetscMPIInt coords[3], PetscMPIInt *rank)
{
  PetscFunctionBeginUser;
  if (grid->tree) {
    PetscCheck(coords[0] >= 0 && coords[0] < grid->size && !coords[1] && !coords[2], PETSC_COMM_SELF,
               PETSC_ERR_ARG_OUTOFRANGE, "tree coordinates (%d, %d, %d) name no rank of %d", coords[0], coords[1],
               coords[2], grid->size);
    *rank = coords[0];
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (int a = 0; a < 3; a++)
    PetscCheck(grid->periodic[a] || (coords[a] >= 0 && coords[a] < grid->dims[a]), PETSC_COMM_SELF,
               PETSC_ERR_ARG_OUTOFRANGE,
               "grid coordinates (%d, %d, %d) are outside the %d x %d x %d grid along walled axis %c", coords[0],
               coords[1], coords[2], grid->dims[0], grid->dims[1], grid->dims[2], GridAxisName[a]);
  PetscCallMPI(MPI_Cart_rank(grid->comm, coords, rank));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode GridNeighbourRank(const Grid *grid, const PetscMPIInt off[3], PetscMPIInt *rank)
{
  PetscMPIInt c[3];

  PetscFunctionBeginUser;
  PetscCheck(!grid->tree, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "a tree of subdomains has no grid neighbours");
  for (int a = 0; a < 3; a++) {
    PetscMPIInt d = grid->dims[a];
    c[a]          = grid->coords[a] + off[a];
    if (grid->periodic[a]) c[a] = ((c[a] % d) + d) % d;
    else if (c[a] < 0 || c[a] >= d) {
      *rank = MPI_PROC_NULL;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCallMPI(MPI_Cart_rank(grid->comm, c, rank));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void GridFormatNbr(char *buf, size_t len, PetscMPIInt r)
{
  if (r == MPI_PROC_NULL) PetscCallAbort(PETSC_COMM_SELF, PetscSNPrintf(buf, len, "wall"));
  else PetscCallAbort(PETSC_COMM_SELF, PetscSNPrintf(buf, len, "%d", r));
}

/* Each rank's box of the tree. */
static PetscErrorCode GridViewTree(const Grid *grid, PetscViewer viewer)
{
  PetscFunctionBeginUser;
  PetscCall(PetscViewerASCIIPushSynchronized(viewer));
  PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "  [%d] tree box [%g, %g] x [%g, %g] x [%g, %g]\n", grid->rank,
                                               (double)grid->sublo[0], (double)grid->subhi[0], (double)grid->sublo[1],
                                               (double)grid->subhi[1], (double)grid->sublo[2], (double)grid->subhi[2]));
  PetscCall(PetscViewerFlush(viewer));
  PetscCall(PetscViewerASCIIPopSynchronized(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode GridView(const Grid *grid, PetscViewer viewer)
{
  PetscBool ascii;
  char      n[3][2][16];

  PetscFunctionBeginUser;
  if (!viewer) viewer = PETSC_VIEWER_STDOUT_(grid->comm);
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(
    PetscViewerASCIIPrintf(viewer,
                           "grid: %d ranks as %d x %d x %d over [%g, %g] x [%g, %g] x [%g, %g], periodic:%s%s%s%s\n",
                           grid->size, grid->dims[0], grid->dims[1], grid->dims[2], (double)grid->lo[0],
                           (double)grid->hi[0], (double)grid->lo[1], (double)grid->hi[1], (double)grid->lo[2],
                           (double)grid->hi[2], grid->periodic[0] ? " x" : "", grid->periodic[1] ? " y" : "",
                           grid->periodic[2] ? " z" : "",
                           grid->periodic[0] || grid->periodic[1] || grid->periodic[2] ? "" : " none"));
  if (grid->tree) PetscCall(GridViewTree(grid, viewer));
  if (grid->tree) PetscFunctionReturn(PETSC_SUCCESS);
  for (int a = 0; a < 3; a++)
    for (int s = 0; s < 2; s++) GridFormatNbr(n[a][s], sizeof(n[a][s]), grid->nbr[a][s]);
  PetscCall(PetscViewerASCIIPushSynchronized(viewer));
  PetscCall(PetscViewerASCIISynchronizedPrintf(viewer,
                                               "  [%d] (%d,%d,%d) [%g, %g] x [%g, %g] x [%g, %g] neighbours x %s/%s y "
                                               "%s/%s z %s/%s\n",
                                               grid->rank, grid->coords[0], grid->coords[1], grid->coords[2],
                                               (double)grid->sublo[0], (double)grid->subhi[0], (double)grid->sublo[1],
                                               (double)grid->subhi[1], (double)grid->sublo[2], (double)grid->subhi[2],
                                               n[0][0], n[0][1], n[1][0], n[1][1], n[2][0], n[2][1]));
  PetscCall(PetscViewerFlush(viewer));
  PetscCall(PetscViewerASCIIPopSynchronized(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A grid's subdomains as boxes, whether cut planes or a tree of bisections
 * (grid.h): the box of a rank, the rank of a point, the ranks near a box. */

/* Deep enough for any rank count an int holds: one pending range per level. */
#define GRID_TREE_STACK 128

PetscErrorCode GridSetTree(Grid *g, const PetscMPIInt axis[], const PetscReal cut[])
{
  PetscMPIInt stack[GRID_TREE_STACK][2], top = 0;
  PetscReal   lo[GRID_TREE_STACK][3], hi[GRID_TREE_STACK][3];

  PetscFunctionBeginUser;
  PetscCheck(g->size >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "a tree needs at least two ranks");
  /* every cut within the box of the range it splits, walked from the root */
  stack[0][0] = 0, stack[0][1] = g->size;
  for (int a = 0; a < 3; a++) lo[0][a] = g->lo[a], hi[0][a] = g->hi[a];
  top = 1;
  while (top > 0) {
    PetscMPIInt r0 = stack[top - 1][0], r1 = stack[top - 1][1], m, a;
    PetscReal   l[3], h[3];
    top--;
    for (int d = 0; d < 3; d++) l[d] = lo[top][d], h[d] = hi[top][d];
    if (r1 - r0 < 2) continue;
    m = GridTreeSplit(r0, r1), a = axis[m];
    PetscCheck(a >= 0 && a < 3 && cut[m] >= l[a] && cut[m] <= h[a], PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "tree cut %d (ranks [%d, %d)) along axis %d at %.17g is outside its box [%.17g, %.17g]", m, r0, r1, a,
               (double)cut[m], a >= 0 && a < 3 ? (double)l[a] : 0.0, a >= 0 && a < 3 ? (double)h[a] : 0.0);
    PetscCheck(top + 2 <= GRID_TREE_STACK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "tree deeper than %d", GRID_TREE_STACK);
    for (int d = 0; d < 3; d++) lo[top][d] = l[d], hi[top][d] = h[d], lo[top + 1][d] = l[d], hi[top + 1][d] = h[d];
    hi[top][a] = cut[m], stack[top][0] = r0, stack[top][1] = m;
    lo[top + 1][a] = cut[m], stack[top + 1][0] = m, stack[top + 1][1] = r1;
    top += 2;
  }
  if (!g->tree_axis) PetscCall(PetscMalloc2(g->size, &g->tree_axis, g->size, &g->tree_cut));
  for (PetscMPIInt m = 1; m < g->size; m++) g->tree_axis[m] = axis[m], g->tree_cut[m] = cut[m];
  g->tree_axis[0] = -1, g->tree_cut[0] = 0.0;
  g->tree      = PETSC_TRUE;
  g->coords[0] = g->rank, g->coords[1] = g->coords[2] = 0;
  GridBoxOf(g, g->rank, g->sublo, g->subhi);
  PetscFunctionReturn(PETSC_SUCCESS);
}

void GridBoxOf(const Grid *g, PetscMPIInt r, PetscReal lo[3], PetscReal hi[3])
{
  PetscMPIInt r0 = 0, r1 = g->size;

  for (int a = 0; a < 3; a++) lo[a] = g->lo[a], hi[a] = g->hi[a];
  if (!g->tree) {
    PetscMPIInt c[3] = {r / (g->dims[1] * g->dims[2]), (r / g->dims[2]) % g->dims[1], r % g->dims[2]};
    for (int a = 0; a < 3; a++) lo[a] = g->cuts[a][c[a]], hi[a] = g->cuts[a][c[a] + 1];
    return;
  }
  while (r1 - r0 > 1) {
    PetscMPIInt m = GridTreeSplit(r0, r1), a = g->tree_axis[m];
    if (r < m) hi[a] = g->tree_cut[m], r1 = m;
    else lo[a] = g->tree_cut[m], r0 = m;
  }
}

/* Ranks in MPI_Cart order (reorder 0): the last axis fastest. */
void GridWrapOnce(const Grid *g, const PetscReal x0[3], PetscReal x[3])
{
  for (int a = 0; a < 3; a++) {
    PetscReal L = g->hi[a] - g->lo[a];
    x[a]        = x0[a];
    if (g->periodic[a]) {
      if (x[a] >= g->hi[a]) x[a] -= L;
      if (x[a] < g->lo[a]) x[a] += L;
    }
  }
}

PetscMPIInt GridRankAt(const Grid *g, const PetscReal x[3])
{
  PetscMPIInt r0 = 0, r1 = g->size;

  if (!g->tree) {
    PetscMPIInt r = 0;
    for (int a = 0; a < 3; a++) r = r * g->dims[a] + GridSlabOf(g, a, x[a]);
    return r;
  }
  while (r1 - r0 > 1) {
    PetscMPIInt m = GridTreeSplit(r0, r1);
    if (x[g->tree_axis[m]] < g->tree_cut[m]) r1 = m;
    else r0 = m;
  }
  return r0;
}

PetscErrorCode GridRankOf(const Grid *g, const PetscReal x[3], PetscMPIInt *rank)
{
  PetscMPIInt c[3];

  PetscFunctionBeginUser;
  PetscCall(GridOwnerOf(g, x, c)); /* its checks */
  *rank = GridRankAt(g, x);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscMPIInt GridRanksMeetingSlabs(const Grid *g, const PetscReal lo[3], const PetscReal hi[3],
                                         PetscMPIInt ranks[])
{
  PetscMPIInt c0[3], c1[3], n = 0;

  for (int a = 0; a < 3; a++) {
    if (hi[a] < g->lo[a] || lo[a] > g->hi[a]) return 0;
    c0[a] = GridSlabOf(g, a, lo[a]), c1[a] = GridSlabOf(g, a, hi[a]);
  }
  for (PetscMPIInt i = c0[0]; i <= c1[0]; i++)
    for (PetscMPIInt j = c0[1]; j <= c1[1]; j++)
      for (PetscMPIInt k = c0[2]; k <= c1[2]; k++) ranks[n++] = (i * g->dims[1] + j) * g->dims[2] + k;
  return n;
}

/* Both halves of a range are visited when the box touches the cut: a box
 * meeting a subdomain only on its face is listed (more is harmless). */
PetscMPIInt GridRanksMeeting(const Grid *g, const PetscReal lo[3], const PetscReal hi[3], PetscMPIInt ranks[])
{
  PetscMPIInt stack[GRID_TREE_STACK][2], top = 1, n = 0;

  if (!g->tree) return GridRanksMeetingSlabs(g, lo, hi, ranks);
  for (int a = 0; a < 3; a++)
    if (hi[a] < g->lo[a] || lo[a] > g->hi[a]) return 0;
  stack[0][0] = 0, stack[0][1] = g->size;
  while (top > 0) {
    PetscMPIInt r0 = stack[top - 1][0], r1 = stack[top - 1][1], m, a;
    top--;
    if (r1 - r0 < 2) {
      ranks[n++] = r0;
      continue;
    }
    m = GridTreeSplit(r0, r1), a = g->tree_axis[m];
    /* the upper half first on the stack, so the lower comes out first: ranks in order */
    if (hi[a] >= g->tree_cut[m]) stack[top][0] = m, stack[top][1] = r1, top++;
    if (lo[a] <= g->tree_cut[m]) stack[top][0] = r0, stack[top][1] = m, top++;
  }
  return n;
}
