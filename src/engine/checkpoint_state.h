/* A checkpoint's attributes of / (checkpoint_state.c). */
#ifndef HDEM_CHECKPOINT_STATE_H
#define HDEM_CHECKPOINT_STATE_H

#include "engine/checkpoint_sets.h"

/* Into e's time-loop state: *N the particles, *version the file's format (an error if not one this hdem reads),
 * each value's fault into ft. */
PETSC_INTERN PetscErrorCode CkptReadState(H5File f, Engine *e, PetscInt64 *N, PetscInt *version, CkptFault *ft);

#endif
