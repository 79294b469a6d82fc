#include "insert/blocks.h"
#include <math.h>

void RegionBlocksChoose(RegionBlocks *b, PetscInt64 count, const PetscReal lo[3], const PetscReal hi[3], PetscReal d)
{
  PetscReal target = (PetscReal)(count / BLOCK_FILL), edge = 0.0;
  PetscBool one[3] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE}, again = PETSC_TRUE;

  b->count = count, b->n = 1;
  for (int a = 0; a < 3; a++) b->lo[a] = lo[a], b->hi[a] = hi[a], b->nb[a] = 1;
  if (target < 2.0) return;
  while (again) { /* an axis thinner than the cube's edge keeps one block; the others share the target */
    PetscReal vol  = 1.0;
    int       free = 0;
    again          = PETSC_FALSE;
    for (int a = 0; a < 3; a++)
      if (!one[a]) vol *= hi[a] - lo[a], free++;
    if (!free) break;
    edge = pow(vol / target, 1.0 / free);
    for (int a = 0; a < 3; a++)
      if (!one[a] && hi[a] - lo[a] < edge) one[a] = PETSC_TRUE, again = PETSC_TRUE;
  }
  for (int a = 0; a < 3; a++) {
    PetscReal len = hi[a] - lo[a], most = PetscMax(1.0, floor(len / (BLOCK_EDGE * d)));
    b->nb[a] = one[a] ? 1 : (PetscInt64)PetscMin(most, PetscMax(1.0, floor(len / edge)));
  }
  b->n = b->nb[0] * b->nb[1] * b->nb[2];
}

void RegionBlockOf(const RegionBlocks *b, PetscInt64 blk, PetscInt64 *k0, PetscInt64 *k1, PetscReal lo[3],
                   PetscReal hi[3])
{
  PetscInt64 q = b->count / b->n, r = b->count % b->n,
             c[3] = {blk % b->nb[0], (blk / b->nb[0]) % b->nb[1], blk / b->nb[0] / b->nb[1]};
  *k0             = q * blk + r * blk / b->n;
  *k1             = q * (blk + 1) + r * (blk + 1) / b->n;
  for (int a = 0; a < 3; a++) {
    PetscReal len = b->hi[a] - b->lo[a];
    /* one expression per bound: neighbouring blocks share its bits */
    lo[a] = c[a] == 0 ? b->lo[a] : b->lo[a] + len * (PetscReal)c[a] / (PetscReal)b->nb[a];
    hi[a] = c[a] + 1 == b->nb[a] ? b->hi[a] : b->lo[a] + len * (PetscReal)(c[a] + 1) / (PetscReal)b->nb[a];
  }
}
