/* A grid's subdomains as boxes, whether cut planes or a tree of bisections
 * (grid.h): the box of a rank, the rank of a point, the ranks near a box. */
#include "decomp/grid.h"

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
