/* The liquid an outflow takes (engine/flow_out.h FlowLiquidRemove): a
 * removed particle's own liquid, and its bridges' as if they ruptured at
 * the removal, as a bridge ruptures in a force pass (interact/bridge.h):
 * half to each member.  A removed member's half goes with it; a remaining
 * member's half goes back onto its film; a bridge to a wall goes whole with
 * its particle.  So the liquid on particles and in bridges is what there
 * was, plus what the streams brought, less what the outflows took, to the
 * rounding of the halves added to the films.
 *
 * Each half is the business of the rank that owns its member: it reads the
 * bridge from the records the rebuild's gather made (every owned member of
 * a pair with a bridge has its record on its rank, or its partner's owned
 * there), learns which partners went from the ranks' removed ids (gathered
 * once per rebuild, by every rank), and adds a remaining member's halves in
 * its partners' id order: the same bits on any rank count. */
#include "engine/flow_liquid.h"
#include "interact/history.h"
#include "decomp/collective.h"

typedef struct {
  PetscInt64 id, k; /* a particle's id and what it is to the search: its outflow, or its row */
} FlowIdKey;

typedef struct {
  PetscInt64 member, partner;
  PetscReal  V;
} FlowHalf;

static int FlowIdCompare(const void *a, const void *b)
{
  PetscInt64 x = ((const FlowIdKey *)a)->id, y = ((const FlowIdKey *)b)->id;
  return (x > y) - (x < y);
}

static int FlowHalfCompare(const void *a, const void *b)
{
  const FlowHalf *x = (const FlowHalf *)a, *y = (const FlowHalf *)b;
  if (x->member != y->member) return (x->member > y->member) - (x->member < y->member);
  return (x->partner > y->partner) - (x->partner < y->partner);
}

/* The entry of id in a sorted list of n, or NULL. */
static const FlowIdKey *FlowIdFind(const FlowIdKey *list, PetscInt n, PetscInt64 id)
{
  FlowIdKey key = {id, 0};
  return n ? (const FlowIdKey *)bsearch(&key, list, (size_t)n, sizeof(*list), FlowIdCompare) : NULL;
}

/* The halves of this rank's pairs with a bridge and a removed member (gone:
 * the removed ids, sorted, ng of them), each owned member's once; wall
 * bridges of removed rows (own: the owned rows by id) straight into the
 * outflows' sums. */
static PetscErrorCode FlowLiquidHalves(Engine *e, const FlowIdKey *own, const FlowIdKey *gone, PetscInt ng,
                                       const PetscInt *drop, const PetscInt *outk, FlowHalf **half, PetscInt *nh)
{
  const RecordStore *s  = &e->hs;
  FlowState         *st = &e->flow.state;
  PetscInt           n = 0, m = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(2 * s->n + 1, half));
  for (PetscInt r = 0; r < s->n; r++) {
    const ContactRecord *rec = (const ContactRecord *)RecordStorePayload(s, r);
    RecordKey            key = RecordStoreKey(s, r);
    const FlowIdKey     *o   = FlowIdFind(own, e->p.n, key.owner);
    if (!(rec->b.V > 0.0) || !o) continue;
    if (key.kind != HISTORY_KIND_SPHERE) { /* a wall holds no liquid: the whole bridge goes with its particle */
      if (drop[o->k]) ExactSumAdd(&st->removed_liquid[outk[o->k]], rec->b.V);
      continue;
    }
    if (!FlowIdFind(gone, ng, key.owner) && !FlowIdFind(gone, ng, key.partner)) continue;
    (*half)[n++] = (FlowHalf){key.owner, key.partner, rec->b.V};
    if (FlowIdFind(own, e->p.n, key.partner)) (*half)[n++] = (FlowHalf){key.partner, key.owner, rec->b.V};
  }
  qsort(*half, (size_t)n, sizeof(**half), FlowHalfCompare);
  for (PetscInt q = 0; q < n; q++) /* a pair both of whose members are owned here may have two records */
    if (!m || (*half)[q].member != (*half)[m - 1].member || (*half)[q].partner != (*half)[m - 1].partner)
      (*half)[m++] = (*half)[q];
  *nh = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowLiquidRemove(Engine *e, const PetscInt *drop, const PetscInt *outk)
{
  Particles *p  = &e->p;
  FlowState *st = &e->flow.state;
  FlowIdKey *mine, *own;
  FlowHalf  *half;
  char      *all;
  PetscInt   n = 0, bytes, ng, nh = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(p->n + 1, &mine));
  for (PetscInt i = 0; i < p->n; i++)
    if (drop[i]) {
      mine[n++] = (FlowIdKey){p->id[i], outk[i]};
      ExactSumAdd(&st->removed_liquid[outk[i]], p->liquid[i]);
    }
  PetscCall(CollectiveGatherAllBytes(e->grid.comm, mine, n * (PetscInt)sizeof(*mine), &bytes, &all));
  PetscCall(PetscFree(mine));
  ng = bytes / (PetscInt)sizeof(FlowIdKey);
  if (!ng) { /* the same on every rank */
    PetscCall(PetscFree(all));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  qsort(all, (size_t)ng, sizeof(FlowIdKey), FlowIdCompare);
  PetscCall(PetscMalloc1(p->n + 1, &own));
  for (PetscInt i = 0; i < p->n; i++) own[i] = (FlowIdKey){p->id[i], i};
  qsort(own, (size_t)p->n, sizeof(*own), FlowIdCompare);
  PetscCall(FlowLiquidHalves(e, own, (const FlowIdKey *)all, ng, drop, outk, &half, &nh));
  for (PetscInt q = 0; q < nh; q++) { /* by member, then partner: a film's halves in its partners' id order */
    PetscInt  i = (PetscInt)FlowIdFind(own, p->n, half[q].member)->k;
    PetscReal h = 0.5 * half[q].V;
    if (drop[i]) ExactSumAdd(&st->removed_liquid[outk[i]], h);
    else p->liquid[i] += h;
  }
  PetscCall(PetscFree(half));
  PetscCall(PetscFree(own));
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}
