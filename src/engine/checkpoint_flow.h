/* A checkpoint's streams and outflows (checkpoint_flow.c). */
#ifndef HDEM_CHECKPOINT_FLOW_H
#define HDEM_CHECKPOINT_FLOW_H

#include "engine/checkpoint_sets.h"

/* The streams' and outflows' counters (checkpoint_flow.c): removed, the
 * particles the outflows took in all. */
PETSC_INTERN PetscErrorCode CheckpointWriteFlow(H5File, Engine *, PetscInt64 *removed);
/* checkpoint_flow.c.  Collective: /flow read whole by every rank into e's
 * flow state, its shapes, values and checksums checked; then, once the
 * file is agreed, carried on by rank 0 (CkptLoadFlow). */
PETSC_INTERN PetscErrorCode CkptReadFlow(H5File, Engine *, CkptFault *);
PETSC_INTERN PetscErrorCode CkptLoadFlow(Engine *);

#endif
