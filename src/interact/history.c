#include "interact/history.h"
#include <stdint.h>

PetscErrorCode HistoryStoreCreate(RecordStore *s)
{
  PetscFunctionBeginUser;
  PetscCall(RecordStoreCreate(sizeof(ContactHistory), s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A pair's record: owned by particle `owner`, its partner a particle or wall w (j = -1 - w). */
static PetscErrorCode HistoryAdd(RecordStore *s, PetscInt64 owner, PetscInt j, PetscInt64 partner, const ContactHistory *h)
{
  RecordKey key;

  PetscFunctionBeginUser;
  key.owner   = owner;
  key.kind    = j < 0 ? HISTORY_KIND_PLANE : HISTORY_KIND_SPHERE;
  key.partner = j < 0 ? -1 - j : partner;
  PetscCall(RecordStoreAdd(s, &key, h));
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
PetscErrorCode HistoryStoreGather(RecordStore *s, const NeighborList *nl, const Particles *p, const unsigned char *stay)
{
  PetscInt need = s->n;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    if (nl->slot[k] < 0 || !nl->h[nl->slot[k]].touched) continue;
    if (j < 0) need++;
    else need += (i < p->n) + HistoryUpperCopy(p, stay, i, j);
  }
  PetscCall(RecordStoreReserve(s, need));
  for (PetscInt k = 0; k < nl->npair; k++) {
    const ContactHistory *h;
    PetscInt              i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    if (nl->slot[k] < 0 || !nl->h[nl->slot[k]].touched) continue;
    h = &nl->h[nl->slot[k]];
    if (j < 0) {
      PetscCall(HistoryAdd(s, p->id[i], j, 0, h));
      continue;
    }
    if (i < p->n) PetscCall(HistoryAdd(s, p->id[i], j, p->id[j], h));
    if (HistoryUpperCopy(p, stay, i, j)) PetscCall(HistoryAdd(s, p->id[j], i, p->id[i], h));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* first[i] (RecordStoreFirst) for the particles whose records Attach reads:
 * the owned ones, (mostly) in id order as EngineRebuild keeps them, so one forward walk
 * over the store finds them all (a binary search where that order breaks),
 * and the self-images, which share their owned copy's id.  Other ghosts' own
 * records are never read: an empty range. */
static void HistoryStoreFirsts(const RecordStore *s, const Particles *p, LocalInt *first)
{
  PetscInt ntot = p->n + p->nghost, k = 0;

  for (PetscInt i = 0; i < p->n; i++) {
    if (i > 0 && p->id[i] < p->id[i - 1]) k = RecordStoreFirst(s, p->id[i]);
    else
      while (k < s->n && RecordStoreHead(s, k)->owner < p->id[i]) k++;
    first[i] = k;
  }
  for (PetscInt i = p->n; i < ntot; i++) {
    PetscInt o = p->origin[i];
    if (o < 0) first[i] = s->n;
    else first[i] = (o < p->n && p->id[o] == p->id[i]) ? first[o] : RecordStoreFirst(s, p->id[i]);
  }
}

PetscErrorCode HistoryStoreAttach(const RecordStore *s, NeighborList *nl, const Particles *p)
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
    PetscInt              i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    const ContactHistory *r = NULL;
    if (j < 0) {
      RecordKey key = {p->id[i], HISTORY_KIND_PLANE, -1 - j};
      r             = RecordStoreFind(s, first[i], &key);
    } else {
      RecordKey ki = {p->id[i], HISTORY_KIND_SPHERE, p->id[j]}, kj = {p->id[j], HISTORY_KIND_SPHERE, p->id[i]};
      if (i < p->n || p->origin[i] >= 0) r = RecordStoreFind(s, first[i], &ki); /* a self-image: its owned copy's records */
      if (!r && (j < p->n || p->origin[j] >= 0)) r = RecordStoreFind(s, first[j], &kj);
    }
    if (!r) continue;
    PetscCall(NeighborHistoryNew(nl, k));
    nl->h[nl->slot[k]] = *r;
    if (r->touched) nl->flag[k] |= NEIGHBOR_TOUCHED;
  }
  PetscCall(PetscFree(first));
  PetscFunctionReturn(PETSC_SUCCESS);
}
