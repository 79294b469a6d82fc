#include "engine/run.h"
#include "engine/health.h"

PetscErrorCode MonitorCreate(const MonitorOps *ops, void *data, Monitor *m)
{
  PetscFunctionBeginUser;
  PetscCall(PetscNew(m));
  (*m)->ops  = ops;
  (*m)->data = data;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MonitorDestroy(Monitor *m)
{
  PetscFunctionBeginUser;
  if (!*m) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall((*m)->ops->destroy(*m));
  PetscCall(PetscFree(*m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the run ends after the coming step. */
static PetscBool RunEndsAfterNext(const Engine *e, const EngineRunLimits *lim)
{
  return e->clock.step + 1 >= lim->steps || !(e->clock.t + e->clock.dt < lim->end_time) ? PETSC_TRUE : PETSC_FALSE;
}

/* Whether the energy check (EngineHealthEnergy, with the statistics) is due after step. */
static PetscBool RunEnergyDue(const Engine *e, PetscInt64 step)
{
  return e->health.energy_interval > 0 && step % e->health.energy_interval == 0 ? PETSC_TRUE : PETSC_FALSE;
}

/* Whether a monitor that reads the state writes after this step: the statistics' checks run before it. */
static PetscBool RunReadersDue(Engine *e, PetscInt nmon, Monitor mons[], PetscReal t_prev, PetscInt req,
                               PetscLogDouble elapsed)
{
  for (PetscInt k = 0; k < nmon; k++)
    if (mons[k]->ops->reads_state && mons[k]->ops->due(mons[k], e, e->clock.step, t_prev, e->clock.t, req, elapsed))
      return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Whether anything reads the state after the coming step (a monitor that
 * reads it and is due, the end of the run), from what every rank holds
 * alike: if nothing does, the step may be taken ahead.  The step's time is
 * e->clock.t + e->clock.dt, as EngineStep adds it. */
static PetscBool RunStateDue(const Engine *e, const EngineRunLimits *lim, PetscInt nmon, Monitor mons[],
                             PetscLogDouble elapsed)
{
  if (RunEndsAfterNext(e, lim) || RunEnergyDue(e, e->clock.step + 1)) return PETSC_TRUE;
  for (PetscInt k = 0; k < nmon; k++)
    if (mons[k]->ops->reads_state && mons[k]->ops->due(mons[k], e, e->clock.step + 1, e->clock.t,
                                                       e->clock.t + e->clock.dt, ENGINE_REQUEST_NONE, elapsed))
      return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscErrorCode EngineRun(Engine *e, const EngineRunLimits *lim, PetscBool fresh, PetscInt nmon, Monitor mons[],
                         EngineRunEnd *end)
{
  PetscLogDouble t0, now;
  PetscInt64     step0 = e->clock.step;
  PetscReal      ps0   = e->clock.particle_steps;
  /* a request still to meet (the step that reported it was taken ahead) */
  PetscInt pending = ENGINE_REQUEST_NONE;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(end, sizeof(*end)));
  PetscCall(PetscTime(&t0));
  now = t0;
  PetscCall(EngineCountersStart(&e->counters, e->clock.rebuilds));
  e->counted.valid = PETSC_FALSE;
  for (PetscInt k = 0; k < nmon; k++)
    if (mons[k]->ops->start) PetscCall(mons[k]->ops->start(mons[k], e, fresh));
  PetscCall(EngineLap(&e->counters, ENGINE_PHASE_OUTPUT)); /* the outputs' starts: the banner, the files' heads */
  while (!e->health.fault.kind && e->clock.step < lim->steps && e->clock.t < lim->end_time) {
    PetscReal t_prev = e->clock.t;
    PetscInt  req;
    for (PetscInt k = 0; k < nmon; k++)
      if (mons[k]->ops->request) e->request = PetscMax(e->request, mons[k]->ops->request(mons[k], e, now - t0));
    e->wall_sums_due = e->contact_sink_due = PETSC_FALSE; /* summed only for a step after which they are written */
    for (PetscInt k = 0; k < nmon; k++)
      if ((mons[k]->wants_wall_forces || mons[k]->wants_contacts) &&
          mons[k]->ops->due(mons[k], e, e->clock.step + 1, e->clock.t, e->clock.t + e->clock.dt, ENGINE_REQUEST_NONE,
                            now - t0)) {
        if (mons[k]->wants_wall_forces) e->wall_sums_due = PETSC_TRUE;
        if (mons[k]->wants_contacts) e->contact_sink_due = PETSC_TRUE;
      }
    PetscCall(EngineStep(e, pending == ENGINE_REQUEST_NONE && !RunStateDue(e, lim, nmon, mons, now - t0)
                              ? PETSC_TRUE
                              : PETSC_FALSE));
    PetscCall(EngineLap(&e->counters, ENGINE_PHASE_OTHER)); /* the step's end: the reduction's decisions */
    now = e->counters.mark;
    if (e->health.fault.kind) break; /* nothing of a failed step goes into the outputs but the failed state */
    /* a request met in a step taken ahead waits for the next, which is not */
    req     = PetscMax(pending, e->request_all);
    pending = e->opened ? req : ENGINE_REQUEST_NONE;
    if (e->opened) req = ENGINE_REQUEST_NONE;
    /* the statistics' checks where they are due and before anything reads the state */
    if (!e->opened && (RunEnergyDue(e, e->clock.step) || RunReadersDue(e, nmon, mons, t_prev, req, now - t0))) {
      EngineStats s;
      PetscCall(EngineGetStats(e, &s));
      PetscCall(EngineHealthStats(e, &s));
      if (e->health.fault.kind) break;
    }
    for (PetscInt k = 0; k < nmon; k++) {
      Monitor m = mons[k];
      if (e->health.fault.kind) break;                /* found by a monitor (an overlap) */
      if (m->ops->reads_state && e->opened) continue; /* nothing that reads is due after a step taken ahead */
      if (m->ops->due(m, e, e->clock.step, t_prev, e->clock.t, req, now - t0))
        PetscCall(m->ops->write(m, e, req, now - t0));
    }
    PetscCall(EngineLap(&e->counters, ENGINE_PHASE_OUTPUT)); /* with the statistics the outputs needed */
    if (req == ENGINE_REQUEST_STOP) {
      end->stopped = PETSC_TRUE;
      break;
    }
  }
  PetscCall(PetscTime(&now));
  end->failed         = e->health.fault.kind ? PETSC_TRUE : PETSC_FALSE;
  end->steps_run      = e->clock.step - step0;
  end->particle_steps = e->clock.particle_steps - ps0;
  end->wall           = now - t0;
  PetscCall(EngineLap(&e->counters, ENGINE_PHASE_OTHER));
  for (PetscInt k = 0; k < nmon; k++) { /* an output that gathers the counters sees the outputs before it */
    if (mons[k]->ops->finish) PetscCall(mons[k]->ops->finish(mons[k], e, end));
    PetscCall(EngineLap(&e->counters, ENGINE_PHASE_OUTPUT));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
