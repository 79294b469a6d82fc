#include "interact/interaction.h"

/* -log_view shows each kind's compute as an event, registered once per process. */
static PetscErrorCode InteractionEvent(const char *name, PetscLogEvent *ev)
{
  static PetscClassId cid = 0;

  PetscFunctionBeginUser;
  if (!cid) PetscCall(PetscClassIdRegister("hdem interaction", &cid));
  PetscCall(PetscLogEventGetId(name, ev));
  if (*ev < 0) PetscCall(PetscLogEventRegister(name, cid, ev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode InteractionCreate(const InteractionOps *ops, void *data, Interaction *it)
{
  PetscFunctionBeginUser;
  PetscCall(PetscNew(it));
  (*it)->ops  = ops;
  (*it)->data = data;
  PetscCall(InteractionEvent(ops->name, &(*it)->event));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode InteractionDestroy(Interaction *it)
{
  PetscFunctionBeginUser;
  if (!*it) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall((*it)->ops->destroy(*it));
  PetscCall(PetscFree(*it));
  PetscFunctionReturn(PETSC_SUCCESS);
}
