#include "decomp/keysort.h"
#include <stdlib.h>

#define KEYSORT_BITS 11 /* a pass's digit: its counts stay in the first-level cache */

typedef struct {
  PetscInt64 key, val, at;
} KeySortAt;

static int KeySortAtCompare(const void *pa, const void *pb)
{
  const KeySortAt *a = (const KeySortAt *)pa, *b = (const KeySortAt *)pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return a->at < b->at ? -1 : a->at > b->at;
}

/* Negative keys: the comparison sort, ties by position. */
static PetscErrorCode KeySortCompare(PetscInt n, KeySortItem *items)
{
  KeySortAt *t;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n, &t));
  for (PetscInt i = 0; i < n; i++) t[i].key = items[i].key, t[i].val = items[i].val, t[i].at = i;
  qsort(t, (size_t)n, sizeof(*t), KeySortAtCompare);
  for (PetscInt i = 0; i < n; i++) items[i].key = t[i].key, items[i].val = t[i].val;
  PetscCall(PetscFree(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KeySortStable(PetscInt n, KeySortItem *items)
{
  KeySortItem *a   = items, *b, *t;
  PetscInt64   max = 0;
  PetscInt    *cnt;
  int          bits = 0;
  const int    nd   = 1 << KEYSORT_BITS;

  PetscFunctionBeginUser;
  if (n < 2) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < n; i++) {
    if (items[i].key < 0) {
      PetscCall(KeySortCompare(n, items));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    max = PetscMax(max, items[i].key);
  }
  while (bits < 63 && (max >> bits)) bits += KEYSORT_BITS;
  PetscCall(PetscMalloc2(n, &b, nd + 1, &cnt));
  t = b;
  for (int sft = 0; sft < bits; sft += KEYSORT_BITS) {
    KeySortItem *s;
    PetscCall(PetscArrayzero(cnt, nd + 1));
    for (PetscInt i = 0; i < n; i++) cnt[((a[i].key >> sft) & (nd - 1)) + 1]++;
    for (int d = 0; d < nd; d++) cnt[d + 1] += cnt[d];
    for (PetscInt i = 0; i < n; i++) b[cnt[(a[i].key >> sft) & (nd - 1)]++] = a[i];
    s = a, a = b, b = s;
  }
  if (a != items) PetscCall(PetscArraycpy(items, a, n));
  PetscCall(PetscFree2(t, cnt));
  PetscFunctionReturn(PETSC_SUCCESS);
}
