/* Cells for the streams' overlap tests: who is near a point.  A hash of
 * cells at least h wide over the grid's box (periodic axes wrap, the others
 * reach a cell past each face), each holding its items' centres and radii;
 * separations across periodic faces are the nearest image's. */
#ifndef HDEM_FLOW_CELLS_H
#define HDEM_FLOW_CELLS_H

#include "decomp/grid.h"
#include "geometry/planes.h"

#define FLOW_CELL_OFF ((int64_t)1 << 20) /* cell indices in 21 bits per axis */

typedef struct {
  PetscReal  lo[3], w[3], L[3];
  PetscInt   nc[3];
  PetscBool  per[3];
  PetscInt   n, cap; /* items */
  PetscReal *xr;     /* x, y, z, r of each item */
  PetscInt  *next;   /* the next item of its cell, -1 */
  PetscInt   nslot, nused;
  uint64_t  *key;  /* of each slot, 0: empty */
  PetscInt  *head; /* its first item */
} FlowCells;

PETSC_EXTERN PetscErrorCode FlowCellsCreate(const Grid *, PetscReal h, FlowCells *);
PETSC_EXTERN PetscErrorCode FlowCellsDestroy(FlowCells *);
PETSC_EXTERN PetscErrorCode FlowCellsAdd(FlowCells *, const PetscReal x[3], PetscReal r);
/* Whether a sphere (x, r) overlaps an item: centres closer than the radii's sum. */
PETSC_EXTERN PetscBool FlowCellsHit(const FlowCells *, const PetscReal x[3], PetscReal r);
/* Distance along an axis from x to [lo, hi], through a periodic face (period L) where nearer. */
PETSC_EXTERN PetscReal FlowAxisGap(PetscReal x, PetscReal lo, PetscReal hi, PetscReal L, PetscBool per);
/* Whether a sphere (x, r) would touch a plane wall (the walls where they are
 * at the insertion's time): every rank knows them alike. */
PETSC_EXTERN PetscBool FlowPlanesHit(const Planes *, const PetscReal x[3], PetscReal r);

#endif
