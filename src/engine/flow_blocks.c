/* A stream's batch in blocks, each decided by the ranks near it (engine/flow_blocks.h). */
#include "engine/flow_blocks.h"
#include "decomp/collective.h"
#include <math.h>

PetscReal FlowStreamBound(const Engine *e, PetscInt k)
{
  const Stream *s = &e->flow.streams.s[k];
  PetscReal     b, m, q;
  BodyChoiceSizesMax(&s->body, &e->clumps, s->rmax, &b, &m, &q);
  return b;
}

PetscErrorCode FlowCandidateDraw(const Engine *e, PetscInt k, PetscInt64 q, FlowCandidate *cd)
{
  const Stream *s = &e->flow.streams.s[k];
  PetscReal     rm, reach;

  PetscFunctionBeginUser;
  cd->k   = k;
  cd->seq = e->flow.state.seq[k] + q;
  PetscCall(StreamRadius(s, k, cd->seq, &cd->r));
  cd->body = BodyChoiceDraw(&s->body, s->seed, StreamKey(k, cd->seq));
  BodyChoiceSizes(&e->clumps, cd->body, cd->r, &cd->rb, &rm, &reach);
  PetscFunctionReturn(PETSC_SUCCESS);
}

void FlowBlockFlags(const FlowBatch *b, const PetscReal lo[3], const PetscReal hi[3], PetscInt64 n,
                    const FlowCandidate *cand, PetscReal *mask)
{
  const Streams *ss = &b->e->flow.streams;

  for (PetscInt64 c = 0; c < n; c++) {
    const FlowCandidate *cd = &cand[c];
    uint32_t             m  = 0;
    for (PetscInt a = 0; a < STREAM_ATTEMPTS; a++) {
      PetscReal x[3];
      StreamPositionIn(&ss->s[cd->k], cd->k, cd->seq, cd->rb, a, lo, hi, x);
      if (FlowCellsHit(&b->near, x, cd->rb) || FlowPlanesHit(&b->walls, x, cd->rb) || FlowCellsHit(&b->mine, x, cd->rb))
        m |= (uint32_t)1 << a;
    }
    mask[c] = (PetscReal)m;
  }
}

PetscErrorCode FlowBlockAccept(FlowBatch *b, PetscInt64 blk, const PetscReal lo[3], const PetscReal hi[3], PetscInt64 n,
                               const FlowCandidate *cand, const PetscReal *mask, PetscBool add_mass, FlowCells *taken)
{
  Engine     *e = b->e;
  const Grid *g = &e->grid;

  PetscFunctionBeginUser;
  for (PetscInt64 c = 0; c < n; c++) {
    const FlowCandidate *cd = &cand[c];
    const Stream        *s  = &e->flow.streams.s[cd->k];
    for (PetscInt a = 0; a < STREAM_ATTEMPTS; a++) {
      PetscReal   x[3];
      PetscMPIInt owner[3];
      if ((uint32_t)mask[c] & ((uint32_t)1 << a)) continue;
      StreamPositionIn(s, cd->k, cd->seq, cd->rb, a, lo, hi, x);
      if (FlowCellsHit(taken, x, cd->rb)) continue;
      PetscCall(FlowCellsAdd(taken, x, cd->rb));
      PetscCall(GridOwnerOf(g, x, owner));
      if (owner[0] == g->coords[0] && owner[1] == g->coords[1] && owner[2] == g->coords[2]) {
        FlowPlaced *pl;
        if (b->nplaced == b->cap) {
          FlowPlaced *more;
          b->cap = PetscMax(64, 2 * b->cap);
          PetscCall(PetscMalloc1(b->cap, &more));
          PetscCall(PetscArraycpy(more, b->placed, b->nplaced));
          PetscCall(PetscFree(b->placed));
          b->placed = more;
        }
        pl    = &b->placed[b->nplaced++];
        pl->c = *cd, pl->blk = blk, pl->before = (PetscInt64)b->cnt[2 * blk + 1];
        for (int q = 0; q < 3; q++) pl->x[q] = x[q];
      }
      b->cnt[2 * blk] += 1.0;
      b->cnt[2 * blk + 1] += (PetscReal)BodyChoiceSpheres(&e->clumps, cd->body);
      if (add_mass) ExactSumAdd(&b->mass[cd->k], StreamMass(cd->r, ContactMaterialOf(&e->model, s->type)->density));
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowBatchBoxes(FlowBatch *b)
{
  const Grid      *g = &b->e->grid;
  const Particles *p = &b->e->p;
  PetscReal        box[6];
  PetscInt         total;
  char            *all;

  PetscFunctionBeginUser;
  /* the subdomain (where the placed particles it owns lie) and every owned
   * sphere whole: owned rows may lie outside the subdomain until the migration */
  GridBoxOf(g, g->rank, box, box + 3);
  for (PetscInt i = 0; i < p->n; i++)
    for (int a = 0; a < 3; a++) {
      box[a]     = PetscMin(box[a], p->x[3 * i + a] - p->radius[i]);
      box[3 + a] = PetscMax(box[3 + a], p->x[3 * i + a] + p->radius[i]);
    }
  PetscCall(CollectiveGatherAllBytes(g->comm, box, (PetscInt)sizeof(box), &total, &all));
  PetscCall(PetscMalloc1(6 * g->size, &b->boxes));
  PetscCall(PetscMemcpy(b->boxes, all, sizeof(box) * (size_t)g->size));
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether box [lo, hi] comes within reach of the block [blo, bhi] along
 * every axis, through periodic faces where nearer. */
static PetscBool FlowBoxNear(const Grid *g, const PetscReal *box, const PetscReal blo[3], const PetscReal bhi[3],
                             PetscReal reach)
{
  for (int a = 0; a < 3; a++) {
    PetscReal L = g->hi[a] - g->lo[a], gap = PetscMax(0.0, PetscMax(blo[a] - box[3 + a], box[a] - bhi[a]));
    for (int s = -1; s <= 1 && g->periodic[a]; s += 2)
      gap = PetscMin(gap, PetscMax(0.0, PetscMax(blo[a] - (box[3 + a] + s * L), (box[a] + s * L) - bhi[a])));
    if (gap > reach) return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

/* The blocks this rank decides: seen[ns], the ranks deciding each (its
 * members, increasing, at mem[moff[j]] .. mem[moff[j + 1]] - 1), and
 * their candidates' offsets coff. */
typedef struct {
  PetscInt64   ns, *seen, *coff, *moff;
  PetscMPIInt *mem;
} FlowSeen;

static PetscErrorCode FlowSeenFind(const FlowBatch *b, const RegionBlocks *B, PetscReal reach, FlowSeen *sn)
{
  const Grid *g = &b->e->grid;
  PetscReal   lo[3], hi[3];
  PetscInt64  q0, q1, nm = 0;

  PetscFunctionBeginUser;
  sn->ns = 0;
  PetscCall(PetscMalloc3(B->n, &sn->seen, B->n + 1, &sn->coff, B->n + 1, &sn->moff));
  for (PetscInt64 j = 0; j < B->n; j++) {
    RegionBlockOf(B, j, &q0, &q1, lo, hi);
    if (FlowBoxNear(g, b->boxes + 6 * g->rank, lo, hi, reach)) sn->seen[sn->ns++] = j;
  }
  PetscCall(PetscMalloc1(sn->ns * g->size + 1, &sn->mem));
  sn->coff[0] = sn->moff[0] = 0;
  for (PetscInt64 i = 0; i < sn->ns; i++) {
    RegionBlockOf(B, sn->seen[i], &q0, &q1, lo, hi);
    sn->coff[i + 1] = sn->coff[i] + q1 - q0;
    for (PetscMPIInt r = 0; r < g->size; r++)
      if (FlowBoxNear(g, b->boxes + 6 * r, lo, hi, reach)) sn->mem[nm++] = r;
    sn->moff[i + 1] = nm;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FlowSeenDestroy(FlowSeen *sn)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree3(sn->seen, sn->coff, sn->moff));
  PetscCall(PetscFree(sn->mem));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool FlowSeenHas(const FlowSeen *sn, PetscInt64 i, PetscMPIInt r)
{
  for (PetscInt64 m = sn->moff[i]; m < sn->moff[i + 1]; m++)
    if (sn->mem[m] == r) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* The flags of the blocks this rank decides or-ed with those of every
 * other rank deciding them: to each partner (increasing rank) the flags of
 * the blocks both decide, in block order, and as many back. */
static PetscErrorCode FlowSeenOr(const FlowBatch *b, const FlowSeen *sn, PetscReal *mask)
{
  const Grid  *g = &b->e->grid;
  PetscMPIInt *part;
  PetscInt    *cnt, np = 0;
  PetscInt64   tot = 0, o = 0;
  PetscReal   *sbuf, *rbuf;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc2(g->size, &part, g->size, &cnt));
  for (PetscInt64 i = 0; i < sn->ns; i++) /* cnt by rank first, then compacted to the partners' */
    for (PetscInt64 m = sn->moff[i]; m < sn->moff[i + 1]; m++)
      if (sn->mem[m] != g->rank) cnt[sn->mem[m]] += (PetscInt)(sn->coff[i + 1] - sn->coff[i]);
  for (PetscMPIInt r = 0; r < g->size; r++)
    if (cnt[r]) part[np] = r, cnt[np++] = cnt[r], tot += cnt[r];
  PetscCall(PetscMalloc2(tot + 1, &sbuf, tot + 1, &rbuf));
  for (PetscInt q = 0; q < np; q++)
    for (PetscInt64 i = 0; i < sn->ns; i++)
      if (FlowSeenHas(sn, i, part[q]))
        for (PetscInt64 c = sn->coff[i]; c < sn->coff[i + 1]; c++) sbuf[o++] = mask[c];
  PetscCall(CollectiveSwap(g->comm, np, part, cnt, sbuf, rbuf));
  o = 0;
  for (PetscInt q = 0; q < np; q++)
    for (PetscInt64 i = 0; i < sn->ns; i++)
      if (FlowSeenHas(sn, i, part[q]))
        for (PetscInt64 c = sn->coff[i]; c < sn->coff[i + 1]; c++, o++)
          mask[c] = (PetscReal)((uint32_t)mask[c] | (uint32_t)rbuf[o]); /* trial bits: exact in a real */
  PetscCall(PetscFree2(sbuf, rbuf));
  PetscCall(PetscFree2(part, cnt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowStreamBlocks(FlowBatch *b, PetscInt k, const RegionBlocks *B, PetscInt64 blk0)
{
  Engine        *e = b->e;
  PetscReal      reach, lo[3], hi[3], *mask, rball = 0.0;
  PetscInt64     q0, q1;
  FlowSeen       sn;
  FlowCandidate *cand;

  PetscFunctionBeginUser;
  /* a candidate meets an owned sphere (inside the rank's box) or an earlier
   * stream's placed one (its centre in the subdomain) within its own and
   * the largest bounding radius; the rest is margin against rounding */
  for (PetscInt q = 0; q < STREAMS_MAX; q++)
    if (e->flow.streams.s[q].on) rball = PetscMax(rball, FlowStreamBound(e, q));
  reach = 1.5 * (FlowStreamBound(e, k) + rball);
  PetscCall(FlowSeenFind(b, B, reach, &sn));
  PetscCall(PetscMalloc2(sn.coff[sn.ns] + 1, &cand, sn.coff[sn.ns] + 1, &mask));
  for (PetscInt64 i = 0; i < sn.ns; i++) {
    RegionBlockOf(B, sn.seen[i], &q0, &q1, lo, hi);
    for (PetscInt64 q = q0; q < q1; q++) PetscCall(FlowCandidateDraw(e, k, q, &cand[sn.coff[i] + q - q0]));
    FlowBlockFlags(b, lo, hi, q1 - q0, cand + sn.coff[i], mask + sn.coff[i]);
  }
  b->ndrawn += sn.coff[sn.ns];
  PetscCall(FlowSeenOr(b, &sn, mask));
  for (PetscInt64 i = 0; i < sn.ns; i++) {
    FlowCells taken;
    RegionBlockOf(B, sn.seen[i], &q0, &q1, lo, hi);
    PetscCall(FlowCellsCreate(&e->grid, b->h, &taken));
    /* the block's mass counted once: by the lowest rank that decides it */
    PetscCall(FlowBlockAccept(b, blk0 + sn.seen[i], lo, hi, q1 - q0, cand + sn.coff[i], mask + sn.coff[i],
                              sn.mem[sn.moff[i]] == e->grid.rank ? PETSC_TRUE : PETSC_FALSE, &taken));
    PetscCall(FlowCellsDestroy(&taken));
  }
  PetscCall(PetscFree2(cand, mask));
  PetscCall(FlowSeenDestroy(&sn));
  PetscFunctionReturn(PETSC_SUCCESS);
}
