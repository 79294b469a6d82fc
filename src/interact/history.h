/* Contact history survives rebuilds and migration by being flattened into
 * per-particle records keyed by global ids (owner, partner), carried with the
 * particle and re-attached to the new pairs by those ids, never by local index. */
#ifndef HDEM_HISTORY_H
#define HDEM_HISTORY_H

#include "interact/neighbor.h"

typedef struct {
  PetscInt64     owner, partner; /* partner < 0: wall -1 - partner */
  ContactHistory h;
} HistoryRecord;

#define HISTORY_PACK_REALS (2 + (PetscInt)(sizeof(ContactHistory) / sizeof(PetscReal)))

typedef struct {
  PetscInt       n, cap;
  HistoryRecord *r;
} HistoryStore;

PETSC_EXTERN PetscErrorCode HistoryStoreDestroy(HistoryStore *);
PETSC_EXTERN PetscErrorCode HistoryStoreAdd(HistoryStore *, PetscInt64 owner, PetscInt64 partner, const ContactHistory *);
/* stay: per owned particle, nonzero if it will stay owned here through the
 * coming migration (then a pair of two such keeps one record), or NULL (every
 * owned member keeps one: a checkpoint, read back on any decomposition). */
PETSC_EXTERN PetscErrorCode HistoryStoreGather(HistoryStore *, const NeighborList *, const Particles *, const unsigned char *stay);
PETSC_EXTERN PetscErrorCode HistoryStoreSort(HistoryStore *, Scratch *); /* Scratch: NULL for a buffer of its own */
PETSC_EXTERN PetscErrorCode HistoryStoreClear(HistoryStore *); /* empty, keeping the room */
/* In a sorted store, the index of the first record of an owner id (an owner's
 * records are contiguous): one binary search per particle, not per pair. */
PETSC_EXTERN PetscInt       HistoryStoreFirst(const HistoryStore *, PetscInt64 owner);
PETSC_EXTERN PetscErrorCode HistoryStoreAttach(const HistoryStore *, NeighborList *, const Particles *);

#endif
