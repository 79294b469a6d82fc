/* Liquid bridges between an owned particle and a wall, for the wall
 * interactions (sphere_plane.c, sphere_mesh.c). */
#ifndef HDEM_BRIDGE_H
#define HDEM_BRIDGE_H

#include "interact/interaction.h"
#include "contact/liquid.h"

/* Owned particle i's bridge b with a wall (a plane, a mesh surface) in a
 * force pass, as SphereBridge (sphere_sphere.c) for two particles:
 * a wall holds no liquid, so it takes from the particle alone and gives all
 * of it back; returns whether the pair keeps a bridge. */
static inline PetscBool WallBridge(const InteractionContext *ctx, PetscInt i, const ContactPair *cp, ContactBridge *b, const ContactKinematics *kin,
                             InteractionStep *st, PetscReal F[3])
{
  const Liquid *lq = &ctx->model->liquid;
  Particles    *p  = ctx->p;
  PetscReal     S = -kin->d, R = LiquidRadius(p->radius[i], 0.0), Fb, ddot;

  if (b->V == 0.0) {
    PetscReal gi, gw;
    if (!(kin->d > 0.0)) return PETSC_FALSE;
    b->V = LiquidBridgeForm(lq, p->liquid[i], -1.0, &gi, &gw);
    if (b->V == 0.0) return PETSC_FALSE;
    p->dliquid[i] -= gi;
  } else if (S > LiquidRupture(lq, b->V)) {
    p->dliquid[i] += b->V;
    b->V = 0.0;
    return PETSC_FALSE;
  }
  ddot = -(kin->vp[0] * kin->n[0] + kin->vp[1] * kin->n[1] + kin->vp[2] * kin->n[2]);
  Fb   = LiquidBridgeForce(lq, R, cp->Rstar, b->V, S, ddot);
  for (int a = 0; a < 3; a++) F[a] += Fb * kin->n[a];
  ParticlesLedgerAdd(p, i, LEDGER_LIQUID, Fb * ddot);
  if (st->need) InteractionStepBound(st, LiquidBridgeBound(lq, R, cp->Rstar, b->V, cp->m, ddot, ctx->ctl), i, -1);
  return PETSC_TRUE;
}

/* A wall contact's ledger powers into owned particle i: the contact's
 * (ContactResult P, and its work W straight into the integral), and the work its wall does on it, F . vw, with F the
 * force on the particle and vw the wall's predicted velocity at the contact
 * point. */
static inline void WallLedger(Particles *p, PetscInt i, const ContactResult *cr, const PetscReal F[3], const ContactKinematics *kin)
{
  if (!p->nledger) return;
  ParticlesLedgerAdd(p, i, LEDGER_NORMAL, cr->P[0]);
  ParticlesLedgerAdd(p, i, LEDGER_TANGENTIAL, cr->P[1]);
  ParticlesLedgerAdd(p, i, LEDGER_ROLLING, cr->P[2]);
  ParticlesLedgerAdd(p, i, LEDGER_WALLS, F[0] * kin->vw[0] + F[1] * kin->vw[1] + F[2] * kin->vw[2]);
  if (cr->W != 0.0) p->lwork[(p->nledger + 1) * i] += cr->W;
}

#endif
