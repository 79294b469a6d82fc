/* The due streams' batches placed (engine/flow_blocks.h: how a batch is cut
 * into blocks and who decides each). */
#ifndef HDEM_FLOW_INSERT_H
#define HDEM_FLOW_INSERT_H

#include "engine/state.h"

#define FLOW_EVENT_MAX (1 << 20) /* candidates of a stream per insertion: more due wait for the next one */

/* The due streams' particles at time t (collective; see engine/flow.h). */
PETSC_EXTERN PetscErrorCode EngineFlowInsert(Engine *, PetscReal t, const PetscInt64 ndue[]);

#endif
