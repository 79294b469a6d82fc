#include "io/table.h"
#include "io/inputfile.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "decomp/collective.h"

#define TABLE_NCOL_MAX 8

/* One line's ncol numbers into a; else a message into err. */
static PetscBool TableLine(char *line, const char *path, PetscInt lineno, PetscInt ncol, const char *what, double *a,
                           char *err, size_t len)
{
  char *c = line, *end;
  for (char *p = line; *p; p++)
    if (*p == ',' || *p == '\t' || *p == '\r' || *p == '\n') *p = ' ';
  for (PetscInt k = 0; k < ncol; k++) {
    while (*c == ' ') c++;
    a[k] = strtod(c, &end);
    if (end == c || (*end && *end != ' ' && *end != '#')) {
      if (*c && *c != '#')
        snprintf(err, len, "%s:%d: \"%.40s\" is not a number: expected %s, then nothing but a # comment", path,
                 (int)lineno, c, what);
      else snprintf(err, len, "%s:%d: expected %s, then nothing but a # comment", path, (int)lineno, what);
      return PETSC_FALSE;
    }
    if (!isfinite(a[k])) {
      snprintf(err, len, "%s:%d: %g is not a finite number: expected %s", path, (int)lineno, a[k], what);
      return PETSC_FALSE;
    }
    c = end;
  }
  while (*c == ' ') c++;
  if (*c && *c != '#') {
    snprintf(err, len, "%s:%d: expected %s, then nothing but a # comment", path, (int)lineno, what);
    return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

PetscErrorCode TableReadRows(MPI_Comm comm, const char *path, PetscInt ncol, const char *what, PetscInt maxrows,
                             PetscInt *n, PetscReal **v)
{
  PetscMPIInt rank;
  PetscInt    cap = 0, cnt = 0;
  PetscReal  *buf                           = NULL;
  char        err[PETSC_MAX_PATH_LEN + 256] = "";

  PetscFunctionBeginUser;
  PetscCheck(ncol > 0 && ncol <= TABLE_NCOL_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "a table of %d columns",
             (int)ncol);
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) {
    FILE    *fp = InputFileOpen(path, "r", "file", err, sizeof(err));
    char     line[4096];
    PetscInt lineno = 0;
    while (fp && fgets(line, sizeof(line), fp)) {
      double a[TABLE_NCOL_MAX];
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
      if (!TableLine(c, path, lineno, ncol, what, a, err, sizeof(err))) break;
      if (cnt == maxrows) {
        snprintf(err, sizeof(err), "%s: more than %d rows of %s", path, (int)maxrows, what);
        break;
      }
      if (cnt == cap) {
        cap = cap ? 2 * cap : 64;
        PetscCall(PetscRealloc((size_t)ncol * cap * sizeof(PetscReal), &buf));
      }
      for (PetscInt k = 0; k < ncol; k++) buf[ncol * cnt + k] = a[k];
      cnt++;
    }
    if (fp) fclose(fp);
  }
  PetscCall(CollectiveBcastChars(comm, err, (PetscInt)sizeof(err)));
  if (err[0]) PetscCall(PetscFree(buf));
  PetscCheck(!err[0], comm, PETSC_ERR_FILE_UNEXPECTED, "%s", err);
  PetscCall(CollectiveBcastInt(comm, &cnt, 1));
  if (rank) PetscCall(PetscMalloc1(ncol * cnt + 1, &buf));
  PetscCall(CollectiveBcastReal(comm, buf, ncol * cnt));
  *n = cnt, *v = buf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TableRead(MPI_Comm comm, const char *path, PetscInt *n, PetscReal **x, PetscReal **y)
{
  PetscReal *v;

  PetscFunctionBeginUser;
  PetscCall(TableReadRows(comm, path, 2, "two finite numbers (overlap [m], force [N])", PETSC_MAX_INT, n, &v));
  PetscCall(PetscMalloc2(*n, x, *n, y));
  for (PetscInt i = 0; i < *n; i++) (*x)[i] = v[2 * i], (*y)[i] = v[2 * i + 1];
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}
