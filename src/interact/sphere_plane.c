/* The sphere-plane interaction: owned particles against the plane walls
 * (geometry/planes.h), each contact a wall of the particles' material with
 * infinite mass, evaluated by the contact kernel (ContactEvaluate).  Pairs
 * are listed wall by wall, each wall's in particle order; every particle
 * meets its walls in wall order, after its particle pairs (the engine runs
 * this interaction after the sphere-sphere one). */
#include "interact/sphere_plane.h"
#include "interact/body_pair.h"
#include "interact/bridge.h"

static PetscErrorCode PlaneReserve(SpherePlane *sp, PetscInt need)
{
  PetscFunctionBeginUser;
  if (need <= sp->cap) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(need <= LOCAL_INT_MAX / 2, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "a rank's wall list needs %" PetscInt_FMT
             " pairs, more than its 32-bit local indices allow: run on more ranks",
             need);
  sp->cap = PetscMin(LOCAL_INT_MAX / 2, PetscMax(need, PetscMax(256, sp->cap + sp->cap / 4)));
  PetscCall(PetscRealloc((size_t)sp->cap * 2 * sizeof(*sp->ij), &sp->ij));
  PetscCall(PetscRealloc((size_t)sp->cap * sizeof(*sp->slot), &sp->slot));
  PetscCall(PetscRealloc((size_t)sp->cap * sizeof(*sp->touched), &sp->touched));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each owned particle closer to a wall than the skin, wall by wall. */
static PetscErrorCode PlaneBuild(Interaction it, const InteractionContext *ctx)
{
  SpherePlane     *sp = (SpherePlane *)it->data;
  const Particles *p  = ctx->p;

  PetscFunctionBeginUser;
  HistorySlotsSetUp(&sp->hs, ctx->model);
  sp->npair = sp->hs.n = 0;
  for (PetscInt w = 0; w < sp->planes->n; w++)
    for (PetscInt i = 0; i < p->n; i++) {
      const PlaneWall *wl = &sp->planes->w[w];
      PetscReal        gap;
      if (!wl->present) break;
      gap = (p->x[3 * i] - wl->p[0]) * wl->n[0] + (p->x[3 * i + 1] - wl->p[1]) * wl->n[1] +
            (p->x[3 * i + 2] - wl->p[2]) * wl->n[2] - p->radius[i];
      if (!(gap < ctx->skin + ctx->model->liquid.reach)) continue; /* a bridge reaches beyond contact */
      if (sp->npair == sp->cap) PetscCall(PlaneReserve(sp, sp->npair + 1));
      sp->ij[2 * sp->npair] = (LocalInt)i, sp->ij[2 * sp->npair + 1] = (LocalInt)w;
      sp->slot[sp->npair] = -1, sp->touched[sp->npair] = 0;
      sp->npair++;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The constants of particle i against a wall; the last set is reused while
 * the bodies match (most decks have few distinct ones). */
typedef struct {
  PetscBool   valid;
  PetscReal   key[5]; /* radius, mass, inertia, type; the wall's type */
  ContactPair cp;
} PlaneMemo;

static const ContactPair *PlaneConstants(const InteractionContext *ctx, PetscInt i, const PlaneWall *w, PlaneMemo *mm)
{
  const Particles *p = ctx->p;
  if (!(mm->valid && mm->key[0] == p->radius[i] && mm->key[1] == p->mass[i] && mm->key[2] == p->inertia[i] &&
        mm->key[3] == (PetscReal)p->type[i] && mm->key[4] == (PetscReal)w->type)) {
    mm->key[0] = p->radius[i], mm->key[1] = p->mass[i], mm->key[2] = p->inertia[i], mm->key[3] = (PetscReal)p->type[i],
    mm->key[4] = (PetscReal)w->type;
    ContactPairSetUp(ctx->model, p->type[i], w->type, mm->key[0], mm->key[1], mm->key[2], 0.0, 0.0, 0.0, PETSC_TRUE,
                     &mm->cp);
    mm->valid = PETSC_TRUE;
  }
  return &mm->cp;
}

/* Particle i against wall w: normal, overlap and velocities; a wall that
 * moves or slides takes its velocity at the contact point off (st: the
 * step's times; ps: the wall's poses at its start and end). */
static void PlaneKinematics(const Particles *p, const PlaneWall *w, PetscInt i, const InteractionStep *st,
                            const WallPose ps[2], ContactKinematics *k)
{
  PetscReal h = 0.0;
  for (int a = 0; a < 3; a++) {
    h += (p->x[3 * i + a] - w->p[a]) * w->n[a];
    k->n[a]   = w->n[a];
    k->v[a]   = p->v[3 * i + a];
    k->vp[a]  = p->vp[3 * i + a];
    k->wi[a]  = p->w[3 * i + a];
    k->wip[a] = p->wp[3 * i + a];
    k->wj[a] = k->wjp[a] = k->vw[a] = 0.0;
  }
  k->d = p->radius[i] - h;
  if (w->moves) {
    PetscReal c[3], vh[3], ve[3];
    for (int a = 0; a < 3; a++) c[a] = p->x[3 * i + a] - h * w->n[a];
    WallMotionContactVelocity(&w->motion, &ps[0], &ps[1], st->dt, st->t, c, w->n, vh, ve);
    for (int a = 0; a < 3; a++) k->v[a] -= vh[a], k->vp[a] -= ve[a], k->vw[a] = ve[a];
  }
}

/* The force on particle i into wall w's sums, at the contact point on the plane. */
static void PlaneWallAdd(InteractionStep *st, PetscInt w, const Particles *p, PetscInt i, const ContactKinematics *kin,
                         const PetscReal F[3])
{
  PetscReal c[3];
  for (int a = 0; a < 3; a++) c[a] = p->x[3 * i + a] - (p->radius[i] - kin->d) * kin->n[a];
  InteractionWallContact(st, w, p->x + 3 * i, c, F);
}

/* Pair k apart, closing at vn: the acceleration's share of its approach
 * bound (InteractionApproachBound), the wall's own acceleration included. */
static void PlaneApproach(const InteractionContext *ctx, SpherePlane *sp, PetscInt k, PlaneMemo *mm,
                          const ContactKinematics *kin, PetscReal vn, InteractionStep *st)
{
  const PetscInt   i = sp->ij[2 * k], w = sp->ij[2 * k + 1];
  const PlaneWall *pw = &sp->planes->w[w];
  const PetscReal  h  = st->dt_up,
                  aw  = pw->moves ? InteractionWallAccel(&pw->motion, ctx->p->x + 3 * i, ctx->p->radius[i]) : 0.0;
  ContactPair cpb;

  if (!(vn * h + (st->a_reach + 0.5 * aw) * h * h > -kin->d)) return;
  InteractionApproachBound(ctx, st, BodyPairMasses(ctx, i, -1, kin->n, PlaneConstants(ctx, i, pw, mm), &cpb), i, -1 - w,
                           vn, -kin->d, aw);
}

/* Pair k: a contact, a separation's correction, or an approach bound; its
 * force and torque straight into particle i, which meets its walls in wall
 * order after its particle pairs. */
static PetscErrorCode PlanePair(SpherePlane *sp, const InteractionContext *ctx, PetscInt k, PlaneMemo *mm,
                                InteractionStep *st)
{
  Particles         *p = ctx->p;
  PetscInt           i = sp->ij[2 * k];
  const ContactPair *cp;
  ContactPair        cpb;
  ContactKinematics  kin;
  ContactResult      cr;

  PetscFunctionBeginUser;
  /* removed: its contact is gone with it, its bridge's liquid back on the particle */
  if (!sp->planes->w[sp->ij[2 * k + 1]].present) {
    if (HistorySlotsHas(&sp->hs, CONTACT_SIDE_BRIDGE) && sp->slot[k] >= 0)
      BridgeRelease(p, i, HistorySlotsBridge(&sp->hs, sp->slot[k]));
    sp->touched[k] = 0, sp->slot[k] = -1;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PlaneKinematics(p, &sp->planes->w[sp->ij[2 * k + 1]], i, st, sp->pose[sp->ij[2 * k + 1]], &kin);
  if (kin.d > 0.0) {
    ContactHistory *h;
    if (sp->slot[k] < 0) PetscCall(HistorySlotsNew(&sp->hs, &sp->slot[k]));
    h  = &sp->hs.h[sp->slot[k]];
    cp = BodyPairMasses(ctx, i, -1, kin.n, PlaneConstants(ctx, i, &sp->planes->w[sp->ij[2 * k + 1]], mm), &cpb);
    ContactEvaluate(ctx->model, cp, h, HistorySlotsRolling(&sp->hs, sp->slot[k]),
                    HistorySlotsTurning(&sp->hs, sp->slot[k]), &kin, st->dt, &cr);
    sp->touched[k] = 1;
    if (InteractionDeep(kin.d, p->radius[i])) st->deep = PETSC_TRUE;
    if (st->need)
      InteractionStepBound(st,
                           ContactStepBound(ctx->model, cp, ctx->ctl, 0.5 * cp->m * cr.ddot * cr.ddot + cr.U, h->v_imp),
                           i, -1 - sp->ij[2 * k + 1]);
    if (HistorySlotsHas(&sp->hs, CONTACT_SIDE_BRIDGE))
      (void)InteractionBridge(ctx, i, -1, cp, HistorySlotsBridge(&sp->hs, sp->slot[k]),
                              HistorySlotsShape(&sp->hs, sp->slot[k]), &kin, st, cr.F);
    WallLedger(p, i, &cr, cr.F, &kin);
    for (int a = 0; a < 3; a++) p->f[3 * i + a] += cr.F[a];
    for (int a = 0; a < 3; a++) p->t[3 * i + a] += cr.Ti[a];
    if (st->walls || st->sink) PlaneWallAdd(st, sp->ij[2 * k + 1], p, i, &kin, cr.F);
  } else if (sp->touched[k]) {
    cp = BodyPairMasses(ctx, i, -1, kin.n, PlaneConstants(ctx, i, &sp->planes->w[sp->ij[2 * k + 1]], mm), &cpb);
    ContactSeparate(ctx->model, cp, &sp->hs.h[sp->slot[k]], HistorySlotsRolling(&sp->hs, sp->slot[k]),
                    HistorySlotsTurning(&sp->hs, sp->slot[k]), &kin, st->dt, &cr);
    sp->touched[k] = 0;
    /* a zero history */
    if (!(HistorySlotsHas(&sp->hs, CONTACT_SIDE_BRIDGE) &&
          InteractionBridge(ctx, i, -1, cp, HistorySlotsBridge(&sp->hs, sp->slot[k]),
                            HistorySlotsShape(&sp->hs, sp->slot[k]), &kin, st, cr.F)))
      sp->slot[k] = -1;
    WallLedger(p, i, &cr, cr.F, &kin);
    for (int a = 0; a < 3; a++) p->f[3 * i + a] += cr.F[a];
    if (st->walls || st->sink) PlaneWallAdd(st, sp->ij[2 * k + 1], p, i, &kin, cr.F);
  } else {
    PetscReal vn = -(kin.v[0] * kin.n[0] + kin.v[1] * kin.n[1] + kin.v[2] * kin.n[2]);
    if (HistorySlotsHas(&sp->hs, CONTACT_SIDE_BRIDGE) && sp->slot[k] >= 0) { /* apart, held by a bridge */
      PetscReal F[3] = {0.0, 0.0, 0.0};
      cp = BodyPairMasses(ctx, i, -1, kin.n, PlaneConstants(ctx, i, &sp->planes->w[sp->ij[2 * k + 1]], mm), &cpb);
      if (!InteractionBridge(ctx, i, -1, cp, HistorySlotsBridge(&sp->hs, sp->slot[k]),
                             HistorySlotsShape(&sp->hs, sp->slot[k]), &kin, st, F))
        sp->slot[k] = -1;
      if (p->nledger) ParticlesLedgerAdd(p, i, LEDGER_WALLS, F[0] * kin.vw[0] + F[1] * kin.vw[1] + F[2] * kin.vw[2]);
      for (int a = 0; a < 3; a++) p->f[3 * i + a] += F[a];
      if (st->walls || st->sink) PlaneWallAdd(st, sp->ij[2 * k + 1], p, i, &kin, F);
    }
    if (st->need && vn > 0.0 && -kin.d < 2.0 * vn * st->dt_up) {
      cp = BodyPairMasses(ctx, i, -1, kin.n, PlaneConstants(ctx, i, &sp->planes->w[sp->ij[2 * k + 1]], mm), &cpb);
      InteractionStepBound(st, ContactStepBound(ctx->model, cp, ctx->ctl, 0.5 * cp->m * vn * vn, vn), i,
                           -1 - sp->ij[2 * k + 1]);
    }
    if (st->need && st->a_reach > 0.0) PlaneApproach(ctx, sp, k, mm, &kin, vn, st);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PlaneCompute(Interaction it, const InteractionContext *ctx, InteractionStep *st)
{
  SpherePlane *sp = (SpherePlane *)it->data;
  PlaneMemo    mm;

  mm.valid = PETSC_FALSE;

  PetscFunctionBeginUser;
  for (PetscInt w = 0; w < sp->planes->n; w++)
    if (sp->planes->w[w].moves) {
      WallMotionPose(&sp->planes->w[w].motion, st->t - st->dt, &sp->pose[w][0]);
      WallMotionPose(&sp->planes->w[w].motion, st->t, &sp->pose[w][1]);
    }
  for (PetscInt k = 0; k < sp->npair; k++) PetscCall(PlanePair(sp, ctx, k, &mm, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PlaneGather(Interaction it, const InteractionContext *ctx, RecordStore *s,
                                  const unsigned char *stay)
{
  SpherePlane *sp   = (SpherePlane *)it->data;
  PetscInt     need = s->n;

  PetscFunctionBeginUser;
  (void)stay; /* a wall pair has one owned member: one record */
  for (PetscInt k = 0; k < sp->npair; k++) need += sp->slot[k] >= 0 && HistorySlotsLive(&sp->hs, sp->slot[k]);
  PetscCall(RecordStoreReserve(s, need));
  for (PetscInt k = 0; k < sp->npair; k++) {
    RecordKey     key = {ctx->p->id[sp->ij[2 * k]], HISTORY_KIND_PLANE, sp->ij[2 * k + 1]};
    ContactRecord rec;
    if (sp->slot[k] < 0 || !HistorySlotsLive(&sp->hs, sp->slot[k])) continue;
    HistorySlotsRecord(&sp->hs, sp->slot[k], &rec);
    PetscCall(RecordStoreAdd(s, &key, &rec));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PlaneAttach(Interaction it, const InteractionContext *ctx, const RecordStore *s)
{
  SpherePlane *sp = (SpherePlane *)it->data;

  PetscFunctionBeginUser;
  sp->hs.n = 0;
  for (PetscInt k = 0; k < sp->npair; k++) {
    RecordKey            key = {ctx->p->id[sp->ij[2 * k]], HISTORY_KIND_PLANE, sp->ij[2 * k + 1]};
    const ContactRecord *r   = RecordStoreFind(s, RecordStoreFirst(s, key.owner), &key);
    sp->slot[k] = -1, sp->touched[k] = 0;
    if (!r) continue;
    PetscCall(HistorySlotsNew(&sp->hs, &sp->slot[k]));
    HistorySlotsFromRecord(&sp->hs, sp->slot[k], r);
    sp->touched[k] = r->h.touched ? 1 : 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void PlaneStats(Interaction it, const InteractionContext *ctx, InteractionStats *s)
{
  SpherePlane *sp = (SpherePlane *)it->data;
  PlaneMemo    mm;
  /* overlaps only: the velocities are not read */
  InteractionStep st = {0.0, 0.0, PETSC_FALSE, 0.0, 0.0, {-1, -1}, PETSC_FALSE, NULL, NULL, 0, 0.0, NULL};

  mm.valid = PETSC_FALSE;

  for (PetscInt k = 0; k < sp->npair; k++) {
    PetscInt           i = sp->ij[2 * k];
    ContactKinematics  kin;
    PetscReal          U, F, dF;
    const ContactPair *cp;
    if (!sp->planes->w[sp->ij[2 * k + 1]].present) continue;
    PlaneKinematics(ctx->p, &sp->planes->w[sp->ij[2 * k + 1]], i, &st, sp->pose[sp->ij[2 * k + 1]], &kin);
    if (HistorySlotsHas(&sp->hs, CONTACT_SIDE_BRIDGE) && sp->slot[k] >= 0 &&
        HistorySlotsBridge(&sp->hs, sp->slot[k])->V > 0.0)
      InteractionStatsBridge(s, &ctx->model->liquid, LiquidRadius(ctx->p->radius[i], 0.0),
                             HistorySlotsBridge(&sp->hs, sp->slot[k])->V, -kin.d);
    if (kin.d <= 0.0) continue;
    cp = PlaneConstants(ctx, i, &sp->planes->w[sp->ij[2 * k + 1]], &mm);
    NormalLawEval(&ctx->model->law, cp->s, kin.d, &U, &F, &dF);
    InteractionStatsContact(s, ctx->model, cp, sp->slot[k] >= 0 ? &sp->hs.h[sp->slot[k]] : NULL,
                            sp->slot[k] >= 0 ? HistorySlotsRolling(&sp->hs, sp->slot[k]) : NULL, U, kin.d);
    if (kin.d / ctx->p->radius[i] > s->max_overlap_ratio)
      s->max_overlap_ratio = kin.d / ctx->p->radius[i], s->who[0] = ctx->p->id[i], s->who[1] = -1 - sp->ij[2 * k + 1];
  }
}

static PetscErrorCode PlaneDestroy(Interaction it)
{
  SpherePlane *sp = (SpherePlane *)it->data;

  PetscFunctionBeginUser;
  PetscCall(PetscFree(sp->ij));
  PetscCall(PetscFree(sp->slot));
  PetscCall(PetscFree(sp->touched));
  PetscCall(HistorySlotsDestroy(&sp->hs));
  PetscCall(PetscFree(sp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const InteractionOps PlaneOps = {"SpherePlane", PlaneBuild,   PlaneCompute, PlaneGather, PlaneAttach,
                                        PlaneStats,    PlaneDestroy, NULL,         NULL};

PetscErrorCode SpherePlaneCreate(const Planes *planes, Interaction *it)
{
  SpherePlane *sp;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&sp));
  sp->planes = planes;
  PetscCall(InteractionCreate(&PlaneOps, sp, it));
  PetscFunctionReturn(PETSC_SUCCESS);
}
