#include "table.h"
#include "../decomp/collective.h"

/* Rank 0 reads, everyone receives the same numbers. */
PetscErrorCode TableRead(MPI_Comm comm, const char *path, PetscInt *n, PetscReal **x, PetscReal **y)
{
  PetscMPIInt rank;
  PetscInt    cap = 0, cnt = 0;
  PetscReal  *buf = NULL;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) {
    FILE    *fp = fopen(path, "r");
    char     line[4096];
    PetscInt lineno = 0;
    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open table file %s", path);
    while (fgets(line, sizeof(line), fp)) {
      double a, b;
      char  *c = line, *end;
      lineno++;
      for (char *p = line; *p; p++)
        if (*p == ',') *p = ' ';
      while (*c == ' ' || *c == '\t') c++;
      if (*c == '#' || *c == '\n' || *c == '\r' || *c == 0) continue;
      a = strtod(c, &end);
      if (end == c) {
        fclose(fp);
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected two numbers", path, lineno);
      }
      c = end;
      b = strtod(c, &end);
      if (end == c) {
        fclose(fp);
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected two numbers", path, lineno);
      }
      if (cnt == cap) {
        cap = cap ? 2 * cap : 64;
        PetscCall(PetscRealloc(2 * cap * sizeof(PetscReal), &buf));
      }
      buf[2 * cnt]     = a;
      buf[2 * cnt + 1] = b;
      cnt++;
    }
    fclose(fp);
  }
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
