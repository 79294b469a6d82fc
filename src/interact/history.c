#include "interact/history.h"

PetscErrorCode HistoryStoreCreate(RecordStore *s)
{
  PetscFunctionBeginUser;
  PetscCall(RecordStoreCreate(sizeof(ContactRecord), s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HistorySlotsDestroy(HistorySlots *hs)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(hs->h));
  PetscCall(PetscFree(hs->damp));
  PetscCall(PetscFree(hs->shape));
  hs->dampcap = hs->shapecap = 0;
  for (int k = 0; k < CONTACT_SIDES; k++) {
    PetscCall(PetscFree(hs->side[k]));
    hs->sidecap[k] = 0;
  }
  hs->n = hs->cap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HistorySlotsReserveBeside(HistorySlots *hs)
{
  PetscFunctionBeginUser;
  for (int k = 0; k < CONTACT_SIDES; k++)
    if (hs->on[k] && hs->sidecap[k] < hs->cap) {
      hs->sidecap[k] = hs->cap;
      PetscCall(PetscRealloc((size_t)hs->sidecap[k] * ContactSides[k].size, &hs->side[k]));
    }
  if (hs->dampon && hs->dampcap < hs->cap) {
    hs->dampcap = hs->cap;
    PetscCall(PetscRealloc(2 * (size_t)hs->dampcap * sizeof(*hs->damp), &hs->damp));
  }
  if (hs->on[CONTACT_SIDE_BRIDGE] &&
      hs->shapecap < hs->cap) { /* the new shapes none: a slot's shape is read before it is formed */
    PetscCall(PetscRealloc((size_t)hs->cap * sizeof(*hs->shape), &hs->shape));
    PetscCall(PetscArrayzero(hs->shape + hs->shapecap, hs->cap - hs->shapecap));
    hs->shapecap = hs->cap;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* By a quarter at least, and 1024: a rebuild holds about as many contacts
 * as the last one. */
PetscErrorCode HistorySlotsReserve(HistorySlots *hs, PetscInt need)
{
  PetscFunctionBeginUser;
  if (need <= hs->cap) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(need <= LOCAL_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "a rank's lists need %" PetscInt_FMT
             " contact histories, more than their 32-bit slots allow (%d): run on more ranks",
             need, (int)LOCAL_INT_MAX);
  hs->cap = PetscMin(LOCAL_INT_MAX, PetscMax(need, PetscMax(1024, hs->cap + hs->cap / 4)));
  PetscCall(PetscRealloc((size_t)hs->cap * sizeof(*hs->h), &hs->h));
  PetscCall(HistorySlotsReserveBeside(hs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HistorySlotsNew(HistorySlots *hs, LocalInt *slot)
{
  PetscFunctionBeginUser;
  if (hs->n == hs->cap) PetscCall(HistorySlotsReserve(hs, hs->n + 1));
  PetscCall(PetscMemzero(&hs->h[hs->n], sizeof(hs->h[hs->n])));
  for (int k = 0; k < CONTACT_SIDES; k++)
    if (hs->on[k])
      PetscCall(PetscMemzero((char *)hs->side[k] + (size_t)hs->n * ContactSides[k].size, ContactSides[k].size));
  if (hs->dampon) hs->damp[2 * hs->n] = hs->damp[2 * hs->n + 1] = 0.0;
  *slot = (LocalInt)hs->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void HistorySlotsTake(HistorySlots *hs, void **buf, size_t *bytes)
{
  *buf   = hs->h;
  *bytes = (size_t)hs->cap * sizeof(*hs->h);
  hs->h  = NULL;
  hs->n = hs->cap = 0;
}

PetscErrorCode HistorySlotsGive(HistorySlots *hs, void *buf, size_t bytes)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(hs->h));
  hs->h   = (ContactHistory *)buf;
  hs->cap = (PetscInt)PetscMin((size_t)LOCAL_INT_MAX, bytes / sizeof(*hs->h));
  hs->n   = 0;
  PetscCall(HistorySlotsReserveBeside(hs));
  PetscFunctionReturn(PETSC_SUCCESS);
}
