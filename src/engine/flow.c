#include "engine/flow.h"
#include "engine/moisture.h"
#include "rigid/body_step.h"
#include "engine/health.h"
#include "contact/stepbound.h"
#include "io/options.h"
#include "decomp/collective.h"
#include <math.h>

static const char *const FlowSizeMeasures[] = {"volume", "sieve", "FlowSizeMeasure", "FLOW_SIZE_", NULL};

#define FLOW_CHUNK     1024  /* candidates per reduction of their flags */
#define FLOW_EVENT_MAX 65536 /* candidates of a stream per insertion: more due wait for the next one */

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

/* ---- cells: who is near a point, for the overlap tests ------------------
 * A hash of cells at least 2 rmax wide over the box (periodic axes wrap,
 * the others reach a cell past each face), each holding its items' centres
 * and radii; separations across periodic faces are the nearest image's. */

#define FLOW_CELL_OFF ((int64_t)1 << 20) /* cell indices in 21 bits per axis */

typedef struct {
  PetscReal  lo[3], w[3], L[3];
  PetscInt   nc[3];
  PetscBool  per[3];
  PetscInt   n, cap; /* items */
  PetscReal *xr;     /* x, y, z, r of each item */
  PetscInt  *next;   /* the next item of its cell, -1 */
  PetscInt   nslot, nused;
  uint64_t  *key;  /* of each slot, 0: empty */
  PetscInt  *head; /* its first item */
} FlowCells;

static PetscErrorCode FlowCellsCreate(const Grid *g, PetscReal h, FlowCells *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  for (int a = 0; a < 3; a++) {
    c->lo[a]  = g->lo[a];
    c->L[a]   = g->hi[a] - g->lo[a];
    c->per[a] = g->periodic[a];
    c->nc[a]  = (PetscInt)PetscMax(1.0, PetscMin(floor(c->L[a] / h), (PetscReal)(FLOW_CELL_OFF / 2)));
    c->w[a]   = c->L[a] / (PetscReal)c->nc[a]; /* at least h */
  }
  c->nslot = 64;
  PetscCall(PetscCalloc2(c->nslot, &c->key, c->nslot, &c->head));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FlowCellsDestroy(FlowCells *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree2(c->xr, c->next));
  PetscCall(PetscFree2(c->key, c->head));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Cell index along a: wrapped on a periodic axis, else held within a cell
 * past a face plus one (farther items meet no point of the box). */
static int64_t FlowCellIndex(const FlowCells *c, int a, PetscReal x)
{
  PetscReal q = floor((x - c->lo[a]) / c->w[a]);
  int64_t   i;
  if (c->per[a]) {
    q = fmod(q, (PetscReal)c->nc[a]);
    if (q < 0) q += (PetscReal)c->nc[a];
    i = (int64_t)q;
    return i >= c->nc[a] ? 0 : i;
  }
  return (int64_t)PetscMax(-2.0, PetscMin(q, (PetscReal)(c->nc[a] + 1)));
}

static uint64_t FlowCellKey(const int64_t i[3])
{
  return ((uint64_t)(i[0] + FLOW_CELL_OFF) << 42) | ((uint64_t)(i[1] + FLOW_CELL_OFF) << 21) |
         (uint64_t)(i[2] + FLOW_CELL_OFF);
}

static PetscInt FlowCellSlot(const FlowCells *c, uint64_t key)
{
  uint64_t h = key * 0x9e3779b97f4a7c15ull;
  PetscInt s = (PetscInt)((h ^ (h >> 29)) & (uint64_t)(c->nslot - 1));
  while (c->key[s] && c->key[s] != key) s = (s + 1) & (c->nslot - 1);
  return s;
}

static PetscErrorCode FlowCellsAdd(FlowCells *c, const PetscReal x[3], PetscReal r)
{
  int64_t  i[3];
  PetscInt s;

  PetscFunctionBeginUser;
  if (c->n == c->cap) {
    PetscReal *xr;
    PetscInt  *next;
    c->cap = PetscMax(64, 2 * c->cap);
    PetscCall(PetscMalloc2(4 * c->cap, &xr, c->cap, &next));
    PetscCall(PetscArraycpy(xr, c->xr, 4 * c->n));
    PetscCall(PetscArraycpy(next, c->next, c->n));
    PetscCall(PetscFree2(c->xr, c->next));
    c->xr = xr, c->next = next;
  }
  if (2 * (c->nused + 1) > c->nslot) { /* rehash into twice the slots */
    uint64_t *okey  = c->key;
    PetscInt *ohead = c->head, on = c->nslot;
    c->nslot *= 2;
    PetscCall(PetscCalloc2(c->nslot, &c->key, c->nslot, &c->head));
    for (PetscInt q = 0; q < on; q++)
      if (okey[q]) {
        PetscInt t = FlowCellSlot(c, okey[q]);
        c->key[t] = okey[q], c->head[t] = ohead[q];
      }
    PetscCall(PetscFree2(okey, ohead));
  }
  for (int a = 0; a < 3; a++) i[a] = FlowCellIndex(c, a, x[a]);
  s = FlowCellSlot(c, FlowCellKey(i));
  if (!c->key[s]) c->key[s] = FlowCellKey(i), c->head[s] = -1, c->nused++;
  for (int a = 0; a < 3; a++) c->xr[4 * c->n + a] = x[a];
  c->xr[4 * c->n + 3] = r;
  c->next[c->n]       = c->head[s];
  c->head[s]          = c->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a sphere (x, r) overlaps an item: centres closer than the radii's sum. */
static PetscBool FlowCellsHit(const FlowCells *c, const PetscReal x[3], PetscReal r)
{
  int64_t i[3];

  if (!c->n) return PETSC_FALSE;
  for (int a = 0; a < 3; a++) i[a] = FlowCellIndex(c, a, x[a]);
  for (int dz = -1; dz <= 1; dz++)
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        int64_t  j[3] = {i[0] + dx, i[1] + dy, i[2] + dz};
        PetscInt s;
        for (int a = 0; a < 3; a++)
          if (c->per[a]) j[a] = (j[a] + c->nc[a]) % c->nc[a];
        s = FlowCellSlot(c, FlowCellKey(j));
        if (!c->key[s]) continue;
        for (PetscInt m = c->head[s]; m >= 0; m = c->next[m]) {
          const PetscReal *y  = c->xr + 4 * m;
          PetscReal        d2 = 0.0, sr = r + y[3];
          for (int a = 0; a < 3; a++) {
            PetscReal d = x[a] - y[a];
            if (c->per[a]) {
              if (d > 0.5 * c->L[a]) d -= c->L[a];
              else if (d < -0.5 * c->L[a]) d += c->L[a];
            }
            d2 += d * d;
          }
          if (d2 < sr * sr) return PETSC_TRUE;
        }
      }
  return PETSC_FALSE;
}

/* Distance along an axis from x to [lo, hi], through a periodic face where nearer. */
static PetscReal FlowAxisGap(PetscReal x, PetscReal lo, PetscReal hi, PetscReal L, PetscBool per)
{
  PetscReal gap = PetscMax(0.0, PetscMax(lo - x, x - hi));
  if (per) {
    gap = PetscMin(gap, PetscMax(0.0, PetscMax(lo - (x + L), (x + L) - hi)));
    gap = PetscMin(gap, PetscMax(0.0, PetscMax(lo - (x - L), (x - L) - hi)));
  }
  return gap;
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

typedef struct {
  PetscInt   k;
  PetscInt64 seq;
  PetscReal  r;    /* the radius drawn (a body's volume-equivalent one) */
  PetscReal  rb;   /* the sphere around what it makes, placed */
  PetscInt   body; /* BodyChoiceDraw's */
} FlowCandidate;

/* The owned particles near the due streams' boxes, for the overlap flags. */
static PetscErrorCode FlowNearOwned(Engine *e, const PetscInt64 ndue[], PetscReal h, FlowCells *near)
{
  const Particles *p = &e->p;
  const Grid      *g = &e->grid;

  PetscFunctionBeginUser;
  PetscCall(FlowCellsCreate(g, h, near));
  for (PetscInt i = 0; i < p->n; i++) {
    const PetscReal *x  = p->x + 3 * i;
    PetscBool        in = PETSC_FALSE;
    for (PetscInt k = 0; k < STREAMS_MAX && !in; k++) {
      const Stream *s = &e->flow.streams.s[k];
      if (!ndue[k]) continue;
      in = PETSC_TRUE;
      for (int a = 0; a < 3 && in; a++)
        if (FlowAxisGap(x[a], s->lo[a], s->hi[a], g->hi[a] - g->lo[a], g->periodic[a]) > h) in = PETSC_FALSE;
    }
    if (in) PetscCall(FlowCellsAdd(near, x, p->radius[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a sphere (x, r) would touch a plane wall (the walls where they are
 * at the insertion's time): every rank knows them alike. */
static PetscBool FlowPlanesHit(const Planes *pl, const PetscReal x[3], PetscReal r)
{
  for (PetscInt k = 0; k < pl->n; k++) {
    const PlaneWall *w = &pl->w[k];
    if (w->present && (x[0] - w->p[0]) * w->n[0] + (x[1] - w->p[1]) * w->n[1] + (x[2] - w->p[2]) * w->n[2] < r)
      return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

/* The due streams' candidates in stream and sequence order: radius, body, the sphere around it. */
static PetscErrorCode FlowCandidatesDraw(Engine *e, const PetscInt64 ndue[], FlowCandidate *cand)
{
  const Flow *f     = &e->flow;
  PetscInt64  ncand = 0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < STREAMS_MAX; k++)
    for (PetscInt64 q = 0; q < ndue[k]; q++) {
      PetscReal rm, reach;
      cand[ncand].k   = k;
      cand[ncand].seq = f->state.seq[k] + q;
      PetscCall(StreamRadius(&f->streams.s[k], k, cand[ncand].seq, &cand[ncand].r));
      cand[ncand].body = BodyChoiceDraw(&f->streams.s[k].body, f->streams.s[k].seed, StreamKey(k, cand[ncand].seq));
      BodyChoiceSizes(&e->clumps, cand[ncand].body, cand[ncand].r, &cand[ncand].rb, &rm, &reach);
      ncand++;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What is still due after an insertion at t found no room (or was more than one insertion takes): said once. */
static PetscErrorCode FlowShortfall(Engine *e, PetscReal t, const PetscInt64 ndue[])
{
  Flow      *f  = &e->flow;
  FlowState *st = &f->state;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    const Stream *s = &f->streams.s[k];
    if (!ndue[k]) continue;
    st->t_insert[k] = t;
    PetscCall(StreamDue(s, k, t, st->seq[k], st->inserted[k], ExactSumValue(&st->inserted_mass[k]),
                        ContactMaterialOf(&e->model, s->type)->density, FLOW_EVENT_MAX, &st->shortfall[k]));
    if (st->shortfall[k] > 0 && !st->warned[k]) {
      PetscCall(PetscPrintf(e->grid.comm,
                            "hdem: warning: stream%" PetscInt_FMT ": region too full: %" PetscInt64_FMT
                            " particles short of the %s at t = %g s (step %" PetscInt64_FMT
                            "); they stay due, and flow.csv's stream%" PetscInt_FMT "_short follows them\n",
                            k, st->shortfall[k], s->by_mass ? "mass rate" : "rate", (double)t, e->clock.step + 1, k));
      st->warned[k] = 1;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The due streams' particles at time t (collective; see engine/flow.h). */
static PetscErrorCode EngineFlowInsert(Engine *e, PetscReal t, const PetscInt64 ndue[])
{
  Flow          *f     = &e->flow;
  FlowState     *st    = &f->state;
  Particles     *p     = &e->p;
  const Grid    *g     = &e->grid;
  PetscReal      h     = 2.0 * PetscMax(e->rmax, e->body_bound), *flag, *pos;
  PetscInt64     ncand = 0, placed = 0, rows = 0;
  FlowCandidate *cand;
  FlowCells      near, taken;
  Planes         walls = e->planes;

  PetscFunctionBeginUser;
  PlanesMove(&walls, t);
  for (PetscInt k = 0; k < STREAMS_MAX; k++) ncand += ndue[k];
  PetscCall(PetscMalloc3(ncand, &cand, FLOW_CHUNK * STREAM_ATTEMPTS, &flag, 3 * FLOW_CHUNK * STREAM_ATTEMPTS, &pos));
  PetscCall(FlowCandidatesDraw(e, ndue, cand));
  PetscCall(FlowNearOwned(e, ndue, h, &near));
  PetscCall(FlowCellsCreate(g, h, &taken));
  for (PetscInt64 c0 = 0; c0 < ncand; c0 += FLOW_CHUNK) {
    PetscInt nc = (PetscInt)PetscMin(FLOW_CHUNK, ncand - c0);
    for (PetscInt c = 0; c < nc; c++) {
      const FlowCandidate *cd = &cand[c0 + c];
      for (PetscInt a = 0; a < STREAM_ATTEMPTS; a++) {
        PetscReal *x = pos + 3 * (c * STREAM_ATTEMPTS + a);
        StreamPosition(&f->streams.s[cd->k], cd->k, cd->seq, cd->rb, a, x);
        flag[c * STREAM_ATTEMPTS + a] = FlowCellsHit(&near, x, cd->rb) || FlowPlanesHit(&walls, x, cd->rb) ? 1.0 : 0.0;
      }
    }
    /* an attempt overlaps some rank's particle: the reduction only insertion steps take */
    PetscCall(CollectiveMaxAll(g->comm, flag, nc * STREAM_ATTEMPTS));
    for (PetscInt c = 0; c < nc; c++) {
      const FlowCandidate *cd  = &cand[c0 + c];
      const Stream        *s   = &f->streams.s[cd->k];
      PetscReal            rho = ContactMaterialOf(&e->model, s->type)->density;
      for (PetscInt a = 0; a < STREAM_ATTEMPTS; a++) {
        const PetscReal *x = pos + 3 * (c * STREAM_ATTEMPTS + a);
        PetscMPIInt      owner[3];
        if (flag[c * STREAM_ATTEMPTS + a] != 0.0 || FlowCellsHit(&taken, x, cd->rb)) continue;
        PetscCall(FlowCellsAdd(&taken, x, cd->rb));
        PetscCall(GridOwnerOf(g, x, owner));
        if (owner[0] == g->coords[0] && owner[1] == g->coords[1] && owner[2] == g->coords[2]) {
          PetscReal v[3];
          PetscInt  i0 = p->n;
          StreamVelocity(s, cd->k, cd->seq, v);
          PetscCall(BodyAppend(p, &e->clumps, &s->body, cd->body, st->next_id, s->type, cd->r, rho, x, v, s->seed,
                               StreamKey(cd->k, cd->seq)));
          for (PetscInt i = i0; i < p->n; i++) {
            if (f->t_in) f->t_in[i] = t;
            p->owner[i] = g->rank;
          }
          PetscCall(EngineLiquidFill(e, i0, p->n, &st->inserted_liquid[cd->k]));
          ExactSumAdd(&st->energy[FLOW_ENERGY_IN], FlowKinetic(p, i0));
          e->health.flow_energy += FlowKinetic(p, i0); /* the step's energy check's share */
        }
        st->next_id += BodyChoiceSpheres(&e->clumps, cd->body);
        rows += BodyChoiceSpheres(&e->clumps, cd->body);
        st->inserted[cd->k]++;
        ExactSumAdd(&st->inserted_mass[cd->k], StreamMass(cd->r, rho));
        placed++;
        break;
      }
    }
  }
  for (PetscInt k = 0; k < STREAMS_MAX; k++) st->seq[k] += ndue[k];
  e->nglobal += rows;
  PetscCall(FlowCellsDestroy(&near));
  PetscCall(FlowCellsDestroy(&taken));
  PetscCall(PetscFree3(cand, flag, pos));
  PetscCall(FlowShortfall(e, t, ndue));
  /* a start without particles had no floor */
  if (placed && e->health.dt_floor == 0.0) PetscCall(EngineStepFloor(e));
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
