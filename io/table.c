#include "io/table.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "decomp/collective.h"

/* One "x y" (or "x, y") line into a and b; else a message into err. */
static PetscBool TableLine(char *line, const char *path, PetscInt lineno, double *a, double *b, char *err, size_t len)
{
  char *c = line, *end;
  for (char *p = line; *p; p++)
    if (*p == ',' || *p == '\t' || *p == '\r' || *p == '\n') *p = ' ';
  *a = strtod(c, &end);
  if (end != c) *b = strtod(c = end, &end);
  if (end != c)
    while (*end == ' ') end++;
  if (end == c || (*end && *end != '#') || !isfinite(*a) || !isfinite(*b)) {
    snprintf(err, len, "%s:%d: expected two finite numbers (overlap [m], force [N]), then nothing but a # comment", path, (int)lineno);
    return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

/* Rank 0 reads, everyone receives the same numbers, or the same error. */
PetscErrorCode TableRead(MPI_Comm comm, const char *path, PetscInt *n, PetscReal **x, PetscReal **y)
{
  PetscMPIInt rank;
  PetscInt    cap = 0, cnt = 0;
  PetscReal  *buf                           = NULL;
  char        err[PETSC_MAX_PATH_LEN + 128] = "";

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) {
    FILE    *fp = fopen(path, "r");
    char     line[4096];
    PetscInt lineno = 0;
    if (!fp) snprintf(err, sizeof(err), "cannot open table file %s", path);
    while (fp && fgets(line, sizeof(line), fp)) {
      double a, b;
      char  *c   = line;
      size_t len = strlen(line);
      lineno++;
      /* a NUL would end the line early, a line past the buffer would be read as two */
      if (len + 1 < sizeof(line) && !feof(fp) && line[len - (len > 0)] != '\n') {
        snprintf(err, sizeof(err), "%s:%d: a NUL byte (binary data in a text table)", path, (int)lineno);
        break;
      }
      if (len + 1 == sizeof(line) && line[len - 1] != '\n') {
        snprintf(err, sizeof(err), "%s:%d: a line longer than %d characters", path, (int)lineno, (int)sizeof(line) - 2);
        break;
      }
      while (*c == ' ' || *c == '\t') c++;
      if (*c == '#' || *c == '\n' || *c == '\r' || *c == 0) continue;
      if (!TableLine(c, path, lineno, &a, &b, err, sizeof(err))) break;
      if (cnt == cap) {
        cap = cap ? 2 * cap : 64;
        PetscCall(PetscRealloc(2 * cap * sizeof(PetscReal), &buf));
      }
      buf[2 * cnt]     = a;
      buf[2 * cnt + 1] = b;
      cnt++;
    }
    if (fp) fclose(fp);
  }
  PetscCall(CollectiveBcastChars(comm, err, (PetscInt)sizeof(err)));
  if (err[0]) PetscCall(PetscFree(buf));
  PetscCheck(!err[0], comm, PETSC_ERR_FILE_UNEXPECTED, "%s", err);
  PetscCall(CollectiveBcastInt(comm, &cnt, 1));
  PetscCall(PetscMalloc2(cnt, x, cnt, y));
  if (rank == 0)
    for (PetscInt i = 0; i < cnt; i++) {
      (*x)[i] = buf[2 * i];
      (*y)[i] = buf[2 * i + 1];
    }
  PetscCall(PetscFree(buf));
  PetscCall(CollectiveBcastReal(comm, *x, cnt));
  PetscCall(CollectiveBcastReal(comm, *y, cnt));
  *n = cnt;
  PetscFunctionReturn(PETSC_SUCCESS);
}
