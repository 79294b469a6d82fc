#include "io/csvlog.h"
#include "io/atomicfile.h"
#include <errno.h>
#include <string.h>

PetscErrorCode CsvLogStart(const char *path, const char *header, PetscBool fresh, PetscInt64 step, FILE **fp)
{
  AtomicFile af;
  FILE      *in;
  char      *line;
  size_t     cap = 1 << 16;

  PetscFunctionBeginUser;
  PetscCall(AtomicFileOpen(path, &af));
  fputs(header, af.fp);
  if (!fresh && (in = fopen(path, "r"))) {
    PetscCall(PetscMalloc1(cap, &line));
    while (fgets(line, (int)cap, in)) {
      long long st;
      if (sscanf(line, "%lld,", &st) == 1 && st <= step && strchr(line, '\n')) fputs(line, af.fp);
    }
    fclose(in);
    PetscCall(PetscFree(line));
  }
  PetscCall(AtomicFileCommit(&af, PETSC_FALSE));
  *fp = fopen(path, "a");
  PetscCheck(*fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot append to %s: %s", path, strerror(errno));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CsvLogFlush(FILE *fp, const char *path, PetscInt64 step)
{
  int err = 0;

  PetscFunctionBeginUser;
  errno = 0;
  if (fflush(fp) || ferror(fp)) err = errno ? errno : FileLostError(fp);
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write %s (step %" PetscInt64_FMT "): %s", path, step,
             FileErrorString(err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CsvLogClose(FILE **fp, const char *path)
{
  PetscBool bad;

  PetscFunctionBeginUser;
  if (!*fp) PetscFunctionReturn(PETSC_SUCCESS);
  bad = fclose(*fp) ? PETSC_TRUE : PETSC_FALSE;
  *fp = NULL;
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write %s: %s", path, FileErrorString(errno));
  PetscFunctionReturn(PETSC_SUCCESS);
}
