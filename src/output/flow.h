/* DIR/flow.csv: what the streams put in and the outflows took out, and the
 * cadence of its rows (flow_interval_steps), which other CSV logs may share. */
#ifndef HDEM_OUTPUT_FLOW_H
#define HDEM_OUTPUT_FLOW_H

#include "output/output.h"

/* The flow_* keys as read (engine/flowstate.h). */
static inline const FlowSettings *FlowSettingsOf(const Engine *e)
{
  return &e->flow.settings;
}

/* Whether a row is due after step `step` (from t_prev to t): every
 * interval_steps steps, or when 0 with every thermo row (thermo_interval
 * steps, thermo_period simulated seconds; 0: none), as thermo decides. */
PETSC_EXTERN PetscBool FlowRowDue(const FlowSettings *, PetscInt thermo_interval, PetscReal thermo_period,
                                  PetscInt64 step, PetscReal t_prev, PetscReal t);

/* flow.csv, when the deck has a stream or an outflow: step, time; per
 * stream N streamN_inserted, streamN_mass, streamN_short; per outflow N
 * outflowN_removed, outflowN_mass and, with flow_size_classes, per class c
 * outflowN_removed_dc, outflowN_mass_dc; cumulative.  A row at the start,
 * at the cadence (FlowRowDue) and at the end; a restart cuts the file back
 * to the checkpoint's step and continues it. */
PETSC_EXTERN PetscErrorCode FlowMonitorCreate(const char *dir, PetscInt thermo_interval, PetscReal thermo_period,
                                              Monitor *);

#endif
