/* A checkpoint's multi-sphere bodies and liquid, checked (checkpoint_bodies.c). */
#ifndef HDEM_CHECKPOINT_BODIES_H
#define HDEM_CHECKPOINT_BODIES_H

#include "engine/checkpoint_sets.h"

/* checkpoint_bodies.c.  The values of this rank's rows of multi-sphere
 * bodies (checkpoint.h's header says which) and liquid. */
PETSC_INTERN PetscErrorCode CkptCheckBodyValues(H5File, const Engine *, CkptSets *, CkptFault *);
/* Collective: ids unique, every record's owner a particle, every body whole
 * and once in /bodies/id, checked where the ids meet. */
PETSC_INTERN PetscErrorCode CkptCheckIds(H5File, const Engine *, CkptSets *, CkptFault *);

#endif
