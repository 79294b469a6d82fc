#include "engine/engine.h"
#include "engine/health.h"
#include <string.h>
#include "particles/integrator.h"
#include "engine/forces.h"
#include "engine/movers.h"
#include "engine/flow.h"
#include "interact/sphere_sphere.h"
#include "interact/sphere_plane.h"
#include "interact/sphere_mesh.h"
#include "decomp/collective.h"

/* The pairs' histories into the store; an owned particle strictly inside
 * this subdomain does not migrate, so a pair of two of them needs one record. */
static PetscErrorCode EngineGather(Engine *e)
{
  const Particles *p = &e->p;
  unsigned char   *stay;

  PetscFunctionBeginUser;
  PetscCall(ScratchBegin(&e->scratch, ScratchBytes(p->n + 1, unsigned char)));
  stay = ScratchTake(&e->scratch, p->n + 1, sizeof(*stay));
  for (PetscInt i = 0; i < p->n; i++) {
    const PetscReal *x = FieldStoreHomeOf(&p->st, i); /* a body's sphere goes where its body goes */
    stay[i]            = 1;
    for (int a = 0; a < 3; a++)
      if (!(x[a] >= e->grid.sublo[a] && x[a] < e->grid.subhi[a])) stay[i] = 0;
  }
  PetscCall(EngineGatherHistories(e, &e->hs, stay));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineGatherHistories(Engine *e, RecordStore *rs, const unsigned char *stay)
{
  InteractionContext ctx = EngineInteractionContext(e);

  PetscFunctionBeginUser;
  for (PetscInt q = 0; q < e->ninter; q++) PetscCall(e->inter[q]->ops->gather(e->inter[q], &ctx, rs, stay));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Moves the cuts when a balance is due (BalancerDue), before the migration
 * that takes each particle to its new owner.  The cost of the time mode is
 * the interval's wall time less the reduction's waits.  Slabs a little wider
 * than the ghost cutoff, so rounding in the shift cannot make one narrower.
 * The rcb mode's first tree comes before the first step, from where the
 * particles are.  After a stream's batch (counted) the particles are counted
 * afresh: the balance sees the batch it follows. */
static PetscErrorCode EngineBalance(Engine *e, PetscBool counted)
{
  PetscReal present = counted ? (PetscReal)e->p.n : e->clock.present;

  PetscFunctionBeginUser;
  if (e->health.setting_up) {
    PetscCall(BalancerFirstRows(&e->balance, &e->grid, &e->p.st)); /* rcb: from the positions */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (counted) PetscCall(CollectiveSumAll(e->grid.comm, &present, 1));
  PetscCall(BalancerApply(&e->balance, &e->grid, &e->p.st, e->clock.step, e->clock.wait_seconds,
                          e->ex.wmin * (1.0 + 1e-9), present));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every interaction's lists from the particles and ghosts of the last borders. */
static PetscErrorCode EngineBuildLists(Engine *e)
{
  InteractionContext ctx = EngineInteractionContext(e);

  PetscFunctionBeginUser;
  if (e->meshes.n) PetscCall(MeshesHold(&e->meshes, &e->grid, e->t_build));
  for (PetscInt q = 0; q < e->ninter; q++) PetscCall(e->inter[q]->ops->build(e->inter[q], &ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pairs' histories and the rebuild's scratch are one buffer by turns:
 * the histories are dead from their gather to the attach, which is when the
 * scratch works, so the two never hold memory at once (nor is either
 * faulted in afresh: on a VM a rebuild that maps new pages is slower).  The
 * first interaction that lends its room (the sphere-sphere one, with most
 * of the histories) does. */
static Interaction EngineLender(Engine *e)
{
  for (PetscInt q = 0; q < e->ninter; q++)
    if (e->inter[q]->ops->lend) return e->inter[q];
  return NULL;
}

static PetscErrorCode EngineScratchFromHistories(Engine *e)
{
  Interaction it = EngineLender(e);
  void       *buf;
  size_t      bytes;

  PetscFunctionBeginUser;
  if (!it) PetscFunctionReturn(PETSC_SUCCESS);
  it->ops->lend(it, &buf, &bytes);
  PetscCall(ScratchAdopt(&e->scratch, buf, bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The scratch's turn is over: its buffer becomes the room of the histories
 * the attach makes from the records, then the records are dropped (their
 * room stays: the next rebuild gathers about as many). */
static PetscErrorCode EngineAttach(Engine *e)
{
  Interaction        it  = EngineLender(e);
  InteractionContext ctx = EngineInteractionContext(e);

  PetscFunctionBeginUser;
  if (it) {
    void  *buf;
    size_t bytes;
    ScratchRelease(&e->scratch, &buf, &bytes);
    PetscCall(it->ops->reclaim(it, buf, bytes));
  }
  for (PetscInt q = 0; q < e->ninter; q++) PetscCall(e->inter[q]->ops->attach(e->inter[q], &ctx, &e->hs));
  PetscCall(RecordStoreClear(&e->hs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Gather histories, migrate, rebuild ghosts and pairs, re-attach histories.
 * What the phases hold is arranged so that the peak is not all of it at
 * once: the halo's buffers are freed (pages returned: main's mmap
 * threshold) before the gather fills the records, and the histories lend
 * their room to the scratch (EngineScratchFromHistories). */
static PetscErrorCode EngineRebuild(Engine *e)
{
  PetscInt  nlost;
  PetscBool batch = e->flow.on && e->flow.insert_next && !e->health.setting_up && e->grid.size > 1 &&
                    e->balance.mode != BALANCE_NONE; /* a stream's: the balance after it */

  PetscFunctionBeginUser;
  EngineHealthScan(e); /* a particle out through a wall, noted before the migration drops it */
  EngineMoversSync(e); /* where the rows belong, before anything asks */
  PetscCall(PetscLogStagePush(e->log.neigh));
  PetscCall(EngineLap(&e->counters, ENGINE_PHASE_REBUILD));
  if (!batch) PetscCall(EngineBalance(e, PETSC_FALSE));
  PetscCall(EngineLap(&e->counters, ENGINE_PHASE_BALANCE));
  PetscCall(PetscLogEventBegin(e->log.gather, 0, 0, 0, 0));
  PetscCall(ExchangeReleaseBuffers(&e->ex));
  /* every member keeps a record when the bounds move after the gather (as a checkpoint's) */
  PetscCall(batch ? EngineGatherHistories(e, &e->hs, NULL) : EngineGather(e));
  PetscCall(EngineScratchFromHistories(e));
  PetscCall(PetscLogEventEnd(e->log.gather, 0, 0, 0, 0));
  /* after the gather: the lists' indices are spent; the migration takes new particles on */
  if (e->flow.on) PetscCall(EngineFlowRebuild(e));
  if (batch) { /* timed as the balance, as the other */
    PetscCall(EngineLap(&e->counters, ENGINE_PHASE_REBUILD));
    PetscCall(EngineBalance(e, PETSC_TRUE));
    PetscCall(EngineLap(&e->counters, ENGINE_PHASE_BALANCE));
  }
  PetscCall(PetscLogEventBegin(e->log.migrate, 0, 0, 0, 0));
  PetscCall(ExchangeMigrate(&e->grid, &e->ex, &e->p.st, &e->hs, &e->scratch, &nlost));
  e->lost += nlost; /* the records come back sorted by owner, as the attach reads them */
  /* the pair lists stream through particles in id order; a migration's
   * arrivals (appended) may wait for the sort until they are a sixteenth */
  if (e->p.n - ParticlesSortedPrefix(&e->p) > e->p.n / 16) PetscCall(ParticlesSortOwned(&e->p));
  PetscCall(EngineMoversMigrated(e));
  PetscCall(PetscLogEventEnd(e->log.migrate, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(e->log.borders, 0, 0, 0, 0));
  PetscCall(ExchangeBorders(&e->grid, &e->ex, &e->p.st));
  PetscCall(PetscLogEventEnd(e->log.borders, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(e->log.build, 0, 0, 0, 0));
  e->t_build = e->clock.t + e->clock.dt; /* the positions' time: the step's end (0 at the set-up) */
  PlanesMove(&e->planes, e->t_build);
  PetscCall(EngineBuildLists(e));
  PetscCall(PetscLogEventEnd(e->log.build, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(e->log.attach, 0, 0, 0, 0));
  PetscCall(EngineAttach(e));
  PetscCall(PetscLogEventEnd(e->log.attach, 0, 0, 0, 0));
  for (PetscInt i = 0; i < 3 * e->p.n; i++) e->p.x0[i] = e->p.x[i];
  /* where each row belongs now: a restart places it there */
  for (PetscInt i = 0; e->p.bx0 && i < e->p.n; i++)
    for (int a = 0; a < 3; a++) e->p.bx0[3 * i + a] = FieldStoreHomeOf(&e->p.st, i)[a];
  for (int a = 0; a < 3; a++) e->drift[a] = 0.0; /* displacements start again from zero */
  e->sums_zero    = PETSC_FALSE;                 /* arrivals and departures: f and t are no longer all zero */
  e->ledger_moved = PETSC_TRUE;                  /* nor the ledger's sums */
  e->clock.rebuilds++;
  EngineHealthMass(e);
  PetscCall(PetscLogStagePop());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* How far from a rotating plane's axis the domain reaches. */
static PetscReal EngineBoxRadius(const Engine *e, const WallMotion *m)
{
  PetscReal r = 0.0;
  for (int c = 0; c < 8; c++) {
    PetscReal x[3], l = 0.0, q = 0.0;
    for (int a = 0; a < 3; a++)
      x[a] = ((c >> a) & 1 ? e->grid.hi[a] : e->grid.lo[a]) - m->axis_point[a], l += x[a] * m->axis[a];
    for (int a = 0; a < 3; a++) q += (x[a] - l * m->axis[a]) * (x[a] - l * m->axis[a]);
    r = PetscMax(r, PetscSqrtReal(q));
  }
  return r;
}

/* Moving walls: a particle-wall pair left out of the lists closes by the
 * particle's displacement and the wall's travel since the build, so the
 * lists hold while the walls' travel up to the next step's end stays within
 * half the skin and no particle may pass the other half (bits).  Every rank
 * decides alike: the travel is a function of time. */
static PetscBool EngineWallsOutrun(const Engine *e, PetscInt bits)
{
  PetscReal travel = 0.0, t1 = e->clock.t + e->clock.dt;

  for (PetscInt k = 0; k < e->planes.n; k++) {
    const WallMotion *m = &e->planes.w[k].motion;
    if (WallMotionMoves(m))
      travel = PetscMax(travel,
                        WallMotionTravel(m, m->kind == MOTION_ROTATE ? EngineBoxRadius(e, m) : 0.0, e->t_build, t1));
  }
  for (PetscInt k = 0; k < e->meshes.n; k++)
    travel = PetscMax(travel, WallMotionTravel(&e->meshes.m[k].motion, e->meshes.m[k].rext, e->t_build, t1));
  if (travel == 0.0) return PETSC_FALSE;
  return travel >= 0.5 * e->skin || (bits & INTEGRATOR_BEYOND_HALF) ? PETSC_TRUE : PETSC_FALSE;
}

/* The one global reduction of the step: bound, this rank's rebuild bits
 * (EngineRebuildBits) and displacement ranges, particle count. */
static PetscErrorCode EngineReduce(Engine *e, PetscReal bound, PetscInt bits, const PetscReal lo[3],
                                   const PetscReal hi[3])
{
  PetscReal                 local_bound = bound, dt_step = e->clock.dt; /* the step just taken */
  PetscInt                  nv     = BalancerWatches(&e->balance, e->grid.size) ? 18 : 17;
  PetscReal                 v[18]  = {bound,
                                      (PetscReal)bits,
                                      (PetscReal)(e->p.n + e->lost + e->flow.state.removed_local),
                                      (PetscReal)e->request,
                                      lo[0],
                                      lo[1],
                                      lo[2],
                                      hi[0],
                                      hi[1],
                                      hi[2],
                                      e->a_local,
                                      (PetscReal)e->p.n, /* owned + lost + removed here == all */
                     e->health.energy_step ? e->health.ke_step : 0.0,
                                      e->work_gravity - e->health.work_ahead,
                                      e->health.work_walls,
                                      e->health.flow_energy,
                                      e->health.mass,
                                      (PetscReal)e->p.n};
  static const CollectiveOp op[18] = {COLLECTIVE_MIN, COLLECTIVE_BOR, COLLECTIVE_SUM, COLLECTIVE_MAX, COLLECTIVE_MIN,
                                      COLLECTIVE_MIN, COLLECTIVE_MIN, COLLECTIVE_MAX, COLLECTIVE_MAX, COLLECTIVE_MAX,
                                      COLLECTIVE_MAX, COLLECTIVE_SUM, COLLECTIVE_SUM, COLLECTIVE_SUM, COLLECTIVE_SUM,
                                      COLLECTIVE_SUM, COLLECTIVE_SUM, COLLECTIVE_MAX};

  PetscFunctionBeginUser;
  {
    PetscLogDouble t0;
    PetscCall(PetscTime(&t0));
    PetscCall(CollectiveReduceMixed(e->grid.comm, nv, v, op));
    PetscCall(EngineLap(&e->counters, ENGINE_PHASE_REDUCTION));
    e->clock.wait_seconds += e->counters.mark - t0;
  }
  e->clock.bound   = v[0];
  bits             = (PetscInt)v[1]; /* the bounds some particle anywhere may pass */
  e->rebuild_next  = ((bits & INTEGRATOR_BEYOND_DRIFT) && (bits & INTEGRATOR_BEYOND_HALF)) ||
                        (bits & INTEGRATOR_BEYOND_SKIN)
                     ? PETSC_TRUE
                     : PETSC_FALSE;
  e->request_all   = (PetscInt)v[3];
  e->a_reach       = v[10];
  e->clock.present = v[11];
  if (nv > 17 && v[11] > 0.0) BalancerObserve(&e->balance, v[17] * e->grid.size / v[11]);
  e->request = ENGINE_REQUEST_NONE;
  /* the drift of the next criterion: the ranges' midpoint (no particle anywhere: none) */
  for (int a = 0; a < 3; a++) e->drift[a] = v[4 + a] <= v[7 + a] ? 0.5 * (v[4 + a] + v[7 + a]) + 0.0 : 0.0;
  PetscCheck((PetscInt64)v[2] == e->nglobal, e->grid.comm, PETSC_ERR_PLIB,
             "step %" PetscInt64_FMT ": %" PetscInt64_FMT
             " particles (with those lost through walls or removed by outflows) where there were %" PetscInt64_FMT
             ": particles vanished or were duplicated",
             e->clock.step, (PetscInt64)v[2], e->nglobal);
  e->clock.dt = StepControlNext(&e->ctl, e->clock.bound, e->clock.dt);
  if (!e->rebuild_next && EngineWallsOutrun(e, bits)) e->rebuild_next = PETSC_TRUE;
  PetscCall(EngineFlowDue(e)); /* a stream due: a rebuild, a shorter step */
  PetscCall(EngineHealthStep(e, bits, local_bound, e->health.bound_who, e->health.bound_kinematic));
  PetscCall(EngineHealthEnergyStep(e, v + 12, dt_step));
  if (e->ctl.mode == TIMESTEP_FIXED && e->clock.bound < PETSC_MAX_REAL && e->ctl.dt_fixed > e->clock.bound &&
      !e->health.warned_fixed) {
    PetscCall(PetscPrintf(e->grid.comm,
                          "hdem: warning: step %" PetscInt64_FMT
                          ": -timestep_dt %g s exceeds the contact bound %g s; results may be inaccurate or unstable\n",
                          e->clock.step, (double)e->ctl.dt_fixed, (double)e->clock.bound));
    e->health.warned_fixed = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A rigid material (E inf) is for walls: no particle, present or to come, may have it. */
static PetscErrorCode EngineCheckTypes(Engine *e)
{
  PetscReal bad = -1.0;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < e->p.n; i++)
    if (!isfinite(ContactMaterialOf(&e->model, e->p.type[i])->E)) bad = PetscMax(bad, (PetscReal)e->p.type[i]);
  for (PetscInt k = 0; k < STREAMS_MAX; k++)
    if (e->flow.streams.s[k].on && !isfinite(ContactMaterialOf(&e->model, e->flow.streams.s[k].type)->E))
      bad = PetscMax(bad, (PetscReal)e->flow.streams.s[k].type);
  PetscCall(CollectiveMaxAll(e->grid.comm, &bad, 1));
  PetscCheck(bad < 0.0, e->grid.comm, PETSC_ERR_USER_INPUT,
             "material%.0f_E: inf (rigid) is for walls, but particles have type %.0f", (double)bad, (double)bad);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A body reaches body_reach past the subdomain of its centre, and the
 * ghost cutoff with it: a body too large for the subdomains is an error
 * naming its template (before ExchangeCreate's general one). */
static PetscErrorCode EngineCheckBodySize(const Engine *e)
{
  const Grid *g   = &e->grid;
  PetscReal   cut = EngineGhostCutoff(e), wmin = cut + e->body_reach; /* ExchangeCreate's */

  PetscFunctionBeginUser;
  if (!(e->body_reach > 0.0)) PetscFunctionReturn(PETSC_SUCCESS);
  for (int a = 0; a < 3; a++) {
    PetscReal width = PETSC_MAX_REAL, L = g->hi[a] - g->lo[a];
    for (PetscMPIInt c = 0; c < g->dims[a]; c++) width = PetscMin(width, g->cuts[a][c + 1] - g->cuts[a][c]);
    PetscCheck((g->dims[a] == 1 || g->tree || wmin <= width) && (!g->periodic[a] || 2.0 * cut < L), g->comm,
               PETSC_ERR_USER_INPUT,
               "clump%" PetscInt_FMT ": its bodies reach %.6g m from their centres of mass: a subdomain must be %.6g m "
               "wide (the ghost cutoff %.6g m, two "
               "largest sphere radii, the skin and that reach, and the reach again), but the narrowest along axis %d "
               "is %.6g m%s: a body is wider than a "
               "subdomain allows; use fewer ranks along that axis (-domain_grid), smaller bodies or a larger box",
               e->body_reach_template, (double)e->body_reach, (double)(g->dims[a] == 1 ? 2.0 * cut : wmin), (double)cut,
               a, (double)(g->dims[a] == 1 ? L : width),
               g->dims[a] == 1 ? " (the periodic box, twice the cutoff)" : "");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Stages, box lengths, halo and lists: what EngineSetUp and EngineResume share. */
static PetscErrorCode EngineCreateParts(Engine *e)
{
  PetscFunctionBeginUser;
  PetscCall(EngineCheckTypes(e));
  PetscCall(EngineCheckBodySize(e));
  PetscCall(EngineMoversCreate(e));
  if (!e->wall_sums && e->planes.n + e->meshes.n) {
    PetscCall(PetscCalloc1(6 * (e->planes.n + e->meshes.n), &e->wall_sums));
    PetscCall(PetscCalloc1(3 * (e->planes.n + e->meshes.n), &e->wall_ref));
  }
  PetscCall(EngineLogRegister(&e->log));
  for (int a = 0; a < 3; a++) e->L[a] = e->grid.periodic[a] ? e->grid.hi[a] - e->grid.lo[a] : 0.0;
  for (PetscInt i = 0; i < e->p.n; i++) e->p.owner[i] = e->grid.rank;
  PetscCall(ExchangeCreate(&e->grid, EngineGhostCutoff(e), e->body_reach, &e->ex));
  e->ex.tally = e->counters.traffic;
  /* the order of the forces' sums */
  e->ninter = 0;
  /* a bridge reaches beyond contact */
  PetscCall(SphereSphereCreate(e->skin + e->model.liquid.reach, &e->inter[e->ninter++]));
  PetscCall(SpherePlaneCreate(&e->planes, &e->inter[e->ninter++]));
  if (e->meshes.n) {
    PetscCall(MeshesSetUp(&e->meshes, e->rmax + e->skin + e->model.liquid.reach + e->body_reach));
    PetscCall(SphereMeshCreate(&e->meshes, &e->inter[e->ninter++]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineSetUp(Engine *e)
{
  PetscReal  bound;
  PetscInt64 n = e->p.n;

  PetscFunctionBeginUser;
  PetscCall(EngineCreateParts(e));
  /* the bodies as inserted; each rebuild's migration builds it again */
  PetscCall(EngineMoversMigrated(e));
  PetscCall(EngineFlowSetUp(e, PETSC_TRUE));
  {
    PetscReal cnt = (PetscReal)n;
    PetscCall(CollectiveSumAll(e->grid.comm, &cnt, 1));
    e->nglobal = (PetscInt64)cnt;
  }
  e->clock.dt     = 0.0;
  e->clock.dt_min = PETSC_MAX_REAL;
  PetscCall(EngineStepFloor(e));
  e->health.setting_up = PETSC_TRUE;
  PetscCall(EngineRebuild(e));
  e->clock.rebuilds = 0;
  /* no force is known yet: the first step's approaches are bounded for free fall */
  e->a_reach = e->ctl.mode == TIMESTEP_ADAPTIVE
               ? sqrt(e->gravity[0] * e->gravity[0] + e->gravity[1] * e->gravity[1] + e->gravity[2] * e->gravity[2])
               : 0.0;
  PetscCall(EngineForces(e, 0.0, PETSC_FALSE, &bound));
  {
    PetscReal lo[3] = {PETSC_INFINITY, PETSC_INFINITY, PETSC_INFINITY},
              hi[3] = {PETSC_NINFINITY, PETSC_NINFINITY, PETSC_NINFINITY};
    PetscInt bits   = EngineHealthBits(e, EngineRebuildBits(e, EngineNextLongest(e), lo, hi));
    /* never the local bound: the decision must not depend on the decomposition */
    PetscCall(EngineReduce(e, bound, bits, lo, hi));
  }
  PetscCall(EngineCheckStartOverlap(e));
  {
    EngineStats s;
    PetscCall(EngineGetStats(e, &s));
    PetscCall(EngineHealthStats(e, &s)); /* the liquid at the start */
    e->health.e_initial = s.ke + s.kr + s.elastic;
    PetscCall(EngineHealthEnergyBase(e, &s));
  }
  PetscCall(BalancerStart(&e->balance, &e->grid, &e->p.st, e->clock.step, e->clock.wait_seconds));
  e->health.setting_up = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The lists of the uninterrupted run are rebuilt from where they were built
 * (x0): the same ghosts and pairs, hence the same steps, on any rank count.
 * The particles already sit on the ranks owning their x0. */
PetscErrorCode EngineResume(Engine *e)
{
  Particles *p = &e->p;
  PetscReal *x;

  PetscFunctionBeginUser;
  PetscCall(EngineCreateParts(e));
  PetscCall(EngineFlowSetUp(e, PETSC_FALSE));
  PetscCall(EngineStepFloor(e));
  PetscCall(PetscLogStagePush(e->log.neigh));
  PetscCall(ParticlesSortOwned(p)); /* id order, as EngineRebuild keeps it (results do not depend on it) */
  PetscCall(EngineMoversMigrated(e));
  PetscCall(PetscMalloc1(3 * p->n + 1, &x));
  PetscCall(PetscArraycpy(x, p->x, 3 * p->n));
  PetscCall(PetscArraycpy(p->x, p->x0, 3 * p->n));
  PetscCall(PetscArraycpy(p->vp, p->v, 3 * p->n));
  PetscCall(PetscArraycpy(p->wp, p->w, 3 * p->n));
  PetscCall(RecordStoreSort(&e->hs, &e->scratch));
  PetscCall(ExchangeBorders(&e->grid, &e->ex, &p->st));
  PlanesMove(&e->planes, e->t_build); /* the walls where the lists were made */
  {
    PetscErrorCode ierr = EngineBuildLists(e);
    if (!ierr) ierr = EngineAttach(e);           /* as EngineRebuild */
    PetscCall(PetscArraycpy(p->x, x, 3 * p->n)); /* owned indices are untouched by the borders */
    PetscCall(PetscFree(x));
    PetscCall(ierr);
  }
  PetscCall(PetscLogStagePop());
  PetscCall(PetscLogStagePush(e->log.comm));
  PetscCall(ExchangeForward(&e->grid, &e->ex, &p->st, PETSC_TRUE));
  PetscCall(PetscLogStagePop());
  e->ledger_moved = PETSC_TRUE;
  PetscCall(EngineAccelReach(e));
  EngineHealthMass(e);
  PetscCall(BalancerStart(&e->balance, &e->grid, &e->p.st, e->clock.step, e->clock.wait_seconds));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineStep(Engine *e, PetscBool ahead)
{
  PetscInt  bits;
  PetscReal dt = e->clock.dt, bound, lo[3] = {PETSC_INFINITY, PETSC_INFINITY, PETSC_INFINITY},
            hi[3] = {PETSC_NINFINITY, PETSC_NINFINITY, PETSC_NINFINITY};

  PetscFunctionBeginUser;
  PetscCall(EngineLap(&e->counters, ENGINE_PHASE_OTHER));
  PetscCall(PetscLogStagePush(e->log.integrate));
  if (!e->opened) EngineOpenStep(e, dt);
  e->opened = PETSC_FALSE;
  PetscCall(PetscLogStagePop());
  PetscCall(EngineLap(&e->counters, ENGINE_PHASE_INTEGRATE));
  if (e->rebuild_next) {
    PetscCall(EngineRebuild(e));
  } else {
    PetscCall(PetscLogStagePush(e->log.comm));
    PetscCall(ExchangeForward(&e->grid, &e->ex, &e->p.st, PETSC_FALSE));
    PetscCall(PetscLogStagePop());
  }
  PetscCall(EngineLap(&e->counters, e->rebuild_next ? ENGINE_PHASE_REBUILD : ENGINE_PHASE_HALO));
  PetscCall(EngineForces(e, dt, PETSC_TRUE, &bound));
  PetscCall(EngineLap(&e->counters, ENGINE_PHASE_FORCE));
  PetscCall(PetscLogStagePush(e->log.integrate));
  bits = EngineHealthBits(e, EngineCloseStep(e, dt, ahead, lo, hi));
  PetscCall(PetscLogStagePop());
  PetscCall(EngineLap(&e->counters, ENGINE_PHASE_INTEGRATE));
  e->clock.t += dt;
  e->clock.step++;
  e->clock.dt_min = PetscMin(e->clock.dt_min, dt);
  e->clock.dt_max = PetscMax(e->clock.dt_max, dt);
  e->clock.dt_sum += dt;
  PetscCall(EngineReduce(e, bound, bits, lo, hi));
  e->clock.particle_steps += e->clock.present;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Energies and contact statistics; a pair counts on the rank owning its
 * lower-id member, so each counts once. */
PetscErrorCode EngineGetStats(Engine *e, EngineStats *s)
{
  const Particles   *p  = &e->p;
  const PetscInt     nl = p->nledger, nw = nl + 1;
  PetscReal          cnt[2], mx;
  InteractionStats   is;
  InteractionContext ctx = EngineInteractionContext(e);
  /* kinetic, rotational; the stats' energies; the ledger's work by term, gravity last; liquid */
  enum {
    S_KE,
    S_KR,
    S_STATS,
    S_WORK   = S_STATS + STATS_ENERGIES,
    S_LIQUID = S_WORK + LEDGER_TERMS + 1,
    S_N
  };
  ExactSum sum[S_N];

  PetscFunctionBeginUser;
  EngineCheckWhole(e);
  InteractionStatsZero(&is);
  for (PetscInt k = 0; k < S_N; k++) ExactSumZero(&sum[k]);
  EngineMoversEnergy(e, &sum[S_KE], &sum[S_KR]);
  for (PetscInt i = 0; i < p->n; i++) {
    for (PetscInt t = 0; t <= LEDGER_TERMS && nl; t++) {
      PetscInt sl = t == LEDGER_TERMS ? nl : p->ledger_slot[t];
      if (sl >= 0) ExactSumAdd(&sum[S_WORK + t], p->lwork[nw * i + sl]);
    }
    if (p->wgrav) ExactSumAdd(&sum[S_WORK + LEDGER_TERMS], p->wgrav[i]);
  }
  /* with what a checkpoint from before the per-particle work brought (rank 0's), before the sums are shared */
  if (e->work_base != 0.0) ExactSumAdd(&sum[S_WORK + LEDGER_TERMS], e->work_base);
  for (PetscInt q = 0; q < e->ninter; q++) e->inter[q]->ops->stats(e->inter[q], &ctx, &is);
  for (PetscInt k = 0; k < STATS_ENERGIES; k++) sum[S_STATS + k] = is.energy[k];
  sum[S_LIQUID] = is.liquid;
  {
    PetscReal lmin = PETSC_MAX_REAL;
    PetscInt  who  = -1;
    for (PetscInt i = 0; p->liquid && i < p->n; i++) {
      ExactSumAdd(&sum[S_LIQUID], p->liquid[i]);
      if (p->liquid[i] < lmin) lmin = p->liquid[i], who = i;
    }
    cnt[0] = is.contacts, cnt[1] = is.bridges, mx = is.max_overlap_ratio;
    PetscCall(ExactSumAllreduce(e->grid.comm, sum, S_N));
    PetscCall(CollectiveSumAll(e->grid.comm, cnt, 2)); /* counts below 2^53: exact */
    PetscCall(CollectiveMaxAll(e->grid.comm, &mx, 1));
    s->ke = ExactSumValue(&sum[S_KE]), s->kr = ExactSumValue(&sum[S_KR]);
    s->elastic            = ExactSumValue(&sum[S_STATS + STATS_NORMAL]);
    s->elastic_tangential = ExactSumValue(&sum[S_STATS + STATS_TANGENTIAL]);
    s->elastic_rolling    = ExactSumValue(&sum[S_STATS + STATS_ROLLING]);
    s->energy_bridges     = ExactSumValue(&sum[S_STATS + STATS_BRIDGES]);
    s->contacts = cnt[0], s->bridges = cnt[1], s->max_overlap_ratio = mx;
    s->liquid = p->liquid ? ExactSumValue(&sum[S_LIQUID]) : 0.0;
    s->flow = s->liquid_in = s->liquid_out = 0.0;
    if (e->flow.on) { /* the particles that came and went: their work stays in the sums */
      FlowState tot;
      PetscCall(FlowStateTotals(e, &tot));
      if (p->liquid) FlowLiquidTotals(&e->flow, &tot, &s->liquid_in, &s->liquid_out);
      for (PetscInt t = 0; t <= LEDGER_TERMS; t++)
        ExactSumAddSum(&sum[S_WORK + t], &tot.energy[FLOW_ENERGY_LEDGER + t]);
      s->flow = ExactSumValue(&tot.energy[FLOW_ENERGY_IN]) - ExactSumValue(&tot.energy[FLOW_ENERGY_OUT]);
    }
    for (PetscInt t = 0; t < LEDGER_TERMS; t++) s->work[t] = ExactSumValue(&sum[S_WORK + t]);
    s->gravity       = ExactSumValue(&sum[S_WORK + LEDGER_TERMS]);
    s->liquid_min    = lmin;
    s->liquid_min_id = who >= 0 ? p->id[who] : -1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What only stepping needs (lists, histories, halo, scratch, predicted
 * velocities, torques, build positions) is released, so the final output
 * does not stack on the time loop's memory. */
static PetscErrorCode EngineRelease(Engine *e)
{
  Particles *p = &e->p;

  PetscFunctionBeginUser;
  PetscCall(ScratchDestroy(&e->scratch));
  PetscCall(ExchangeDestroy(&e->ex));
  for (PetscInt q = 0; q < e->ninter; q++) PetscCall(InteractionDestroy(&e->inter[q]));
  e->ninter = 0;
  PetscCall(RecordStoreDestroy(&e->hs));
  PetscCall(ParticlesReleaseStepping(p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineFinish(Engine *e)
{
  PetscFunctionBeginUser;
  EngineCheckWhole(e);
  PetscCall(EngineRelease(e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineDestroy(Engine *e)
{
  PetscFunctionBeginUser;
  PetscCall(EngineRelease(e));
  PetscCall(ExchangeDestroy(&e->ex));
  PetscCall(RecordStoreDestroy(&e->hs));
  PetscCall(ParticlesDestroy(&e->p));
  PetscCall(ContactModelDestroy(&e->model));
  PetscCall(MeshesDestroy(&e->meshes));
  PetscCall(ClumpTemplatesDestroy(&e->clumps));
  PetscCall(EngineMoversDestroy(e));
  PetscCall(PetscFree(e->wall_sums));
  PetscCall(PetscFree(e->wall_ref));
  PetscCall(FlowDestroy(&e->flow));
  PetscCall(GridDestroy(&e->grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}
