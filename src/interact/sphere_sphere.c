#include "interact/sphere_sphere.h"
#include "interact/sphere_scan.h"
#include "interact/bridge.h"

static PetscErrorCode SphereCompute(Interaction it, const InteractionContext *ctx, InteractionStep *st)
{
  SphereSphere *ss = (SphereSphere *)it->data;

  PetscFunctionBeginUser;
  if (!st->sink) {
    PetscCall(SphereScanFused(ss, ctx, st));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpherePairsGeneric(ss, ctx, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pairs from the particles and ghosts of the last borders, their members
 * then aliased to the roots: the rank's own periodic images are not
 * forwarded each step. */
static PetscErrorCode SphereBuild(Interaction it, const InteractionContext *ctx)
{
  SphereSphere *ss = (SphereSphere *)it->data;

  PetscFunctionBeginUser;
  HistorySlotsSetUp(&ss->nl.hs, ctx->model);
  PetscCall(NeighborListBuild(&ss->nl, ctx->p, ctx->L, ctx->scratch));
  NeighborListAlias(&ss->nl, ctx->root);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the upper member of touching pair (i, j) keeps a copy too: where
 * it is owned here (itself or as the owned copy of a self-image), unless the
 * lower member is owned here as well and both stay (then the pair stays
 * here alone, and the attach finds it by its lower member). */
static inline PetscBool SphereUpperCopy(const Particles *p, const unsigned char *stay, PetscInt i, PetscInt j)
{
  if (!(j < p->n || p->origin[j] >= 0)) return PETSC_FALSE;
  if (!stay || i >= p->n) return PETSC_TRUE;
  return stay[i] && stay[j < p->n ? j : p->origin[j]] ? PETSC_FALSE : PETSC_TRUE;
}

/* Every owned member of a touching pair keeps a copy, since the pair may
 * later be split between two ranks, each of which needs it; but not both
 * members of a pair that stays here whole (SphereUpperCopy).  The store is
 * sized first: it is, with the lists, the largest transient. */
static PetscErrorCode SphereGather(Interaction it, const InteractionContext *ctx, RecordStore *s,
                                   const unsigned char *stay)
{
  const NeighborList *nl   = &((SphereSphere *)it->data)->nl;
  const Particles    *p    = ctx->p;
  PetscInt            need = s->n;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    if (nl->slot[k] < 0 || !HistorySlotsLive(&nl->hs, nl->slot[k])) continue;
    need += (i < p->n) + SphereUpperCopy(p, stay, i, j);
  }
  PetscCall(RecordStoreReserve(s, need));
  for (PetscInt k = 0; k < nl->npair; k++) {
    ContactRecord rec;
    PetscInt      i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    if (nl->slot[k] < 0 || !HistorySlotsLive(&nl->hs, nl->slot[k])) continue;
    HistorySlotsRecord(&nl->hs, nl->slot[k], &rec);
    if (i < p->n) {
      RecordKey key = {p->id[i], HISTORY_KIND_SPHERE, p->id[j]};
      PetscCall(RecordStoreAdd(s, &key, &rec));
    }
    if (SphereUpperCopy(p, stay, i, j)) {
      RecordKey key = {p->id[j], HISTORY_KIND_SPHERE, p->id[i]};
      PetscCall(RecordStoreAdd(s, &key, &rec));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* first[i], the first record of particle i's id, for the particles whose
 * records the attach reads: the owned ones, (mostly) in id order as the
 * engine keeps them, so one forward walk over the store finds them all (a
 * binary search where that order breaks), and the self-images, which share
 * their owned copy's id.  Other ghosts' own records are never read: an
 * empty range. */
static void SphereFirsts(const RecordStore *s, const Particles *p, LocalInt *first)
{
  PetscInt ntot = p->n + p->nghost, k = 0;

  for (PetscInt i = 0; i < p->n; i++) {
    if (i > 0 && p->id[i] < p->id[i - 1]) k = RecordStoreFirst(s, p->id[i]);
    else
      while (k < s->n && RecordStoreHead(s, k)->owner < p->id[i]) k++;
    first[i] = (LocalInt)k;
  }
  for (PetscInt i = p->n; i < ntot; i++) {
    PetscInt o = p->origin[i];
    if (o < 0) first[i] = (LocalInt)s->n;
    else first[i] = (o < p->n && p->id[o] == p->id[i]) ? first[o] : (LocalInt)RecordStoreFirst(s, p->id[i]);
  }
}

static PetscErrorCode SphereAttach(Interaction it, const InteractionContext *ctx, const RecordStore *s)
{
  NeighborList    *nl   = &((SphereSphere *)it->data)->nl;
  const Particles *p    = ctx->p;
  PetscInt         ntot = p->n + p->nghost;
  LocalInt        *first;

  PetscFunctionBeginUser;
  nl->hs.n = 0;
  for (PetscInt k = 0; k < nl->npair; k++) {
    nl->flag[k] &= ~NEIGHBOR_TOUCHED;
    nl->slot[k] = -1;
  }
  if (!s->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(s->n <= LOCAL_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "a rank holds %" PetscInt_FMT
             " contact-history records, more than its 32-bit local indices allow: run on more ranks",
             s->n);
  PetscCall(HistorySlotsReserve(&nl->hs, PetscMin(s->n, nl->npair))); /* a pair takes at most one record */
  PetscCall(PetscMalloc1(ntot + 1, &first));
  SphereFirsts(s, p, first);
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt             i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    RecordKey            ki = {p->id[i], HISTORY_KIND_SPHERE, p->id[j]}, kj = {p->id[j], HISTORY_KIND_SPHERE, p->id[i]};
    const ContactRecord *r = NULL;
    /* a self-image: its owned copy's records */
    if (i < p->n || p->origin[i] >= 0) r = RecordStoreFind(s, first[i], &ki);
    if (!r && (j < p->n || p->origin[j] >= 0)) r = RecordStoreFind(s, first[j], &kj);
    if (!r) continue;
    PetscCall(HistorySlotsNew(&nl->hs, &nl->slot[k]));
    HistorySlotsFromRecord(&nl->hs, nl->slot[k], r);
    if (r->h.touched) nl->flag[k] |= NEIGHBOR_TOUCHED;
  }
  PetscCall(PetscFree(first));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A pair counts on the rank owning its lower-id member, so each counts once. */
static void SphereStats(Interaction it, const InteractionContext *ctx, InteractionStats *s)
{
  const NeighborList *nl = &((SphereSphere *)it->data)->nl;
  const Particles    *p  = ctx->p;
  SphereMemos         mm;

  SphereMemosReset(&mm);
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt           i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    ContactKinematics  kin;
    PetscReal          U, F, dF;
    const ContactPair *cp;
    if (i >= p->n) continue;
    /* no history: at most a contact at first touch, to come */
    if (nl->slot[k] < 0 && !(nl->flag[k] & NEIGHBOR_TOUCHED)) {
      PetscReal r[3], rs = p->radius[i] + p->radius[j];
      NeighborPairSeparation(nl, p, k, i, j, r);
      if (r[0] * r[0] + r[1] * r[1] + r[2] * r[2] >= rs * rs) continue;
    }
    SphereKinematics(nl, p, k, i, j, &kin);
    cp = &SphereMemoFor(ctx, nl, k, i, j, &mm)->cp;
    if (HistorySlotsHas(&nl->hs, CONTACT_SIDE_BRIDGE) && nl->slot[k] >= 0 &&
        HistorySlotsBridge(&nl->hs, nl->slot[k])->V > 0.0)
      InteractionStatsBridge(s, &ctx->model->liquid, LiquidRadius(p->radius[i], p->radius[j]),
                             HistorySlotsBridge(&nl->hs, nl->slot[k])->V, -kin.d);
    if (kin.d <= 0.0) continue;
    NormalLawEval(&ctx->model->law, cp->s, kin.d, &U, &F, &dF);
    InteractionStatsContact(s, ctx->model, cp, nl->slot[k] >= 0 ? &nl->hs.h[nl->slot[k]] : NULL,
                            nl->slot[k] >= 0 ? HistorySlotsRolling(&nl->hs, nl->slot[k]) : NULL, U, kin.d);
    if (kin.d / PetscMin(p->radius[i], p->radius[j]) > s->max_overlap_ratio)
      s->max_overlap_ratio = kin.d / PetscMin(p->radius[i], p->radius[j]), s->who[0] = p->id[i], s->who[1] = p->id[j];
  }
}

static void SphereLend(Interaction it, void **buf, size_t *bytes)
{
  HistorySlotsTake(&((SphereSphere *)it->data)->nl.hs, buf, bytes);
}

static PetscErrorCode SphereReclaim(Interaction it, void *buf, size_t bytes)
{
  PetscFunctionBeginUser;
  PetscCall(HistorySlotsGive(&((SphereSphere *)it->data)->nl.hs, buf, bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SphereDestroy(Interaction it)
{
  SphereSphere *ss = (SphereSphere *)it->data;

  PetscFunctionBeginUser;
  PetscCall(NeighborListDestroy(&ss->nl));
  PetscCall(PetscFree(ss));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const InteractionOps SphereOps = {"SphereSphere", SphereBuild,   SphereCompute, SphereGather, SphereAttach,
                                         SphereStats,    SphereDestroy, SphereLend,    SphereReclaim};

PetscErrorCode SphereSphereCreate(PetscReal skin, Interaction *it)
{
  SphereSphere *ss;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&ss));
  PetscCall(NeighborListCreate(skin, &ss->nl));
  PetscCall(InteractionCreate(&SphereOps, ss, it));
  PetscFunctionReturn(PETSC_SUCCESS);
}
