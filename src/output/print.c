/* The report's lines: rank 0 prints, formatted by the C library (PETSc's printf gives %g a trailing point: "2500."). */
#include "output/output.h"
#include <stdarg.h>
#include <stdio.h>

PetscErrorCode ReportPrintf(MPI_Comm comm, const char *fmt, ...)
{
  char    line[2048];
  va_list ap;

  PetscFunctionBeginUser;
  va_start(ap, fmt);
  vsnprintf(line, sizeof(line), fmt, ap);
  va_end(ap);
  PetscCall(PetscPrintf(comm, "%s", line));
  PetscFunctionReturn(PETSC_SUCCESS);
}
