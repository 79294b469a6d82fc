/* Process grid: the box cut into dims[0] x dims[1] x dims[2] slabs, one
 * subdomain per rank, with face neighbours from MPI_Cart_shift.  The slabs
 * start equal (GridCut); load balancing moves the cuts (GridSetCuts), which
 * every rank holds, so any rank can place any point.  A grid may instead
 * become a tree of bisections (GridSetTree, recursive coordinate bisection):
 * each rank's subdomain is then a box anywhere in the domain. */
#ifndef HDEM_GRID_H
#define HDEM_GRID_H

#include "hdem.h"

typedef struct {
  MPI_Comm    comm; /* Cartesian communicator (MPI_Cart_create, reorder = 0: ranks as in the parent) */
  PetscMPIInt rank, size;
  PetscMPIInt dims[3], coords[3];
  PetscBool   periodic[3];
  PetscReal   lo[3], hi[3];       /* global box */
  PetscReal   sublo[3], subhi[3]; /* this rank's subdomain */
  /* neighbour rank on the low [0] and high [1] side per axis, MPI_PROC_NULL at a wall */
  PetscMPIInt nbr[3][2];
  PetscReal  *cuts[3]; /* dims[a] + 1 slab bounds per axis: lo, the inner cuts, hi */
  /* A tree (tree true): ranks [r0, r1) split at m = GridTreeSplit(r0, r1) by the plane
   * x[tree_axis[m]] = tree_cut[m], the lower ranks below it; every m in [1, size) splits
   * exactly one range.  coords is then (rank, 0, 0), nbr and cuts are unused. */
  PetscBool    tree;
  PetscMPIInt *tree_axis;
  PetscReal   *tree_cut;
} Grid;

/* The first rank of the upper half of ranks [r0, r1) (r1 - r0 >= 2). */
static inline PetscMPIInt GridTreeSplit(PetscMPIInt r0, PetscMPIInt r1)
{
  return r0 + (r1 - r0) / 2;
}

/* Collective. dims_req entries 0 mean "choose" (NULL: choose all); periodic
 * NULL means walls on every axis. On failure grid->comm is MPI_COMM_NULL;
 * GridDestroy is safe then, and on a zero-filled Grid. */
PETSC_EXTERN PetscErrorCode GridCreate(MPI_Comm, const PetscReal lo[3], const PetscReal hi[3],
                                       const PetscBool periodic[3], const PetscInt dims_req[3], Grid *);
PETSC_EXTERN PetscErrorCode GridDestroy(Grid *);

/* Not collective: the factorisation of size GridCreate uses for box edges len[3]. */
PETSC_EXTERN PetscErrorCode GridChooseDims(PetscMPIInt size, const PetscReal len[3], const PetscInt dims_req[3],
                                           PetscMPIInt dims[3]);
/* Bound c of the dims slabs along an axis: lo at c = 0, hi at c = dims, the
 * same bits for the subhi of slab c - 1 and the sublo of slab c. */
PETSC_EXTERN PetscReal GridCut(PetscReal lo, PetscReal hi, PetscMPIInt c, PetscMPIInt dims);

/* The slab along axis a holding x: the c with cuts[c] <= x < cuts[c + 1],
 * clamped to the grid (the caller wraps or rejects points outside). */
PETSC_EXTERN PetscMPIInt GridSlabOf(const Grid *, int a, PetscReal x);
/* Not collective, but every rank must pass the same cuts (dims[a] + 1,
 * lo and hi kept, strictly increasing); updates this rank's bounds. */
PETSC_EXTERN PetscErrorCode GridSetCuts(Grid *, int a, const PetscReal cuts[]);

/* Not collective, but every rank must pass the same size entries (entry 0
 * unused): the grid becomes a tree; each cut must lie within its range's box. */
PETSC_EXTERN PetscErrorCode GridSetTree(Grid *, const PetscMPIInt axis[], const PetscReal cut[]);
/* Rank r's subdomain [lo, hi) (the box's high face closed on a walled axis), grid or tree. */
PETSC_EXTERN void GridBoxOf(const Grid *, PetscMPIInt r, PetscReal lo[3], PetscReal hi[3]);
/* x0 brought into the box along its periodic axes by one period at most (a
 * point in the box or next to it); x may be x0. */
PETSC_EXTERN void GridWrapOnce(const Grid *, const PetscReal x0[3], PetscReal x[3]);
/* The rank owning x, grid or tree, without checks (points outside the box go
 * to the nearest subdomain); GridRankOf checks as GridOwnerOf. */
PETSC_EXTERN PetscMPIInt    GridRankAt(const Grid *, const PetscReal x[3]);
PETSC_EXTERN PetscErrorCode GridRankOf(const Grid *, const PetscReal x[3], PetscMPIInt *rank);
/* The ranks whose subdomains meet the closed box [lo, hi] (no periodic
 * images: the caller shifts), in increasing order, into ranks[] (size entries). */
PETSC_EXTERN PetscMPIInt GridRanksMeeting(const Grid *, const PetscReal lo[3], const PetscReal hi[3],
                                          PetscMPIInt ranks[]);

/* Subdomain coordinates containing x: a point on a cut goes to the higher
 * slab; walled axes are [lo, hi], periodic axes [lo, hi) (wrap first).  For
 * a tree, (owner rank, 0, 0), as the tree's coords. */
PETSC_EXTERN PetscErrorCode GridOwnerOf(const Grid *, const PetscReal x[3], PetscMPIInt coords[3]);
/* Rank of in-range coordinates (periodic axes also wrap, as MPI_Cart_rank); a tree's are (rank, 0, 0). */
PETSC_EXTERN PetscErrorCode GridRankOfCoords(const Grid *, const PetscMPIInt coords[3], PetscMPIInt *rank);
/* Rank at coords + off (edge and corner neighbours too): wraps periodic
 * axes, MPI_PROC_NULL beyond a wall.  Not for a tree. */
PETSC_EXTERN PetscErrorCode GridNeighbourRank(const Grid *, const PetscMPIInt off[3], PetscMPIInt *rank);
/* Collective: a summary line from rank 0, then one line per rank (ASCII viewers; NULL = stdout). */
PETSC_EXTERN PetscErrorCode GridView(const Grid *, PetscViewer);

#endif
