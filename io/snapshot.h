/* Snapshots for visualisation: one parallel HDF5 file per output time,
 * DIR/snapshots/snap_<9-digit step>.h5, and DIR/snapshots.xdmf, an XDMF 3
 * temporal collection over all of them that ParaView opens in one step.
 *
 * File layout (a public interface; N particles, W walls):
 *   /particles/position      float64 [N][3]  always
 *   /particles/connectivity  int64   [N]     always, 0..N-1 (Polyvertex cells)
 *   /particles/id int64 [N], type int32 [N], radius float64 [N],
 *   velocity, angular_velocity, force float64 [N][3]   as selected
 *   /walls/normal, /walls/point  float64 [W][3]
 *   attributes of /: time, dt (double), step, particles (int64),
 *                    hdem_version, options (strings) */
#ifndef HDEM_SNAPSHOT_H
#define HDEM_SNAPSHOT_H

#include "hdem.h"

typedef enum {
  SNAPSHOT_ID               = 1 << 0,
  SNAPSHOT_TYPE             = 1 << 1,
  SNAPSHOT_RADIUS           = 1 << 2,
  SNAPSHOT_VELOCITY         = 1 << 3,
  SNAPSHOT_ANGULAR_VELOCITY = 1 << 4,
  SNAPSHOT_FORCE            = 1 << 5,
  SNAPSHOT_ALL              = (1 << 6) - 1
} SnapshotField;

PETSC_EXTERN const char *const SnapshotFieldNames[]; /* by bit, "id" .. "force" */

typedef struct { /* one rank's owned particles and the (replicated) walls */
  PetscInt          n, nwall;
  const PetscInt64 *id;
  const int32_t    *type;
  const PetscReal  *radius, *x, *v, *w, *f; /* 3n for x, v, w, f */
  const PetscReal  *wall_normal, *wall_point; /* 3 nwall */
  PetscReal         time, dt;
  PetscInt64        step;
  const char       *options;
} SnapshotView;

typedef struct {
  PetscInt64 step, n;
  PetscReal  time;
  PetscInt   fields;
} SnapshotEntry;

typedef struct { /* what snapshots.xdmf lists: kept on rank 0 */
  char           dir[PETSC_MAX_PATH_LEN];
  PetscInt       n, cap;
  SnapshotEntry *e;
} SnapshotSeries;

/* Collective. Starts a series in dir; with resume_step >= 0 (a restart) the
 * snapshots already there up to that step are kept and listed, later ones
 * (from the interrupted run) removed. */
PETSC_EXTERN PetscErrorCode SnapshotSeriesCreate(MPI_Comm, const char *dir, PetscInt64 resume_step, SnapshotSeries *);
PETSC_EXTERN PetscErrorCode SnapshotSeriesDestroy(SnapshotSeries *);
/* Collective: writes the snapshot file, then rank 0 rewrites snapshots.xdmf. */
PETSC_EXTERN PetscErrorCode SnapshotWrite(MPI_Comm, SnapshotSeries *, PetscInt fields, const SnapshotView *);
PETSC_EXTERN PetscErrorCode SnapshotFieldsParse(const char *list, PetscInt *fields); /* "id,radius,..." */

#endif
