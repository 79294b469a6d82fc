/* The engine's state: what the time loop's parts (the force pass, the movers, health, the flow, the
 * checkpoints, the outputs) read and write.  engine.h declares the time loop on it. */
#ifndef HDEM_ENGINE_STATE_H
#define HDEM_ENGINE_STATE_H

#include "decomp/exchange.h"
#include "decomp/balance.h"
#include "contact/stepbound.h"
#include "interact/interaction.h"
#include "interact/history.h"
#include "geometry/planes.h"
#include "geometry/mesh.h"
#include "rigid/clump_template.h"
#include "rigid/body_step.h"
#include "movers/mover.h"
#include "io/snapshot.h"
#include "engine/flowstate.h"
#include "engine/counters.h"

#define ENGINE_MAX_INTERACTIONS 8
#define ENGINE_MAX_MOVERS       4

/* What a rank asks of the whole run at the end of a step; the largest wins. */
#define ENGINE_REQUEST_NONE       0
#define ENGINE_REQUEST_CHECKPOINT 1 /* write a checkpoint and go on */
#define ENGINE_REQUEST_STOP       2 /* write a checkpoint and stop (a signal) */

typedef struct {
  PetscReal ke, kr, elastic, gravity; /* energies; gravity: work done by gravity since the start [J] */
  PetscReal contacts, max_overlap_ratio;
  PetscReal liquid, bridges; /* wet runs: the liquid on particles and in bridges [m^3], the bridges */
  /* the energy ledger [J], each an exact sum (the same on any rank count):
   * the elastic energies the tangential and rolling springs and the liquid
   * bridges hold; the time integrals of the contacts' powers by LedgerTerm
   * (what they took of the kinetic energy; walls: what moving walls gave);
   * the kinetic energy streams brought less what outflows took */
  PetscReal elastic_tangential, elastic_rolling, energy_bridges;
  PetscReal work[LEDGER_TERMS];
  PetscReal flow;
  /* wet runs with streams or outflows: the liquid the streams brought and the removing outflows took [m^3] */
  PetscReal  liquid_in, liquid_out;
  PetscReal  liquid_min;    /* wet runs: this rank's least liquid on a particle [m^3] (PETSC_MAX_REAL: none) */
  PetscInt64 liquid_min_id; /* and its particle (-1: none) */
} EngineStats;

/* Why a run failed (engine/health.h); the run stops after the step that finds it. */
typedef enum {
  ENGINE_FAULT_NONE,
  ENGINE_FAULT_NONFINITE,
  ENGINE_FAULT_THROUGH_WALL,
  ENGINE_FAULT_OVERLAP,
  ENGINE_FAULT_STEP_FLOOR,
  ENGINE_FAULT_LIQUID,
  ENGINE_FAULT_ENERGY,
  ENGINE_FAULT_RUNAWAY,
  ENGINE_FAULT_TUNNEL
} EngineFaultKind;
PETSC_EXTERN const char *const EngineFaultNames[];

typedef struct {
  EngineFaultKind kind;
  char            reason[768]; /* the same on every rank */
} EngineFault;

/* The run's clock: where the time loop is and what its steps were. */
typedef struct {
  PetscReal      t, dt, bound; /* the time, the next step, the last reduced bound [s] */
  PetscInt64     step;
  PetscReal      dt_min, dt_max, dt_sum;
  PetscInt       rebuilds;
  PetscReal      present;        /* the particles present at the last reduction (all ranks') */
  PetscReal      particle_steps; /* present after each step, summed over the steps taken (EngineRunEnd) */
  PetscLogDouble wait_seconds;   /* spent in the step's reduction: waiting for slower ranks, mostly */
} EngineClock;

/* What the health checks (engine/health.h) are told and what they found. */
typedef struct {
  EngineFault fault;
  PetscBool   deep; /* this rank's forces met an overlap beyond CONTACT_OVERLAP_LIMIT */
  /* this rank's: found at a rebuild, raised at the next reduction (ENGINE_HEALTH_NOTED) */
  EngineFault noted;
  PetscInt64  noted_id;   /* its particle */
  PetscBool   setting_up; /* EngineSetUp: a fault is the input's, said by the caller as an error */
  /* EngineSetUp refuses an initial overlap beyond overlap_start_max (-insert_overlap_max) */
  PetscBool overlap_start_check;
  PetscReal overlap_start_max;
  /* energy that grows without a source (EngineHealthEnergy): the tolerance,
   * whether it only warns, and the steps between checks where no output
   * computes the statistics (0: at the outputs only) */
  PetscReal energy_growth;
  PetscBool energy_warn;
  PetscInt  energy_interval;
  PetscBool warned_fixed, warned_energy;
  /* the same check every step, on the step's reduction (EngineHealthEnergyStep): kinetic energy alone (a lower
   * bound of kinetic + elastic) against the sources of the last exact check (energy_base, energy_scale) plus
   * gravity's work since (work_gravity over the ranks was energy_gravity then), the moving walls' (work_walls)
   * and the flow's (flow_energy) since, these two this rank's plain sums; off before the first exact check
   * and with liquid bridges (whose energy is negative) */
  PetscBool energy_step;
  PetscReal energy_base, energy_scale, energy_gravity, work_walls, flow_energy;
  PetscReal ke_step;    /* this rank's kinetic energy at the step's close (EngineCloseStep) */
  PetscReal mass;       /* this rank's particles' mass, from its last rebuild (EngineHealthMass) */
  PetscReal work_ahead; /* gravity's work of the next step's drift, taken along (in work_gravity) */
  /* the adaptive step's floor and the shortest contact's duration (EngineStepFloor) */
  PetscReal dt_floor, contact_duration;
  PetscInt  bound_who[2];    /* this rank's pair that set its bound (InteractionStep who) */
  PetscBool bound_kinematic; /* or the particle bound_who[0] by its motion against the skin */
  PetscReal e_initial;       /* kinetic + elastic energy at the start */
  /* wet runs: the liquid at the start (or the restart), < 0 before it is known */
  PetscReal liquid_start;
} EngineHealthState;

typedef struct {
  Grid           grid;
  Exchange       ex;
  Particles      p;
  RecordStore    hs; /* contact histories between the gather and the attach of a rebuild */
  ContactModel   model;
  StepControl    ctl;
  Planes         planes;
  Meshes         meshes;
  ClumpTemplates clumps; /* multi-sphere body templates (clump0 .. clump15) */
  /* what moves the particles (movers/mover.h), in the order of their hooks: spheres, then bodies if any */
  Mover    mover[ENGINE_MAX_MOVERS];
  PetscInt nmover;
  PetscInt claimed; /* owned rows moved by other movers than the spheres' (MoverContext) */
  /* the farthest a body's sphere centre can be from its centre of mass (0: spheres only) [m] */
  PetscReal body_reach;
  PetscReal body_bound;          /* the largest radius of a sphere around a body, as placed [m] */
  PetscInt  body_reach_template; /* the template that sets body_reach */
  /* the walls' force and torque over the last step, the engine's (EngineWallTotals), summed when wall_sums_due (a
   * monitor that wants_wall_forces is due): 6 exact sums per wall, planes then meshes, this rank's contacts */
  ExactSum  *wall_sums;
  PetscReal *wall_ref; /* 3 per wall: the torque's reference point at the step's end */
  PetscBool  wall_sums_due;
  /* a sample's contacts (output/fields.c), given every contact's force in the force pass when contact_sink_due */
  const ContactSink *contact_sink;
  PetscBool          contact_sink_due;
  /* what an output keeps in a checkpoint beside the engine's state (output/fields.c), written before the commit */
  PetscErrorCode (*checkpoint_extra)(void *, H5File);
  void *checkpoint_extra_ctx;
  /* what acts on the particles, in the order their forces are summed: sphere-sphere, sphere-plane, sphere-mesh */
  Interaction inter[ENGINE_MAX_INTERACTIONS];
  PetscInt    ninter;
  PetscReal   gravity[3], L[3], skin, rmax;
  EngineClock clock;   /* where the time loop is and what its steps were */
  PetscReal   t_build; /* the time of the last list build: the walls' poses the lists were made in */
  PetscInt64  nglobal, lost;
  PetscBool   rebuild_next;
  /* the common drift of the rebuild criterion (IntegratorRebuild): the
   * midpoint of the displacements' global ranges at the last reduction */
  PetscReal drift[3];
  /* EngineForces left gravity out of f: the step's second half adds it (IntegratorCloseStep) */
  PetscBool gravity_pending;
  /* f and t of every owned particle are +0 (EngineOpenStep): the force sums need no clearing */
  PetscBool sums_zero;
  /* particles moved between ranks since the last force pass: the ledger's sums (lnow) need clearing */
  PetscBool ledger_moved;
  /* the next step's first half is done (EngineStep ahead): x, v, w are mid-step, f and t zero */
  PetscBool opened;
  /* approaching contacts' bound (InteractionApproachBound): the largest
   * acceleration of any particle at the last step (all ranks'), this rank's */
  PetscReal         a_reach, a_local;
  EngineHealthState health; /* what the health checks know and found (engine/health.h) */
  /* this rank's share of the work done by gravity since the start, as the integrator summed it [J] */
  PetscReal work_gravity;
  /* rank 0: the external work a checkpoint kept as one total (format < 5), beside the particles' [J] */
  PetscReal work_base;
  /* set before a step: ENGINE_REQUEST_* from this rank (a signal, a wall-clock cadence) */
  PetscInt  request;
  PetscInt  request_all; /* after the step: the largest request of any rank, the same on all */
  Balancer  balance;     /* the load balance (decomp/balance.h), at the first rebuild its interval after the last */
  Scratch   scratch;     /* shared by the phases of a list rebuild */
  EngineLog log;         /* the -log_view stages and events */
  /* where this rank's time went and what its exchanges sent, this run (engine/counters.h); what every rank's
   * said, gathered at the end by the first output that asks (summary.json) for the ones after it */
  EngineCounters     counters;
  EngineCountersView counted;
  /* streams and outflows (engine/flow.h); flow.state is what a checkpoint keeps of them */
  Flow flow;
} Engine;

/* What the interactions see of the engine (interaction.h). */
static inline InteractionContext EngineInteractionContext(Engine *e)
{
  InteractionContext c = {&e->p,   &e->model,  &e->ctl,    e->ex.root, {e->L[0], e->L[1], e->L[2]},
                          e->skin, e->t_build, &e->scratch};
  return c;
}

/* What the movers see of the engine (movers/mover.h). */
static inline MoverContext EngineMoverContext(Engine *e)
{
  MoverContext c = {&e->p, e->gravity, 0.5 * e->skin, e->claimed, PETSC_FALSE, NULL};
  return c;
}

/* How far from its subdomain a particle is still needed as a ghost: the
 * largest pair cutoff (two largest radii and the skin), and as far again as
 * a body's sphere may stand out of the subdomain of the body's centre. */
static inline PetscReal EngineGhostCutoff(const Engine *e)
{
  return 2.0 * e->rmax + e->skin + e->model.liquid.reach + e->body_reach;
}

/* This rank's multi-sphere bodies (the rigid mover's index; none: an empty one). */
PETSC_EXTERN const BodyIndex *EngineBodyIndex(const Engine *);
/* The state is whole: between steps, not ahead into the next (EngineStep). */
#define EngineCheckWhole(e) \
  PetscCheck(!(e)->opened, (e)->grid.comm, PETSC_ERR_ORDER, \
             "the particle state is read mid-step: the step before was taken ahead")

#endif
