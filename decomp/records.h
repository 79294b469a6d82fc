/* Keyed records that travel with the particle that owns them: state that
 * outlives the lists it was kept in (contact histories at a rebuild), keyed
 * by global ids, never by local index, so that it survives migration and a
 * restart on any rank count.
 *
 * A record is a key (owner id, kind, partner) and an opaque payload of a
 * width fixed for the store: what the payload means is its writer's
 * business, decomp only moves it.  Sorted, a store is in (owner, kind,
 * partner) order and an owner's records are contiguous. */
#ifndef HDEM_RECORDS_H
#define HDEM_RECORDS_H

#include "decomp/scratch.h"
#include "decomp/fields.h"

typedef struct {
  PetscInt64 owner; /* global id of the particle that carries it */
  /* what the partner is (an interaction's kind: another particle, a wall, ...), 0 .. 127 */
  PetscInt64 kind;
  PetscInt64 partner; /* its global id, or its index among its kind, 0 .. 2^56 - 1 */
} RecordKey;

/* As stored: the owner, then kind and partner in one word (kind in the top
 * bits), 16 bytes before the payload. */
#define RECORD_KIND_SHIFT 56
typedef struct {
  PetscInt64 owner;
  PetscInt64 kp;
} RecordHead;

typedef struct {
  PetscInt n, cap;
  size_t   width;  /* payload bytes, a multiple of sizeof(PetscReal) */
  size_t   stride; /* bytes per record: the head, then the payload */
  char    *r;
} RecordStore;

/* A payload's layout, for files and reports: its writer's fields by name,
 * type (decomp/fields.h), components and byte offset; a list ends at name NULL. */
typedef struct {
  const char *name;
  FieldType   type;
  PetscInt    ncomp;
  size_t      offset;
} RecordField;

PETSC_EXTERN PetscErrorCode RecordStoreCreate(size_t width, RecordStore *);
PETSC_EXTERN PetscErrorCode RecordStoreDestroy(RecordStore *);
/* room for need records, and a quarter more */
PETSC_EXTERN PetscErrorCode RecordStoreReserve(RecordStore *, PetscInt need);
PETSC_EXTERN PetscErrorCode RecordStoreAdd(RecordStore *, const RecordKey *, const void *payload);
PETSC_EXTERN PetscErrorCode RecordStoreClear(RecordStore *); /* empty, keeping the room */
/* Stable: records with equal keys keep their order.  Scratch: NULL for a buffer of its own. */
PETSC_EXTERN PetscErrorCode RecordStoreSort(RecordStore *, Scratch *);
/* In a sorted store: the first record of an owner id (one binary search per
 * particle, not per pair), and from there the record of (kind, partner)
 * (RecordStoreFind, below: inline, as an attach calls it for each pair). */
PETSC_EXTERN PetscInt RecordStoreFirst(const RecordStore *, PetscInt64 owner);
/* Keeps the records whose mark is 0, in order (mark: one per record). */
PETSC_EXTERN void RecordStoreCompact(RecordStore *, const unsigned char *mark);

static inline RecordHead *RecordStoreHead(const RecordStore *s, PetscInt k)
{
  return (RecordHead *)(s->r + (size_t)k * s->stride);
}

static inline RecordKey RecordStoreKey(const RecordStore *s, PetscInt k)
{
  const RecordHead *h   = RecordStoreHead(s, k);
  RecordKey         key = {h->owner, h->kp >> RECORD_KIND_SHIFT, h->kp & (((PetscInt64)1 << RECORD_KIND_SHIFT) - 1)};
  return key;
}

static inline void *RecordStorePayload(const RecordStore *s, PetscInt k)
{
  return s->r + (size_t)k * s->stride + sizeof(RecordHead);
}

/* An owner's records are few: a linear scan from its first finds the one. */
static inline const void *RecordStoreFind(const RecordStore *s, PetscInt first, const RecordKey *key)
{
  PetscInt64 kp = key->kind << RECORD_KIND_SHIFT | key->partner;
  for (PetscInt k = first; k < s->n; k++) {
    const RecordHead *h = RecordStoreHead(s, k);
    if (h->owner != key->owner) break;
    if (h->kp == kp) return RecordStorePayload(s, k);
  }
  return NULL;
}

/* A record as reals for a message, bit for bit: stride / sizeof(PetscReal) of them. */
static inline PetscInt RecordStorePackWidth(const RecordStore *s)
{
  return (PetscInt)(s->stride / sizeof(PetscReal));
}
PETSC_EXTERN void           RecordStorePack(const RecordStore *, PetscInt k, PetscReal *buf);
PETSC_EXTERN PetscErrorCode RecordStoreAddPacked(RecordStore *, const PetscReal *buf);

#endif
