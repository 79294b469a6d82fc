/* A stable sort of (key, value) items by key: the order a comparison sort
 * on (key, position) gives, by a least-significant-digit radix sort when
 * no key is negative (as many passes as the largest key needs). */
#ifndef HDEM_KEYSORT_H
#define HDEM_KEYSORT_H

#include "hdem.h"

typedef struct {
  PetscInt64 key;
  PetscInt64 val;
} KeySortItem;

PETSC_EXTERN PetscErrorCode KeySortStable(PetscInt n, KeySortItem *items);

#endif
