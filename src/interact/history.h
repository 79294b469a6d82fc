/* Contact histories.  While lists stand, each pair that touches has a
 * history in its list's HistorySlots; at a rebuild they are flattened into
 * records (decomp/records.h) keyed by global ids (owner, kind, partner),
 * carried with the owner particle and re-attached to the new pairs by those
 * ids, never by local index.  Each interaction gathers and attaches its
 * own (interaction.h); the kind says which. */
#ifndef HDEM_HISTORY_H
#define HDEM_HISTORY_H

#include "contact/contact.h"
#include "decomp/records.h"

/* What a record's partner is. */
#define HISTORY_KIND_SPHERE 0 /* another particle, by id */
#define HISTORY_KIND_PLANE  1 /* a plane wall, by index */
#define HISTORY_KIND_MESH   2 /* a surface of a mesh: the mesh's deck number << HISTORY_MESH_SHIFT | the surface */
#define HISTORY_MESH_SHIFT  40

/* A store for the model's records: their payload is a ContactRecord. */
PETSC_EXTERN PetscErrorCode HistoryStoreCreate(RecordStore *);

/* The histories of a list's pairs: only pairs that touch have one (a small
 * fraction of the listed pairs), laid out in pair order at each attach, new
 * contacts appended; a pair names its history by a slot (-1: none, a zero
 * history). */
typedef struct {
  ContactHistory *h;
  PetscInt        n, cap;
  ContactRolling *r; /* beside h, slot for slot, in a run with rolling resistance (HistorySlotsRoll) */
  PetscInt        rcap;
  PetscBool       roll;
  ContactBridge  *b; /* beside h, slot for slot, in a wet run (HistorySlotsWet) */
  PetscInt        bcap;
  PetscBool       wet;
  ContactTurning *t; /* beside h, slot for slot, with the Mindlin-Deresiewicz spring (HistorySlotsTurns) */
  PetscInt        tcap;
  PetscBool       turns;
} HistorySlots;

/* A run with rolling resistance: the slots keep rolling springs too. */
static inline void HistorySlotsRoll(HistorySlots *hs, PetscBool roll)
{
  hs->roll = roll;
}
/* The model's tangential spring keeps turning points: the slots keep them too. */
static inline void HistorySlotsTurns(HistorySlots *hs, const ContactModel *model)
{
  hs->turns = model->tangential.model == TANGENTIAL_MINDLIN_DERESIEWICZ ? PETSC_TRUE : PETSC_FALSE;
}
/* Slot k's turning points, NULL without them. */
static inline ContactTurning *HistorySlotsTurning(const HistorySlots *hs, PetscInt k)
{
  return hs->turns ? &hs->t[k] : NULL;
}
/* A wet run: the slots keep liquid bridges too. */
static inline void HistorySlotsWet(HistorySlots *hs, PetscBool wet)
{
  hs->wet = wet;
}
/* Slot k's bridge, NULL in a dry run. */
static inline ContactBridge *HistorySlotsBridge(const HistorySlots *hs, PetscInt k)
{
  return hs->wet ? &hs->b[k] : NULL;
}
/* Whether slot k holds something to keep: a contact or a bridge. */
static inline PetscBool HistorySlotsLive(const HistorySlots *hs, PetscInt k)
{
  return hs->h[k].touched || (hs->wet && hs->b[k].V > 0.0) ? PETSC_TRUE : PETSC_FALSE;
}
/* Slot k's rolling spring, NULL without rolling resistance. */
static inline ContactRolling *HistorySlotsRolling(const HistorySlots *hs, PetscInt k)
{
  return hs->roll ? &hs->r[k] : NULL;
}
/* Slot k as a record's payload, and back. */
static inline void HistorySlotsRecord(const HistorySlots *hs, PetscInt k, ContactRecord *rec)
{
  rec->h = hs->h[k];
  if (hs->roll) rec->r = hs->r[k];
  else PetscArrayzero(rec->r.mr, 3);
  rec->b.V = hs->wet ? hs->b[k].V : 0.0;
  if (hs->turns) rec->t = hs->t[k];
  else PetscMemzero(&rec->t, sizeof(rec->t));
}
static inline void HistorySlotsFromRecord(HistorySlots *hs, PetscInt k, const ContactRecord *rec)
{
  hs->h[k] = rec->h;
  if (hs->roll) hs->r[k] = rec->r;
  if (hs->wet) hs->b[k] = rec->b;
  if (hs->turns) hs->t[k] = rec->t;
}

PETSC_EXTERN PetscErrorCode HistorySlotsDestroy(HistorySlots *);
/* room for need, one allocation */
PETSC_EXTERN PetscErrorCode HistorySlotsReserve(HistorySlots *, PetscInt need);
/* A zero history at the end; its slot into *slot. */
PETSC_EXTERN PetscErrorCode HistorySlotsNew(HistorySlots *, LocalInt *slot);
/* The room changes hands between rebuilds (the engine lends it to the
 * rebuild's scratch): taken as a buffer of PetscMalloc, and a buffer given
 * back (freed with PetscFree) becomes the room of the next attach. */
PETSC_EXTERN void           HistorySlotsTake(HistorySlots *, void **buf, size_t *bytes);
PETSC_EXTERN PetscErrorCode HistorySlotsGive(HistorySlots *, void *buf, size_t bytes);

#endif
