/* The liquid an outflow's removal takes: the removed particles' own and
 * their bridges' halves (flow_liquid.c says how a bridge is split). */
#ifndef HDEM_FLOW_LIQUID_H
#define HDEM_FLOW_LIQUID_H

#include "engine/state.h"

/* Wet runs with a removing outflow, in EngineFlowRemove before the rows go
 * (collective): the liquid of the removed rows (drop[i] != 0, taken by
 * outflow outk[i]) and of their bridges into the outflows' sums, the
 * remaining partners' halves onto their films. */
PETSC_EXTERN PetscErrorCode FlowLiquidRemove(Engine *, const PetscInt *drop, const PetscInt *outk);

#endif
