/* Contact histories.  While lists stand, each pair that touches has a
 * history in its list's HistorySlots; at a rebuild they are flattened into
 * records (decomp/records.h) keyed by global ids (owner, kind, partner),
 * carried with the owner particle and re-attached to the new pairs by those
 * ids, never by local index.  Each interaction gathers and attaches its
 * own (interaction.h); the kind says which. */
#ifndef HDEM_HISTORY_H
#define HDEM_HISTORY_H

#include "contact/contact.h"
#include "contact/liquid.h"
#include "decomp/records.h"

/* What a record's partner is. */
#define HISTORY_KIND_SPHERE 0 /* another particle, by id */
#define HISTORY_KIND_PLANE  1 /* a plane wall, by index */
#define HISTORY_KIND_MESH   2 /* a mesh: deck number << HISTORY_MESH_SHIFT | the contact's key (geometry/trimesh.h) */
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
  void           *side[CONTACT_SIDES]; /* beside h, slot for slot: the side states the run keeps (ContactSides) */
  PetscInt        sidecap[CONTACT_SIDES];
  PetscBool       on[CONTACT_SIDES];
  /* with the calibrated constant damper: each slot's (v_imp, C) as the lanes last formed C from v_imp, so that a
   * contact takes its pow once; (0, 0) none.  Not a side state: a slot's pair is fixed from HistorySlotsNew (which
   * clears it) to the next rebuild, and each rebuild forms it again. */
  PetscReal *damp;
  PetscInt   dampcap;
  PetscBool  dampon;
  /* in a wet run: each slot's bridge shape (LiquidShape), formed once for its volume and radius; likewise no side
   * state, its key (V, R) checked at each use */
  LiquidShape *shape;
  PetscInt     shapecap;
} HistorySlots;

/* Which side states the slots keep: those the model enables. */
static inline void HistorySlotsSetUp(HistorySlots *hs, const ContactModel *model)
{
  for (int k = 0; k < CONTACT_SIDES; k++) hs->on[k] = ContactSides[k].enabled(model);
  hs->dampon = ContactNormalModelOf(model).damp == CONTACT_DAMP_CALIBRATED ? PETSC_TRUE : PETSC_FALSE;
}
/* Slot k's bridge shape, NULL where the run keeps none. */
static inline LiquidShape *HistorySlotsShape(const HistorySlots *hs, PetscInt k)
{
  return hs->on[CONTACT_SIDE_BRIDGE] ? hs->shape + k : NULL;
}
/* The calibrated damper's (v_imp, C) of slot 0 onward, NULL where the run keeps none. */
static inline PetscReal *HistorySlotsDamp(const HistorySlots *hs)
{
  return hs->dampon ? hs->damp : NULL;
}
static inline PetscBool HistorySlotsHas(const HistorySlots *hs, ContactSide k)
{
  return hs->on[k];
}
/* Slot k's side states, NULL where the run keeps none. */
static inline ContactRolling *HistorySlotsRolling(const HistorySlots *hs, PetscInt k)
{
  return hs->on[CONTACT_SIDE_ROLLING] ? (ContactRolling *)hs->side[CONTACT_SIDE_ROLLING] + k : NULL;
}
static inline ContactBridge *HistorySlotsBridge(const HistorySlots *hs, PetscInt k)
{
  return hs->on[CONTACT_SIDE_BRIDGE] ? (ContactBridge *)hs->side[CONTACT_SIDE_BRIDGE] + k : NULL;
}
static inline ContactTurning *HistorySlotsTurning(const HistorySlots *hs, PetscInt k)
{
  return hs->on[CONTACT_SIDE_TURNING] ? (ContactTurning *)hs->side[CONTACT_SIDE_TURNING] + k : NULL;
}
/* Whether slot k holds something to keep: a contact or a bridge. */
static inline PetscBool HistorySlotsLive(const HistorySlots *hs, PetscInt k)
{
  return hs->h[k].touched || (hs->on[CONTACT_SIDE_BRIDGE] && HistorySlotsBridge(hs, k)->V > 0.0) ? PETSC_TRUE
                                                                                                 : PETSC_FALSE;
}
/* Slot k as a record's payload (the states the run does not keep zero), and back. */
static inline void HistorySlotsRecord(const HistorySlots *hs, PetscInt k, ContactRecord *rec)
{
  rec->h = hs->h[k];
  for (int s = 0; s < CONTACT_SIDES; s++) {
    const ContactSideState *cs = &ContactSides[s];
    if (hs->on[s]) PetscMemcpy((char *)rec + cs->offset, (const char *)hs->side[s] + (size_t)k * cs->size, cs->size);
    else PetscMemzero((char *)rec + cs->offset, cs->size);
  }
}
static inline void HistorySlotsFromRecord(HistorySlots *hs, PetscInt k, const ContactRecord *rec)
{
  hs->h[k] = rec->h;
  for (int s = 0; s < CONTACT_SIDES; s++) {
    const ContactSideState *cs = &ContactSides[s];
    if (hs->on[s]) PetscMemcpy((char *)hs->side[s] + (size_t)k * cs->size, (const char *)rec + cs->offset, cs->size);
  }
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
