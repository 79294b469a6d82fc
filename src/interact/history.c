#include "interact/history.h"
#include <stdint.h>

PetscErrorCode HistoryStoreDestroy(HistoryStore *s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(s->r));
  PetscCall(PetscMemzero(s, sizeof(*s)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Empty, keeping the room: the next rebuild gathers about as many. */
PetscErrorCode HistoryStoreClear(HistoryStore *s)
{
  PetscFunctionBeginUser;
  s->n = 0;
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

/* Whether the upper member of touching pair (i, j) keeps a copy too: where
 * it is owned here (itself or as the owned copy of a self-image), unless the
 * lower member is owned here as well and both stay (then the pair stays
 * here alone, and Attach finds it by its lower member). */
static inline PetscBool HistoryUpperCopy(const Particles *p, const unsigned char *stay, PetscInt i, PetscInt j)
{
  if (!(j < p->n || p->origin[j] >= 0)) return PETSC_FALSE;
  if (!stay || i >= p->n) return PETSC_TRUE;
  return stay[i] && stay[j < p->n ? j : p->origin[j]] ? PETSC_FALSE : PETSC_TRUE;
}

/* Every owned member of a touching pair keeps a copy, since the pair may
 * later be split between two ranks, each of which needs it; but not both
 * members of a pair that stays here whole (HistoryUpperCopy).  The store is
 * sized first: it is, with the lists, the largest transient. */
PetscErrorCode HistoryStoreGather(HistoryStore *s, const NeighborList *nl, const Particles *p, const unsigned char *stay)
{
  PetscInt need = s->n;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    if (nl->slot[k] < 0 || !nl->h[nl->slot[k]].touched) continue;
    if (j < 0) need++;
    else need += (i < p->n) + HistoryUpperCopy(p, stay, i, j);
  }
  if (need > s->cap) {
    s->cap = need + need / 4; /* contacts grow as a bed settles: room for the next rebuilds */
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
    if (HistoryUpperCopy(p, stay, i, j)) PetscCall(HistoryStoreAdd(s, p->id[j], p->id[i], h));
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
  uint64_t key[2]; /* low and high words of the (owner, partner) order, unsigned */
  PetscInt i;      /* the record's place in the store */
} HistoryKey;

/* Keys in unsigned order equal to (owner, partner) order: both offset by their
 * minima, then one word owner * (partner range + 1) + partner when that fits
 * (it does for any realistic id count), else (partner, owner) as two words. */
static void HistoryStoreKeys(const HistoryStore *s, HistoryKey *a, uint64_t kmax[2])
{
  PetscInt64 omin = INT64_MAX, pmin = INT64_MAX, omax = INT64_MIN, pmax = INT64_MIN;
  uint64_t   orange, prange;
  PetscBool  one;

  for (PetscInt k = 0; k < s->n; k++) {
    omin = PetscMin(omin, s->r[k].owner), omax = PetscMax(omax, s->r[k].owner);
    pmin = PetscMin(pmin, s->r[k].partner), pmax = PetscMax(pmax, s->r[k].partner);
  }
  orange  = (uint64_t)omax - (uint64_t)omin;
  prange  = (uint64_t)pmax - (uint64_t)pmin;
  one     = (prange < UINT64_MAX && orange <= (UINT64_MAX - prange) / (prange + 1)) ? PETSC_TRUE : PETSC_FALSE;
  kmax[0] = kmax[1] = 0;
  for (PetscInt k = 0; k < s->n; k++) {
    uint64_t o = (uint64_t)s->r[k].owner - (uint64_t)omin, q = (uint64_t)s->r[k].partner - (uint64_t)pmin;
    a[k].key[0] = one ? o * (prange + 1) + q : q;
    a[k].key[1] = one ? 0 : o;
    a[k].i      = k;
    kmax[0]     = kmax[0] > a[k].key[0] ? kmax[0] : a[k].key[0];
    kmax[1]     = kmax[1] > a[k].key[1] ? kmax[1] : a[k].key[1];
  }
}

/* Stable: records with equal (owner, partner) keep their store order, the
 * order the stable merge sort that glibc's qsort was gave them.  An LSD radix
 * sort on small keys (HistoryStoreKeys; one pass per byte below the largest
 * key's top byte, bytes with a single value skipped), then one gather of the
 * records in place: O(n), not n log n comparisons and 80-byte moves.  A store already
 * in order (sorted again after migration) is left as it is. */
PetscErrorCode HistoryStoreSort(HistoryStore *s, Scratch *sc)
{
  Scratch        own = {NULL, 0, 0};
  PetscInt       n = s->n, k, nd = 0, cnt[16][256] = {{0}}; /* per byte: its values' counts, then their first places */
  int            dw[16], dsh[16];                            /* per byte: its word and shift */
  uint64_t       kmax[2];
  HistoryKey    *k0, *k1, *a, *b, *t;

  PetscFunctionBeginUser;
  for (k = 1; k < n; k++)
    if (RecordCompare(&s->r[k - 1], &s->r[k]) > 0) break;
  if (k >= n) PetscFunctionReturn(PETSC_SUCCESS);
  if (!sc) sc = &own; /* a caller without one: a buffer for this sort only */
  PetscCall(ScratchBegin(sc, 2 * ScratchBytes(n, HistoryKey)));
  k0 = ScratchTake(sc, n, sizeof(*k0));
  k1 = ScratchTake(sc, n, sizeof(*k1));
  a = k0, b = k1; /* ping-pong between the passes */
  HistoryStoreKeys(s, a, kmax);
  for (int w = 0; w < 2; w++)
    for (int sh = 0; sh < 64 && (kmax[w] >> sh); sh += 8) dw[nd] = w, dsh[nd] = sh, nd++;
  for (k = 0; k < n; k++)
    for (PetscInt d = 0; d < nd; d++) cnt[d][(a[k].key[dw[d]] >> dsh[d]) & 255]++;
  for (PetscInt d = 0; d < nd; d++) {
    PetscInt pos = 0, skip = 0;
    for (int v = 0; v < 256; v++) {
      PetscInt c = cnt[d][v];
      if (c == n) skip = 1;
      cnt[d][v] = pos;
      pos += c;
    }
    if (skip) continue;
    for (k = 0; k < n; k++) b[cnt[d][(a[k].key[dw[d]] >> dsh[d]) & 255]++] = a[k];
    t = a, a = b, b = t;
  }
  /* place k takes record a[k].i: follow the permutation's cycles in place,
   * since a fresh store-sized array costs more in page faults than it saves */
  for (k = 0; k < n; k++) {
    PetscInt      j = k;
    HistoryRecord r;
    if (a[k].i == k) continue;
    r = s->r[k];
    while (a[j].i != k) {
      PetscInt next = a[j].i;
      s->r[j]       = s->r[next];
      a[j].i        = j;
      j             = next;
    }
    s->r[j] = r;
    a[j].i  = j;
  }
  PetscCall(ScratchDestroy(&own));
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
 * the owned ones, (mostly) in id order as EngineRebuild keeps them, so one forward walk
 * over the store finds them all (a binary search where that order breaks),
 * and the self-images, which share their owned copy's id.  Other ghosts' own
 * records are never read: an empty range. */
static void HistoryStoreFirsts(const HistoryStore *s, const Particles *p, LocalInt *first)
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
  PetscInt  ntot = p->n + p->nghost;
  LocalInt *first;

  PetscFunctionBeginUser;
  nl->nh = 0;
  for (PetscInt k = 0; k < nl->npair; k++) {
    nl->flag[k] &= ~NEIGHBOR_TOUCHED;
    nl->slot[k] = -1;
  }
  if (!s->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(s->n <= LOCAL_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "a rank holds %" PetscInt_FMT " contact-history records, more than its 32-bit local indices allow: run on more ranks", s->n);
  PetscCall(NeighborHistoryReserve(nl, PetscMin(s->n, nl->npair))); /* a pair takes at most one record */
  PetscCall(PetscMalloc1(ntot + 1, &first));
  HistoryStoreFirsts(s, p, first);
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt             i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    const HistoryRecord *r = NULL;
    if (j < 0) r = HistoryStoreFind(s, first[i], p->id[i], j);
    else {
      if (i < p->n || p->origin[i] >= 0) r = HistoryStoreFind(s, first[i], p->id[i], p->id[j]); /* a self-image: its owned copy's records */
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
