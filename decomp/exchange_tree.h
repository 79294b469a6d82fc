/* A tree's exchanges (exchange_tree.c): every message straight to the rank concerned, found from the boxes every
 * rank holds.  Called by decomp/exchange.h's functions when the grid is a tree. */
#ifndef HDEM_EXCHANGE_TREE_H
#define HDEM_EXCHANGE_TREE_H

#include "decomp/exchange_common.h"

PETSC_INTERN PetscErrorCode ExchangeTreeMigrate(const Grid *, Exchange *, FieldStore *, RecordStore *, Scratch *,
                                                PetscInt *nlost);
PETSC_INTERN PetscErrorCode ExchangeTreeBorders(const Grid *, Exchange *, FieldStore *);
PETSC_INTERN PetscErrorCode ExchangeTreeFree(Exchange *);
PETSC_INTERN PetscErrorCode ExchangeTreeForward(const Grid *, Exchange *, FieldStore *, PetscBool images);

#endif
