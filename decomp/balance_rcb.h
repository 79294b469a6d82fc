/* Recursive coordinate bisection (LAMMPS's "balance rcb"): the trees of boxes decomp/balance.h's rcb mode makes. */
#ifndef HDEM_BALANCE_RCB_H
#define HDEM_BALANCE_RCB_H

#include "decomp/grid.h"
#include "decomp/fields.h"

/* Collective on the grid's communicator: the tree (axis[] and cut[], size
 * entries, for GridSetTree) that bisects the n points at x, x + stride, ...
 * (clamped into the box), each of weight w (this rank's; integers, so every
 * rank finds the same cuts).  Each range of ranks is split along the
 * longest edge of its points' bounding box at the weight of its lower half,
 * the cut in the middle of the gap between the points either side. */
PETSC_EXTERN PetscErrorCode BalanceRcbTree(const Grid *, PetscInt n, const PetscReal *x, PetscInt stride, PetscInt64 w,
                                           PetscMPIInt axis[], PetscReal cut[]);

/* Collective: the rcb mode's balance.  cost is this rank's; when the largest
 * exceeds the mean by more than threshold, a new tree from the rows' homes
 * in st, each weighing its rank's cost per row.  Gives the ratio max / mean
 * before and whether any cut moved. */
PETSC_EXTERN PetscErrorCode BalanceRcbApply(Grid *, const FieldStore *, PetscReal cost, PetscReal threshold,
                                            PetscReal *imbalance, PetscBool *moved);

/* Whether the tree (axis[], cut[]) differs from the grid's (a grid of slabs: always). */
PETSC_EXTERN PetscBool BalanceRcbDiffers(const Grid *, const PetscMPIInt axis[], const PetscReal cut[]);
/* Collective: the largest rank cost over the mean (1 without cost anywhere), with tot the costs' and the rows'
 * sums (n: this rank's rows). */
PETSC_EXTERN PetscErrorCode BalanceRcbRatio(const Grid *, PetscReal cost, PetscInt n, PetscReal *ratio,
                                            PetscReal tot[2]);

#endif
