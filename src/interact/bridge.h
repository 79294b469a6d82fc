/* Liquid bridges and the contacts' energies, for the interactions
 * (sphere_sphere.c, sphere_plane.c, sphere_mesh.c). */
#ifndef HDEM_BRIDGE_H
#define HDEM_BRIDGE_H

#include "interact/interaction.h"
#include "contact/liquid.h"
#include "interact/neighbor.h"

/* Liquid g onto local particle i (taken: g < 0), into its owned copy's
 * step change; a ghost's is its owner's to apply. */
static inline void BridgeGive(Particles *p, PetscInt i, PetscReal g)
{
  PetscInt t = NeighborTarget(p, i);
  if (t >= 0) p->dliquid[t] += g;
}

/* A bridge whose wall or surface is gone: its liquid back on owned particle i. */
static inline void BridgeRelease(Particles *p, PetscInt i, ContactBridge *b)
{
  p->dliquid[i] += b->V;
  b->V = 0.0;
}

/* The shape of a bridge of volume V and Willett radius R: the slot's kept
 * one sh where it was formed for them, else formed (into sh where kept). */
static inline const LiquidShape *BridgeShape(const Liquid *lq, LiquidShape *sh, PetscReal R, PetscReal V,
                                             LiquidShape *local)
{
  LiquidShape *s = sh ? sh : local;
  if (!sh || s->V != V || s->R != R) LiquidShapeOf(lq, R, V, s);
  return s;
}

/* The bridge b of pair (i, j), j < 0 for a wall, in a force pass: it forms
 * at a touch from the members' liquid (a wall holds none: the particle's
 * share alone), pulls (its normal force on i into F), or ruptures beyond
 * Lian's distance and gives its liquid back, half to each particle (all of
 * it to the particle, against a wall).  Its power goes to the contact's
 * leading particle (a pair's upper member j, a wall's particle).  sh: its
 * slot's kept shape (HistorySlotsShape), or NULL.  Returns whether the
 * pair keeps a bridge. */
static inline PetscBool InteractionBridge(const InteractionContext *ctx, PetscInt i, PetscInt j, const ContactPair *cp,
                                          ContactBridge *b, LiquidShape *sh, const ContactKinematics *kin,
                                          InteractionStep *st, PetscReal F[3])
{
  const Liquid      *lq = &ctx->model->liquid;
  Particles         *p  = ctx->p;
  PetscReal          S = -kin->d, R = LiquidRadius(p->radius[i], j >= 0 ? p->radius[j] : 0.0), Fb, ddot;
  PetscInt           lead;
  LiquidShape        local;
  const LiquidShape *s;

  if (b->V == 0.0) {
    PetscReal gi, gj;
    if (!(kin->d > 0.0)) return PETSC_FALSE;
    b->V = LiquidBridgeForm(lq, p->liquid[i], j >= 0 ? p->liquid[j] : -1.0, &gi, &gj);
    if (b->V == 0.0) return PETSC_FALSE;
    BridgeGive(p, i, -gi);
    if (j >= 0) BridgeGive(p, j, -gj);
    s = BridgeShape(lq, sh, R, b->V, &local);
  } else if (S > (s = BridgeShape(lq, sh, R, b->V, &local))->rupture) {
    if (j >= 0) {
      BridgeGive(p, i, 0.5 * b->V);
      BridgeGive(p, j, b->V - 0.5 * b->V);
    } else BridgeGive(p, i, b->V);
    b->V = 0.0;
    return PETSC_FALSE;
  }
  ddot = -(kin->vp[0] * kin->n[0] + kin->vp[1] * kin->n[1] + kin->vp[2] * kin->n[2]);
  Fb   = LiquidBridgeForceShaped(lq, s, cp->Rstar, S, ddot);
  for (int a = 0; a < 3; a++) F[a] += Fb * kin->n[a];
  lead = NeighborTarget(p, j >= 0 ? j : i);
  if (lead >= 0) ParticlesLedgerAdd(p, lead, LEDGER_LIQUID, Fb * ddot);
  if (st->need)
    InteractionStepBound(st, LiquidBridgeBound(lq, R, cp->Rstar, b->V, cp->m, ddot, ctx->ctl), i, j >= 0 ? j : -1);
  return PETSC_TRUE;
}

/* A standing bridge of volume V at separation S (Willett radius R) into the statistics. */
static inline void InteractionStatsBridge(InteractionStats *s, const Liquid *lq, PetscReal R, PetscReal V, PetscReal S)
{
  ExactSumAdd(&s->liquid, V);
  ExactSumAdd(&s->energy[STATS_BRIDGES], LiquidBridgeEnergy(lq, R, V, S));
  s->bridges += 1.0;
}

/* A touching contact (overlap d, elastic energy U) into the statistics,
 * with what its tangential spring (h, if it has a history) and rolling
 * spring (rl, in a run with rolling resistance) hold. */
static inline void InteractionStatsContact(InteractionStats *s, const ContactModel *model, const ContactPair *cp,
                                           const ContactHistory *h, const ContactRolling *rl, PetscReal U, PetscReal d)
{
  ExactSumAdd(&s->energy[STATS_NORMAL], U);
  if (h) ExactSumAdd(&s->energy[STATS_TANGENTIAL], ContactTangentialEnergy(model, cp, h, d));
  if (h && rl) ExactSumAdd(&s->energy[STATS_ROLLING], ContactRollingEnergy(model, cp, rl, d));
  s->contacts += 1.0;
}

/* A wall contact's ledger powers into owned particle i: the contact's
 * (ContactResult P, and its work W straight into the integral), and the work its wall does on it, F . vw, with F the
 * force on the particle and vw the wall's predicted velocity at the contact
 * point. */
static inline void WallLedger(Particles *p, PetscInt i, const ContactResult *cr, const PetscReal F[3],
                              const ContactKinematics *kin)
{
  if (!p->nledger) return;
  ParticlesLedgerAdd(p, i, LEDGER_NORMAL, cr->P[0]);
  ParticlesLedgerAdd(p, i, LEDGER_TANGENTIAL, cr->P[1]);
  ParticlesLedgerAdd(p, i, LEDGER_ROLLING, cr->P[2]);
  ParticlesLedgerAdd(p, i, LEDGER_WALLS, F[0] * kin->vw[0] + F[1] * kin->vw[1] + F[2] * kin->vw[2]);
  if (cr->W != 0.0 && ParticlesLedgerFull(p)) p->lwork[(p->nledger + 1) * i] += cr->W;
}

#endif
