#include "io/outdir.h"
#include "decomp/collective.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

PetscErrorCode OutputDirCreate(MPI_Comm comm, const char *what, const char *dir)
{
  PetscMPIInt rank;
  PetscInt    err = 0;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) { /* mkdir -p */
    char path[PETSC_MAX_PATH_LEN];
    PetscCall(PetscStrncpy(path, dir, sizeof(path)));
    for (char *c = path + 1; *c && !err; c++)
      if (*c == '/') {
        *c = 0;
        if (mkdir(path, 0755) && errno != EEXIST) err = errno;
        *c = '/';
      }
    if (!err && mkdir(path, 0755) && errno != EEXIST) err = errno;
  }
  PetscCall(CollectiveBcastInt(comm, &err, 1));
  PetscCheck(!err, comm, PETSC_ERR_FILE_OPEN, "cannot create %s%s: %s", what, dir, strerror((int)err));
  PetscFunctionReturn(PETSC_SUCCESS);
}
