/* Reading a checkpoint: its attributes and datasets, checked (checkpoint_check.c). */
#ifndef HDEM_CHECKPOINT_CHECK_H
#define HDEM_CHECKPOINT_CHECK_H

#include "engine/checkpoint_sets.h"

/* Collective, on f opened by every rank: the attributes of / into e's
 * time-loop state (*N particles; *version: the file's format), checked.  One
 * that cannot be read (no format, another format, one missing) is an error
 * on every rank; a value at fault sets *failed, msg saying it alike on
 * every rank. */
PETSC_INTERN PetscErrorCode CkptReadAttributes(H5File f, Engine *e, PetscInt64 *N, PetscInt *version, PetscBool *failed,
                                               char msg[CKPT_MSG_LEN]);
/* Collective, after CkptReadAttributes: this rank's rows of every dataset
 * into ss (CkptSetsDestroy frees them), shapes, values, checksums and ids
 * checked, each stage agreed by all ranks; *failed and msg as above.  Other
 * errors (HDF5, memory) are this rank's: the caller abandons the file. */
PETSC_INTERN PetscErrorCode CkptReadDatasets(H5File f, Engine *e, PetscInt64 N, PetscInt version, CkptSets *ss,
                                             PetscBool *failed, char msg[CKPT_MSG_LEN]);

#endif
