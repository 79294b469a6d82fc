/* Coarse graining (Goldhirsch 2010; Weinhart, Thornton, Luding & Bokhove
 * 2012): the weight phi(r - x) with which a particle at x, or the branch of a
 * contact, counts in the field at a cell of a regular grid over a region.
 *
 * Each axis of the grid is either smooth (the kernel's: more than one cell,
 * kernel lucy or gaussian) or an indicator (bins: the cell's slab; one
 * cell: the region's extent, all of it on a periodic axis the region spans
 * whole).  phi is the kernel of the distance over the smooth axes,
 * normalised in their dimension d, times 1 / extent for each indicator
 * axis: the field at a cell centre on the smooth axes, averaged over the
 * cell on the others.  A periodic axis the region spans whole wraps: the
 * kernel's images are summed.  Pure arithmetic on the positions given, no
 * state: the same bits wherever it runs. */
#ifndef HDEM_COARSE_H
#define HDEM_COARSE_H

#include "hdem.h"

typedef enum {
  COARSE_LUCY,
  COARSE_GAUSSIAN,
  COARSE_BINS
} CoarseKernel;
PETSC_EXTERN const char *const CoarseKernels[];

/* Gauss-Legendre points along a branch (lucy, gaussian) */
#define COARSE_GAUSS_POINTS 4

typedef struct {
  PetscInt     n[3], ncell; /* cells per axis; a cell's index is i + n0 (j + n1 k) */
  PetscReal    lo[3], hi[3], h[3];
  PetscBool    wrap[3];   /* periodic, the region spanning the whole period */
  PetscBool    smooth[3]; /* the kernel's axes */
  PetscInt     d;         /* how many */
  CoarseKernel kernel;
  PetscReal    width; /* lucy: the cutoff c; gaussian: the standard deviation w (cut at 3 w) */
  PetscReal    reach; /* the kernel's support radius (0: bins) */
  PetscReal    norm;  /* the kernel's normalisation in d dimensions over the indicator axes' extents */
} CoarseGrid;

/* wrap: per axis, periodic with the region spanning the whole period. */
PETSC_EXTERN PetscErrorCode CoarseGridSetUp(CoarseGrid *, const PetscInt n[3], const PetscReal lo[3],
                                            const PetscReal hi[3], const PetscBool wrap[3], CoarseKernel,
                                            PetscReal width);

/* What a weight goes to: cell, phi (a point) or its integral along a branch [1/m^3]. */
typedef void (*CoarseVisit)(void *ctx, PetscInt cell, PetscReal w);

/* phi(c - x) at every cell c it reaches. */
PETSC_EXTERN void CoarsePoint(const CoarseGrid *, const PetscReal x[3], CoarseVisit, void *ctx);
/* The integral over s in [0, 1] of phi(c - a - s (b - a)) at every cell c
 * it reaches: indicator axes clip the branch exactly, the smooth ones are
 * integrated by COARSE_GAUSS_POINTS-point Gauss-Legendre over the clipped
 * part. */
PETSC_EXTERN void CoarseSegment(const CoarseGrid *, const PetscReal a[3], const PetscReal b[3], CoarseVisit, void *ctx);

#endif
