#include "io/spherelist.h"
#include "decomp/collective.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lines of fp into *s (*n spheres); fp stays open (the caller closes it). */
static PetscErrorCode SphereListParse(FILE *fp, const char *path, PetscInt *n, PetscReal **s)
{
  char     line[1024];
  PetscInt cap = 64, ln = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(4 * cap, s));
  while (fgets(line, sizeof(line), fp)) {
    char     *c = strchr(line, '#'), *p = line, *end;
    PetscReal v[4];
    int       k = 0;
    ln++;
    PetscCheck(strchr(line, '\n') || feof(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": a line longer than %d characters", path, ln,
               (int)sizeof(line) - 2);
    if (c) *c = 0;
    for (;;) {
      PetscReal x;
      while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == ',') p++;
      if (!*p) break;
      errno = 0;
      x     = strtod(p, &end);
      PetscCheck(end != p && (*end == 0 || strchr(" \t\r\n,", *end)), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 "%s:%" PetscInt_FMT ": \"%.40s\" is not a number (a line is \"x y z r\")", path, ln, p);
      PetscCheck(isfinite(x), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": %g is not a finite number", path, ln, (double)x);
      PetscCheck(k < 4, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": more than four numbers (a line is \"x y z r\")", path, ln);
      v[k++] = x, p = end;
    }
    if (!k) continue;
    PetscCheck(k == 4, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": %d numbers where a line is the four \"x y z r\"", path, ln, k);
    PetscCheck(*n < SPHERELIST_MAX, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: more than %d spheres", path, SPHERELIST_MAX);
    if (*n == cap) {
      PetscReal *t;
      PetscCall(PetscMalloc1(8 * cap, &t));
      PetscCall(PetscArraycpy(t, *s, 4 * cap));
      PetscCall(PetscFree(*s));
      *s = t, cap *= 2;
    }
    for (int a = 0; a < 4; a++) (*s)[4 * *n + a] = v[a];
    (*n)++;
  }
  PetscCheck(!ferror(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: read error", path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SphereListReadRoot(const char *path, PetscInt *n, PetscReal **s)
{
  FILE          *fp;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  *n = 0, *s = NULL;
  errno = 0;
  fp    = fopen(path, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open sphere file %s: %s", path, strerror(errno));
  ierr = SphereListParse(fp, path, n, s);
  fclose(fp); /* read only: nothing to lose */
  if (ierr) PetscCall(PetscFree(*s));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SphereListRead(MPI_Comm comm, const char *path, PetscInt *n, PetscReal **s)
{
  PetscMPIInt rank;
  PetscInt    status = 0;

  PetscFunctionBeginUser;
  *n = 0, *s = NULL;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) status = (PetscInt)SphereListReadRoot(path, n, s);
  PetscCall(CollectiveBcastInt(comm, &status, 1));
  if (rank == 0) PetscCall((PetscErrorCode)status);
  else PetscCheck(!status, comm, (PetscErrorCode)status, "rank 0 failed to read sphere file %s", path);
  PetscCall(CollectiveBcastInt(comm, n, 1));
  if (rank) PetscCall(PetscMalloc1(4 * *n + 1, s));
  PetscCall(CollectiveBcastReal(comm, *s, 4 * *n));
  PetscFunctionReturn(PETSC_SUCCESS);
}
