#include "engine/health.h"
#include "engine/walls_name.h"
#include "particles/integrator.h"
#include "decomp/collective.h"
#include <stdint.h>
#include <stdio.h>

const char *const EngineFaultNames[]    = {"none",
                                           "non-finite value",
                                           "particle through a wall",
                                           "overlap beyond the limit",
                                           "step below the floor",
                                           "liquid not conserved",
                                           "energy grew without a source",
                                           "particle moved more than a box length",
                                           "fixed step too long for a particle's speed"};
const char *const EngineEnergyActions[] = {"fail", "warn", "EngineEnergyAction", "ENGINE_ENERGY_", NULL};

/* |v| without overflow: a runaway particle's speed is said as it is. */
static PetscReal Norm3(const PetscReal *v)
{
  PetscReal m = PetscMax(PetscAbsReal(v[0]), PetscMax(PetscAbsReal(v[1]), PetscAbsReal(v[2])));
  if (!(m > 0.0) || !isfinite(m)) return m;
  return m * sqrt((v[0] / m) * (v[0] / m) + (v[1] / m) * (v[1] / m) + (v[2] / m) * (v[2] / m));
}

/* The message of the rank holding the smallest key (a particle id; ties:
 * the lowest rank) into out on every rank; "" if no rank holds one. */
static PetscErrorCode EngineShare(Engine *e, PetscBool mine, PetscReal key, const char *msg, char *out, size_t len)
{
  PetscReal   v[2];
  PetscMPIInt rank, size;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(e->grid.comm, &rank, &size));
  v[0] = mine ? key : PETSC_MAX_REAL;
  PetscCall(CollectiveReduceMixed(e->grid.comm, 1, v, (const CollectiveOp[]){COLLECTIVE_MIN}));
  v[1] = mine && key == v[0] ? (PetscReal)rank : (PetscReal)size;
  PetscCall(CollectiveReduceMixed(e->grid.comm, 1, v + 1, (const CollectiveOp[]){COLLECTIVE_MIN}));
  out[0] = 0;
  if ((PetscMPIInt)v[1] == rank) PetscCall(PetscStrncpy(out, msg, len));
  if ((PetscMPIInt)v[1] < size)
    PetscCall(CollectiveBcastCharsFrom(e->grid.comm, out, (PetscInt)len, (PetscMPIInt)v[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The run has failed: every rank records why, rank 0 says it. */
static PetscErrorCode EngineFaultSet(Engine *e, EngineFaultKind kind, PetscBool mine, PetscReal key, const char *msg)
{
  PetscFunctionBeginUser;
  PetscCall(EngineShare(e, mine, key, msg, e->health.fault.reason, sizeof(e->health.fault.reason)));
  if (!e->health.fault.reason[0])
    PetscCall(PetscSNPrintf(e->health.fault.reason, sizeof(e->health.fault.reason), "%s", EngineFaultNames[kind]));
  e->health.fault.kind = kind;
  e->opened            = PETSC_FALSE; /* a fixed step taken ahead: failed.h5 holds that half step on, as it stands */
  if (!e->health.setting_up)
    PetscCall(PetscFPrintf(e->grid.comm, stderr,
                           "hdem: error: the run failed at step %" PetscInt64_FMT ", t %.9g s: %s\n", e->clock.step,
                           (double)e->clock.t, e->health.fault.reason));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Axis a has walls on both faces of the box: planes with the axis' normal there. */
static void EngineWalledAxes(const Engine *e, PetscBool walled[3])
{
  for (int a = 0; a < 3; a++) {
    PetscBool lo = PETSC_FALSE, hi = PETSC_FALSE;
    for (PetscInt k = 0; k < e->planes.n; k++) {
      const PlaneWall *w = &e->planes.w[k];
      if (w->n[(a + 1) % 3] != 0.0 || w->n[(a + 2) % 3] != 0.0) continue;
      if (w->n[a] == 1.0 && w->p[a] == e->grid.lo[a]) lo = PETSC_TRUE;
      if (w->n[a] == -1.0 && w->p[a] == e->grid.hi[a]) hi = PETSC_TRUE;
    }
    walled[a] = !e->grid.periodic[a] && lo && hi ? PETSC_TRUE : PETSC_FALSE;
  }
}

/* Particle i moved a box length or more along a periodic axis since the
 * lists were built, or (a fixed step) more than its radius in one step,
 * which contacts cannot resolve: the particle passes through what it meets. */
static EngineFaultKind EngineScanTravel(const Engine *e, PetscInt i, char *msg, size_t len)
{
  const Particles *p = &e->p;
  const PetscReal *v = p->v + 3 * i, sp = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

  for (int a = 0; a < 3; a++) {
    PetscReal L = e->grid.hi[a] - e->grid.lo[a], dx = p->x[3 * i + a] - p->x0[3 * i + a];
    if (!e->grid.periodic[a] || !(PetscAbsReal(dx) >= L)) continue;
    snprintf(msg, len,
             "particle %" PetscInt64_FMT " moved %g m along the periodic axis %c since the lists were built, more than "
             "the box length %g m: it moves at "
             "(%g, %g, %g) m/s (a step too long for its speed, or a blow-up)",
             p->id[i], (double)dx, "xyz"[a], (double)L, (double)v[0], (double)v[1], (double)v[2]);
    return ENGINE_FAULT_RUNAWAY;
  }
  if (e->ctl.mode == TIMESTEP_FIXED && !(p->flags[i] & PARTICLE_STILL) && sp * e->ctl.dt_fixed > p->radius[i]) {
    snprintf(msg, len,
             "particle %" PetscInt64_FMT " moves %g m in the fixed step %g s (at (%g, %g, %g) m/s), more than its "
             "radius %g m: it passes through walls, meshes "
             "and particles unseen (shorten -timestep_dt, or use the adaptive step)",
             p->id[i], (double)(sp * e->ctl.dt_fixed), (double)e->ctl.dt_fixed, (double)v[0], (double)v[1],
             (double)v[2], (double)p->radius[i]);
    return ENGINE_FAULT_TUNNEL;
  }
  return ENGINE_FAULT_NONE;
}

/* This rank's owned particle of lowest id with a non-finite value (forces
 * too, with_f), or else that travelled too far (EngineScanTravel), or else
 * out of the box through a walled face. */
static EngineFaultKind EngineScanLocal(const Engine *e, PetscBool with_f, PetscInt64 *id, char *msg, size_t len)
{
  const Particles         *p        = &e->p;
  static const char *const names[4] = {"position", "velocity", "angular velocity", "force"};
  EngineFaultKind          kind     = ENGINE_FAULT_NONE;
  PetscBool                walled[3];
  char                     tm[sizeof(e->health.fault.reason)];

  EngineWalledAxes(e, walled);
  for (PetscInt i = 0; i < p->n; i++) {
    const PetscReal *q[4] = {p->x + 3 * i, p->v + 3 * i, p->w + 3 * i, p->f + 3 * i};
    EngineFaultKind  tk;
    for (int k = 0; k < (with_f ? 4 : 3); k++)
      for (int a = 0; a < 3; a++)
        if (!isfinite(q[k][a]) && (kind != ENGINE_FAULT_NONFINITE || p->id[i] < *id)) {
          kind = ENGINE_FAULT_NONFINITE, *id = p->id[i];
          snprintf(msg, len, "non-finite %s of particle %" PetscInt64_FMT ": its %c component is %g", names[k],
                   p->id[i], "xyz"[a], (double)q[k][a]);
        }
    if (kind == ENGINE_FAULT_NONFINITE) continue;
    tk = EngineScanTravel(e, i, tm, sizeof(tm));
    if (tk && (kind < tk || (kind == tk && p->id[i] < *id))) {
      kind = tk, *id = p->id[i];
      snprintf(msg, len, "%s", tm);
    }
    if (kind == ENGINE_FAULT_RUNAWAY || kind == ENGINE_FAULT_TUNNEL) continue;
    for (int a = 0; a < 3; a++)
      if (walled[a] && (p->x[3 * i + a] < e->grid.lo[a] || p->x[3 * i + a] > e->grid.hi[a]) &&
          (kind == ENGINE_FAULT_NONE || p->id[i] < *id)) {
        kind = ENGINE_FAULT_THROUGH_WALL, *id = p->id[i];
        snprintf(msg, len,
                 "particle %" PetscInt64_FMT " went through the wall at %c = %g: it is at (%g, %g, %g) m, moving at "
                 "(%g, %g, %g) m/s (a contact too stiff "
                 "for the step, or a particle too fast)",
                 p->id[i], "xyz"[a], (double)(p->x[3 * i + a] < e->grid.lo[a] ? e->grid.lo[a] : e->grid.hi[a]),
                 (double)p -> x[3 * i], (double)p -> x[3 * i + 1], (double)p -> x[3 * i + 2], (double)p -> v[3 * i],
                 (double)p -> v[3 * i + 1], (double)p -> v[3 * i + 2]);
      }
  }
  return kind;
}

void EngineHealthScan(Engine *e)
{
  if (e->health.noted.kind) return;
  e->health.noted.kind = EngineScanLocal(e, PETSC_FALSE, &e->health.noted_id, e->health.noted.reason,
                                         sizeof(e->health.noted.reason));
}

PetscInt EngineHealthBits(Engine *e, PetscInt bits)
{
  if ((bits & INTEGRATOR_BEYOND_ALL) == INTEGRATOR_BEYOND_ALL && !(bits & INTEGRATOR_NONFINITE)) {
    const Particles *p = &e->p;
    PetscReal        s = 0.0;
    for (PetscInt i = 0; i < 3 * p->n; i++) s += p->x[i] + p->v[i] + p->f[i]; /* non-finite if any is */
    if (!isfinite(s)) bits |= INTEGRATOR_NONFINITE;
  }
  return bits | (e->health.noted.kind ? ENGINE_HEALTH_NOTED : 0) | (e->health.deep ? ENGINE_HEALTH_DEEP : 0);
}

/* A fault some rank found: each rank's own (noted, or a scan now), the
 * gravest kind, its lowest particle id, said by its rank. */
static PetscErrorCode EngineScan(Engine *e)
{
  char            msg[sizeof(e->health.fault.reason)] = "";
  PetscInt64      id                                  = INT64_MAX;
  EngineFaultKind kind                                = EngineScanLocal(e, PETSC_TRUE, &id, msg, sizeof(msg));
  PetscReal       k;

  PetscFunctionBeginUser;
  if (e->health.noted.kind && (!kind || e->health.noted.kind > kind)) {
    kind = e->health.noted.kind, id = e->health.noted_id;
    PetscCall(PetscStrncpy(msg, e->health.noted.reason, sizeof(msg)));
  }
  k = (PetscReal)kind;
  PetscCall(CollectiveMaxAll(e->grid.comm, &k, 1));
  if (k > 0.0) PetscCall(EngineFaultSet(e, (EngineFaultKind)k, kind == (EngineFaultKind)k, (PetscReal)id, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineStepFloor(Engine *e)
{
  const Particles *p    = &e->p;
  PetscReal        v[2] = {-PETSC_MAX_REAL, -PETSC_MAX_REAL}; /* -smallest radius, -smallest mass */
  ContactPair      cp;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < p->n; i++) v[0] = PetscMax(v[0], -p->radius[i]), v[1] = PetscMax(v[1], -p->mass[i]);
  PetscCall(CollectiveMaxAll(e->grid.comm, v, 2));
  e->health.dt_floor = 0.0;
  if (!(-v[0] > 0.0 && -v[1] > 0.0 && -v[0] < PETSC_MAX_REAL)) PetscFunctionReturn(PETSC_SUCCESS);
  /* the shortest contact of any pair of types (with one material: the default's) */
  e->health.contact_duration = PETSC_MAX_REAL;
  for (PetscInt ti = e->model.several ? 0 : MATERIAL_TYPES; ti < MATERIAL_SLOTS; ti++)
    for (PetscInt tj = ti; tj < MATERIAL_SLOTS; tj++) {
      ContactPairSetUp(&e->model, ti, tj, -v[0], -v[1], 0.4 * -v[1] * v[0] * v[0], -v[0], -v[1],
                       0.4 * -v[1] * v[0] * v[0], PETSC_FALSE, &cp);
      e->health.contact_duration = PetscMin(e->health.contact_duration,
                                            NormalLawElasticDuration(&e->model.law, cp.s, cp.m, 0.5 * cp.m));
    }
  if (isfinite(e->health.contact_duration) && e->health.contact_duration > 0.0)
    e->health.dt_floor = ENGINE_STEP_FLOOR * e->health.contact_duration;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The largest overlap over the smaller radius of this rank's contacts, with
 * its pair (InteractionStats who), and of all ranks' (collective). */
static PetscErrorCode EngineOverlapLargest(Engine *e, InteractionStats *is, PetscReal *global)
{
  InteractionContext ctx = EngineInteractionContext(e);

  PetscFunctionBeginUser;
  InteractionStatsZero(is);
  for (PetscInt q = 0; q < e->ninter; q++) e->inter[q]->ops->stats(e->inter[q], &ctx, is);
  *global = is->max_overlap_ratio;
  PetscCall(CollectiveMaxAll(e->grid.comm, global, 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The run has failed if the largest overlap ratio (this rank's local, with
 * its pair's ids, and the global one) is beyond the limit. */
static PetscErrorCode EngineHealthOverlap(Engine *e, PetscReal local, PetscReal ratio, const PetscInt64 who[2])
{
  char msg[sizeof(e->health.fault.reason)];

  PetscFunctionBeginUser;
  if (e->health.fault.kind || !(ratio > CONTACT_OVERLAP_LIMIT)) PetscFunctionReturn(PETSC_SUCCESS);
  if (who[1] < 0) {
    char wn[96];
    PetscCall(EngineWallName(e, (PetscInt)(-1 - who[1]), wn, sizeof(wn)));
    snprintf(msg, sizeof(msg),
             "particle %" PetscInt64_FMT " overlaps %s by %g of its radius (the limit is %g): the contact is too soft "
             "for the load, or the step too long",
             who[0], wn, (double)local, CONTACT_OVERLAP_LIMIT);
  } else
    snprintf(msg, sizeof(msg),
             "particles %" PetscInt64_FMT " and %" PetscInt64_FMT
             " overlap by %g of the smaller radius (the limit is %g): the contact is too soft for the load, or the "
             "step too long",
             who[0], who[1], (double)local, CONTACT_OVERLAP_LIMIT);
  PetscCall(EngineFaultSet(e, ENGINE_FAULT_OVERLAP, local == ratio, (PetscReal)who[0], msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A rank's forces met an overlap beyond the limit: which pair, by the statistics. */
static PetscErrorCode EngineDeep(Engine *e)
{
  InteractionStats is;
  PetscReal        g;

  PetscFunctionBeginUser;
  PetscCall(EngineOverlapLargest(e, &is, &g));
  PetscCall(EngineHealthOverlap(e, is.max_overlap_ratio, g, is.who));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineHealthStep(Engine *e, PetscInt bits, PetscReal local_bound, const PetscInt who[2],
                                PetscBool kinematic)
{
  PetscFunctionBeginUser;
  if (bits & (INTEGRATOR_NONFINITE | ENGINE_HEALTH_NOTED)) PetscCall(EngineScan(e));
  if (!e->health.fault.kind && (bits & ENGINE_HEALTH_DEEP)) PetscCall(EngineDeep(e));
  if (e->health.fault.kind || e->ctl.mode != TIMESTEP_ADAPTIVE || !(e->clock.dt < e->health.dt_floor))
    PetscFunctionReturn(PETSC_SUCCESS);
  {
    const Particles *p = &e->p;
    char             msg[sizeof(e->health.fault.reason)], by[320] = "";
    PetscBool        mine = local_bound == e->clock.bound && who[0] >= 0 ? PETSC_TRUE : PETSC_FALSE;

    if (mine && kinematic) {
      PetscInt i = who[0];
      snprintf(by, sizeof(by),
               "the motion of particle %" PetscInt64_FMT
               " (speed %g m/s, acceleration %g m/s^2) against half the skin, %g m",
               p->id[i], (double)Norm3(p->v + 3 * i), (double)(Norm3(p->f + 3 * i) / p->mass[i]),
               (double)(0.5 * e->skin));
    } else if (mine && who[1] < 0) {
      char wn[96];
      PetscCall(EngineWallName(e, -1 - who[1], wn, sizeof(wn)));
      snprintf(by, sizeof(by), "the contact of particle %" PetscInt64_FMT " with %s (at (%g, %g, %g) m)", p->id[who[0]],
               wn, (double)p->x[3 * who[0]], (double)p->x[3 * who[0] + 1], (double)p->x[3 * who[0] + 2]);
    } else if (mine)
      snprintf(by, sizeof(by),
               "the contact of particles %" PetscInt64_FMT " and %" PetscInt64_FMT " (at (%g, %g, %g) m)",
               p->id[who[0]], p->id[who[1]], (double)p->x[3 * who[0]], (double)p->x[3 * who[0] + 1],
               (double)p->x[3 * who[0] + 2]);
    snprintf(msg, sizeof(msg),
             "the adaptive step %g s is below its floor %g s (%g of the %g s duration of the shortest contact): the "
             "bound %g s is set by %s",
             (double)e->clock.dt, (double)e->health.dt_floor, ENGINE_STEP_FLOOR, (double)e->health.contact_duration,
             (double)e->clock.bound, by);
    PetscCall(EngineFaultSet(e, ENGINE_FAULT_STEP_FLOOR, mine, mine ? (PetscReal)p->id[who[0]] : 0.0, msg));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineHealthLiquid(Engine *e, const EngineStats *s, PetscReal lmin, PetscInt64 who)
{
  PetscReal g = -lmin;
  char      msg[sizeof(e->health.fault.reason)];

  PetscFunctionBeginUser;
  PetscCall(CollectiveMaxAll(e->grid.comm, &g, 1));
  g = -g;
  if (e->health.fault.kind) PetscFunctionReturn(PETSC_SUCCESS);
  if (g < 0.0) {
    snprintf(msg, sizeof(msg),
             "particle %" PetscInt64_FMT " holds %g m^3 of liquid: it gave more than it held to the bridges it formed "
             "in one step (lower -contact_liquid_bridge_fraction, now %g)",
             who, (double)lmin, (double)e->model.liquid.fraction);
    PetscCall(EngineFaultSet(e, ENGINE_FAULT_LIQUID, lmin == g ? PETSC_TRUE : PETSC_FALSE, (PetscReal)who, msg));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    /* particles lost through an open face take liquid nothing counts */
    PetscReal lost = (PetscReal)e->lost;
    PetscCall(CollectiveSumAll(e->grid.comm, &lost, 1));
    if (lost > 0.0) PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the start's (or the restart's, less what the flow brought and took before it) */
  if (!(e->health.liquid_start >= 0.0)) {
    e->health.liquid_start = s->liquid - s->liquid_in + s->liquid_out;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    PetscReal want = e->health.liquid_start + s->liquid_in - s->liquid_out, all = e->health.liquid_start + s->liquid_in;
    if (PetscAbsReal(s->liquid - want) <= ENGINE_LIQUID_DRIFT * all) PetscFunctionReturn(PETSC_SUCCESS);
    snprintf(msg, sizeof(msg),
             "the liquid on particles and in bridges is %.17g m^3 where the start's %.17g m^3, plus the streams' "
             "%.17g m^3, less the outflows' %.17g m^3 make %.17g m^3 (a relative difference of %.3g)",
             (double)s->liquid, (double)e->health.liquid_start, (double)s->liquid_in, (double)s->liquid_out,
             (double)want, (double)((s->liquid - want) / all));
  }
  PetscCall(EngineFaultSet(e, ENGINE_FAULT_LIQUID, PETSC_TRUE, 0.0, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sources of the energy: the start's, gravity's work, the moving walls', the flow's; and their magnitudes. */
static void EngineEnergySources(const Engine *e, const EngineStats *s, PetscReal *source, PetscReal *scale)
{
  PetscReal src[4] = {e->health.e_initial, s->gravity, s->work[LEDGER_WALLS], s->flow};
  *source = 0.0, *scale = 0.0;
  for (int k = 0; k < 4; k++) *source += src[k], *scale += PetscAbsReal(src[k]);
}

/* The energy's growth found (the step's check, or the exact one): the run fails, or with
 * -health_energy_action warn, warns once.  mine, key: as EngineFaultSet's (the message of the rank holding
 * the smallest key is said). */
static PetscErrorCode EngineEnergyGrew(Engine *e, PetscBool mine, PetscReal key, const char *msg)
{
  char said[sizeof(e->health.fault.reason)];

  PetscFunctionBeginUser;
  if (!e->health.energy_warn) {
    PetscCall(EngineFaultSet(e, ENGINE_FAULT_ENERGY, mine, key, msg));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(EngineShare(e, mine, key, msg, said, sizeof(said)));
  PetscCall(PetscFPrintf(e->grid.comm, stderr, "hdem: warning: step %" PetscInt64_FMT ", t %.9g s: %s\n", e->clock.step,
                         (double)e->clock.t, said));
  e->health.warned_energy = PETSC_TRUE;
  e->health.energy_step   = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineHealthEnergyBase(Engine *e, const EngineStats *s)
{
  PetscReal wg = e->work_gravity - e->health.work_ahead;

  PetscFunctionBeginUser;
  PetscCall(CollectiveSumAll(e->grid.comm, &wg, 1));
  EngineEnergySources(e, s, &e->health.energy_base, &e->health.energy_scale);
  e->health.energy_gravity = wg;
  e->health.work_walls = e->health.flow_energy = 0.0;
  e->health.energy_step = !e->p.liquid && !(e->health.energy_warn && e->health.warned_energy) ? PETSC_TRUE
                                                                                              : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineHealthEnergy(Engine *e, const EngineStats *s)
{
  PetscReal now    = s->ke + s->kr + s->elastic + s->elastic_tangential + s->elastic_rolling + s->energy_bridges;
  PetscReal src[4] = {e->health.e_initial, s->gravity, s->work[LEDGER_WALLS], s->flow}, source, scale;
  char      msg[sizeof(e->health.fault.reason)];

  PetscFunctionBeginUser;
  if (e->health.setting_up || e->health.fault.kind || (e->health.energy_warn && e->health.warned_energy))
    PetscFunctionReturn(PETSC_SUCCESS);
  /* against the sources' magnitudes: gravity's work is negative when particles
   * are thrown up, which is what a blow-up does */
  EngineEnergySources(e, s, &source, &scale);
  if (!(now - source > e->health.energy_growth * scale)) {
    PetscCall(EngineHealthEnergyBase(e, s));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  snprintf(msg, sizeof(msg),
           "the energy grew without a source: kinetic + elastic %g J where the start's %g J, gravity's work %g J, the "
           "moving walls' %g J and the flow's "
           "%g J give %g J, more by %g J than -health_energy_growth %g of their magnitudes (%g J): the step is too "
           "long for the contacts",
           (double)now, (double)src[0], (double)src[1], (double)src[2], (double)src[3], (double)source,
           (double)(now - source), (double)e->health.energy_growth, (double)scale);
  PetscCall(EngineEnergyGrew(e, PETSC_TRUE, 0.0, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void EngineHealthMass(Engine *e)
{
  PetscReal m = 0.0;
  for (PetscInt i = 0; i < e->p.n; i++) m += e->p.mass[i];
  e->health.mass = m;
}

/* sum: over the ranks, the kinetic energy, work_gravity, work_walls, flow_energy and the mass.  Kinetic
 * energy alone is at most kinetic + elastic: above the sources it is a growth the exact check would find
 * later.  The growth must also pass 4 M (g dt)^2, velocity Verlet's own energy error under gravity: a
 * particle inserted at rest into an empty domain shows it against sources still near zero. */
PetscErrorCode EngineHealthEnergyStep(Engine *e, const PetscReal sum[5], PetscReal dt)
{
  const EngineHealthState *h  = &e->health;
  const PetscReal         *g  = e->gravity;
  PetscReal                dg = sum[1] - h->energy_gravity, source = h->energy_base + dg + sum[2] + sum[3];
  PetscReal                mag    = h->energy_scale + PetscAbsReal(dg) + PetscAbsReal(sum[2]) + PetscAbsReal(sum[3]);
  PetscReal                floor_ = 4.0 * sum[4] * (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * dt * dt;
  char                     msg[sizeof(e->health.fault.reason)];

  PetscFunctionBeginUser;
  if (!h->energy_step || h->fault.kind || !(sum[0] - source > PetscMax(h->energy_growth * mag, floor_)))
    PetscFunctionReturn(PETSC_SUCCESS);
  { /* this rank's fastest particle: the fastest anywhere is named */
    const Particles *p    = &e->p;
    PetscInt         fast = -1;
    PetscReal        vmax = -1.0, at[3] = {0, 0, 0};
    for (PetscInt i = 0; i < p->n; i++)
      if (!(p->flags[i] & PARTICLE_STILL) && Norm3(p->v + 3 * i) > vmax) vmax = Norm3(p->v + 3 * i), fast = i;
    if (fast >= 0)
      for (int a = 0; a < 3; a++) at[a] = p->x[3 * fast + a];
    snprintf(msg, sizeof(msg),
             "the energy grew without a source: kinetic %g J where the sources (the start's energy, gravity's work, "
             "the moving walls' and the flow's) give %g J, more by %g J than -health_energy_growth %g of their "
             "magnitudes (%g J); the fastest particle, %" PetscInt64_FMT ", at %g m/s at (%g, %g, %g) m: the step is "
             "too long for the contacts",
             (double)sum[0], (double)source, (double)(sum[0] - source), (double)h->energy_growth, (double)mag,
             fast >= 0 ? p->id[fast] : (PetscInt64)-1, (double)vmax, (double)at[0], (double)at[1], (double)at[2]);
    PetscCall(EngineEnergyGrew(e, fast >= 0 ? PETSC_TRUE : PETSC_FALSE, -vmax, msg));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineCheckStartOverlap(Engine *e)
{
  InteractionStats is;
  PetscReal        g;
  char             msg[sizeof(e->health.fault.reason)] = "", out[sizeof(e->health.fault.reason)];

  PetscFunctionBeginUser;
  if (!e->health.overlap_start_check) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(EngineOverlapLargest(e, &is, &g));
  if (!(g > e->health.overlap_start_max)) PetscFunctionReturn(PETSC_SUCCESS);
  if (is.who[1] < 0) {
    char wn[96];
    PetscCall(EngineWallName(e, (PetscInt)(-1 - is.who[1]), wn, sizeof(wn)));
    snprintf(msg, sizeof(msg), "particle %" PetscInt64_FMT " of the initial state overlaps %s by %g of its radius",
             is.who[0], wn, (double)is.max_overlap_ratio);
  } else
    snprintf(msg, sizeof(msg),
             "particles %" PetscInt64_FMT " and %" PetscInt64_FMT
             " of the initial state overlap by %g of the smaller radius",
             is.who[0], is.who[1], (double)is.max_overlap_ratio);
  PetscCall(
    EngineShare(e, is.max_overlap_ratio == g ? PETSC_TRUE : PETSC_FALSE, (PetscReal)is.who[0], msg, out, sizeof(out)));
  SETERRQ(e->grid.comm, PETSC_ERR_USER_INPUT,
          "%s, more than -insert_overlap_max %g (a data file's state or radii not what the deck assumes, or a fill's "
          "region through a mesh; raise -insert_overlap_max to accept it)",
          out, (double)e->health.overlap_start_max);
}

PetscErrorCode EngineHealthStats(Engine *e, const EngineStats *s)
{
  PetscFunctionBeginUser;
  if (e->p.liquid) PetscCall(EngineHealthLiquid(e, s, s->liquid_min, s->liquid_min_id));
  PetscCall(EngineHealthEnergy(e, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}
