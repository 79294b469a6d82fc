#include "io/ckptdir.h"
#include "io/outdir.h"
#include "decomp/collective.h"
#include <dirent.h>
#include <stdio.h>
#include <string.h>

PetscErrorCode CheckpointDirPath(const char *dir, PetscInt64 step, char *path, size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, len, "%s/checkpoints/step_%09lld.h5", dir, (long long)step));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointDirCreate(MPI_Comm comm, const char *dir)
{
  char sub[PETSC_MAX_PATH_LEN + 16];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(sub, sizeof(sub), "%s/checkpoints", dir));
  PetscCall(OutputDirCreate(comm, "", sub));
  PetscCall(CheckpointDirPrune(comm, dir, PETSC_MAX_INT)); /* temporaries a kill left behind */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the steps of the complete checkpoints, ascending (only names that
 * parse fully: a .tmp is never one), and removes temporaries if asked. */
static PetscErrorCode CheckpointDirList(const char *dir, PetscBool clean, PetscInt64 **steps, PetscInt *n)
{
  char           sub[PETSC_MAX_PATH_LEN + 16];
  DIR           *d;
  struct dirent *de;
  PetscInt       cap = 0;

  PetscFunctionBeginUser;
  *n     = 0;
  *steps = NULL;
  PetscCall(PetscSNPrintf(sub, sizeof(sub), "%s/checkpoints", dir));
  if (!(d = opendir(sub))) PetscFunctionReturn(PETSC_SUCCESS);
  while ((de = readdir(d))) {
    long long st;
    int       len = 0;
    if (sscanf(de->d_name, "step_%lld.h5%n", &st, &len) != 1) continue;
    if ((size_t)len != strlen(de->d_name)) {
      if (clean && strstr(de->d_name, ".tmp")) {
        char path[2 * PETSC_MAX_PATH_LEN];
        PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", sub, de->d_name));
        (void)remove(path);
      }
      continue;
    }
    if (*n == cap) {
      cap = cap ? 2 * cap : 16;
      PetscCall(PetscRealloc((size_t)cap * sizeof(**steps), steps));
    }
    (*steps)[(*n)++] = st;
  }
  closedir(d);
  PetscCall(PetscSortInt64(*n, *steps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointDirLatest(MPI_Comm comm, const char *dir, char *path, size_t len, PetscBool *found)
{
  PetscMPIInt rank;
  PetscInt    have = 0;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  path[0] = 0;
  if (rank == 0) {
    PetscInt64 *steps;
    PetscInt    n;
    PetscCall(CheckpointDirList(dir, PETSC_FALSE, &steps, &n));
    if (n) PetscCall(CheckpointDirPath(dir, steps[n - 1], path, len));
    have = n > 0;
    PetscCall(PetscFree(steps));
  }
  PetscCall(CollectiveBcastInt(comm, &have, 1));
  PetscCall(CollectiveBcastChars(comm, path, (PetscInt)len));
  *found = have ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: all but the newest keep checkpoints (and stale temporaries) removed;
 * how many checkpoints went. */
static PetscErrorCode CheckpointDirRemove(const char *dir, PetscInt keep, PetscInt *nremoved)
{
  PetscInt64 *steps;
  PetscInt    n;

  PetscFunctionBeginUser;
  PetscCall(CheckpointDirList(dir, PETSC_TRUE, &steps, &n));
  *nremoved = PetscMax(n - keep, 0);
  for (PetscInt k = 0; k + keep < n; k++) {
    char path[PETSC_MAX_PATH_LEN + 32];
    PetscCall(CheckpointDirPath(dir, steps[k], path, sizeof(path)));
    (void)remove(path);
  }
  PetscCall(PetscFree(steps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointDirClear(MPI_Comm comm, const char *dir, PetscInt *nremoved)
{
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  *nremoved = 0;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) PetscCall(CheckpointDirRemove(dir, 0, nremoved));
  PetscCall(CollectiveBcastInt(comm, nremoved, 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointDirPrune(MPI_Comm comm, const char *dir, PetscInt keep)
{
  PetscMPIInt rank;
  PetscInt    nremoved;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) PetscCall(CheckpointDirRemove(dir, keep, &nremoved));
  PetscFunctionReturn(PETSC_SUCCESS);
}
