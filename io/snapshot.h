/* Particle states for visualisation and analysis, one parallel HDF5 file
 * each, with an XDMF 3 index that ParaView opens in one step:
 *   snapshots: DIR/snapshots/snap_<9-digit step>.h5, indexed by
 *              DIR/snapshots.xdmf, a temporal collection over all of them;
 *   the final state: DIR/final.h5, indexed by DIR/final.xdmf.
 *
 * File layout (a public interface; N particles, W walls):
 *   /particles/position      float64 [N][3]  always
 *   /particles/connectivity  int64   [N]     always, 0..N-1 (Polyvertex cells)
 *   /particles/<name>        the particle store's FIELD_SNAPSHOT fields as
 *                            selected: id int64 [N], type int32 [N], radius
 *                            float64 [N], velocity, angular_velocity, force
 *                            float64 [N][3] (and any field a model adds)
 *   /walls/normal, /walls/point  float64 [W][3]
 *   /meshes/<name>/points     float64 [V][3]  a mesh's vertices where it is at the
 *                             snapshot's time (meshes that are removed: none)
 *   /meshes/<name>/triangles  int64   [T][3]  its triangles' vertex indices
 *   /meshes/<name>/<cell>     float64 [T]     per-triangle data the run keeps
 *                             (a wearing mesh's, docs/deck/wear.md), cell
 *                             attributes in the XDMF
 *   /bodies/id, template      int64, int32 [B]  a run's rigid bodies (runs
 *   /bodies/position, velocity, angular_velocity  float64 [B][3]  that have
 *   /bodies/orientation       float64 [B][4]  them), w, x, y, z
 *   attributes of /: time, dt (double), step, particles (int64),
 *                    hdem_version, options (strings)
 * Rows are in rank order of the writer, then local order.  In an XDMF
 * index each mesh is a temporal collection of its own beside the
 * particles', over the states that hold it, as triangles. */
#ifndef HDEM_SNAPSHOT_H
#define HDEM_SNAPSHOT_H

#include "decomp/fields.h"
#include "io/h5file.h"

#define SNAPSHOT_MESHES_MAX 16
#define SNAPSHOT_MESH_CELLS 8

/* The meshes a run has, the same in every snapshot (names, sizes, the
 * names of their cell data). */
typedef struct {
  PetscInt   n;
  char       name[SNAPSHOT_MESHES_MAX][16];
  PetscInt64 nv[SNAPSHOT_MESHES_MAX], nt[SNAPSHOT_MESHES_MAX];
  PetscInt   ncell[SNAPSHOT_MESHES_MAX];
  char       cell[SNAPSHOT_MESHES_MAX][SNAPSHOT_MESH_CELLS][24];
} SnapshotMeshTable;

/* One mesh in one state: this rank's rows of its points then and of its
 * triangles (the ranks' rows in rank order make the whole); absent when
 * removed. */
typedef struct {
  PetscBool         present;
  PetscInt          nv, nt;
  const PetscReal  *points;                    /* 3 nv */
  const PetscInt64 *tri;                       /* 3 nt */
  const PetscReal  *cell[SNAPSHOT_MESH_CELLS]; /* nt each: the table's cell data */
} SnapshotMeshData;

/* One rank's rigid bodies in one state (on: the run has bodies, so the
 * /bodies group is written even when no rank holds one). */
typedef struct {
  PetscBool         on;
  PetscInt          n;
  const PetscInt64 *id;
  const LocalInt   *tmpl;
  const PetscReal  *position, *orientation, *velocity, *angular_velocity; /* 3, 4, 3, 3 per body */
} SnapshotBodies;

/* The /bodies group of an open file (collective; nothing when !b->on). */
PETSC_EXTERN PetscErrorCode SnapshotWriteBodies(H5File, const SnapshotBodies *);

typedef struct { /* one rank's owned particles and the (replicated) walls */
  const FieldStore        *st;
  PetscInt                 nwall;
  const PetscReal         *wall_normal, *wall_point; /* 3 nwall */
  PetscReal                time, dt;
  PetscInt64               step;
  const char              *options;
  const SnapshotMeshTable *meshes; /* NULL: none */
  const SnapshotMeshData  *mesh;   /* meshes->n of them */
  const SnapshotBodies    *bodies; /* NULL: none */
} SnapshotView;

/* What a file holds, for its index: fields as a mask over the store's
 * table, meshes as a mask over the run's. */
typedef struct {
  PetscInt64 step, n;
  PetscReal  time;
  PetscInt   fields, meshes;
} SnapshotEntry;

typedef struct { /* what snapshots.xdmf lists: kept on rank 0 */
  char              dir[PETSC_MAX_PATH_LEN];
  PetscInt          nfield;
  Field             field[FIELD_MAX]; /* the store's table as it was (names, types, components) */
  PetscInt          n, cap;
  SnapshotEntry    *e;
  SnapshotMeshTable meshes;
} SnapshotSeries;

/* The mask of a comma list of the store's FIELD_SNAPSHOT field names, or
 * "all"; position is always written.  An unknown name is an error listing
 * the allowed ones. */
PETSC_EXTERN PetscErrorCode SnapshotFieldsParse(const FieldStore *, const char *list, PetscInt *fields);
PETSC_EXTERN PetscInt       SnapshotFieldsAll(const FieldStore *);
/* Collective. Starts a series in dir; with resume_step >= 0 (a restart) the
 * snapshots already there up to that step are kept and listed, later ones
 * (from the interrupted run) removed. */
PETSC_EXTERN PetscErrorCode SnapshotSeriesCreate(MPI_Comm, const char *dir, PetscInt64 resume_step, const FieldStore *,
                                                 const SnapshotMeshTable *, SnapshotSeries *);
PETSC_EXTERN PetscErrorCode SnapshotSeriesDestroy(SnapshotSeries *);
/* Collective: writes the snapshot file, then rank 0 rewrites snapshots.xdmf. */
PETSC_EXTERN PetscErrorCode SnapshotWrite(MPI_Comm, SnapshotSeries *, PetscInt fields, const SnapshotView *);
/* Collective: one state file at path with the selected fields (no index). */
PETSC_EXTERN PetscErrorCode SnapshotWriteState(MPI_Comm, const char *path, PetscInt fields, const SnapshotView *);
/* Collective: DIR/final.h5 (every snapshot field) and DIR/final.xdmf. */
/* DIR/NAME.h5 and NAME.xdmf */
PETSC_EXTERN PetscErrorCode SnapshotWriteFinal(MPI_Comm, const char *dir, const char *name, const SnapshotView *);

#endif
