/* The time loop: steps until the run's end, and after each step the outputs
 * that are due, as monitors (src/output/: thermo, snapshots, checkpoints,
 * progress, final state, summary).  The loop decides alone when a step may
 * be taken ahead (EngineStep: a fixed step's next first half fused into its
 * second): when nothing that reads the particle state is due after it and no
 * request is pending; what a monitor writes is decided from what every rank
 * holds alike, so every rank writes the same outputs at the same steps. */
#ifndef HDEM_RUN_H
#define HDEM_RUN_H

#include "engine/engine.h"

typedef struct {
  PetscInt64 steps;    /* stop after this many steps from the start of the simulation */
  PetscReal  end_time; /* or at this simulated time */
} EngineRunLimits;

typedef struct {
  PetscBool      stopped;   /* by a request to stop (a signal), not by the limits */
  PetscBool      failed;    /* the run went wrong (e->health.fault says why): the state is the failing step's */
  PetscInt64     steps_run; /* steps this run took */
  PetscLogDouble wall;      /* seconds this run took */
  /* the particles present after each of its steps, summed: streams and outflows counted as they ran */
  PetscReal particle_steps;
} EngineRunEnd;

typedef struct _p_Monitor *Monitor;

typedef struct {
  const char *name;
  /* it reads the particle state: the step before it writes is taken whole */
  PetscBool reads_state;
  /* optional: at the start, fresh (not a restart) or not */
  PetscErrorCode (*start)(Monitor, Engine *, PetscBool fresh);
  /* optional: this rank's request before a step (ENGINE_REQUEST_*: a signal, a wall-clock cadence) */
  PetscInt (*request)(Monitor, const Engine *, PetscLogDouble elapsed);
  /* whether it writes after step `step`, which went from t_prev to t, under the run's request */
  PetscBool (*due)(Monitor, const Engine *, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt request,
                   PetscLogDouble elapsed);
  PetscErrorCode (*write)(Monitor, Engine *, PetscInt request, PetscLogDouble elapsed);
  /* optional: at the end, in the monitors' order */
  PetscErrorCode (*finish)(Monitor, Engine *, const EngineRunEnd *);
  PetscErrorCode (*destroy)(Monitor);
} MonitorOps;

struct _p_Monitor {
  const MonitorOps *ops;
  void             *data;
  /* it reads the walls' force sums of the step before it writes (EngineWallTotals) */
  PetscBool wants_wall_forces;
  /* it reads every contact's force of the step before it writes (Engine contact_sink) */
  PetscBool wants_contacts;
};

PETSC_EXTERN PetscErrorCode MonitorCreate(const MonitorOps *, void *data, Monitor *);
PETSC_EXTERN PetscErrorCode MonitorDestroy(Monitor *);

/* Collective: the run from the engine's state to the limits (or a stop
 * request), the monitors started, written when due and finished in order. */
PETSC_EXTERN PetscErrorCode EngineRun(Engine *, const EngineRunLimits *, PetscBool fresh, PetscInt nmon, Monitor mons[],
                                      EngineRunEnd *);

#endif
