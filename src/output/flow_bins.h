/* DIR/flow_bins.csv and DIR/residence.csv: the outflows' statistics
 * (engine/flowstate.h FlowStats) at flow.csv's cadence, cumulative, summed
 * over the ranks exactly, so a row is the same bits on any rank count.
 *   flow_bins.csv  time,outflow,class,axis,bin,lo,hi,count,mass: per outflow
 *                  with bins, size class and bin
 *   residence.csv  time,outflow,class,count,mean,q10,q50,q90: per outflow
 *                  and size class, with flow_residence (nan without a count)
 * Written by output/flow.c's monitor. */
#ifndef HDEM_OUTPUT_FLOW_BINS_H
#define HDEM_OUTPUT_FLOW_BINS_H

#include "engine/engine.h"

typedef struct FlowStatsLog *FlowStatsLog;

/* NULL when the deck has neither; on a restart the files are cut back to
 * the checkpoint's time and continued. */
PETSC_EXTERN PetscErrorCode FlowStatsLogStart(Engine *, const char *dir, PetscBool fresh, FlowStatsLog *);
/* Collective: the rows of the engine's time. */
PETSC_EXTERN PetscErrorCode FlowStatsLogRow(FlowStatsLog, Engine *);
PETSC_EXTERN PetscErrorCode FlowStatsLogClose(MPI_Comm, FlowStatsLog); /* collective */
PETSC_EXTERN PetscErrorCode FlowStatsLogDestroy(FlowStatsLog *);

/* Quantile q of a residence histogram (FLOW_RES_BINS counts, n in all, least
 * tmin, largest tmax): interpolated geometrically within its bin, the bin
 * narrowed to [tmin, tmax]. */
PETSC_EXTERN PetscReal FlowResidenceQuantile(const PetscInt64 *hist, PetscInt64 n, PetscReal tmin, PetscReal tmax,
                                             PetscReal q);

#endif
