/* The sphere-mesh interaction: owned particles against triangle meshes,
 * each contact a wall of the particles' material with infinite mass,
 * evaluated by the contact kernel as a plane wall's is.
 *
 * Which contacts a particle has with a mesh: MeshContactsSelect
 * (geometry/trimesh.h), decided from the particle's candidate triangles
 * alone, in index order, so on every rank alike; histories are keyed by
 * (particle, mesh, key): the key a surface touched in one region, a
 * region's feature where it is touched in several (MESH_KEY_REGION). */
#include "interact/sphere_mesh.h"
#include "interact/bridge.h"
#include "interact/body_pair.h"
#include "interact/mesh_wear.h"

/* a record's partner holds the mesh's deck number above its contacts' keys */
_Static_assert(2 * MESH_KEY_REGION <= (PetscInt64)1 << HISTORY_MESH_SHIFT, "mesh contact keys overlap the mesh bits");

static inline PetscReal Dot3(const PetscReal *a, const PetscReal *b)
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static PetscErrorCode MeshGroupPush(SphereMesh *sm, LocalInt i, PetscInt mesh)
{
  PetscFunctionBeginUser;
  if (sm->ngroup == sm->capgroup) {
    sm->capgroup = PetscMax(256, 2 * sm->capgroup);
    PetscCall(PetscRealloc((size_t)sm->capgroup * sizeof(*sm->group), &sm->group));
  }
  sm->group[sm->ngroup].i = i, sm->group[sm->ngroup].mesh = mesh;
  sm->group[sm->ngroup].c0 = sm->ncand, sm->group[sm->ngroup].nc = 0;
  sm->group[sm->ngroup].e0 = 0, sm->group[sm->ngroup].ne = 0;
  sm->ngroup++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshCandPush(SphereMesh *sm, PetscInt t)
{
  PetscFunctionBeginUser;
  if (sm->ncand == sm->capcand) {
    sm->capcand = PetscMax(1024, 2 * sm->capcand);
    PetscCall(PetscRealloc((size_t)sm->capcand * sizeof(*sm->cand), &sm->cand));
  }
  sm->cand[sm->ncand++] = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshWorkReserve(SphereMesh *sm, PetscInt n)
{
  PetscFunctionBeginUser;
  if (n <= sm->capwork) PetscFunctionReturn(PETSC_SUCCESS);
  sm->capwork = PetscMax(64, 2 * n);
  PetscCall(PetscFree4(sm->feat, sm->pick, sm->near, sm->match));
  PetscCall(
    PetscMalloc4(sm->capwork, &sm->feat, sm->capwork, &sm->pick, sm->capwork, &sm->near, sm->capwork, &sm->match));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshContactReserve(SphereMesh *sm, int b, PetscInt need)
{
  PetscFunctionBeginUser;
  if (need <= sm->capcon[b]) PetscFunctionReturn(PETSC_SUCCESS);
  sm->capcon[b] = PetscMax(256, 2 * need);
  PetscCall(PetscRealloc((size_t)sm->capcon[b] * sizeof(*sm->con[b]), &sm->con[b]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each owned particle against each mesh present at the build: the
 * triangles within its radius plus the skin, from the bins, in the mesh's
 * pose at the build time. */
static PetscErrorCode MeshBuild(Interaction it, const InteractionContext *ctx)
{
  SphereMesh      *sm = (SphereMesh *)it->data;
  const Particles *p  = ctx->p;

  PetscFunctionBeginUser;
  HistorySlotsSetUp(&sm->hs, ctx->model);
  sm->ngroup = sm->ncand = sm->hs.n = 0;
  sm->ncon[sm->cur]                 = 0;
  for (PetscInt q = 0; q < sm->meshes->n; q++) {
    const Mesh *m = &sm->meshes->m[q];
    WallPose    ps;
    if (!WallMotionPresent(&m->motion, ctx->tb)) continue;
    WallMotionPose(&m->motion, ctx->tb, &ps);
    for (PetscInt i = 0; i < p->n; i++) {
      const PetscInt *items;
      PetscInt        n;
      /* a bridge reaches beyond contact */
      PetscReal xm[3], reach = p->radius[i] + ctx->skin + ctx->model->liquid.reach;
      WallPoseInverse(&ps, p->x + 3 * i, xm);
      MeshCellItems(m, xm, &items, &n);
      for (PetscInt k = 0; k < n; k++) {
        MeshFeature f;
        if (MeshBoxBeyond(m, items[k], xm, reach)) continue;
        MeshClosest(m, items[k], xm, &f);
        if (!(f.dist < reach)) continue;
        if (sm->ngroup == 0 || sm->group[sm->ngroup - 1].i != (LocalInt)i || sm->group[sm->ngroup - 1].mesh != q) {
          PetscCall(MeshGroupPush(sm, (LocalInt)i, q));
          sm->group[sm->ngroup - 1].gap0 = PETSC_MAX_REAL;
          for (int a = 0; a < 3; a++) sm->group[sm->ngroup - 1].xm0[a] = xm[a];
          ContactPairSetUp(ctx->model, p->type[i], m->type, p->radius[i], p->mass[i], p->inertia[i], 0.0, 0.0, 0.0,
                           PETSC_TRUE, &sm->group[sm->ngroup - 1].cp);
        }
        PetscCall(MeshCandPush(sm, items[k]));
        sm->group[sm->ngroup - 1].nc++;
        sm->group[sm->ngroup - 1].gap0 = PetscMin(sm->group[sm->ngroup - 1].gap0, f.dist - p->radius[i]);
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The contacts of group g now (MeshContactsSelect). */
static PetscErrorCode MeshContactsFind(SphereMesh *sm, const Mesh *m, const MeshGroup *g, const PetscReal xm[3],
                                       PetscReal r, PetscInt *npick, PetscInt *nnear)
{
  PetscFunctionBeginUser;
  PetscCall(MeshWorkReserve(sm, g->nc));
  MeshContactsSelect(m, sm->cand + g->c0, g->nc, xm, r, sm->feat, sm->pick, npick, sm->near, nnear);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Kinematics of particle i against feature f of mesh m (normal from the
 * mesh, in the world frame): a face's normal is its plane's. */
static void MeshKinematics(const Particles *p, const Mesh *m, const MeshFeature *f, const PetscReal xm[3], PetscInt i,
                           const InteractionStep *st, const WallPose ps[2], ContactKinematics *k)
{
  PetscReal n0[3], c[3];

  MeshFeatureNormal(m, f, xm, n0);
  WallPoseRotate(&ps[1], n0, k->n);
  for (int a = 0; a < 3; a++) {
    k->v[a]   = p->v[3 * i + a];
    k->vp[a]  = p->vp[3 * i + a];
    k->wi[a]  = p->w[3 * i + a];
    k->wip[a] = p->wp[3 * i + a];
    k->wj[a] = k->wjp[a] = k->vw[a] = 0.0;
  }
  k->d = p->radius[i] - f->dist;
  if (WallMotionMoves(&m->motion) || m->motion.surface_velocity[0] != 0.0 || m->motion.surface_velocity[1] != 0.0 ||
      m->motion.surface_velocity[2] != 0.0) {
    PetscReal vh[3], ve[3];
    WallPoseApply(&ps[1], f->c, c);
    WallMotionContactVelocity(&m->motion, &ps[0], &ps[1], st->dt, st->t, c, k->n, vh, ve);
    for (int a = 0; a < 3; a++) k->v[a] -= vh[a], k->vp[a] -= ve[a], k->vw[a] = ve[a];
  }
}

/* A contact's force into its mesh's sums, at its point in the world. */
static void MeshWallAdd(InteractionStep *st, PetscInt mesh, const WallPose ps[2], const MeshFeature *f,
                        const PetscReal x[3], const PetscReal F[3])
{
  PetscReal c[3];
  WallPoseApply(&ps[1], f->c, c);
  InteractionWallContact(st, st->mesh_wall0 + mesh, x, c, F);
}

/* The last step's contact of the group with key, not yet taken on: its index, or -1. */
static PetscInt MeshContactOld(const SphereMesh *sm, const MeshGroup *g, PetscInt64 key)
{
  const MeshContact *old = sm->con[1 - sm->cur];
  for (PetscInt e = g->e0; e < g->e0 + g->ne; e++)
    if (old[e].key == key) return e;
  return -1;
}

/* Which of the last step's contacts each picked one takes on (match[q]: its index, or -1), marked taken:
 * the one of its key; else a surface touched in one region before (keyed by the surface) and in several
 * now hands its history to its nearest region without one, and a surface touched in several regions
 * before and in one now takes on the history of its region's feature.  From the keys and the distances
 * now alone: the same after a restart. */
static void MeshContactsMatch(SphereMesh *sm, const Mesh *m, const MeshGroup *g, PetscInt npick)
{
  MeshContact *old = sm->con[1 - sm->cur];

  for (PetscInt q = 0; q < npick; q++)
    if ((sm->match[q] = MeshContactOld(sm, g, sm->feat[sm->pick[q]].key)) >= 0) old[sm->match[q]].key = -1;
  for (PetscInt q = 0; q < npick; q++) {
    const MeshFeature *f = &sm->feat[sm->pick[q]];
    PetscInt           s = m->surface[sm->cand[g->c0 + sm->pick[q]]], e, best = q;
    if (sm->match[q] >= 0) continue;
    if (!(f->key & MESH_KEY_REGION)) e = MeshContactOld(sm, g, MESH_KEY_REGION | f->fkey);
    else if ((e = MeshContactOld(sm, g, s)) >= 0)
      for (PetscInt p = 0; p < npick; p++) {
        const MeshFeature *fp = &sm->feat[sm->pick[p]];
        if (sm->match[p] < 0 && m->surface[sm->cand[g->c0 + sm->pick[p]]] == s &&
            (fp->dist < sm->feat[sm->pick[best]].dist || (fp->dist == sm->feat[sm->pick[best]].dist && p < best)))
          best = p;
      }
    if (e >= 0 && best == q) sm->match[q] = e, old[e].key = -1;
  }
}

/* A particle's group without contacts that cannot touch the mesh now nor
 * within the next step: its distance from every candidate is at least gap0
 * less its displacement since the build in the mesh's frame (the triangle
 * inequality; a still mesh's frame is the world's), and it closes at most
 * at its speed and the mesh's (a rotating mesh's speed grows with the
 * distance from its axis: not taken), with the accelerations' share.
 * Skipping it changes no force and no bound (a margin covers the
 * distances' rounding).  xm: the centre in the mesh's frame now, when the
 * mesh moves. */
static PetscBool MeshGroupApart(const Mesh *m, const MeshGroup *g, const Particles *p, const InteractionStep *st,
                                const PetscReal xm[3])
{
  PetscInt  i     = g->i;
  PetscBool moves = WallMotionMoves(&m->motion);
  PetscReal dx[3], move, gap, margin = 1e-9 * p->radius[i], vw = 0.0, aw = 0.0;

  if (g->ne > 0) return PETSC_FALSE;
  if (moves) {
    vw = WallMotionSpeedMax(&m->motion);
    if (!(vw < PETSC_MAX_REAL)) return PETSC_FALSE;
    aw = InteractionWallAccel(&m->motion, p->x + 3 * i, p->radius[i]);
  }
  for (int a = 0; a < 3; a++) dx[a] = moves ? xm[a] - g->xm0[a] : p->x[3 * i + a] - p->x0[3 * i + a];
  move = PetscSqrtReal(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
  gap  = g->gap0 - move - margin;
  if (!(gap > 0.0)) return PETSC_FALSE;
  if (st->need) {
    const PetscReal *v = p->v + 3 * i;
    if (!(gap > 2.0 * (PetscSqrtReal(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + vw) * st->dt_up +
                  (st->a_reach + 0.5 * aw) * st->dt_up * st->dt_up))
      return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

/* Particle i apart from a surface of mesh m, closing at vn: the
 * acceleration's share of its approach bound (InteractionApproachBound),
 * the mesh's own acceleration included. */
static void MeshApproach(const InteractionContext *ctx, const Mesh *m, const MeshGroup *g, PetscInt i,
                         const ContactKinematics *kin, PetscReal vn, InteractionStep *st)
{
  const PetscReal h = st->dt_up, aw = WallMotionMoves(&m->motion)
                                      ? InteractionWallAccel(&m->motion, ctx->p->x + 3 * i, ctx->p->radius[i])
                                      : 0.0;
  ContactPair     cpb;
  PetscInt        w = st->mesh_wall0 + g->mesh; /* the contact's partner is -1 - w */

  if (!(vn * h + (st->a_reach + 0.5 * aw) * h * h > -kin->d)) return;
  InteractionApproachBound(ctx, st, BodyPairMasses(ctx, i, -1, kin->n, &g->cp, &cpb), i, -1 - w, vn, -kin->d, aw);
}

/* Contacts into key order (a few: insertion). */
static void MeshContactsSortByKey(MeshContact *c, PetscInt n)
{
  for (PetscInt a = 1; a < n; a++) {
    MeshContact x = c[a];
    PetscInt    b = a;
    for (; b > 0 && c[b - 1].key > x.key; b--) c[b] = c[b - 1];
    c[b] = x;
  }
}

/* The contacts picked for particle i of group g (centre xm in the mesh
 * frame), each into now[e0 + q] with its history taken on (MeshContactsMatch). */
static PetscErrorCode MeshGroupTouch(SphereMesh *sm, const InteractionContext *ctx, MeshGroup *g, const PetscReal xm[3],
                                     PetscInt e0, PetscInt npick, InteractionStep *st)
{
  Particles      *p   = ctx->p;
  const Mesh     *m   = &sm->meshes->m[g->mesh];
  const WallPose *ps  = sm->pose[g->mesh];
  PetscInt        i   = g->i;
  MeshContact    *now = sm->con[sm->cur];

  PetscFunctionBeginUser;
  MeshContactsMatch(sm, m, g, npick);
  for (PetscInt q = 0; q < npick; q++) {
    const MeshFeature *f = &sm->feat[sm->pick[q]];
    MeshContact       *c = &now[e0 + q];
    const ContactPair *cp;
    ContactPair        cpb;
    ContactKinematics  kin;
    ContactResult      cr;
    MeshKinematics(p, m, f, xm, i, st, ps, &kin);
    cp     = BodyPairMasses(ctx, i, -1, kin.n, &g->cp, &cpb);
    c->key = f->key;
    if (sm->match[q] >= 0) c->slot = sm->con[1 - sm->cur][sm->match[q]].slot; /* taken on */
    else PetscCall(HistorySlotsNew(&sm->hs, &c->slot));
    ContactEvaluate(ctx->model, cp, &sm->hs.h[c->slot], HistorySlotsRolling(&sm->hs, c->slot),
                    HistorySlotsTurning(&sm->hs, c->slot), &kin, st->dt, &cr);
    c->d = kin.d, c->U = cr.U;
    if (InteractionDeep(kin.d, p->radius[i])) st->deep = PETSC_TRUE;
    if (st->need)
      InteractionStepBound(st,
                           ContactStepBound(ctx->model, cp, ctx->ctl, 0.5 * cp->m * cr.ddot * cr.ddot + cr.U,
                                            sm->hs.h[c->slot].v_imp),
                           i, -1 - (st->mesh_wall0 + g->mesh));
    if (HistorySlotsHas(&sm->hs, CONTACT_SIDE_BRIDGE))
      (void)InteractionBridge(ctx, i, -1, cp, HistorySlotsBridge(&sm->hs, c->slot), HistorySlotsShape(&sm->hs, c->slot),
                              &kin, st, cr.F);
    WallLedger(p, i, &cr, cr.F, &kin);
    for (int a = 0; a < 3; a++) p->f[3 * i + a] += cr.F[a];
    for (int a = 0; a < 3; a++) p->t[3 * i + a] += cr.Ti[a];
    if (st->walls || st->sink) MeshWallAdd(st, g->mesh, ps, f, p->x + 3 * i, cr.F);
    if (m->wear)
      PetscCall(MeshWearContact(m->wear, m->tid[sm->cand[g->c0 + sm->pick[q]]], cp, &kin, &cr, st->dt,
                                sm->match[q] < 0 ? PETSC_TRUE : PETSC_FALSE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Contacts left since the last step: the separation's correction, from the
 * surface's nearest candidate (a region's: its feature); a contact that moved
 * on to another while its surface (feature) is still touched just ends.  Those a bridge holds are carried on
 * after the npick contacts at e0, *nheld of them. */
static PetscErrorCode MeshGroupLeft(SphereMesh *sm, const InteractionContext *ctx, MeshGroup *g, const PetscReal xm[3],
                                    PetscInt e0, PetscInt npick, PetscInt nnear, PetscInt *nheld, InteractionStep *st)
{
  Particles      *p  = ctx->p;
  const Mesh     *m  = &sm->meshes->m[g->mesh];
  const WallPose *ps = sm->pose[g->mesh];
  PetscInt        i  = g->i;

  PetscFunctionBeginUser;
  for (PetscInt e = g->e0; e < g->e0 + g->ne; e++) {
    MeshContact       *old = &sm->con[1 - sm->cur][e];
    ContactBridge     *b;
    PetscBool          held = PETSC_FALSE;
    const MeshFeature *f    = NULL;
    MeshFeature        fr;
    PetscInt64         tri = -1; /* the whole-mesh triangle the contact is on (wear) */
    if (old->key < 0) continue;
    b = HistorySlotsBridge(&sm->hs, old->slot);
    if (old->key & MESH_KEY_REGION) { /* its region's feature, where it is now */
      if (MeshKeyFeature(m, sm->cand + g->c0, g->nc, old->key, xm, &fr)) f = &fr;
      tri = (old->key & ~MESH_KEY_REGION) >> 3;
    } else
      for (PetscInt q = 0; q < nnear && !f; q++)
        if (m->surface[sm->cand[g->c0 + sm->near[q]]] == old->key)
          f = &sm->feat[sm->near[q]], tri = m->tid[sm->cand[g->c0 + sm->near[q]]];
    if (f && !(f->dist < p->radius[i])) {
      ContactKinematics  kin;
      ContactResult      cr;
      ContactPair        cpb;
      const ContactPair *cp;
      MeshKinematics(p, m, f, xm, i, st, ps, &kin);
      cp = BodyPairMasses(ctx, i, -1, kin.n, &g->cp, &cpb);
      if (sm->hs.h[old->slot].touched)
        ContactSeparate(ctx->model, cp, &sm->hs.h[old->slot], HistorySlotsRolling(&sm->hs, old->slot),
                        HistorySlotsTurning(&sm->hs, old->slot), &kin, st->dt, &cr);
      else PetscCall(PetscMemzero(&cr, sizeof(cr)));
      if (b && b->V > 0.0)
        held = InteractionBridge(ctx, i, -1, cp, b, HistorySlotsShape(&sm->hs, old->slot), &kin, st, cr.F);
      WallLedger(p, i, &cr, cr.F, &kin);
      for (int a = 0; a < 3; a++) p->f[3 * i + a] += cr.F[a];
      if (st->walls || st->sink) MeshWallAdd(st, g->mesh, ps, f, p->x + 3 * i, cr.F);
      if (m->wear) PetscCall(MeshWearContact(m->wear, (PetscInt)tri, cp, &kin, &cr, st->dt, PETSC_FALSE));
      if (held) { /* apart, held by its bridge: carried on as a contact without touch */
        MeshContact *now;
        PetscCall(MeshContactReserve(sm, sm->cur, e0 + npick + *nheld + 1));
        now                          = sm->con[sm->cur];
        now[e0 + npick + *nheld].key = old->key, now[e0 + npick + *nheld].slot = old->slot;
        now[e0 + npick + *nheld].d = kin.d, now[e0 + npick + *nheld].U = 0.0;
        (*nheld)++;
      }
    }
    if (b && b->V > 0.0 && !held) BridgeRelease(p, i, b); /* its surface out of reach: ruptured */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bounds of particle i's approach to a point apart (kin): its impact within the next step, the
 * acceleration's share. */
static void MeshApproachBounds(const InteractionContext *ctx, const Mesh *m, const MeshGroup *g, PetscInt i,
                               const ContactKinematics *kin, InteractionStep *st)
{
  PetscReal vn = -Dot3(kin->v, kin->n);
  if (vn > 0.0 && -kin->d < 2.0 * vn * st->dt_up) {
    ContactPair        cpb;
    const ContactPair *cp = BodyPairMasses(ctx, i, -1, kin->n, &g->cp, &cpb);
    InteractionStepBound(st, ContactStepBound(ctx->model, cp, ctx->ctl, 0.5 * cp->m * vn * vn, vn), i,
                         -1 - (st->mesh_wall0 + g->mesh));
  }
  if (st->a_reach > 0.0) MeshApproach(ctx, m, g, i, kin, vn, st);
}

/* Another region of a touched surface closing in (a rim while the sphere rests on another): each local
 * minimum of the distance apart that the step could reach.  A flat surface has none: its minimum is the
 * plane's point. */
static void MeshGroupRegionsClosing(SphereMesh *sm, const InteractionContext *ctx, const MeshGroup *g,
                                    const PetscReal xm[3], PetscInt nnear, InteractionStep *st)
{
  const Particles *p    = ctx->p;
  const Mesh      *m    = &sm->meshes->m[g->mesh];
  const PetscInt  *cand = sm->cand + g->c0, i = g->i;
  const PetscReal  h = st->dt_up, *v = p->v + 3 * i, r = p->radius[i];
  PetscBool        still = !WallMotionMoves(&m->motion) && m->motion.surface_velocity[0] == 0.0 &&
                    m->motion.surface_velocity[1] == 0.0 && m->motion.surface_velocity[2] == 0.0;
  PetscReal speed = PetscSqrtReal(Dot3(v, v)), aw = -1.0;

  for (PetscInt k = 0; k < g->nc; k++) {
    const MeshFeature *f = &sm->feat[k];
    ContactKinematics  kin;
    PetscReal          vn;
    PetscBool          touched = PETSC_FALSE;
    if (f->dist < r) continue;
    /* a still mesh closes at most at the particle's speed (a margin for the normal's rounding) */
    if (still && !(f->dist - r < PetscMax(2.0 * speed * h, speed * h + st->a_reach * h * h) * (1.0 + 1e-9))) continue;
    for (PetscInt q = 0; q < nnear; q++)
      if (m->surface[cand[sm->near[q]]] == m->surface[cand[k]]) {
        touched = sm->feat[sm->near[q]].dist < r ? PETSC_TRUE : PETSC_FALSE;
        break;
      }
    if (!touched) continue;
    MeshKinematics(p, m, f, xm, i, st, sm->pose[g->mesh], &kin);
    vn = -Dot3(kin.v, kin.n);
    if (aw < 0.0) aw = WallMotionMoves(&m->motion) ? InteractionWallAccel(&m->motion, p->x + 3 * i, r) : 0.0;
    if (!((vn > 0.0 && -kin.d < 2.0 * vn * h) ||
          (st->a_reach > 0.0 && vn * h + (st->a_reach + 0.5 * aw) * h * h > -kin.d)))
      continue;
    if (MeshFeatureMinimum(m, cand, g->nc, sm->feat, k, PETSC_MAX_REAL)) MeshApproachBounds(ctx, m, g, i, &kin, st);
  }
}

/* An approach: the bound of the impact to come within the next step, from
 * each surface's nearest point (a flat surface's is its plane's), and from
 * the other regions of a touched surface. */
static void MeshGroupApproaches(SphereMesh *sm, const InteractionContext *ctx, const MeshGroup *g,
                                const PetscReal xm[3], PetscInt nnear, InteractionStep *st)
{
  const Particles *p       = ctx->p;
  const Mesh      *m       = &sm->meshes->m[g->mesh];
  PetscInt         i       = g->i;
  PetscBool        touched = PETSC_FALSE;

  for (PetscInt q = 0; q < nnear; q++) {
    const MeshFeature *f = &sm->feat[sm->near[q]];
    ContactKinematics  kin;
    if (f->dist < p->radius[i]) {
      touched = PETSC_TRUE;
      continue;
    }
    MeshKinematics(p, m, f, xm, i, st, sm->pose[g->mesh], &kin);
    MeshApproachBounds(ctx, m, g, i, &kin, st);
  }
  if (touched) MeshGroupRegionsClosing(sm, ctx, g, xm, nnear, st);
}

static PetscErrorCode MeshGroupCompute(SphereMesh *sm, const InteractionContext *ctx, MeshGroup *g, InteractionStep *st)
{
  Particles      *p  = ctx->p;
  const Mesh     *m  = &sm->meshes->m[g->mesh];
  const WallPose *ps = sm->pose[g->mesh];
  PetscInt        i = g->i, npick = 0, nnear = 0, nheld = 0, e0 = sm->ncon[sm->cur];
  PetscReal       xm[3];

  PetscFunctionBeginUser;
  /* removed, or out of reach: no contact, no bound */
  WallPoseInverse(&ps[1], p->x + 3 * i, xm);
  if (!WallMotionPresent(&m->motion, st->t) || MeshGroupApart(m, g, p, st, xm)) {
    /* removed */
    for (PetscInt e = g->e0; HistorySlotsHas(&sm->hs, CONTACT_SIDE_BRIDGE) && e < g->e0 + g->ne; e++)
      BridgeRelease(p, i, HistorySlotsBridge(&sm->hs, sm->con[1 - sm->cur][e].slot));
    g->e0 = e0, g->ne = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MeshContactsFind(sm, m, g, xm, p->radius[i], &npick, &nnear));
  PetscCall(MeshContactReserve(sm, sm->cur, e0 + npick));
  PetscCall(MeshGroupTouch(sm, ctx, g, xm, e0, npick, st));
  PetscCall(MeshGroupLeft(sm, ctx, g, xm, e0, npick, nnear, &nheld, st));
  /* in key order, as an attach lays them out */
  if (nheld) MeshContactsSortByKey(sm->con[sm->cur] + e0, npick + nheld);
  if (st->need) MeshGroupApproaches(sm, ctx, g, xm, nnear, st);
  g->e0 = e0, g->ne = npick + nheld;
  sm->ncon[sm->cur] = e0 + npick + nheld;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshCompute(Interaction it, const InteractionContext *ctx, InteractionStep *st)
{
  SphereMesh *sm = (SphereMesh *)it->data;

  PetscFunctionBeginUser;
  for (PetscInt q = 0; q < sm->meshes->n; q++) {
    WallMotionPose(&sm->meshes->m[q].motion, st->t - st->dt, &sm->pose[q][0]);
    WallMotionPose(&sm->meshes->m[q].motion, st->t, &sm->pose[q][1]);
  }
  sm->cur           = 1 - sm->cur; /* the last step's contacts become the old ones */
  sm->ncon[sm->cur] = 0;
  for (PetscInt k = 0; k < sm->ngroup; k++) PetscCall(MeshGroupCompute(sm, ctx, &sm->group[k], st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshGather(Interaction it, const InteractionContext *ctx, RecordStore *s,
                                 const unsigned char *stay)
{
  SphereMesh        *sm  = (SphereMesh *)it->data;
  const MeshContact *con = sm->con[sm->cur];

  PetscFunctionBeginUser;
  (void)stay; /* one owned member: one record */
  PetscCall(RecordStoreReserve(s, s->n + sm->ncon[sm->cur]));
  for (PetscInt k = 0; k < sm->ngroup; k++) {
    const MeshGroup *g = &sm->group[k];
    for (PetscInt e = g->e0; e < g->e0 + g->ne; e++) {
      RecordKey     key = {ctx->p->id[g->i], HISTORY_KIND_MESH,
                           (PetscInt64)sm->meshes->m[g->mesh].deck << HISTORY_MESH_SHIFT | con[e].key};
      ContactRecord rec;
      HistorySlotsRecord(&sm->hs, con[e].slot, &rec);
      PetscCall(RecordStoreAdd(s, &key, &rec));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A group's contacts from its particle's records of its mesh, in key order. */
static PetscErrorCode MeshAttach(Interaction it, const InteractionContext *ctx, const RecordStore *s)
{
  SphereMesh *sm = (SphereMesh *)it->data;
  PetscInt    n  = 0;

  PetscFunctionBeginUser;
  sm->hs.n = 0;
  for (PetscInt k = 0; k < sm->ngroup; k++) {
    MeshGroup *g     = &sm->group[k];
    PetscInt64 owner = ctx->p->id[g->i], mesh = sm->meshes->m[g->mesh].deck;
    g->e0 = n, g->ne = 0;
    for (PetscInt r = RecordStoreFirst(s, owner); r >= 0 && r < s->n; r++) {
      RecordKey key = RecordStoreKey(s, r);
      if (key.owner != owner) break;
      if (key.kind != HISTORY_KIND_MESH || key.partner >> HISTORY_MESH_SHIFT != mesh) continue;
      PetscCall(MeshContactReserve(sm, sm->cur, n + 1));
      sm->con[sm->cur][n].key = key.partner & (((PetscInt64)1 << HISTORY_MESH_SHIFT) - 1);
      sm->con[sm->cur][n].d = sm->con[sm->cur][n].U = 0.0;
      PetscCall(HistorySlotsNew(&sm->hs, &sm->con[sm->cur][n].slot));
      HistorySlotsFromRecord(&sm->hs, sm->con[sm->cur][n].slot, (const ContactRecord *)RecordStorePayload(s, r));
      n++, g->ne++;
    }
  }
  sm->ncon[sm->cur] = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void MeshStats(Interaction it, const InteractionContext *ctx, InteractionStats *s)
{
  SphereMesh        *sm  = (SphereMesh *)it->data;
  const MeshContact *con = sm->con[sm->cur];

  for (PetscInt k = 0; k < sm->ngroup; k++) {
    const MeshGroup *g = &sm->group[k];
    for (PetscInt e = g->e0; e < g->e0 + g->ne; e++) {
      PetscReal ratio = con[e].d / ctx->p->radius[g->i];
      if (HistorySlotsHas(&sm->hs, CONTACT_SIDE_BRIDGE) && HistorySlotsBridge(&sm->hs, con[e].slot)->V > 0.0)
        InteractionStatsBridge(s, &ctx->model->liquid, LiquidRadius(ctx->p->radius[g->i], 0.0),
                               HistorySlotsBridge(&sm->hs, con[e].slot)->V, -con[e].d);
      if (!(con[e].d > 0.0)) continue;
      InteractionStatsContact(s, ctx->model, &g->cp, &sm->hs.h[con[e].slot], HistorySlotsRolling(&sm->hs, con[e].slot),
                              con[e].U, con[e].d);
      if (ratio > s->max_overlap_ratio)
        s->max_overlap_ratio = ratio, s->who[0] = ctx->p->id[g->i], s->who[1] = -1 - (sm->meshes->wall0 + g->mesh);
    }
  }
}

static PetscErrorCode SphereMeshDestroy(Interaction it)
{
  SphereMesh *sm = (SphereMesh *)it->data;

  PetscFunctionBeginUser;
  PetscCall(PetscFree(sm->group));
  PetscCall(PetscFree(sm->cand));
  PetscCall(PetscFree(sm->con[0]));
  PetscCall(PetscFree(sm->con[1]));
  PetscCall(PetscFree4(sm->feat, sm->pick, sm->near, sm->match));
  PetscCall(HistorySlotsDestroy(&sm->hs));
  PetscCall(PetscFree(sm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const InteractionOps MeshOps = {"SphereMesh", MeshBuild,         MeshCompute, MeshGather, MeshAttach,
                                       MeshStats,    SphereMeshDestroy, NULL,        NULL};

PetscErrorCode SphereMeshCreate(const Meshes *meshes, Interaction *it)
{
  SphereMesh *sm;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&sm));
  sm->meshes = meshes;
  PetscCall(InteractionCreate(&MeshOps, sm, it));
  PetscFunctionReturn(PETSC_SUCCESS);
}
