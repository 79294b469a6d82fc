#include "movers/mover.h"

PetscErrorCode MoverDestroy(Mover *m)
{
  PetscFunctionBeginUser;
  if (m->ops && m->ops->destroy) PetscCall(m->ops->destroy(m));
  m->ops  = NULL;
  m->data = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
