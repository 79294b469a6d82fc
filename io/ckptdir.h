/* The checkpoint directory DIR/checkpoints: step_<9-digit step>.h5 files,
 * the newest K kept. Collective; rank 0 touches the file system. */
#ifndef HDEM_CKPTDIR_H
#define HDEM_CKPTDIR_H

#include "hdem.h"

/* and removes temporaries a kill left */
PETSC_EXTERN PetscErrorCode CheckpointDirCreate(MPI_Comm, const char *dir);
PETSC_EXTERN PetscErrorCode CheckpointDirPath(const char *dir, PetscInt64 step, char *path, size_t len);
/* The newest complete checkpoint's path, or found = PETSC_FALSE. */
PETSC_EXTERN PetscErrorCode CheckpointDirLatest(MPI_Comm, const char *dir, char *path, size_t len, PetscBool *found);
/* Removes all but the newest keep checkpoints, and temporaries left by a kill. */
PETSC_EXTERN PetscErrorCode CheckpointDirPrune(MPI_Comm, const char *dir, PetscInt keep);
/* Every checkpoint in DIR/checkpoints removed (a fresh start's: another run's
 * would outlive its own under the pruning and be what -restart latest finds). */
PETSC_EXTERN PetscErrorCode CheckpointDirClear(MPI_Comm, const char *dir, PetscInt *nremoved);

#endif
