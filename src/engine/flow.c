#include "engine/flow.h"
#include "engine/flow_insert.h"
#include "engine/moisture.h"
#include "rigid/body_step.h"
#include "engine/health.h"
#include "contact/stepbound.h"
#include "io/options.h"
#include "decomp/collective.h"
#include <math.h>

static const char *const FlowSizeMeasures[] = {"volume", "sieve", "FlowSizeMeasure", "FLOW_SIZE_", NULL};

PetscErrorCode FlowSetFromOptions(MPI_Comm comm, Flow *f)
{
  PetscBool eset;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(f, sizeof(*f)));
  PetscCall(StreamsSetFromOptions(comm, &f->streams));
  PetscCall(FlowOutflowsSetFromOptions(comm, f));
  PetscCall(OptionsSection("Flow output"));
  PetscCall(
    OptionsRealArray("-flow_size_classes",
                     "diameter edges of the size classes of flow.csv's removals: classes below, between and above them",
                     "[m]", 1, FLOW_EDGES_MAX, 0.0, PETSC_MAX_REAL, RANGE_OPEN, f->settings.edges, &f->settings.nedges,
                     &eset));
  PetscCall(OptionsDefaultText("-flow_size_classes", "none"));
  PetscCall(
    OptionsEnum("-flow_size_measure",
                "the size flow_size_classes sort by: volume (volume-equivalent diameter) or sieve (the smallest "
                "square aperture a particle passes)",
                FlowSizeMeasures, (PetscEnum *)&f->settings.measure, NULL));
  PetscCall(OptionsInt("-flow_interval_steps", "steps between rows of flow.csv (0: with every thermo row)", 0,
                       PETSC_MAX_INT, &f->settings.interval_steps, NULL));
  PetscCall(OptionsBool("-flow_residence",
                        "each particle's insertion time kept, the outflows' residence times in residence.csv",
                        &f->settings.residence, NULL));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  if (!eset) f->settings.nedges = 0;
  for (PetscInt c = 1; c < f->settings.nedges; c++)
    PetscCheck(f->settings.edges[c] > f->settings.edges[c - 1], comm, PETSC_ERR_USER_INPUT,
               "-flow_size_classes must increase (entry %" PetscInt_FMT ": %g after %g)", c + 1,
               (double)f->settings.edges[c], (double)f->settings.edges[c - 1]);
  PetscCheck(!f->settings.residence || f->noutflow, comm, PETSC_ERR_USER_INPUT,
             "-flow_residence needs an outflow (outflow0_region_lo, ...): residence times are taken where they are");
  /* the first insertion one interval after the start */
  for (PetscInt k = 0; k < STREAMS_MAX; k++) f->state.t_insert[k] = f->streams.s[k].start;
  for (PetscInt k = 0; k < STREAMS_MAX; k++) ExactSumZero(&f->state.inserted_mass[k]);
  for (PetscInt k = 0; k < FLOW_ENERGY_TERMS; k++) ExactSumZero(&f->state.energy[k]);
  for (PetscInt k = 0; k < STREAMS_MAX; k++) ExactSumZero(&f->state.inserted_liquid[k]);
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++) ExactSumZero(&f->state.removed_liquid[k]);
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++)
    for (PetscInt c = 0; c < FLOW_CLASSES_MAX; c++) ExactSumZero(&f->state.removed_mass[k][c]);
  PetscCall(FlowStatsAlloc(f, &f->stats));
  f->on = f->streams.n > 0 || f->noutflow > 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowCheckDomain(MPI_Comm comm, const Flow *f, const PetscReal lo[3], const PetscReal hi[3])
{
  PetscFunctionBeginUser;
  PetscCall(StreamsCheckDomain(comm, &f->streams, lo, hi));
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++) {
    const Outflow *o = &f->outflow[k];
    if (!o->on) continue;
    for (int a = 0; a < 3; a++)
      PetscCheck(o->lo[a] < hi[a] && o->hi[a] > lo[a], comm, PETSC_ERR_USER_INPUT,
                 "-outflow%" PetscInt_FMT "_region_lo/_hi: the box [%g, %g] along %c does not overlap the domain [%g, "
                 "%g] (-domain_lo, -domain_hi): it would remove nothing",
                 k, (double)o->lo[a], (double)o->hi[a], "xyz"[a], (double)lo[a], (double)hi[a]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal FlowRadiusMax(const Flow *f)
{
  PetscReal r = 0.0;
  for (PetscInt k = 0; k < STREAMS_MAX; k++)
    if (f->streams.s[k].on) r = PetscMax(r, f->streams.s[k].rmax);
  return r;
}

/* ---- set-up and the step --------------------------------------------- */

/* Whether stream k places particles at time t: an interval after the last
 * insertion, with some due; *n: how many (at most cap). */
static PetscErrorCode FlowStreamDue(const Engine *e, PetscInt k, PetscReal t, PetscInt64 cap, PetscInt64 *n)
{
  const Flow      *f  = &e->flow;
  const FlowState *st = &f->state;
  const Stream    *s  = &f->streams.s[k];

  PetscFunctionBeginUser;
  *n = 0;
  if (!s->on || t < s->start || t - st->t_insert[k] < s->interval) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(StreamDue(s, k, t, st->seq[k], st->inserted[k], ExactSumValue(&st->inserted_mass[k]),
                      ContactMaterialOf(&e->model, s->type)->density, cap, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A stream that may still place particles after time t. */
static PetscBool FlowStreamLive(const Flow *f, PetscInt k, PetscReal t)
{
  const Stream *s = &f->streams.s[k];
  return s->on && t < s->stop && (s->count == STREAM_UNLIMITED || f->state.inserted[k] < s->count) ? PETSC_TRUE
                                                                                                   : PETSC_FALSE;
}

/* Whether a stream is due at the end of the coming step, shortened to the
 * cap of an insertion step (the same on every rank). */
static PetscErrorCode FlowAnyDue(const Engine *e, PetscBool *due)
{
  const Flow *f  = &e->flow;
  PetscReal   t1 = e->clock.t + (e->ctl.mode != TIMESTEP_FIXED ? PetscMin(e->clock.dt, f->dt_cap) : e->clock.dt);

  PetscFunctionBeginUser;
  *due = PETSC_FALSE;
  for (PetscInt k = 0; k < STREAMS_MAX && !*due; k++) {
    PetscInt64 n;
    PetscCall(FlowStreamDue(e, k, t1, 1, &n));
    *due = n > 0 ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineFlowDue(Engine *e)
{
  Flow *f = &e->flow;

  PetscFunctionBeginUser;
  if (!f->streams.n) PetscFunctionReturn(PETSC_SUCCESS);
  /* no step passes an insertion's time: a stream pours evenly, not in a lump after a long step */
  for (PetscInt k = 0; k < STREAMS_MAX && e->ctl.mode != TIMESTEP_FIXED; k++)
    if (FlowStreamLive(f, k, e->clock.t) && f->streams.s[k].interval > 0.0)
      e->clock.dt = PetscMin(e->clock.dt, f->streams.s[k].interval);
  PetscCall(FlowAnyDue(e, &f->insert_next));
  if (!f->insert_next) PetscFunctionReturn(PETSC_SUCCESS);
  /* a rebuild to insert at, and a first step the new particles' contacts can take */
  e->rebuild_next = PETSC_TRUE;
  if (e->ctl.mode != TIMESTEP_FIXED) e->clock.dt = PetscMin(e->clock.dt, f->dt_cap);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineFlowSetUp(Engine *e, PetscBool fresh)
{
  Flow     *f     = &e->flow;
  PetscReal idmax = 0.0;

  PetscFunctionBeginUser;
  f->dt_cap = PETSC_MAX_REAL;
  if (fresh) FlowMarkStart(e);
  if (!f->streams.n) PetscFunctionReturn(PETSC_SUCCESS);
  /* the bound of a head-on impact of two of a stream's smallest particles
   * at the stream's speed (1 m/s at least), as check's estimate does */
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    const Stream *s = &f->streams.s[k];
    ContactPair   cp;
    PetscReal     m, v;
    if (!s->on) continue;
    m = StreamMass(s->rmin, ContactMaterialOf(&e->model, s->type)->density);
    v = PetscMax(1.0, PetscSqrtReal(s->v0[0] * s->v0[0] + s->v0[1] * s->v0[1] + s->v0[2] * s->v0[2]) +
                        PetscSqrtReal(3.0) * s->vrand);
    ContactPairSetUp(&e->model, s->type, s->type, s->rmin, m, 0.4 * m * s->rmin * s->rmin, s->rmin, m,
                     0.4 * m * s->rmin * s->rmin, PETSC_FALSE, &cp);
    f->dt_cap = PetscMin(f->dt_cap, ContactStepBound(&e->model, &cp, &e->ctl, 0.5 * cp.m * v * v, v));
  }
  /* as EngineFlowDue decided before the checkpoint (dt capped then); at a set-up none is */
  PetscCall(FlowAnyDue(e, &f->insert_next));
  if (!fresh) {
    PetscCheck(f->state.next_id > 0, e->grid.comm, PETSC_ERR_FILE_UNEXPECTED,
               "the checkpoint has no counters of the streams (stream0_* ...): a run with streams cannot continue from "
               "it");
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt i = 0; i < e->p.n; i++) idmax = PetscMax(idmax, (PetscReal)e->p.id[i]);
  PetscCall(CollectiveMaxAll(e->grid.comm, &idmax, 1)); /* ids are below 2^53: exact */
  f->state.next_id = (PetscInt64)idmax + 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineFlowRebuild(Engine *e)
{
  Flow      *f = &e->flow;
  PetscReal  t = e->clock.t + e->clock.dt; /* the positions' time */
  PetscInt64 ndue[STREAMS_MAX], any = 0;

  PetscFunctionBeginUser;
  e->p.nghost = 0; /* dropped here as the migration would: rows come and go among the owned */
  if (f->noutflow) PetscCall(EngineFlowRemove(e, t));
  /* a rebuild EngineFlowDue did not ask for inserts nothing */
  if (!f->insert_next) PetscFunctionReturn(PETSC_SUCCESS);
  f->insert_next = PETSC_FALSE;
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    PetscCall(FlowStreamDue(e, k, t, FLOW_EVENT_MAX, &ndue[k]));
    any += ndue[k];
  }
  if (any) PetscCall(EngineFlowInsert(e, t, ndue));
  PetscFunctionReturn(PETSC_SUCCESS);
}
