/* One growable buffer shared by the phases of a list rebuild (binning, pair
 * sort, history sort), which run one after another: a phase takes its
 * arrays from it and gives them all back at its end.  The buffer is only as
 * large as the largest phase, not the sum of them, and between rebuilds it
 * is the pairs' histories' room (EngineRebuild hands it over both ways), so
 * it costs no memory of its own and a rebuild faults in no fresh pages (on
 * a VM that costs more than the phases' work). */
#ifndef HDEM_SCRATCH_H
#define HDEM_SCRATCH_H

#include "hdem.h"

typedef struct {
  char  *buf;
  size_t cap, used;
} Scratch;

/* Room for a phase's arrays: the bytes of each, as ScratchBytes sums them. */
#define ScratchBytes(n, type) ((size_t)(n) * sizeof(type) + 64)

PETSC_EXTERN PetscErrorCode ScratchBegin(Scratch *, size_t bytes); /* contents are not kept */
PETSC_EXTERN void          *ScratchTake(Scratch *, size_t n, size_t size);
PETSC_EXTERN PetscErrorCode ScratchDestroy(Scratch *);
/* The buffer may change hands: adopt one of PetscMalloc (freeing its own),
 * or release it to the caller, who frees it. */
PETSC_EXTERN PetscErrorCode ScratchAdopt(Scratch *, void *buf, size_t bytes);
PETSC_EXTERN void           ScratchRelease(Scratch *, void **buf, size_t *bytes);

#endif
