/* Contact history survives rebuilds and migration by being flattened into
 * records (decomp/records.h) keyed by global ids (owner, kind, partner),
 * carried with the owner particle and re-attached to the new pairs by those
 * ids, never by local index. */
#ifndef HDEM_HISTORY_H
#define HDEM_HISTORY_H

#include "interact/neighbor.h"
#include "decomp/records.h"

/* What a record's partner is: another particle (by id), a plane wall (by index). */
#define HISTORY_KIND_SPHERE 0
#define HISTORY_KIND_PLANE  1

/* A store for the model's records: their payload is a ContactHistory. */
PETSC_EXTERN PetscErrorCode HistoryStoreCreate(RecordStore *);
/* stay: per owned particle, nonzero if it will stay owned here through the
 * coming migration (then a pair of two such keeps one record), or NULL (every
 * owned member keeps one: a checkpoint, read back on any decomposition). */
PETSC_EXTERN PetscErrorCode HistoryStoreGather(RecordStore *, const NeighborList *, const Particles *, const unsigned char *stay);
/* The sorted store's records onto the list's pairs. */
PETSC_EXTERN PetscErrorCode HistoryStoreAttach(const RecordStore *, NeighborList *, const Particles *);

#endif
