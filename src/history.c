#include "history.h"
#include <stdint.h>

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

static inline int RecordCompare(const HistoryRecord *x, const HistoryRecord *y)
{
  if (x->owner != y->owner) return x->owner < y->owner ? -1 : 1;
  if (x->partner != y->partner) return x->partner < y->partner ? -1 : 1;
  return 0;
}

typedef struct {
  uint64_t key[2]; /* partner, owner: offset by their minima, so unsigned order is signed order */
  PetscInt i;      /* the record's place in the store */
} HistoryKey;

/* Stable: records with equal (owner, partner) keep their store order, the
 * order the stable merge sort that glibc's qsort was gave them.  An LSD radix
 * sort on small keys (one pass per byte, partner bytes first; bytes with a
 * single value, most of them once offset, skipped), then one gather of the
 * records: O(n), not n log n comparisons and 80-byte moves.  A store already
 * in order (sorted again after migration) is left as it is. */
PetscErrorCode HistoryStoreSort(HistoryStore *s)
{
  PetscInt        n = s->n, k, cnt[16][256] = {{0}}; /* per byte: its values' counts, then their first places */
  PetscInt64      min[2];
  HistoryKey     *k0, *k1, *a, *b, *t;
  HistoryRecord  *r;

  PetscFunctionBeginUser;
  for (k = 1; k < n; k++)
    if (RecordCompare(&s->r[k - 1], &s->r[k]) > 0) break;
  if (k >= n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(n, &k0, n, &k1));
  a = k0, b = k1; /* ping-pong between the passes */
  min[0] = min[1] = INT64_MAX;
  for (k = 0; k < n; k++) {
    min[0] = PetscMin(min[0], s->r[k].partner);
    min[1] = PetscMin(min[1], s->r[k].owner);
  }
  for (k = 0; k < n; k++) {
    a[k].key[0] = (uint64_t)s->r[k].partner - (uint64_t)min[0];
    a[k].key[1] = (uint64_t)s->r[k].owner - (uint64_t)min[1];
    a[k].i      = k;
    for (int d = 0; d < 16; d++) cnt[d][(a[k].key[d / 8] >> (8 * (d % 8))) & 255]++;
  }
  for (int d = 0; d < 16; d++) {
    PetscInt pos = 0, skip = 0;
    for (int v = 0; v < 256; v++) {
      PetscInt c = cnt[d][v];
      if (c == n) skip = 1;
      cnt[d][v] = pos;
      pos += c;
    }
    if (skip) continue;
    for (k = 0; k < n; k++) b[cnt[d][(a[k].key[d / 8] >> (8 * (d % 8))) & 255]++] = a[k];
    t = a, a = b, b = t;
  }
  PetscCall(PetscMalloc1(s->cap, &r));
  for (k = 0; k < n; k++) r[k] = s->r[a[k].i];
  PetscCall(PetscFree(s->r));
  s->r = r;
  PetscCall(PetscFree2(k0, k1));
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

/* first[i] (HistoryStoreFirst) for the particles whose records Attach reads:
 * the owned ones, in id order after ParticlesSortOwned, so one forward walk
 * over the store finds them all (a binary search where that order breaks),
 * and the self-images, which share their owned copy's id.  Other ghosts' own
 * records are never read: an empty range. */
static void HistoryStoreFirsts(const HistoryStore *s, const Particles *p, PetscInt *first)
{
  PetscInt ntot = p->n + p->nghost, k = 0;

  for (PetscInt i = 0; i < p->n; i++) {
    if (i > 0 && p->id[i] < p->id[i - 1]) k = HistoryStoreFirst(s, p->id[i]);
    else
      while (k < s->n && s->r[k].owner < p->id[i]) k++;
    first[i] = k;
  }
  for (PetscInt i = p->n; i < ntot; i++) {
    PetscInt o = p->origin[i];
    if (o < 0) first[i] = s->n;
    else first[i] = (o < p->n && p->id[o] == p->id[i]) ? first[o] : HistoryStoreFirst(s, p->id[i]);
  }
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
  PetscCall(NeighborHistoryReserve(nl, PetscMin(s->n, nl->npair))); /* a pair takes at most one record */
  PetscCall(PetscMalloc1(ntot + 1, &first));
  HistoryStoreFirsts(s, p, first);
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
