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
  PetscCall(PetscFree(hs->r));
  PetscCall(PetscFree(hs->b));
  PetscCall(PetscFree(hs->t));
  hs->n = hs->cap = hs->rcap = hs->bcap = hs->tcap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HistorySlotsReserveBeside(HistorySlots *hs)
{
  PetscFunctionBeginUser;
  if (hs->roll && hs->rcap < hs->cap) {
    hs->rcap = hs->cap;
    PetscCall(PetscRealloc((size_t)hs->rcap * sizeof(*hs->r), &hs->r));
  }
  if (hs->wet && hs->bcap < hs->cap) {
    hs->bcap = hs->cap;
    PetscCall(PetscRealloc((size_t)hs->bcap * sizeof(*hs->b), &hs->b));
  }
  if (hs->turns && hs->tcap < hs->cap) {
    hs->tcap = hs->cap;
    PetscCall(PetscRealloc((size_t)hs->tcap * sizeof(*hs->t), &hs->t));
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
  if (hs->roll) PetscCall(PetscMemzero(&hs->r[hs->n], sizeof(hs->r[hs->n])));
  if (hs->wet) hs->b[hs->n].V = 0.0;
  if (hs->turns) PetscCall(PetscMemzero(&hs->t[hs->n], sizeof(hs->t[hs->n])));
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
