/* A sphere pair of the sphere-sphere interaction (sphere_sphere.h): the
 * interaction's state, the memo of pair constants, a pair's kinematics and
 * step bounds, and the generic path (ContactEvaluate, ContactSeparate) that
 * takes every pair the fused scan (sphere_scan.h) does not.  Internal to
 * interact/. */
#ifndef HDEM_SPHERE_PAIR_H
#define HDEM_SPHERE_PAIR_H

#include "interact/interaction.h"
#include "interact/neighbor.h"
#include "contact/contact_batch.h"

typedef struct {
  NeighborList nl;
} SphereSphere;

/* Pair constants from the two bodies; most pairs of a deck share radii and
 * masses, so the last set of each pair of body classes (NeighborList body),
 * or of each kind (either member frozen) for the rest, is kept and reused
 * when the bodies match: a chute's base pairs do not evict the bed's. */
typedef struct {
  PetscBool         valid;
  PetscInt64        gen;    /* which filling (a slot may be refilled with another kind's constants) */
  PetscInt          kind;   /* frozen flags of i and j */
  PetscReal         key[8]; /* radius, mass, inertia, type of each */
  ContactPair       cp;
  ContactBatchConst bc; /* what the kernel reads (ContactBatchConstOf) */
} SphereMemo;

#define SPHERE_MEMO_CLASSES (NEIGHBOR_BODY_CLASSES * NEIGHBOR_BODY_CLASSES)
#define SPHERE_MEMO_SLOTS   (SPHERE_MEMO_CLASSES + 4)

typedef struct {
  SphereMemo m[SPHERE_MEMO_SLOTS];
} SphereMemos;

PETSC_EXTERN void        SphereMemosReset(SphereMemos *);
PETSC_EXTERN SphereMemo *SphereMemoSet(const InteractionContext *, const NeighborList *, PetscInt i, PetscInt j,
                                       SphereMemos *);

/* The memo of pair k (members i, j): its classes are in its flag. */
static inline SphereMemo *SphereMemoFor(const InteractionContext *ctx, const NeighborList *nl, PetscInt k, PetscInt i,
                                        PetscInt j, SphereMemos *mms)
{
  PetscInt cls = nl->flag[k] >> NEIGHBOR_CLASS_SHIFT;
  /* the same bodies: the same constants */
  if (cls != NEIGHBOR_CLASS_NONE && mms->m[cls].valid) return &mms->m[cls];
  return SphereMemoSet(ctx, nl, i, j, mms);
}

/* A pair's result: force on i (0-2), torque on i (3-5) and on j (6-8). */
typedef enum {
  SPHERE_PAIR_NONE,
  SPHERE_PAIR_FORCE,       /* a separation's correction: force only */
  SPHERE_PAIR_FORCE_TORQUE /* a contact */
} SpherePairOut;

/* The step bound of a contact from its overlap rate and elastic energy. */
static inline PetscReal SphereContactBound(const InteractionContext *ctx, const ContactPair *cp, PetscReal ddot,
                                           PetscReal U, PetscReal v_imp)
{
  return ContactStepBound(ctx->model, cp, ctx->ctl, 0.5 * cp->m * ddot * ddot + U, v_imp);
}

/* A pair apart (overlap d <= 0) closing at normal speed vn: its bound into
 * the step's if it may touch within the next step, by its speed (the
 * impact's bound) and by the acceleration's share (InteractionApproachBound). */
static inline void SphereApproachBound(const InteractionContext *ctx, const NeighborList *nl, PetscInt k, PetscInt i,
                                       PetscInt j, PetscReal vn, PetscReal d, SphereMemos *mm, InteractionStep *st)
{
  const ContactPair *cp = NULL;
  if (vn > 0.0 && -d < 2.0 * vn * st->dt_up) {
    cp = &SphereMemoFor(ctx, nl, k, i, j, mm)->cp;
    InteractionStepBound(st, ContactStepBound(ctx->model, cp, ctx->ctl, 0.5 * cp->m * vn * vn, vn), i, j);
  }
  if (st->a_reach > 0.0 && vn * st->dt_up + st->a_reach * st->dt_up * st->dt_up > -d)
    InteractionApproachBound(ctx, st, cp ? cp : &SphereMemoFor(ctx, nl, k, i, j, mm)->cp, i, j, vn, -d, 0.0);
}

/* Pair k through the generic path (ContactEvaluate, ContactSeparate) and,
 * with st->need, its step bound.  A contact's rolling power goes to the
 * ledger now, or into *roll (when given: 0 where it has none) for the
 * caller to add in its pairs' order. */
PETSC_EXTERN PetscErrorCode SpherePairGeneric(SphereSphere *, const InteractionContext *, PetscInt k, InteractionStep *,
                                              SphereMemos *, PetscReal res[CONTACT_RESULTS], SpherePairOut *,
                                              PetscReal *roll);
/* Every pair through the generic path, accumulated in pair order. */
PETSC_EXTERN PetscErrorCode SpherePairsGeneric(SphereSphere *, const InteractionContext *, InteractionStep *);

/* Kinematics of pair k (members i, j) from half-step and predicted velocities. */
static inline void SphereKinematics(const NeighborList *nl, const Particles *p, PetscInt k, PetscInt i, PetscInt j,
                                    ContactKinematics *kin)
{
  PetscReal r[3], len;

  NeighborPairSeparation(nl, p, k, i, j, r);
  len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  ContactNormal(r, len, kin->n);
  for (int a = 0; a < 3; a++) {
    kin->v[a]   = p->v[3 * i + a] - p->v[3 * j + a];
    kin->vp[a]  = p->vp[3 * i + a] - p->vp[3 * j + a];
    kin->wi[a]  = p->w[3 * i + a];
    kin->wj[a]  = p->w[3 * j + a];
    kin->wip[a] = p->wp[3 * i + a];
    kin->wjp[a] = p->wp[3 * j + a];
  }
  kin->d = p->radius[i] + p->radius[j] - len;
}

#endif
