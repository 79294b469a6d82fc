/* DIR/fields.h5 and its XDMF index DIR/fields.xmf: frames of cell data on
 * a rectilinear grid, for ParaView and h5py.  Knows nothing of what the
 * fields mean: named arrays of reals, 1, 3 or 9 per cell.
 *
 * Layout: /grid/x, /grid/y, /grid/z float64 [n + 1] (the cells' faces);
 * /frames/<step, 12 digits>/<name> float64 [nz][ny][nx] or [nz][ny][nx][c]
 * (x fastest), with attributes step, time, samples, first_sample; the
 * attributes of / are format "hdem fields 1" and the caller's text ones.
 *
 * Rank 0 writes; every call is collective, so that an error is every
 * rank's.  Each frame goes to a copy of the file that is renamed over it
 * when complete: a kill leaves the previous frames whole. */
#ifndef HDEM_FIELDSFILE_H
#define HDEM_FIELDSFILE_H

#include "hdem.h"

#define FIELDSFILE_FORMAT "hdem fields 1"
#define FIELDSFILE_SETS   16

typedef struct {
  const char      *name;
  PetscInt         ncomp; /* 1, 3 or 9 */
  const PetscReal *v;     /* ncell * ncomp */
} FieldsFileSet;

typedef struct {
  char        h5[PETSC_MAX_PATH_LEN + 16], xmf[PETSC_MAX_PATH_LEN + 16];
  PetscInt    n[3];
  PetscInt    nframe, cap;
  PetscInt64 *step; /* the frames in the file */
  PetscReal  *time;
  PetscInt    nset; /* the sets of the last frame, for the index */
  char        name[FIELDSFILE_SETS][32];
  PetscInt    ncomp[FIELDSFILE_SETS];
} FieldsFile;

/* Collective.  fresh: a new file with the grid (the faces lo + k (hi - lo)
 * / n) and the attributes attr[0..nattr) as (name, text) pairs; else the
 * file is kept up to the frame of step, later frames removed. */
PETSC_EXTERN PetscErrorCode FieldsFileStart(MPI_Comm, const char *dir, const PetscInt n[3], const PetscReal lo[3],
                                            const PetscReal hi[3], PetscInt nattr, const char *const attr[],
                                            PetscBool fresh, PetscInt64 step, FieldsFile *);
/* Collective: one frame; the sets' values are rank 0's. */
PETSC_EXTERN PetscErrorCode FieldsFileWrite(MPI_Comm, FieldsFile *, PetscInt64 step, PetscReal time, PetscInt64 samples,
                                            PetscInt64 first_sample, PetscInt nset, const FieldsFileSet sets[]);
PETSC_EXTERN PetscErrorCode FieldsFileDestroy(FieldsFile *);

#endif
