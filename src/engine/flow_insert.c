/* The streams' batches placed: the candidates, their flags and decisions,
 * then ids and counters made global once (engine/flow_blocks.h). */
#include "engine/flow_insert.h"
#include "engine/flow_blocks.h"
#include "engine/flow_out.h"
#include "engine/moisture.h"
#include "engine/health.h"
#include "decomp/collective.h"

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

/* Stream k's batch as one block, every rank's: its flags or-ed by one
 * reduction per FLOW_CHUNK candidates. */
static PetscErrorCode FlowStreamGlobal(FlowBatch *b, PetscInt k, PetscInt64 ncand, PetscInt64 blk)
{
  const Stream  *s = &b->e->flow.streams.s[k];
  const Grid    *g = &b->e->grid;
  FlowCandidate *cand;
  PetscReal     *flag, *mask;
  FlowCells      taken;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(FLOW_CHUNK, &cand, FLOW_CHUNK * STREAM_ATTEMPTS, &flag, FLOW_CHUNK, &mask));
  PetscCall(FlowCellsCreate(g, b->h, &taken));
  for (PetscInt64 c0 = 0; c0 < ncand; c0 += FLOW_CHUNK) {
    PetscInt nc = (PetscInt)PetscMin(FLOW_CHUNK, ncand - c0);
    for (PetscInt c = 0; c < nc; c++) PetscCall(FlowCandidateDraw(b->e, k, c0 + c, &cand[c]));
    FlowBlockFlags(b, s->lo, s->hi, nc, cand, mask);
    for (PetscInt c = 0; c < nc; c++)
      for (PetscInt a = 0; a < STREAM_ATTEMPTS; a++)
        flag[c * STREAM_ATTEMPTS + a] = ((uint32_t)mask[c] >> a) & 1u ? 1.0 : 0.0;
    /* an attempt overlaps some rank's particle: the reduction only insertion steps take */
    PetscCall(CollectiveMaxAll(g->comm, flag, nc * STREAM_ATTEMPTS));
    for (PetscInt c = 0; c < nc; c++) {
      uint32_t m = 0;
      for (PetscInt a = 0; a < STREAM_ATTEMPTS; a++)
        if (flag[c * STREAM_ATTEMPTS + a] != 0.0) m |= (uint32_t)1 << a;
      mask[c] = (PetscReal)m;
    }
    PetscCall(FlowBlockAccept(b, blk, s->lo, s->hi, nc, cand, mask, g->rank == 0 ? PETSC_TRUE : PETSC_FALSE, &taken));
  }
  b->ndrawn += ncand;
  PetscCall(FlowCellsDestroy(&taken));
  PetscCall(PetscFree3(cand, flag, mask));
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

/* The placed candidates this rank owns appended, each with its id: the
 * next id plus the spheres placed before it in the batch. */
static PetscErrorCode FlowBatchAppend(FlowBatch *b, const PetscReal *base)
{
  Engine    *e  = b->e;
  Flow      *f  = &e->flow;
  FlowState *st = &f->state;
  Particles *p  = &e->p;

  PetscFunctionBeginUser;
  for (PetscInt64 q = 0; q < b->nplaced; q++) {
    const FlowPlaced    *pl  = &b->placed[q];
    const FlowCandidate *cd  = &pl->c;
    const Stream        *s   = &f->streams.s[cd->k];
    PetscReal            rho = ContactMaterialOf(&e->model, s->type)->density, v[3];
    PetscInt             i0  = p->n;
    PetscInt64           id  = st->next_id + (PetscInt64)base[pl->blk] + pl->before;
    StreamVelocity(s, cd->k, cd->seq, v);
    PetscCall(BodyAppend(p, &e->clumps, &s->body, cd->body, id, s->type, cd->r, rho, pl->x, v, s->seed,
                         StreamKey(cd->k, cd->seq)));
    for (PetscInt i = i0; i < p->n; i++) {
      if (f->t_in) f->t_in[i] = b->t;
      p->owner[i] = e->grid.rank;
    }
    PetscCall(EngineLiquidFill(e, i0, p->n, &st->inserted_liquid[cd->k]));
    ExactSumAdd(&st->energy[FLOW_ENERGY_IN], FlowKinetic(p, i0));
    e->health.flow_energy += FlowKinetic(p, i0); /* the step's energy check's share */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: the blocks' counts and the streams' masses made global (one
 * reduction each), the owned particles appended, the counters moved on. */
static PetscErrorCode FlowBatchFinish(FlowBatch *b, const PetscInt64 blk0[], const PetscInt64 nb[], PetscInt64 *placed)
{
  Engine    *e  = b->e;
  FlowState *st = &e->flow.state;
  PetscReal *base, spheres = 0.0;

  PetscFunctionBeginUser;
  /* each block's counts are the same on every rank that decided it, 0 elsewhere */
  PetscCall(CollectiveMaxAll(e->grid.comm, b->cnt, 2 * b->nblk));
  PetscCall(ExactSumAllreduce(e->grid.comm, b->mass, STREAMS_MAX));
  PetscCall(PetscMalloc1(b->nblk, &base));
  for (PetscInt64 j = 0; j < b->nblk; j++) base[j] = spheres, spheres += b->cnt[2 * j + 1]; /* whole: exact */
  PetscCall(FlowBatchAppend(b, base));
  *placed = 0;
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    for (PetscInt64 j = blk0[k]; j < blk0[k] + nb[k]; j++) st->inserted[k] += (PetscInt64)b->cnt[2 * j];
    for (PetscInt64 j = blk0[k]; j < blk0[k] + nb[k]; j++) *placed += (PetscInt64)b->cnt[2 * j];
    ExactSumAddSum(&st->inserted_mass[k], &b->mass[k]);
  }
  st->next_id += (PetscInt64)spheres;
  e->nglobal += (PetscInt64)spheres;
  PetscCall(PetscFree(base));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineFlowInsert(Engine *e, PetscReal t, const PetscInt64 ndue[])
{
  FlowState   *st = &e->flow.state;
  FlowBatch    b;
  RegionBlocks blocks[STREAMS_MAX];
  PetscInt64   blk0[STREAMS_MAX], nb[STREAMS_MAX], placed = 0, ncand = 0;
  PetscBool    several = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&b, sizeof(b)));
  b.e = e, b.t = t, b.h = 2.0 * PetscMax(e->rmax, e->body_bound), b.walls = e->planes;
  PlanesMove(&b.walls, t);
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    const Stream *s = &e->flow.streams.s[k];
    blk0[k] = b.nblk, nb[k] = 0;
    if (!ndue[k]) continue;
    RegionBlocksChoose(&blocks[k], ndue[k], s->lo, s->hi, 2.0 * FlowStreamBound(e, k));
    nb[k] = blocks[k].n, b.nblk += nb[k], ncand += ndue[k];
    if (nb[k] > 1) several = PETSC_TRUE;
  }
  for (PetscInt k = 0; k < STREAMS_MAX; k++) ExactSumZero(&b.mass[k]);
  PetscCall(PetscCalloc1(2 * b.nblk, &b.cnt));
  PetscCall(FlowNearOwned(e, ndue, b.h, &b.near));
  PetscCall(FlowCellsCreate(&e->grid, b.h, &b.mine));
  if (several) PetscCall(FlowBatchBoxes(&b));
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    PetscInt64 q0 = b.nplaced;
    if (!ndue[k]) continue;
    if (nb[k] == 1) PetscCall(FlowStreamGlobal(&b, k, ndue[k], blk0[k]));
    else PetscCall(FlowStreamBlocks(&b, k, &blocks[k], blk0[k]));
    /* the next streams' trials must miss these: their owners flag them */
    for (PetscInt64 q = q0; q < b.nplaced; q++) PetscCall(FlowCellsAdd(&b.mine, b.placed[q].x, b.placed[q].c.rb));
  }
  PetscCall(FlowBatchFinish(&b, blk0, nb, &placed));
  for (PetscInt k = 0; k < STREAMS_MAX; k++) st->seq[k] += ndue[k];
  e->counters.stream_drawn += b.ndrawn;
  e->counters.stream_candidates += ncand;
  PetscCall(FlowCellsDestroy(&b.near));
  PetscCall(FlowCellsDestroy(&b.mine));
  PetscCall(PetscFree(b.cnt));
  PetscCall(PetscFree(b.placed));
  PetscCall(PetscFree(b.boxes));
  PetscCall(FlowShortfall(e, t, ndue));
  /* a start without particles had no floor */
  if (placed && e->health.dt_floor == 0.0) PetscCall(EngineStepFloor(e));
  PetscFunctionReturn(PETSC_SUCCESS);
}
