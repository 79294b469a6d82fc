/* A region cut into blocks fixed by the region, the number of items and
 * their largest diameter alone, the items shared out among the blocks in
 * contiguous ranges: the random fill's particles and a stream's batch are
 * placed block by block, each item inside its block, so blocks never
 * interact and the result does not depend on which ranks place them. */
#ifndef HDEM_BLOCKS_H
#define HDEM_BLOCKS_H

#include "hdem.h"

#define BLOCK_FILL 8192 /* items a block holds at least (on average) */
#define BLOCK_EDGE 4.0  /* a block's edge at least, in largest diameters */

/* The region's blocks, nb per axis, and the items shared out among them in
 * block order (x fastest): block b holds items [count b / n, count (b + 1) / n). */
typedef struct {
  PetscInt64 nb[3], n, count;
  PetscReal  lo[3], hi[3];
} RegionBlocks;

/* Blocks of at least BLOCK_FILL items and BLOCK_EDGE diameters d, as near
 * cubes as the region allows; one block below 2 BLOCK_FILL items. */
PETSC_EXTERN void RegionBlocksChoose(RegionBlocks *, PetscInt64 count, const PetscReal lo[3], const PetscReal hi[3],
                                     PetscReal d);
/* Block blk's items [k0, k1) and box (neighbouring blocks share their faces' bits). */
PETSC_EXTERN void RegionBlockOf(const RegionBlocks *, PetscInt64 blk, PetscInt64 *k0, PetscInt64 *k1, PetscReal lo[3],
                                PetscReal hi[3]);

#endif
