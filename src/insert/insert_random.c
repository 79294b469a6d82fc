#include "insert/insert_random.h"
#include "insert/blocks.h"
#include "decomp/collective.h"
#include <math.h>

#define RANDOM_MAXTRY    20000
#define RANDOM_COUNT_MAX 1e12 /* the block ranges' products stay within 64 bits */

/* A block's cells: its box, its cells, each cell's first particle and the
 * next in its cell, the particles placed so far. */
typedef struct {
  PetscReal        lo[3], hi[3];
  PetscInt64       nc[3];
  const PetscInt  *head, *link;
  const PetscReal *pos, *rad;
} RandomCells;

/* Attempt t of particle id (radius r) at x: whether no particle placed overlaps it, and its cell. */
static PetscBool RandomTry(const RandomCells *g, PetscReal r, PetscInt64 seed, PetscInt64 id, PetscInt t,
                           PetscReal x[3], PetscInt64 *cell)
{
  PetscInt64 ci[3], lo[3], hi[3];
  PetscBool  ok = PETSC_TRUE;
  for (int a = 0; a < 3; a++) {
    x[a]  = g->lo[a] + r + (g->hi[a] - g->lo[a] - 2.0 * r) * RandomUniform(seed, id, 3 + a, t);
    ci[a] = PetscMin(g->nc[a] - 1, (PetscInt64)((x[a] - g->lo[a]) / (g->hi[a] - g->lo[a]) * g->nc[a]));
    lo[a] = PetscMax(0, ci[a] - 1);
    hi[a] = PetscMin(g->nc[a] - 1, ci[a] + 1);
  }
  for (PetscInt64 cz = lo[2]; cz <= hi[2] && ok; cz++)
    for (PetscInt64 cy = lo[1]; cy <= hi[1] && ok; cy++)
      for (PetscInt64 cx = lo[0]; cx <= hi[0] && ok; cx++)
        for (PetscInt m = g->head[(cz * g->nc[1] + cy) * g->nc[0] + cx]; m >= 0 && ok; m = g->link[m]) {
          PetscReal d2 = 0.0, s = r + g->rad[m];
          for (int a = 0; a < 3; a++) d2 += (x[a] - g->pos[3 * m + a]) * (x[a] - g->pos[3 * m + a]);
          if (d2 < s * s) ok = PETSC_FALSE;
        }
  *cell = (ci[2] * g->nc[1] + ci[1]) * g->nc[0] + ci[0];
  return ok;
}

/* Random sequential addition of items [k0, k1) inside the block [lo, hi], in
 * id order, each within the block; the owned ones appended to p, their ids
 * from *next on.  *bad: the id that found no room (0: none). */
static PetscErrorCode RandomBlockFill(const InsertRandomKeys *ins, const ClumpTemplates *ct, const Grid *g,
                                      const PetscReal lo[3], const PetscReal hi[3], PetscInt64 k0, PetscInt64 k1,
                                      PetscReal bound, PetscReal density, PetscInt64 *next, Particles *p,
                                      PetscInt64 *bad)
{
  const PetscInt64 n = k1 - k0, seed = ins->seed;
  PetscReal        h = 2.0 * bound, *pos, *rad, *req;
  PetscInt64       nc[3], ncell;
  PetscInt        *choice, *head, *link;
  RandomCells      cells;

  PetscFunctionBeginUser;
  *bad = 0;
  for (int a = 0; a < 3; a++) nc[a] = (PetscInt64)PetscMax(1.0, PetscMin(floor((hi[a] - lo[a]) / h), 1e15));
  while ((PetscReal)nc[0] * (PetscReal)nc[1] * (PetscReal)nc[2] > 8.0 * (PetscReal)n + 64.0)
    for (int a = 0; a < 3; a++) nc[a] = PetscMax(1, nc[a] / 2);
  ncell = nc[0] * nc[1] * nc[2];
  PetscCall(PetscMalloc4(3 * n + 1, &pos, n + 1, &rad, ncell, &head, n + 1, &link));
  PetscCall(PetscMalloc2(n + 1, &req, n + 1, &choice));
  for (PetscInt64 c = 0; c < ncell; c++) head[c] = -1;
  cells = (RandomCells){{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}, {nc[0], nc[1], nc[2]}, head, link, pos, rad};
  for (PetscInt64 k = 0; k < n && !*bad; k++) {
    PetscInt64 id = k0 + k + 1, cell = -1;
    PetscReal  r, rm, reach, *x = pos + 3 * k;
    PetscBool  ok = PETSC_FALSE;
    PetscCall(RadiusDistributionDraw(ins->rd, seed, id, &req[k]));
    choice[k] = BodyChoiceDraw(ins->body, seed, id);
    BodyChoiceSizes(ct, choice[k], req[k], &r, &rm, &reach); /* placed as the sphere around the body */
    for (PetscInt t = 0; t < RANDOM_MAXTRY && !ok; t++) ok = RandomTry(&cells, r, seed, id, t, x, &cell);
    if (!ok) *bad = id;
    rad[k]     = r;
    link[k]    = (PetscInt)head[cell];
    head[cell] = (PetscInt)k;
  }
  for (PetscInt64 k = 0; k < n && !*bad; k++) {
    PetscInt64  id = k0 + k + 1, id0 = *next;
    PetscMPIInt owner[3], me         = 1;
    PetscReal   v[3];
    *next += BodyChoiceSpheres(ct, choice[k]);
    PetscCall(GridOwnerOf(g, pos + 3 * k, owner));
    for (int a = 0; a < 3; a++) me = me && owner[a] == g->coords[a];
    if (!me) continue;
    for (int a = 0; a < 3; a++) v[a] = ins->v0[a] + ins->vrand * (2.0 * RandomUniform(seed, id, 2, a) - 1.0);
    PetscCall(BodyAppend(p, ct, ins->body, choice[k], id0, ins->type, req[k], density, pos + 3 * k, v, seed, id));
  }
  PetscCall(PetscFree4(pos, rad, head, link));
  PetscCall(PetscFree2(req, choice));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The region is cut into blocks fixed by the deck (not by the ranks); each
 * block takes its share of the items and fills itself by random sequential
 * addition, every particle wholly inside its block, so no block needs
 * another's particles: a rank fills only the blocks that meet its
 * subdomain, and every rank that fills a block fills it alike.  Positions,
 * radii and velocities are keyed by id: the fill does not depend on the
 * rank count.  One block (fewer than 2 BLOCK_FILL items) is random
 * sequential addition over the whole region. */
PetscErrorCode InsertRandom(MPI_Comm comm, const InsertRandomKeys *ins, const ClumpTemplates *ct, const Grid *g,
                            const PetscReal rlo[3], const PetscReal rhi[3], PetscReal density, Particles *p,
                            PetscReal *rmax_out)
{
  PetscReal      rmax = RadiusDistributionMax(ins->rd), rbound, rmember, reach, mylo[3], myhi[3];
  PetscInt64     next = 1, bad = 0;
  PetscInt       each = BodyChoiceSpheresEach(ins->body, ct);
  RegionBlocks   b;
  char           msg[512] = "";
  PetscErrorCode ierr     = PETSC_SUCCESS;

  PetscFunctionBeginUser;
  BodyChoiceSizesMax(ins->body, ct, rmax, &rbound, &rmember, &reach);
  PetscCheck((PetscReal)ins->count <= RANDOM_COUNT_MAX, comm, PETSC_ERR_USER_INPUT,
             "-insert_count %" PetscInt64_FMT ": the random fill takes at most %g particles "
             "(use -insert_mode lattice, or a LAMMPS data file)",
             ins->count, RANDOM_COUNT_MAX);
  for (int a = 0; a < 3; a++)
    PetscCheck(rhi[a] - rlo[a] > 2.0 * rbound, comm, PETSC_ERR_USER_INPUT,
               "-insert_region_lo/_hi is thinner than a largest diameter along axis %d", a);
  RegionBlocksChoose(&b, ins->count, rlo, rhi, 2.0 * rbound);
  GridBoxOf(g, g->rank, mylo, myhi);
  for (PetscInt64 blk = 0; blk < b.n && !bad; blk++) {
    PetscInt64 k0, k1;
    PetscReal  lo[3], hi[3];
    PetscBool  meets = PETSC_TRUE;
    RegionBlockOf(&b, blk, &k0, &k1, lo, hi);
    for (int a = 0; a < 3; a++) meets = meets && lo[a] <= myhi[a] && hi[a] >= mylo[a] ? PETSC_TRUE : PETSC_FALSE;
    if (each) next = 1 + k0 * each;
    if (meets) {
      PetscCall(RandomBlockFill(ins, ct, g, lo, hi, k0, k1, rbound, density, &next, p, &bad));
      if (bad)
        PetscCall(PetscSNPrintf(msg, sizeof(msg),
                                "-insert_mode random: no room for particle %" PetscInt64_FMT " of %" PetscInt64_FMT
                                " after %d tries (in block [%g, %g] x [%g, %g] x [%g, %g] of the region, which "
                                "holds particles %" PetscInt64_FMT " to %" PetscInt64_FMT
                                "); the region is too full for a random fill (use -insert_mode lattice, fewer "
                                "particles or a larger region)",
                                bad, ins->count, RANDOM_MAXTRY, (double)lo[0], (double)hi[0], (double)lo[1],
                                (double)hi[1], (double)lo[2], (double)hi[2], k0 + 1, k1));
    } else if (!each)
      for (PetscInt64 k = k0; k < k1; k++) next += BodyChoiceSpheres(ct, BodyChoiceDraw(ins->body, ins->seed, k + 1));
  }
  if (bad) ierr = PETSC_ERR_USER_INPUT;
  PetscCall(CollectiveFirstError(comm, ierr, bad, msg));
  *rmax_out = rmember;
  PetscFunctionReturn(PETSC_SUCCESS);
}
