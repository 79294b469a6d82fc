#include "history.h"

PetscErrorCode HistoryStoreDestroy(HistoryStore *s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(s->r));
  PetscCall(PetscMemzero(s, sizeof(*s)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HistoryStoreAdd(HistoryStore *s, PetscInt64 owner, PetscInt64 partner, const ContactHistory *h)
{
  PetscFunctionBeginUser;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    PetscCall(PetscRealloc((size_t)s->cap * sizeof(*s->r), &s->r));
  }
  s->r[s->n].owner   = owner;
  s->r[s->n].partner = partner;
  s->r[s->n].h       = *h;
  s->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every owned member of a touching pair keeps a copy: the pair may later be
 * split between two ranks, each of which needs it.  The store is sized
 * exactly first: it is, with the lists, the largest transient. */
PetscErrorCode HistoryStoreGather(HistoryStore *s, const NeighborList *nl, const Particles *p)
{
  PetscInt need = s->n;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    if (nl->slot[k] < 0 || !nl->h[nl->slot[k]].touched) continue;
    if (j < 0) need++;
    else need += (i < p->n) + (j < p->n || p->origin[j] >= 0);
  }
  if (need > s->cap) {
    s->cap = need;
    PetscCall(PetscRealloc((size_t)s->cap * sizeof(*s->r), &s->r));
  }
  for (PetscInt k = 0; k < nl->npair; k++) {
    const ContactHistory *h;
    PetscInt              i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    if (nl->slot[k] < 0 || !nl->h[nl->slot[k]].touched) continue;
    h = &nl->h[nl->slot[k]];
    if (j < 0) {
      PetscCall(HistoryStoreAdd(s, p->id[i], j, h));
      continue;
    }
    if (i < p->n) PetscCall(HistoryStoreAdd(s, p->id[i], p->id[j], h));
    if (j < p->n || p->origin[j] >= 0) PetscCall(HistoryStoreAdd(s, p->id[j], p->id[i], h));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int RecordCompare(const void *a, const void *b)
{
  const HistoryRecord *x = (const HistoryRecord *)a, *y = (const HistoryRecord *)b;
  if (x->owner != y->owner) return x->owner < y->owner ? -1 : 1;
  if (x->partner != y->partner) return x->partner < y->partner ? -1 : 1;
  return 0;
}

PetscErrorCode HistoryStoreSort(HistoryStore *s)
{
  PetscFunctionBeginUser;
  if (s->n > 1) qsort(s->r, (size_t)s->n, sizeof(*s->r), RecordCompare);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The records of owner (sorted by owner, then partner) start at first[] and
 * are few: a linear scan finds the partner. */
static const HistoryRecord *HistoryStoreFind(const HistoryStore *s, PetscInt first, PetscInt64 owner, PetscInt64 partner)
{
  for (PetscInt k = first; k < s->n && s->r[k].owner == owner; k++)
    if (s->r[k].partner == partner) return &s->r[k];
  return NULL;
}

PetscInt HistoryStoreFirst(const HistoryStore *s, PetscInt64 owner)
{
  PetscInt lo = 0, hi = s->n;
  while (lo < hi) {
    PetscInt mid = (lo + hi) / 2;
    if (s->r[mid].owner < owner) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

PetscErrorCode HistoryStoreAttach(const HistoryStore *s, NeighborList *nl, const Particles *p)
{
  PetscInt ntot = p->n + p->nghost, *first;

  PetscFunctionBeginUser;
  nl->nh = 0;
  for (PetscInt k = 0; k < nl->npair; k++) {
    nl->flag[k] &= ~NEIGHBOR_TOUCHED;
    nl->slot[k] = -1;
  }
  if (!s->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(ntot + 1, &first));
  for (PetscInt i = 0; i < ntot; i++) first[i] = HistoryStoreFirst(s, p->id[i]);
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt             i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    const HistoryRecord *r = NULL;
    if (j < 0) r = HistoryStoreFind(s, first[i], p->id[i], j);
    else {
      if (i < p->n) r = HistoryStoreFind(s, first[i], p->id[i], p->id[j]);
      if (!r && (j < p->n || p->origin[j] >= 0)) r = HistoryStoreFind(s, first[j], p->id[j], p->id[i]);
    }
    if (!r) continue;
    PetscCall(NeighborHistoryNew(nl, k));
    nl->h[nl->slot[k]] = r->h;
    if (r->h.touched) nl->flag[k] |= NEIGHBOR_TOUCHED;
  }
  PetscCall(PetscFree(first));
  PetscFunctionReturn(PETSC_SUCCESS);
}
