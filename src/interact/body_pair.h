/* A contact of a sphere of a multi-sphere body: its masses projected on the
 * contact (rigid/body_contact.h), from the lever arms and world inverse
 * inertias of the orientations that members carry, ghosts included.  The other side's share is
 * its own body's, a sphere's (1/m and 1/m + R^2/I), a frozen particle's or
 * a wall's (none).  Pairs of plain spheres keep their constants. */
#ifndef HDEM_BODY_PAIR_H
#define HDEM_BODY_PAIR_H

#include "interact/interaction.h"
#include "rigid/body_contact.h"
#include "rigid/body_step.h"

/* Row i's shares of 1/m_n and 1/m_t for a contact at c n from its centre. */
static inline void BodyPairShares(const Particles *p, PetscInt i, PetscReal c, const PetscReal n[3], PetscReal *kn,
                                  PetscReal *kt)
{
  if (p->flags[i] & PARTICLE_FROZEN) {
    *kn = *kt = 0.0;
  } else if (!(p->flags[i] & PARTICLE_MEMBER)) {
    *kn = 1.0 / p->mass[i];
    *kt = *kn + p->radius[i] * p->radius[i] / p->inertia[i];
  } else { /* from the orientation, as the body's owner places its spheres */
    PetscReal R[9], b[6], arm[3], r[3];
    BodyInverseInertia(p, i, R, b);
    BodyArm(p, i, R, arm);
    const PetscReal Iw[9] = {b[0], b[3], b[4], b[3], b[1], b[5], b[4], b[5], b[2]};
    for (int a = 0; a < 3; a++) r[a] = arm[a] + c * n[a];
    RigidContactShares(1.0 / p->bm[i], Iw, r, n, kn, kt);
  }
}

/* The constants cp of the contact of i (normal n, from j to i) with j, or
 * with a wall (j < 0), with the masses projected when a member takes part:
 * into buf, returned; else cp itself. */
static inline const ContactPair *BodyPairMasses(const InteractionContext *ctx, PetscInt i, PetscInt j,
                                                const PetscReal n[3], const ContactPair *cp, ContactPair *buf)
{
  const Particles *p = ctx->p;
  PetscReal        kni, kti, knj = 0.0, ktj = 0.0;
  if (!p->body || !((p->flags[i] | (j >= 0 ? p->flags[j] : 0)) & PARTICLE_MEMBER)) return cp;
  *buf = *cp;
  BodyPairShares(p, i, -p->radius[i], n, &kni, &kti);
  if (j >= 0) BodyPairShares(p, j, p->radius[j], n, &knj, &ktj);
  buf->m  = 1.0 / (kni + knj);
  buf->mt = 1.0 / (kti + ktj);
  ContactPairTangential(ctx->model, buf);
  return buf;
}

#endif
