/* DIR/fields.h5 and fields.xmf: coarse-grained continuum fields
 * (coarse/coarse.h) on a regular grid over a region, sampled every
 * `sample` steps over a window before each frame and written every
 * `interval` steps (docs/deck/fields.md).  Every sum is exact, the time
 * sums run in sample order on values every rank holds alike, and a
 * checkpoint keeps them: a frame is the same bits on any rank count and
 * across restarts. */
#ifndef HDEM_OUTPUT_FIELDS_H
#define HDEM_OUTPUT_FIELDS_H

#include "engine/run.h"
#include "coarse/coarse.h"

typedef struct {
  PetscInt     interval, sample, window; /* steps; interval 0: off */
  PetscInt     n[3];
  PetscReal    lo[3], hi[3];
  PetscBool    lo_set, hi_set, sample_set, window_set, width_set;
  CoarseKernel kernel;
  PetscReal    width;
} FieldsSettings;

/* The fields_* keys (collective). */
PETSC_EXTERN PetscErrorCode FieldsSetFromOptions(FieldsSettings *);
/* The region, width and cadence against the engine's domain and
 * particles, the defaults filled in: an error names the key.  Collective. */
PETSC_EXTERN PetscErrorCode FieldsCheck(FieldsSettings *, const Engine *, CoarseGrid *);
/* restart: the checkpoint the run continues from ("" for a fresh start). */
PETSC_EXTERN PetscErrorCode FieldsMonitorCreate(Engine *, const FieldsSettings *, const char *dir, const char *restart,
                                                Monitor *);

#endif
