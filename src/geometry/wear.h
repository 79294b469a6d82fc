/* Wear and loads on meshes (docs/deck/wear.md): per triangle, summed over
 * the run, exactly (decomp/fixedsum.h) so that every total is the same bits
 * on any rank count and across restarts.
 *
 * A contact is evaluated on the rank that owns its particle, and one
 * triangle may be touched from several ranks: each rank keeps sums for the
 * triangles its contacts touched (an open-addressing table keyed by the
 * whole-mesh triangle index), and an output routes them to the triangle's
 * share owner (geometry/mesh_hold.c: rank r owns the r-th block), which adds
 * them up.  Integer sums: the order and the split do not matter. */
#ifndef HDEM_WEAR_H
#define HDEM_WEAR_H

#include "geometry/trimesh.h"
#include "decomp/fixedsum.h"
#include "io/h5file.h"

/* What a contact deposits on its triangle over a step. */
typedef enum {
  WEAR_IMPULSE,  /* normal impulse, F.n dt [N s] */
  WEAR_FRICTION, /* friction work, |Ft . v_slip| dt [J] */
  WEAR_SLIDING,  /* Archard's load times sliding distance, max(F.n, 0) |v_slip| dt [N m] */
  WEAR_IMPACT,   /* impact energy above the threshold speed, at a contact's first touch [J] */
  WEAR_SUMS
} WearSum;

/* The cell data written per triangle (snapshots, final.h5), in this order. */
#define WEAR_CELLS 8
PETSC_EXTERN const char *const WearCellNames[WEAR_CELLS];
/* The totals per mesh in walls.csv, in this order. */
#define WEAR_TOTALS 5
PETSC_EXTERN const char *const WearTotalNames[WEAR_TOTALS];

typedef struct {
  PetscInt64 tri;   /* whole-mesh triangle index; -1: an empty slot */
  PetscInt64 count; /* contacts begun on it */
  FixedSum   q[WEAR_SUMS];
} WearCell;

/* A checkpoint's or a route's row: the index, the count, the limbs. */
#define WEAR_ROW_WIDTH (2 + FIXEDSUM_LIMBS * WEAR_SUMS)

typedef struct MeshWear_ {
  PetscReal archard;      /* Archard's coefficient K [-] */
  PetscReal hardness;     /* H [Pa] */
  PetscReal impact_speed; /* impacts faster than this count [m/s]; inf: none */
  PetscInt  cap, n;       /* the table's slots (a power of 2) and those used */
  WearCell *cell;
  PetscBool refused; /* some addend was outside the window (decomp/fixedsum.h) */
} MeshWear;

/* Keys meshN_wear*, read with the mesh's other keys (m->name set): m->wear
 * allocated when the mesh asks for wear, else NULL. */
PETSC_EXTERN PetscErrorCode MeshWearKeys(MPI_Comm, Mesh *m);
PETSC_EXTERN PetscErrorCode MeshWearDestroy(MeshWear **);
/* What a contact deposits on triangle tri (v[WEAR_SUMS]; begun: its first touch). */
PETSC_EXTERN PetscErrorCode MeshWearAdd(MeshWear *, PetscInt64 tri, const PetscReal v[WEAR_SUMS], PetscBool begun);
/* A row (WEAR_ROW_WIDTH: a checkpoint's) added into its triangle's cell, exactly. */
PETSC_EXTERN PetscErrorCode MeshWearAddRow(MeshWear *, const PetscInt64 *row);
/* A cell as a row. */
PETSC_EXTERN void MeshWearRowPack(const WearCell *, PetscInt64 *row);
/* Collective: this rank's share of the mesh's triangles (a whole mesh:
 * rank 0 all of them), each with every rank's sums added: *nt cells in
 * triangle order (PetscFree *share). */
PETSC_EXTERN PetscErrorCode MeshWearShare(MPI_Comm, const Mesh *, PetscInt *nt, WearCell **share);
/* Collective: the cell data of this rank's share at time t, cells[c][k] for
 * c < WEAR_CELLS (each array allocated here, PetscFree them). */
PETSC_EXTERN PetscErrorCode MeshWearCells(MPI_Comm, const Mesh *, PetscReal t, PetscReal *cells[WEAR_CELLS]);
/* Collective: the totals over the mesh, tot[WEAR_TOTALS], on every rank. */
PETSC_EXTERN PetscErrorCode MeshWearTotals(MPI_Comm, const Mesh *, PetscReal tot[WEAR_TOTALS]);
/* Collective: every wearing mesh's sums into a checkpoint as /wear/<mesh>
 * (int64 [M][WEAR_ROW_WIDTH], the touched triangles ascending), and back. */
PETSC_EXTERN PetscErrorCode MeshesWearCheckpointWrite(H5File, MPI_Comm, const Meshes *);
PETSC_EXTERN PetscErrorCode MeshesWearCheckpointRead(H5File, MPI_Comm, Meshes *);

#endif
