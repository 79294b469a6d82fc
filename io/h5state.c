#include "io/h5state.h"
#include "io/h5file.h"

static const char *const H5StateVecName[4] = {"particles/position", "particles/velocity", "particles/angular_velocity",
                                              "particles/force"};

static PetscErrorCode H5StateReadFile(MPI_Comm comm, H5File f, PetscInt *n, PetscInt64 **id, int32_t **type,
                                      PetscReal **radius, PetscReal *vec[4], PetscReal *time, PetscInt64 *step)
{
  static const char *const row[3] = {"particles/type", "particles/radius", NULL};
  PetscInt64               N, rows, count, off;
  PetscBool                found;

  PetscFunctionBeginUser;
  PetscCall(H5FileRows(f, "particles/id", H5FILE_INT64, 1, &N, NULL));
  for (int k = 0; k < 6; k++) {
    const char *name = k < 2 ? row[k] : H5StateVecName[k - 2];
    PetscCall(H5FileRows(f, name, k == 0 ? H5FILE_INT32 : H5FILE_REAL, k < 2 ? 1 : 3, &rows, NULL));
    PetscCheck(rows == N, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "particle state file %s: /%s has %" PetscInt64_FMT " rows but /particles/id has %" PetscInt64_FMT,
               H5FilePath(f), name, rows, N);
  }
  PetscCall(H5FileReadAttrReal(f, "time", time, NULL));
  PetscCall(H5FileReadAttrInt64(f, "step", step, NULL));
  PetscCall(H5FileReadAttrInt64(f, "particles", &count, &found));
  PetscCheck(!found || count == N, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "particle state file %s: attribute /particles = %" PetscInt64_FMT " but the datasets have %" PetscInt64_FMT
             " rows",
             H5FilePath(f), count, N);
  PetscCall(H5FileBlock(comm, N, &off, n));
  PetscCall(PetscMalloc1(*n, id));
  PetscCall(PetscMalloc1(*n, type));
  PetscCall(PetscMalloc1(*n, radius));
  for (int k = 0; k < 4; k++) PetscCall(PetscMalloc1(3 * *n, &vec[k]));
  PetscCall(H5FileReadRows(f, "particles/id", H5FILE_INT64, 1, off, *n, *id));
  PetscCall(H5FileReadRows(f, "particles/type", H5FILE_INT32, 1, off, *n, *type));
  PetscCall(H5FileReadRows(f, "particles/radius", H5FILE_REAL, 1, off, *n, *radius));
  for (int k = 0; k < 4; k++) PetscCall(H5FileReadRows(f, H5StateVecName[k], H5FILE_REAL, 3, off, *n, vec[k]));
  /* against the checksums the writer stored (h5file.h); a file without them is read as it is */
  PetscCall(H5FileVerifyRows(f, "particles/id", H5FILE_INT64, 1, N, off, *n, *id, PETSC_FALSE, NULL));
  PetscCall(H5FileVerifyRows(f, "particles/type", H5FILE_INT32, 1, N, off, *n, *type, PETSC_FALSE, NULL));
  PetscCall(H5FileVerifyRows(f, "particles/radius", H5FILE_REAL, 1, N, off, *n, *radius, PETSC_FALSE, NULL));
  for (int k = 0; k < 4; k++)
    PetscCall(H5FileVerifyRows(f, H5StateVecName[k], H5FILE_REAL, 3, N, off, *n, vec[k], PETSC_FALSE, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5StateRead(MPI_Comm comm, const char *path, PetscInt *n, PetscInt64 **id, int32_t **type,
                           PetscReal **radius, PetscReal **x, PetscReal **v, PetscReal **w, PetscReal **f,
                           PetscReal *time, PetscInt64 *step)
{
  PetscReal     *vec[4] = {NULL, NULL, NULL, NULL}, t = 0;
  PetscInt64     s = 0;
  H5File         file;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  *n  = 0;
  *id = NULL, *type = NULL, *radius = NULL;
  *x = NULL, *v = NULL, *w = NULL, *f = NULL;
  PetscCall(H5FileOpen(comm, path, &file));
  ierr = H5StateReadFile(comm, file, n, id, type, radius, vec, &t, &s);
  PetscCall(H5FileClose(&file));
  if (ierr) { /* nothing half-read reaches the caller */
    *n = 0;
    PetscCall(PetscFree(*id));
    PetscCall(PetscFree(*type));
    PetscCall(PetscFree(*radius));
    for (int k = 0; k < 4; k++) PetscCall(PetscFree(vec[k]));
  }
  PetscCall(ierr);
  *x = vec[0], *v = vec[1], *w = vec[2], *f = vec[3];
  if (time) *time = t;
  if (step) *step = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}
