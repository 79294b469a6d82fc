/* Outflows: their keys, the removal (or counting) of the particles whose
 * centres enter them, and the statistics beyond flow.csv's totals: counts
 * and masses binned along an axis by where each particle was taken, and
 * residence times since each particle came.  Integers and exact sums, each
 * rank's own, summed in a canonical way (FlowStatsTotals): the same bits on
 * any rank count. */
#include "engine/flow_out.h"
#include "engine/flow_liquid.h"
#include "rigid/body_step.h"
#include "io/options.h"
#include "decomp/collective.h"
#include <math.h>

PetscReal FlowKinetic(const Particles *p, PetscInt i)
{
  const PetscReal *v = p->v + 3 * i, *w = p->w + 3 * i;
  /* a body's, on its first member */
  if (p->flags[i] & PARTICLE_MEMBER) return p->body[i] == p->id[i] ? BodyKinetic(p, i) : 0.0;
  return 0.5 * p->mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
         0.5 * p->inertia[i] * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
}

static const char *const FlowBinAxes[] = {"none", "x", "y", "z", "FlowBinAxis", "FLOW_BIN_", NULL};

/* The keys of outflowK; *given: some of them was. */
static PetscErrorCode FlowOutflowSetFromOptions(MPI_Comm comm, PetscInt k, Outflow *o, PetscBool *given)
{
  char                     key[7][64];
  PetscInt                 n;
  PetscEnum                axis     = (PetscEnum)0;
  PetscBool                set[7]   = {PETSC_FALSE};
  static const char *const suffix[] = {"_region_lo", "_region_hi", "_remove",   "_bin_axis",
                                       "_bin_lo",    "_bin_hi",    "_bin_count"};

  PetscFunctionBeginUser;
  for (int q = 0; q < 7; q++)
    PetscCall(PetscSNPrintf(key[q], sizeof(key[q]), "-outflow%" PetscInt_FMT "%s", k, suffix[q]));
  o->remove = PETSC_TRUE, o->nbin = 10, o->bin_axis = -1;
  OptionsQuiet(k > 0 ? PETSC_TRUE : PETSC_FALSE);
  PetscCall(OptionsRealArray(key[0],
                             "outflowN (N = 0..7): lower corner of a box: a particle whose centre enters it is "
                             "removed and counted (flow.csv)",
                             "[m]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, o->lo, &n, &set[0]));
  PetscCall(OptionsRealArray(key[1], "outflowN: upper corner of that box", "[m]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL,
                             RANGE_CLOSED, o->hi, &n, &set[1]));
  PetscCall(OptionsBool(key[2], "outflowN: remove the particles (false: a counter, each particle counted once, left)",
                        &o->remove, &set[2]));
  PetscCall(OptionsEnum(key[3],
                        "outflowN: axis along which its removals are binned by where they were taken (none: no bins)",
                        FlowBinAxes, &axis, &set[3]));
  PetscCall(OptionsReal(key[4], "outflowN: lower end of the bins (beyond the ends: the end bins)", "[m]",
                        PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, &o->bin_lo, &set[4]));
  PetscCall(OptionsReal(key[5], "outflowN: upper end of the bins", "[m]", PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED,
                        &o->bin_hi, &set[5]));
  PetscCall(OptionsInt(key[6], "outflowN: bins along bin_axis (flow_bins.csv)", 1, FLOW_BINS_MAX, &o->nbin, &set[6]));
  OptionsQuiet(PETSC_FALSE);
  if (k == 0) {
    PetscCall(OptionsDefaultText(key[0], "none"));
    PetscCall(OptionsDefaultText(key[1], "none"));
    PetscCall(OptionsDefaultText(key[4], "the box's lower face along bin_axis"));
    PetscCall(OptionsDefaultText(key[5], "the box's upper face along bin_axis"));
  }
  *given = PETSC_FALSE;
  for (int q = 0; q < 7; q++) *given = *given || set[q] ? PETSC_TRUE : PETSC_FALSE;
  if (OptionsCollecting() || !*given) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(set[0] && set[1], comm, PETSC_ERR_USER_INPUT, "outflow%" PetscInt_FMT " needs %s and %s", k, key[0],
             key[1]);
  for (int a = 0; a < 3; a++)
    PetscCheck(o->lo[a] < o->hi[a], comm, PETSC_ERR_USER_INPUT, "%s must be below %s on every axis (%c: %g >= %g)",
               key[0], key[1], "xyz"[a], (double)o -> lo[a], (double)o -> hi[a]);
  PetscCheck(axis || !(set[4] || set[5] || set[6]), comm, PETSC_ERR_USER_INPUT, "%s needs %s (x, y or z)",
             set[4]   ? key[4]
             : set[5] ? key[5]
                      : key[6],
             key[3]);
  if (axis) {
    o->bin_axis = (PetscInt)axis - 1;
    if (!set[4]) o->bin_lo = o->lo[o->bin_axis];
    if (!set[5]) o->bin_hi = o->hi[o->bin_axis];
    PetscCheck(o->bin_lo < o->bin_hi, comm, PETSC_ERR_USER_INPUT, "%s = %g must be below %s = %g", key[4],
               (double)o->bin_lo, key[5], (double)o->bin_hi);
  } else o->nbin = 0;
  o->on = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowOutflowsSetFromOptions(MPI_Comm comm, Flow *f)
{
  PetscFunctionBeginUser;
  PetscCall(OptionsSection("Outflows"));
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++) {
    PetscBool given;
    PetscCall(FlowOutflowSetFromOptions(comm, k, &f->outflow[k], &given));
    if (!f->outflow[k].on) continue;
    f->noutflow++;
    if (!f->outflow[k].remove) f->counters = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the statistics' arrays ------------------------------------------- */

PetscErrorCode FlowStatsAlloc(const Flow *f, FlowStats *s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  s->nclass = f->settings.nedges + 1;
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++) {
    const Outflow *o = &f->outflow[k];
    s->bin0[k] = s->nbins, s->slot[k] = -1;
    if (!o->on) continue;
    s->nbins += o->nbin * s->nclass;
    if (f->settings.residence) s->slot[k] = s->nres, s->nres += s->nclass;
  }
  PetscCall(PetscCalloc2(s->nbins, &s->count, s->nbins, &s->mass));
  PetscCall(
    PetscCalloc4((size_t)s->nres * FLOW_RES_BINS, &s->hist, s->nres, &s->tsum, s->nres, &s->tmin, s->nres, &s->tmax));
  PetscCall(FlowStatsZero(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowStatsZero(FlowStats *s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscArrayzero(s->count, s->nbins));
  PetscCall(PetscArrayzero(s->hist, (size_t)s->nres * FLOW_RES_BINS));
  for (PetscInt r = 0; r < s->nbins; r++) ExactSumZero(&s->mass[r]);
  for (PetscInt r = 0; r < s->nres; r++)
    ExactSumZero(&s->tsum[r]), s->tmin[r] = PETSC_INFINITY, s->tmax[r] = PETSC_NINFINITY;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowStatsFree(FlowStats *s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree2(s->count, s->mass));
  PetscCall(PetscFree4(s->hist, s->tsum, s->tmin, s->tmax));
  PetscCall(PetscMemzero(s, sizeof(*s)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowDestroy(Flow *f)
{
  PetscFunctionBeginUser;
  PetscCall(FlowStatsFree(&f->stats));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowAddFields(Flow *f, Particles *p)
{
  PetscFunctionBeginUser;
  /* the owner's alone: read where the particle is taken */
  if (f->settings.residence)
    PetscCall(ParticlesAddField(p, "insertion_time", FIELD_REAL, 1,
                                FIELD_OWNED | FIELD_MIGRATE | FIELD_CHECKPOINT | FIELD_SNAPSHOT, (void **)&f->t_in));
  if (f->counters)
    PetscCall(ParticlesAddField(p, "flow_counted", FIELD_INT32, 1, FIELD_OWNED | FIELD_MIGRATE | FIELD_CHECKPOINT,
                                (void **)&f->seen));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: src summed over the ranks into dst (allocated alike). */
PetscErrorCode FlowStatsTotals(MPI_Comm comm, const FlowStats *src, FlowStats *dst)
{
  const PetscInt nh = src->nres * FLOW_RES_BINS, n = src->nbins + nh;
  PetscReal     *v;

  PetscFunctionBeginUser;
  PetscCall(PetscArraycpy(dst->count, src->count, src->nbins));
  PetscCall(PetscArraycpy(dst->mass, src->mass, src->nbins));
  PetscCall(PetscArraycpy(dst->hist, src->hist, nh));
  PetscCall(PetscArraycpy(dst->tsum, src->tsum, src->nres));
  if (!n) PetscFunctionReturn(PETSC_SUCCESS); /* the same on every rank */
  PetscCall(PetscMalloc1(n + 2 * src->nres, &v));
  for (PetscInt r = 0; r < src->nbins; r++) v[r] = (PetscReal)src->count[r];
  for (PetscInt r = 0; r < nh; r++) v[src->nbins + r] = (PetscReal)src->hist[r];
  PetscCall(CollectiveSumAll(comm, v, n)); /* counts below 2^53: exact */
  for (PetscInt r = 0; r < src->nbins; r++) dst->count[r] = (PetscInt64)v[r];
  for (PetscInt r = 0; r < nh; r++) dst->hist[r] = (PetscInt64)v[src->nbins + r];
  for (PetscInt r = 0; r < src->nres; r++) v[2 * r] = -src->tmin[r], v[2 * r + 1] = src->tmax[r];
  if (src->nres) PetscCall(CollectiveMaxAll(comm, v, 2 * src->nres));
  for (PetscInt r = 0; r < src->nres; r++) dst->tmin[r] = -v[2 * r], dst->tmax[r] = v[2 * r + 1];
  PetscCall(ExactSumAllreduce(comm, dst->mass, src->nbins));
  PetscCall(ExactSumAllreduce(comm, dst->tsum, src->nres));
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- removal ----------------------------------------------------------- */

PetscInt FlowResidenceBin(PetscReal t)
{
  PetscReal u = floor(FLOW_RES_PER_DECADE * (log10(t) - FLOW_RES_DECADE_LO));
  if (!(t > 0.0) || !(u > 0.0)) return 0;
  return u >= FLOW_RES_BINS ? FLOW_RES_BINS - 1 : (PetscInt)u;
}

/* Particle i (a body's first member: its centre of mass) taken or counted by outflow k in class c at x. */
static void FlowStatsAdd(Flow *f, PetscInt k, PetscInt c, const PetscReal x[3], PetscReal m, PetscReal tres)
{
  FlowStats     *s = &f->stats;
  const Outflow *o = &f->outflow[k];

  if (o->nbin) {
    PetscReal u = floor((x[o->bin_axis] - o->bin_lo) / (o->bin_hi - o->bin_lo) * (PetscReal)o->nbin);
    PetscInt b = !(u > 0.0) ? 0 : u >= (PetscReal)o->nbin ? o->nbin - 1 : (PetscInt)u, r = s->bin0[k] + c * o->nbin + b;
    s->count[r]++;
    ExactSumAdd(&s->mass[r], m);
  }
  if (s->slot[k] >= 0) {
    PetscInt r = s->slot[k] + c;
    s->hist[(size_t)r * FLOW_RES_BINS + FlowResidenceBin(tres)]++;
    ExactSumAdd(&s->tsum[r], tres);
    s->tmin[r] = PetscMin(s->tmin[r], tres);
    s->tmax[r] = PetscMax(s->tmax[r], tres);
  }
}

/* Where row i's particle is for the outflows: its centre (a body's centre
 * of mass), periodic coordinates as the migration will wrap them. */
static void FlowCentre(const Engine *e, PetscInt i, PetscReal x[3])
{
  const Particles *p  = &e->p;
  const PetscReal *xc = (p->flags[i] & PARTICLE_MEMBER) ? p->bx + 3 * i : p->x + 3 * i;
  for (int a = 0; a < 3; a++) {
    PetscReal L = e->grid.hi[a] - e->grid.lo[a];
    x[a]        = xc[a];
    if (e->grid.periodic[a]) {
      if (x[a] >= e->grid.hi[a]) x[a] -= L;
      else if (x[a] < e->grid.lo[a]) x[a] += L;
    }
  }
}

static PetscBool FlowInside(const Outflow *o, const PetscReal x[3])
{
  return o->on && x[0] >= o->lo[0] && x[0] <= o->hi[0] && x[1] >= o->lo[1] && x[1] <= o->hi[1] && x[2] >= o->lo[2] &&
             x[2] <= o->hi[2]
         ? PETSC_TRUE
         : PETSC_FALSE;
}

/* Whether row i leads a particle the outflows see: not frozen, a sphere or a body's first member. */
static PetscBool FlowLeads(const Particles *p, PetscInt i)
{
  if (p->flags[i] & PARTICLE_FROZEN) return PETSC_FALSE;
  return !(p->flags[i] & PARTICLE_MEMBER) || p->body[i] == p->id[i] ? PETSC_TRUE : PETSC_FALSE;
}

void FlowMarkStart(Engine *e)
{
  Flow *f = &e->flow;

  for (PetscInt i = 0; f->seen && i < e->p.n; i++) {
    PetscReal x[3];
    if (!FlowLeads(&e->p, i)) continue;
    FlowCentre(e, i, x);
    for (PetscInt k = 0; k < OUTFLOWS_MAX; k++)
      if (!f->outflow[k].remove && FlowInside(&f->outflow[k], x)) f->seen[i] |= (LocalInt)1 << k;
  }
}

/* Removed particle i's (a body's rows') energy into the flow's sums. */
static void FlowRemoveEnergy(Engine *e, PetscInt i, PetscInt nrow, const LocalInt *rows)
{
  Particles *p  = &e->p;
  FlowState *st = &e->flow.state;
  PetscReal  k  = FlowKinetic(p, i);

  ExactSumAdd(&st->energy[FLOW_ENERGY_OUT], k);
  e->health.flow_energy -= k;
  for (PetscInt q = 0; q < nrow; q++) {
    PetscInt r = rows ? rows[q] : i;
    for (PetscInt t = 0; t <= LEDGER_TERMS && p->nledger; t++) {
      PetscInt sl = t == LEDGER_TERMS ? p->nledger : p->ledger_slot[t];
      if (sl >= 0) ExactSumAdd(&st->energy[FLOW_ENERGY_LEDGER + t], p->lwork[(p->nledger + 1) * r + sl]);
    }
    if (p->wgrav) ExactSumAdd(&st->energy[FLOW_ENERGY_LEDGER + LEDGER_TERMS], p->wgrav[r]);
  }
}

/* The size row i's particle is classed by: a sphere's diameter, a body's
 * volume-equivalent diameter or its template's sieve size scaled with it. */
static PetscReal FlowSize(const Engine *e, PetscInt i)
{
  const Particles *p = &e->p;
  PetscReal        req;
  PetscInt         t;
  if (!(p->flags[i] & PARTICLE_MEMBER)) return 2.0 * p->radius[i];
  req = p->bI[4 * i + 3], t = p->btmpl[i];
  if (e->flow.settings.measure != FLOW_SIZE_SIEVE || t < 0 || t >= CLUMP_TEMPLATES_MAX) return 2.0 * req;
  return e->clumps.t[t].sieve * (req / e->clumps.t[t].r_equiv);
}

/* Whether some outflow removes (the same on every rank). */
static PetscBool FlowRemoves(const Flow *f)
{
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++)
    if (f->outflow[k].on && f->outflow[k].remove) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscErrorCode EngineFlowRemove(Engine *e, PetscReal t)
{
  Flow            *f  = &e->flow;
  Particles       *p  = &e->p;
  FlowSettings    *fs = &f->settings;
  const BodyIndex *bi = EngineBodyIndex(e);
  PetscInt        *drop, *outk, *group = NULL;
  PetscInt64       nrm = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc2(p->n + 1, &drop, p->n + 1, &outk));
  if (bi->nbody) {
    PetscCall(PetscMalloc1(p->n + 1, &group));
    for (PetscInt b = 0; b < bi->nbody; b++) group[bi->row[bi->start[b]]] = b;
  }
  for (PetscInt i = 0; i < p->n; i++) {
    const PetscBool body = (p->flags[i] & PARTICLE_MEMBER) ? PETSC_TRUE : PETSC_FALSE;
    PetscReal       x[3], d = FlowSize(e, i), m = body ? p->bm[i] : p->mass[i];
    PetscReal       tres = t - (f->t_in ? f->t_in[i] : 0.0);
    PetscInt        c = 0, nrow = 1;
    const LocalInt *rows = NULL;
    if (!FlowLeads(p, i)) continue;
    if (body) rows = bi->row + bi->start[group[i]], nrow = bi->start[group[i] + 1] - bi->start[group[i]];
    FlowCentre(e, i, x);
    while (c < fs->nedges && d >= fs->edges[c]) c++;
    for (PetscInt k = 0; k < OUTFLOWS_MAX && !drop[i]; k++) {
      const Outflow *o = &f->outflow[k];
      if (!FlowInside(o, x)) continue;
      if (!o->remove) { /* a counter: once, the particle stays */
        if (f->seen[i] & ((LocalInt)1 << k)) continue;
        f->seen[i] |= (LocalInt)1 << k;
      }
      f->state.removed[k][c]++;
      ExactSumAdd(&f->state.removed_mass[k][c], m);
      FlowStatsAdd(f, k, c, x, m, tres);
      if (!o->remove) {
        for (PetscInt q = 0; q < nrow && f->liquid; q++)
          ExactSumAdd(&f->state.removed_liquid[k], p->liquid[rows ? rows[q] : i]);
        continue;
      }
      FlowRemoveEnergy(e, i, nrow, rows);
      for (PetscInt q = 0; q < nrow; q++) drop[rows ? rows[q] : i] = 1, outk[rows ? rows[q] : i] = k;
      nrm += nrow;
    }
  }
  if (f->liquid && FlowRemoves(f)) PetscCall(FlowLiquidRemove(e, drop, outk));
  if (nrm) PetscCall(FieldStoreCompactOwned(&p->st, drop));
  f->state.removed_local += nrm;
  PetscCall(PetscFree2(drop, outk));
  PetscCall(PetscFree(group));
  PetscFunctionReturn(PETSC_SUCCESS);
}
