/* A batch of the streams' candidates placed (engine/flow.h).  A stream's
 * batch is cut into blocks fixed by its box, its candidate count and its
 * largest size alone (insert/blocks.h), each block a contiguous range of
 * its sequence numbers, each candidate's trial positions in its block
 * shrunk by its radius: candidates of different blocks never overlap, so
 * blocks are decided apart.  A block is decided by the ranks whose
 * particles or subdomain come near it (every rank knows which): each flags
 * the trials that overlap its own particles, the flags are or-ed among
 * them, and each walks the block's candidates alike.  Ids, counts and
 * masses are made global once per batch.  A batch of one block (below
 * 2 BLOCK_FILL candidates, or a box too small for two) is every
 * rank's, its flags or-ed by one reduction per FLOW_CHUNK candidates
 * (engine/flow_insert.c). */
#ifndef HDEM_FLOW_BLOCKS_H
#define HDEM_FLOW_BLOCKS_H

#include "engine/state.h"
#include "engine/flow_cells.h"
#include "insert/blocks.h"

#define FLOW_CHUNK 1024 /* candidates per reduction of their flags (one block) */

typedef struct {
  PetscInt   k;
  PetscInt64 seq;
  PetscReal  r;    /* the radius drawn (a body's volume-equivalent one) */
  PetscReal  rb;   /* the sphere around what it makes, placed */
  PetscInt   body; /* BodyChoiceDraw's */
} FlowCandidate;

/* A candidate placed at x whose position this rank owns, waiting for its
 * id: the spheres placed before it in its block (global index blk). */
typedef struct {
  FlowCandidate c;
  PetscReal     x[3];
  PetscInt64    blk, before;
} FlowPlaced;

/* One insertion's work: the owned particles near the due streams (near),
 * the bounding spheres of earlier streams' placed candidates this rank
 * owns (mine), per block of every due stream the candidates and spheres
 * placed (2 per block, on the ranks that decide it, else 0), the streams'
 * placed masses (each block's added by the lowest rank deciding it), and
 * with several blocks, each rank's box of what it must see (6 per rank). */
typedef struct {
  Engine     *e;
  PetscReal   t, h;
  Planes      walls;
  FlowCells   near, mine;
  PetscInt64  nblk, ndrawn;
  PetscReal  *cnt;
  ExactSum    mass[STREAMS_MAX];
  FlowPlaced *placed;
  PetscInt64  nplaced, cap;
  PetscReal  *boxes;
} FlowBatch;

/* The radius of the sphere around the largest particle stream k makes. */
PETSC_EXTERN PetscReal FlowStreamBound(const Engine *, PetscInt k);
/* Candidate q of stream k's batch (sequence number seq[k] + q). */
PETSC_EXTERN PetscErrorCode FlowCandidateDraw(const Engine *, PetscInt k, PetscInt64 q, FlowCandidate *);
/* Per candidate the trials (bit a: trial a) that overlap an owned particle,
 * a plane wall or an earlier stream's placed candidate this rank owns. */
PETSC_EXTERN void FlowBlockFlags(const FlowBatch *, const PetscReal lo[3], const PetscReal hi[3], PetscInt64 n,
                                 const FlowCandidate *, PetscReal *mask);
/* The next n candidates of global block blk (box [lo, hi]) decided against
 * the flags or-ed over the ranks and the block's placed ones (taken). */
PETSC_EXTERN PetscErrorCode FlowBlockAccept(FlowBatch *, PetscInt64 blk, const PetscReal lo[3], const PetscReal hi[3],
                                            PetscInt64 n, const FlowCandidate *, const PetscReal *mask,
                                            PetscBool add_mass, FlowCells *taken);
/* Collective: stream k's batch of blocks (blk0: its first global block),
 * each rank deciding the blocks near it (flow_blocks.c). */
PETSC_EXTERN PetscErrorCode FlowStreamBlocks(FlowBatch *, PetscInt k, const RegionBlocks *, PetscInt64 blk0);
/* Collective: each rank's box of what it must see, into b->boxes. */
PETSC_EXTERN PetscErrorCode FlowBatchBoxes(FlowBatch *);

#endif
