/* Wear sums in checkpoints (geometry/wear.h): each wearing mesh's touched
 * triangles as /wear/<mesh>, int64 [M][WEAR_ROW_WIDTH] (index, contacts
 * begun, then the fixed-point limbs of each sum, decomp/fixedsum.h, as
 * two's complement bits), ascending by triangle: the same file on any rank
 * count.  A restart reads an even block of the rows on each rank into its
 * table; the sums being integers, where they are added does not matter. */
#include "geometry/wear.h"
#include "decomp/collective.h"

static PetscBool WearRowUsed(const WearCell *c)
{
  if (c->count) return PETSC_TRUE;
  for (int q = 0; q < WEAR_SUMS; q++)
    if (!FixedSumIsZero(&c->q[q])) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscErrorCode MeshesWearCheckpointWrite(H5File f, MPI_Comm comm, const Meshes *ms)
{
  PetscFunctionBeginUser;
  for (PetscInt q = 0; q < ms->n; q++) {
    const Mesh *m = &ms->m[q];
    WearCell   *sh;
    PetscInt    nt, n = 0;
    PetscInt64 *rows;
    char        name[64];
    if (!m->wear) continue;
    PetscCall(MeshWearShare(comm, m, &nt, &sh));
    PetscCall(PetscMalloc1((size_t)WEAR_ROW_WIDTH * nt + 1, &rows));
    for (PetscInt k = 0; k < nt; k++) {
      PetscInt64 *row = rows + (size_t)WEAR_ROW_WIDTH * n;
      if (!WearRowUsed(&sh[k])) continue;
      MeshWearRowPack(&sh[k], row);
      n++;
    }
    PetscCall(PetscSNPrintf(name, sizeof(name), "wear/%s", m->name));
    PetscCall(H5FileWriteRows(f, name, H5FILE_INT64, WEAR_ROW_WIDTH, n, rows));
    PetscCall(PetscFree(rows));
    PetscCall(PetscFree(sh));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's rows [off, off + n) of a mesh's /wear dataset checked: the
 * first bad global row (or -1), agreed over the ranks. */
static PetscErrorCode WearRowsCheck(MPI_Comm comm, const Mesh *m, PetscInt64 off, PetscInt n, const PetscInt64 *rows,
                                    PetscInt64 *bad)
{
  PetscReal first = -1.0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < n && first < 0.0; k++) {
    const PetscInt64 *r = rows + (size_t)WEAR_ROW_WIDTH * k;
    if (r[0] < 0 || r[0] >= m->nt_total || r[1] < 0 || (k > 0 && r[0] <= r[-WEAR_ROW_WIDTH]))
      first = (PetscReal)(off + k);
  }
  /* the smallest bad row: the largest of its negation */
  first = first < 0.0 ? -PETSC_MAX_REAL : -first;
  PetscCall(CollectiveMaxAll(comm, &first, 1));
  *bad = first == -PETSC_MAX_REAL ? -1 : (PetscInt64)(-first);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshesWearCheckpointRead(H5File f, MPI_Comm comm, Meshes *ms)
{
  PetscFunctionBeginUser;
  for (PetscInt q = 0; q < ms->n; q++) {
    Mesh       *m = &ms->m[q];
    char        name[64];
    PetscInt64  N, off, bad;
    PetscInt    n;
    PetscBool   exists;
    PetscInt64 *rows;
    if (!m->wear) continue;
    PetscCall(PetscSNPrintf(name, sizeof(name), "wear/%s", m->name));
    PetscCall(H5FileRows(f, name, H5FILE_INT64, WEAR_ROW_WIDTH, &N, &exists));
    if (!exists) {
      PetscCall(PetscPrintf(comm, "note: checkpoint %s keeps no wear of %s: its sums start from zero here\n",
                            H5FilePath(f), m->name));
      continue;
    }
    PetscCall(H5FileBlock(comm, N, &off, &n));
    PetscCall(PetscMalloc1((size_t)WEAR_ROW_WIDTH * n + 1, &rows));
    PetscCall(H5FileReadRows(f, name, H5FILE_INT64, WEAR_ROW_WIDTH, off, n, rows));
    PetscCall(H5FileVerifyRows(f, name, H5FILE_INT64, WEAR_ROW_WIDTH, N, off, n, rows, PETSC_FALSE, NULL));
    PetscCall(WearRowsCheck(comm, m, off, n, rows, &bad));
    if (bad >= 0) PetscCall(PetscFree(rows));
    PetscCheck(bad < 0, comm, PETSC_ERR_FILE_UNEXPECTED,
               "checkpoint %s: /%s row %" PetscInt64_FMT ": a triangle outside [0, %" PetscInt_FMT
               "), out of ascending order, or a negative contact count",
               H5FilePath(f), name, bad, m->nt_total);
    for (PetscInt k = 0; k < n; k++) PetscCall(MeshWearAddRow(m->wear, rows + (size_t)WEAR_ROW_WIDTH * k));
    PetscCall(PetscFree(rows));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
