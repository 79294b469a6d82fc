/* What a run writes, as monitors of the time loop (engine/run.h), each
 * created with its settings; the driver lists them in the order they write
 * and finish: thermo, snapshots, checkpoints, progress, final state,
 * summary.  Files go through the atomic writer or are HDF5 files committed
 * whole: nothing a run has written is left half-written. */
#ifndef HDEM_OUTPUT_H
#define HDEM_OUTPUT_H

#include "engine/run.h"
#include "io/snapshot.h"

/* What the run has written, kept by the monitors that write it, for the
 * closing report. */
typedef struct {
  char       dir[PETSC_MAX_PATH_LEN];
  PetscInt   snapshots;   /* frames in DIR/snapshots.xdmf, -1: no snapshots */
  PetscInt   checkpoints; /* written by this run */
  PetscInt64 checkpoint_step;
  PetscBool  final;
} OutputTally;

/* DIR/thermo.csv: a row every `interval` steps and each time the simulated
 * time crosses a multiple of `period` (0: off), at the start and at the
 * end; on a restart the file is cut back to the checkpoint's step and
 * continued.  With screen, rank 0 prints the rows as a table too. */
PETSC_EXTERN PetscErrorCode ThermoMonitorCreate(MPI_Comm, const char *dir, PetscInt interval, PetscReal period,
                                                PetscBool screen, Monitor *);
/* A progress line on rank 0 every `seconds` of wall clock, with the time
 * left from the rate over the last minute or so. */
/* walls.csv: rows every interval steps and every period seconds (0: none) */
PETSC_EXTERN PetscErrorCode WallsMonitorCreate(const char *dir, PetscInt interval, PetscReal period, Monitor *);
PETSC_EXTERN PetscErrorCode ProgressMonitorCreate(MPI_Comm, PetscReal seconds, const EngineRunLimits *, Monitor *);
/* DIR/snapshots/ and snapshots.xdmf: every `steps` steps and/or each time
 * the simulated time crosses a multiple of `period` (0: off); fields: a
 * mask over the particle store (io/snapshot.h). */
PETSC_EXTERN PetscErrorCode SnapshotMonitorCreate(MPI_Comm, const char *dir, PetscInt steps, PetscReal period,
                                                  PetscInt fields, const char *options, OutputTally *, Monitor *);
/* DIR/checkpoints/: every `steps` steps, every `wall` seconds of wall clock
 * (0: off), on a request (a signal: then the run stops, exit code
 * HDEM_EXIT_CHECKPOINTED) and, with a cadence, at the end; the newest
 * `keep` kept. */
PETSC_EXTERN PetscErrorCode CheckpointMonitorCreate(MPI_Comm, const char *dir, PetscInt steps, PetscReal wall,
                                                    PetscInt keep, const char *options, OutputTally *, Monitor *);
/* DIR/final.h5 and final.xdmf at the end of a run that was not stopped;
 * failed.h5 and failed.xdmf instead when the run failed. */
PETSC_EXTERN PetscErrorCode FinalMonitorCreate(MPI_Comm, const char *dir, const char *options, OutputTally *,
                                               Monitor *);
/* DIR/summary.json at the end. */
PETSC_EXTERN PetscErrorCode SummaryMonitorCreate(MPI_Comm, const char *dir, Monitor *);
/* DIR/summary.json of a run an error ended (a full disk): status failed with
 * the error's message, by one rank, without collectives or PETSc's error
 * machinery (it is called from the error handler); if it cannot be written,
 * nothing more is said. */
PETSC_EXTERN void SummaryWriteFailed(const char *dir, const Engine *, const char *reason, PetscMPIInt rank,
                                     PetscMPIInt size);
/* Rank 0's log: a banner at the start (what runs, on what, with which
 * model and step, then the driver's text `plan` on limits and outputs),
 * the first monitor; a closing block at the end (status, steps, time,
 * rate, where each output is), the last. */
/* Rank 0 prints with the C library's formatting (PETSc's gives %g a trailing point). */
PETSC_EXTERN PetscErrorCode ReportPrintf(MPI_Comm, const char *, ...) PETSC_ATTRIBUTE_FORMAT(2, 3);
/* Collective: the table of the pairs of types the run has (hdem check, and the banner with several materials). */
PETSC_EXTERN PetscErrorCode OutputPairTable(const Engine *);
PETSC_EXTERN PetscErrorCode BannerMonitorCreate(MPI_Comm, const char *plan, Monitor *);
PETSC_EXTERN PetscErrorCode ReportMonitorCreate(MPI_Comm, OutputTally *, Monitor *);

/* What snapshots and the final state write of an engine: its particles,
 * the walls as rank 0's rows (wn, wp: room for 3 PLANES_MAX each). */
/* What a state holds beside the particle store: the meshes, each rank its
 * share of their points at the state's time and of their triangles (a
 * whole mesh: rank 0 all), and its rigid bodies. */
typedef struct {
  SnapshotMeshTable table;
  SnapshotMeshData  data[SNAPSHOT_MESHES_MAX];
  SnapshotBodies    bodies;
} OutputExtras;

PETSC_EXTERN void           OutputMeshTable(const Engine *, SnapshotMeshTable *);
PETSC_EXTERN PetscErrorCode OutputExtrasGet(const Engine *, OutputExtras *);
PETSC_EXTERN PetscErrorCode OutputExtrasFree(OutputExtras *);
PETSC_EXTERN void           OutputStateView(const Engine *, const char *options, PetscReal wn[], PetscReal wp[],
                                            const OutputExtras *, SnapshotView *);

#endif
