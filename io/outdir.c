#include "io/outdir.h"
#include "decomp/collective.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static PetscErrorCode OutputDirLength(MPI_Comm comm, const char *what, const char *dir)
{
  PetscFunctionBeginUser;
  PetscCheck(dir[0], comm, PETSC_ERR_USER_INPUT, "%sis empty: give a folder (. for the working one)", what);
  PetscCheck(strlen(dir) + OUTPUT_DIR_ROOM < PETSC_MAX_PATH_LEN, comm, PETSC_ERR_USER_INPUT,
             "%s'%.80s...' is %zu characters long: at most %d, to leave room for the files written in it", what, dir,
             strlen(dir), (int)(PETSC_MAX_PATH_LEN - OUTPUT_DIR_ROOM - 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OutputDirCreate(MPI_Comm comm, const char *what, const char *dir)
{
  PetscMPIInt rank;
  PetscInt    err = 0;

  PetscFunctionBeginUser;
  PetscCall(OutputDirLength(comm, what, dir));
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
    if (!err) { /* what exists under the name must be a folder, not a file */
      struct stat st;
      if (stat(path, &st)) err = errno;
      else if (!S_ISDIR(st.st_mode)) err = ENOTDIR;
    }
  }
  PetscCall(CollectiveBcastInt(comm, &err, 1));
  PetscCheck(!err, comm, PETSC_ERR_FILE_OPEN, "cannot create %s%s: %s", what, dir, strerror((int)err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a folder can be made in the existing folder path: made and removed
 * at once, since permission bits alone do not tell (root, /proc, a read-only
 * or full file system).  0 or the errno. */
static int OutputDirTryMkdir(const char *path)
{
  char probe[PETSC_MAX_PATH_LEN + 32];
  if ((size_t)snprintf(probe, sizeof(probe), "%s/.hdem_check_XXXXXX", path) >= sizeof(probe)) return ENAMETOOLONG;
  if (!mkdtemp(probe)) return errno;
  return rmdir(probe) ? errno : 0;
}

PetscErrorCode OutputDirCheck(MPI_Comm comm, const char *what, const char *dir)
{
  PetscMPIInt rank;
  PetscInt    err = 0;

  PetscFunctionBeginUser;
  PetscCall(OutputDirLength(comm, what, dir));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) { /* the path, or its nearest existing parent, must be a directory we may write into */
    char        path[PETSC_MAX_PATH_LEN];
    struct stat st;
    PetscCall(PetscStrncpy(path, dir[0] ? dir : ".", sizeof(path)));
    for (;;) {
      char *slash;
      if (!stat(path, &st)) {
        if (!S_ISDIR(st.st_mode)) err = ENOTDIR;
        else err = OutputDirTryMkdir(path);
        break;
      }
      if (errno != ENOENT) {
        err = errno;
        break;
      }
      slash = strrchr(path, '/');
      if (!slash) {
        PetscCall(PetscStrncpy(path, ".", sizeof(path)));
        continue;
      }
      if (slash == path) slash[1] = 0; /* the root */
      else *slash = 0;
    }
  }
  PetscCall(CollectiveBcastInt(comm, &err, 1));
  PetscCheck(!err, comm, PETSC_ERR_FILE_OPEN, "cannot create %s%s: %s", what, dir, strerror((int)err));
  PetscFunctionReturn(PETSC_SUCCESS);
}
