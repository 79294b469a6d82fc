/* What exchange.c and exchange_tree.c share: not for callers of exchange.h. */
#ifndef HDEM_EXCHANGE_IMPL_H
#define HDEM_EXCHANGE_IMPL_H

#include "decomp/exchange.h"

PETSC_INTERN PetscErrorCode ExchangeReserve(PetscReal **buf, PetscInt *cap, PetscInt64 need);
PETSC_INTERN PetscErrorCode ExchangeWrap(const Grid *, FieldStore *);
PETSC_INTERN PetscErrorCode ExchangeRoots(Exchange *, const FieldStore *);
PETSC_INTERN PetscErrorCode ExchangeForwardSelf(Exchange *, FieldStore *, PetscInt sw);

/* A tree's exchanges (exchange_tree.c): every message straight to the rank
 * concerned, found from the boxes every rank holds. */
PETSC_INTERN PetscErrorCode ExchangeTreeMigrate(const Grid *, Exchange *, FieldStore *, RecordStore *, Scratch *,
                                                PetscInt *nlost);
PETSC_INTERN PetscErrorCode ExchangeTreeBorders(const Grid *, Exchange *, FieldStore *);
PETSC_INTERN PetscErrorCode ExchangeTreeFree(Exchange *);
PETSC_INTERN PetscErrorCode ExchangeTreeForward(const Grid *, Exchange *, FieldStore *, PetscBool images);

/* Ghost row o: what its image, owner and origin say on this rank.  A ghost
 * whose owner is this rank is a periodic self-image: origin names its owned
 * copy (as sent: the sender's own row, or the row its origin named). */
static inline void ExchangeGhostBookkeeping(FieldStore *st, PetscInt o, PetscMPIInt rank)
{
  PetscBool self = (*st->owner)[o] == rank ? PETSC_TRUE : PETSC_FALSE;
  if (!self) (*st->origin)[o] = -1;
  (*st->flags)[o] = ((*st->flags)[o] & ~FIELD_SELF_IMAGE) | (self ? FIELD_SELF_IMAGE : 0);
}

#endif
