#include "decomp/records.h"
#include <stdint.h>
#include <string.h>

/* A whole record: the model's common width (a ContactHistory, 64 bytes, and
 * the 16-byte head) as a constant-size copy, moves rather than a call. */
static inline void RecordCopy(char *dst, const char *src, size_t stride)
{
  if (stride == 80) memcpy(dst, src, 80);
  else memcpy(dst, src, stride);
}

PetscErrorCode RecordStoreCreate(size_t width, RecordStore *s)
{
  PetscFunctionBeginUser;
  PetscCheck(width % sizeof(PetscReal) == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "a record payload of %zu bytes is not a whole number of reals", width);
  PetscCall(PetscMemzero(s, sizeof(*s)));
  s->width  = width;
  s->stride = sizeof(RecordHead) + width;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RecordStoreDestroy(RecordStore *s)
{
  size_t width = s->width;

  PetscFunctionBeginUser;
  PetscCall(PetscFree(s->r));
  PetscCall(RecordStoreCreate(width, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RecordStoreClear(RecordStore *s)
{
  PetscFunctionBeginUser;
  s->n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Contacts grow as a bed settles: room for the next rebuilds too. */
PetscErrorCode RecordStoreReserve(RecordStore *s, PetscInt need)
{
  PetscFunctionBeginUser;
  if (need <= s->cap) PetscFunctionReturn(PETSC_SUCCESS);
  s->cap = need + need / 4;
  PetscCall(PetscRealloc((size_t)s->cap * s->stride, &s->r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RecordStoreAdd(RecordStore *s, const RecordKey *key, const void *payload)
{
  RecordHead *h;

  PetscFunctionBeginUser;
  PetscCheck(key->kind >= 0 && key->kind < 128 && key->partner >= 0 &&
               key->partner < ((PetscInt64)1 << RECORD_KIND_SHIFT),
             PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "record of %" PetscInt64_FMT ": kind %" PetscInt64_FMT " or partner %" PetscInt64_FMT " out of range",
             key->owner, key->kind, key->partner);
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    PetscCall(PetscRealloc((size_t)s->cap * s->stride, &s->r));
  }
  h        = RecordStoreHead(s, s->n);
  h->owner = key->owner;
  h->kp    = key->kind << RECORD_KIND_SHIFT | key->partner;
  if (s->width == 64) memcpy(RecordStorePayload(s, s->n), payload, 64);
  else memcpy(RecordStorePayload(s, s->n), payload, s->width);
  s->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline int RecordHeadCompare(const RecordHead *x, const RecordHead *y)
{
  if (x->owner != y->owner) return x->owner < y->owner ? -1 : 1;
  if (x->kp != y->kp) return x->kp < y->kp ? -1 : 1;
  return 0;
}

typedef struct {
  uint64_t key[2]; /* low and high words of the (owner, kind, partner) order, unsigned */
  PetscInt i;      /* the record's place in the store */
} RecordSortKey;

/* Keys in unsigned order equal to (owner, kind, partner) order: each offset
 * by its minimum, (kind, partner) as one number q = kind (prange + 1) +
 * partner, then one word owner (qrange + 1) + q when that fits (it does for
 * any realistic id count), else (q, owner) as two words. */
static PetscErrorCode RecordStoreKeys(const RecordStore *s, RecordSortKey *a, uint64_t kmax[2])
{
  PetscInt64 omin = INT64_MAX, omax = INT64_MIN, pmin = INT64_MAX, pmax = INT64_MIN, kmin = INT64_MAX, kmx = INT64_MIN;
  uint64_t   orange, prange, krange, qrange;
  PetscBool  one;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < s->n; k++) {
    const RecordKey r0 = RecordStoreKey(s, k), *r = &r0;
    omin = PetscMin(omin, r->owner), omax = PetscMax(omax, r->owner);
    pmin = PetscMin(pmin, r->partner), pmax = PetscMax(pmax, r->partner);
    kmin = PetscMin(kmin, r->kind), kmx = PetscMax(kmx, r->kind);
  }
  orange = (uint64_t)omax - (uint64_t)omin;
  prange = (uint64_t)pmax - (uint64_t)pmin;
  krange = (uint64_t)kmx - (uint64_t)kmin;
  PetscCheck(prange < UINT64_MAX && krange <= (UINT64_MAX - prange) / (prange + 1), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "record keys: partners span %" PetscInt64_FMT " .. %" PetscInt64_FMT " over %" PetscInt64_FMT
             " kinds, more than a sort key holds",
             pmin, pmax, (PetscInt64)krange + 1);
  qrange  = krange * (prange + 1) + prange;
  one     = (qrange < UINT64_MAX && orange <= (UINT64_MAX - qrange) / (qrange + 1)) ? PETSC_TRUE : PETSC_FALSE;
  kmax[0] = kmax[1] = 0;
  for (PetscInt k = 0; k < s->n; k++) {
    const RecordKey r0 = RecordStoreKey(s, k), *r = &r0;
    uint64_t        o = (uint64_t)r->owner - (uint64_t)omin,
             q        = ((uint64_t)r->kind - (uint64_t)kmin) * (prange + 1) + ((uint64_t)r->partner - (uint64_t)pmin);
    a[k].key[0]       = one ? o * (qrange + 1) + q : q;
    a[k].key[1]       = one ? 0 : o;
    a[k].i            = k;
    kmax[0]           = kmax[0] > a[k].key[0] ? kmax[0] : a[k].key[0];
    kmax[1]           = kmax[1] > a[k].key[1] ? kmax[1] : a[k].key[1];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An LSD radix sort on small keys (RecordStoreKeys; one pass per byte below
 * the largest key's top byte, bytes with a single value skipped), then one
 * gather of the records in place: O(n), not n log n comparisons and moves
 * of whole records.  A store already in order (sorted again after a
 * migration) is left as it is. */
PetscErrorCode RecordStoreSort(RecordStore *s, Scratch *sc)
{
  Scratch own = {NULL, 0, 0};
  /* per byte: its values' counts, then their first places */
  PetscInt       n = s->n, k, nd = 0, cnt[16][256] = {{0}};
  int            dw[16], dsh[16]; /* per byte: its word and shift */
  uint64_t       kmax[2];
  RecordSortKey *k0, *k1, *a, *b, *t;
  char          *tmp;

  PetscFunctionBeginUser;
  for (k = 1; k < n; k++)
    if (RecordHeadCompare(RecordStoreHead(s, k - 1), RecordStoreHead(s, k)) > 0) break;
  if (k >= n) PetscFunctionReturn(PETSC_SUCCESS);
  if (!sc) sc = &own; /* a caller without one: a buffer for this sort only */
  PetscCall(ScratchBegin(sc, 2 * ScratchBytes(n, RecordSortKey) + ScratchBytes(s->stride, char)));
  k0  = ScratchTake(sc, n, sizeof(*k0));
  k1  = ScratchTake(sc, n, sizeof(*k1));
  tmp = ScratchTake(sc, s->stride, 1);
  a = k0, b = k1; /* ping-pong between the passes */
  PetscCall(RecordStoreKeys(s, a, kmax));
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
    PetscInt j = k;
    if (a[k].i == k) continue;
    RecordCopy(tmp, s->r + (size_t)k * s->stride, s->stride);
    while (a[j].i != k) {
      PetscInt next = a[j].i;
      RecordCopy(s->r + (size_t)j * s->stride, s->r + (size_t)next * s->stride, s->stride);
      a[j].i = j;
      j      = next;
    }
    RecordCopy(s->r + (size_t)j * s->stride, tmp, s->stride);
    a[j].i = j;
  }
  PetscCall(ScratchDestroy(&own));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt RecordStoreFirst(const RecordStore *s, PetscInt64 owner)
{
  PetscInt lo = 0, hi = s->n;
  while (lo < hi) {
    PetscInt mid = (lo + hi) / 2;
    if (RecordStoreHead(s, mid)->owner < owner) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

void RecordStoreCompact(RecordStore *s, const unsigned char *mark)
{
  PetscInt kr = 0;
  for (PetscInt k = 0; k < s->n; k++)
    if (!mark[k]) {
      if (kr != k) RecordCopy(s->r + (size_t)kr * s->stride, s->r + (size_t)k * s->stride, s->stride);
      kr++;
    }
  s->n = kr;
}

void RecordStorePack(const RecordStore *s, PetscInt k, PetscReal *buf)
{
  RecordCopy((char *)buf, s->r + (size_t)k * s->stride, s->stride);
}

PetscErrorCode RecordStoreAddPacked(RecordStore *s, const PetscReal *buf)
{
  PetscFunctionBeginUser;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    PetscCall(PetscRealloc((size_t)s->cap * s->stride, &s->r));
  }
  RecordCopy(s->r + (size_t)s->n * s->stride, (const char *)buf, s->stride);
  s->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}
