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
 * split between two ranks, each of which needs it. */
PetscErrorCode HistoryStoreGather(HistoryStore *s, const NeighborList *nl, const Particles *p)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nl->npair; k++) {
    const NeighborPair *q = &nl->pair[k];
    if (!q->h.touched) continue;
    if (q->j < 0) {
      PetscCall(HistoryStoreAdd(s, p->id[q->i], q->j, &q->h));
      continue;
    }
    if (q->i < p->n) PetscCall(HistoryStoreAdd(s, p->id[q->i], p->id[q->j], &q->h));
    if (q->j < p->n || p->origin[q->j] >= 0) PetscCall(HistoryStoreAdd(s, p->id[q->j], p->id[q->i], &q->h));
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

static const HistoryRecord *HistoryStoreFind(const HistoryStore *s, PetscInt64 owner, PetscInt64 partner)
{
  HistoryRecord key;
  key.owner   = owner;
  key.partner = partner;
  return (const HistoryRecord *)bsearch(&key, s->r, (size_t)s->n, sizeof(*s->r), RecordCompare);
}

PetscErrorCode HistoryStoreAttach(const HistoryStore *s, NeighborList *nl, const Particles *p)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nl->npair; k++) {
    NeighborPair        *q = &nl->pair[k];
    const HistoryRecord *r = NULL;
    if (q->j < 0) r = HistoryStoreFind(s, p->id[q->i], q->j);
    else {
      if (q->i < p->n) r = HistoryStoreFind(s, p->id[q->i], p->id[q->j]);
      if (!r && (q->j < p->n || p->origin[q->j] >= 0)) r = HistoryStoreFind(s, p->id[q->j], p->id[q->i]);
    }
    if (r) q->h = r->h;
    else PetscCall(PetscMemzero(&q->h, sizeof(q->h)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
