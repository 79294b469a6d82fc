#include "io/atomicfile.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

const char *FileErrorString(int err)
{
  return err == ENOSPC ? "no space left on device" : err == EDQUOT ? "disk quota exceeded" : strerror(err);
}

PetscErrorCode AtomicFileOpen(const char *path, AtomicFile *af)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(af, sizeof(*af)));
  PetscCheck(strlen(path) + 1 <= sizeof(af->path), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "path %s is longer than %d characters", path, (int)sizeof(af->path) - 1);
  PetscCall(PetscStrncpy(af->path, path, sizeof(af->path)));
  PetscCall(PetscSNPrintf(af->tmp, sizeof(af->tmp), "%s.tmp", path));
  af->fp = fopen(af->tmp, "w");
  PetscCheck(af->fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s: %s", af->path, FileErrorString(errno));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void AtomicFileAbandon(AtomicFile *af)
{
  if (af->fp) (void)fclose(af->fp);
  af->fp = NULL;
  if (af->tmp[0]) (void)remove(af->tmp);
}

/* The directory holding path, opened for an fsync of its entries. */
static int AtomicFileDirectory(const char *path)
{
  char        dir[PETSC_MAX_PATH_LEN];
  const char *slash = strrchr(path, '/');
  size_t      len   = slash ? (size_t)(slash - path) : 0;
  if (len >= sizeof(dir)) return -1;
  if (len) memcpy(dir, path, len);
  else dir[len++] = '.';
  dir[len] = 0;
  return open(dir, O_RDONLY | O_DIRECTORY);
}

PetscErrorCode AtomicFileRename(const char *tmp, const char *path, PetscBool sync)
{
  PetscFunctionBeginUser;
  PetscCheck(!rename(tmp, path), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot rename %s to %s: %s", tmp, path,
             strerror(errno));
  if (sync) {
    int fd = AtomicFileDirectory(path);
    /* a directory that cannot be opened or synced (some file systems) leaves the rename as done */
    if (fd >= 0) {
      (void)fsync(fd);
      (void)close(fd);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int FileLostError(FILE *fp)
{
  struct statvfs st;
  if (!fstatvfs(fileno(fp), &st) && st.f_bavail == 0) return ENOSPC;
  return EIO;
}

PetscErrorCode AtomicFileCommit(AtomicFile *af, PetscBool sync)
{
  int err = 0;

  PetscFunctionBeginUser;
  errno = 0; /* a full disk shows in the stream's error flag, at the flush or at the close */
  if (ferror(af->fp)) err = FileLostError(af->fp);
  else if (fflush(af->fp)) err = errno ? errno : FileLostError(af->fp);
  if (!err && sync && fsync(fileno(af->fp))) err = errno;
  if (fclose(af->fp) && !err) err = errno ? errno : EIO;
  af->fp = NULL;
  if (err) (void)remove(af->tmp);
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write %s: %s", af->path, FileErrorString(err));
  PetscCall(AtomicFileRename(af->tmp, af->path, sync));
  PetscFunctionReturn(PETSC_SUCCESS);
}
