/* What a sphere-mesh contact deposits on its triangle over a step, for a
 * mesh that keeps wear (geometry/wear.h, docs/deck/wear.md): from the
 * contact's force and kinematics as the kernel used them, on the rank that
 * owns the particle. */
#ifndef HDEM_MESH_WEAR_H
#define HDEM_MESH_WEAR_H

#include "geometry/wear.h"
#include "contact/contact.h"

/* Contact cp (kinematics k, result cr) over step dt on whole-mesh triangle
 * tri; begun: its first touch (at the start, dt 0: the contacts touching
 * then).  F.n is the normal force the mesh takes
 * (positive pressing), Ft = F - (F.n) n the friction force, v_slip the
 * contact points' predicted sliding velocity (the kernel's vtp: the
 * particle's velocity less the wall's, with its spin about the lever arm,
 * less its normal part).  An impact is a first touch faster than the
 * mesh's threshold; it adds m |v|^2 / 2 of the relative velocity of the
 * centre, m the contact's mass. */
static inline PetscErrorCode MeshWearContact(MeshWear *w, PetscInt64 tri, const ContactPair *cp,
                                             const ContactKinematics *k, const ContactResult *cr, PetscReal dt,
                                             PetscBool begun)
{
  PetscReal fn, ft[3], vc[3], ar[3], vcn, vt[3], v[WEAR_SUMS], s2;

  if (!(dt > 0.0) && !begun) return PETSC_SUCCESS; /* the forces at the start: only contacts begin */
  fn = cr->F[0] * k->n[0] + cr->F[1] * k->n[1] + cr->F[2] * k->n[2];
  for (int a = 0; a < 3; a++) ft[a] = cr->F[a] - fn * k->n[a], ar[a] = cp->ri * k->wip[a];
  vc[0] = k->vp[0] - (ar[1] * k->n[2] - ar[2] * k->n[1]);
  vc[1] = k->vp[1] - (ar[2] * k->n[0] - ar[0] * k->n[2]);
  vc[2] = k->vp[2] - (ar[0] * k->n[1] - ar[1] * k->n[0]);
  vcn   = vc[0] * k->n[0] + vc[1] * k->n[1] + vc[2] * k->n[2];
  for (int a = 0; a < 3; a++) vt[a] = vc[a] - vcn * k->n[a];
  v[WEAR_IMPULSE]  = fn * dt;
  v[WEAR_FRICTION] = PetscAbsReal(ft[0] * vt[0] + ft[1] * vt[1] + ft[2] * vt[2]) * dt;
  v[WEAR_SLIDING]  = (fn > 0.0 ? fn : 0.0) * PetscSqrtReal(vt[0] * vt[0] + vt[1] * vt[1] + vt[2] * vt[2]) * dt;
  s2               = k->v[0] * k->v[0] + k->v[1] * k->v[1] + k->v[2] * k->v[2];
  v[WEAR_IMPACT]   = begun && s2 > w->impact_speed * w->impact_speed ? 0.5 * cp->m * s2 : 0.0;
  return MeshWearAdd(w, tri, v, begun);
}

#endif
