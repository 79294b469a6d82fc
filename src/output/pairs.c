/* The table of the pairs of types a run has: each pair's moduli,
 * restitution, friction, range of effective radii and the step bound of a
 * 1 m/s impact of its smallest bodies. */
#include "output/output.h"
#include "engine/flow.h"
#include "decomp/collective.h"
#include <math.h>
#include <string.h>

#define SLOT_STATS 3 /* -smallest radius, largest radius, -smallest mass */

static const char *SlotName(PetscInt s, char *buf, size_t len)
{
  if (s < MATERIAL_TYPES) snprintf(buf, len, "%d", (int)s);
  else snprintf(buf, len, "16+");
  return buf;
}

/* Each slot's particles (present and to come from streams): radius range, smallest mass; every rank the same. */
static PetscErrorCode PairSlots(const Engine *e, PetscReal st[MATERIAL_SLOTS][SLOT_STATS],
                                PetscBool wall[MATERIAL_SLOTS])
{
  PetscFunctionBeginUser;
  for (PetscInt s = 0; s < MATERIAL_SLOTS; s++) st[s][0] = st[s][1] = st[s][2] = -PETSC_MAX_REAL, wall[s] = PETSC_FALSE;
  for (PetscInt i = 0; i < e->p.n; i++) {
    PetscInt s = MaterialSlot(e->p.type[i]);
    st[s][0]   = PetscMax(st[s][0], -e->p.radius[i]);
    st[s][1]   = PetscMax(st[s][1], e->p.radius[i]);
    st[s][2]   = PetscMax(st[s][2], -e->p.mass[i]);
  }
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    const Stream *sm = &e->flow.streams.s[k];
    PetscInt      s;
    if (!sm->on) continue;
    s        = MaterialSlot(sm->type);
    st[s][0] = PetscMax(st[s][0], -sm->rmin);
    st[s][1] = PetscMax(st[s][1], sm->rmax);
    st[s][2] = PetscMax(st[s][2], -(4.0 / 3.0) * HDEM_PI * sm->rmin * sm->rmin * sm->rmin *
                                    ContactMaterialOf(&e->model, sm->type)->density);
  }
  PetscCall(CollectiveMaxAll(e->grid.comm, &st[0][0], MATERIAL_SLOTS * SLOT_STATS));
  for (PetscInt w = 0; w < e->planes.n; w++) wall[MaterialSlot(e->planes.w[w].type)] = PETSC_TRUE;
  for (PetscInt q = 0; q < e->meshes.n; q++) wall[MaterialSlot(e->meshes.m[q].type)] = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PairRow(const Engine *e, PetscInt a, PetscInt b, PetscBool w, const PetscReal sa[SLOT_STATS],
                              const PetscReal sb[SLOT_STATS])
{
  const ContactCoeff *co = &e->model.coeff[a][b];
  PetscReal           r0 = -sa[0], r1 = sa[1], m = -sa[2], R0, R1, bound;
  ContactPair         cp;
  char                na[8], nb[16], zeta[80] = "";

  PetscFunctionBeginUser;
  R0 = w ? r0 : r0 * -sb[0] / (r0 + -sb[0]);
  R1 = w ? r1 : r1 * sb[1] / (r1 + sb[1]);
  ContactPairSetUp(&e->model, a, b, r0, m, 0.4 * m * r0 * r0, w ? 0.0 : -sb[0], w ? 0.0 : -sb[2],
                   w ? 0.0 : 0.4 * -sb[2] * sb[0] * sb[0], w, &cp);
  bound = ContactStepBound(&e->model, &cp, &e->ctl, 0.5 * cp.m * 1.0, 1.0);
  if (co->damping.type == DAMPING_HARMONIC || co->damping.type == DAMPING_LINEAR_DASHPOT)
    snprintf(zeta, sizeof(zeta), " (zeta %.4g)", (double)co->damping.zeta);
  SlotName(a, na, sizeof(na));
  if (w) snprintf(nb, sizeof(nb), "wall %s", SlotName(b, (char[8]){0}, 8));
  else SlotName(b, nb, sizeof(nb));
  if (co->rolling.mu > 0.0)
    snprintf(zeta + strlen(zeta), sizeof(zeta) - strlen(zeta), ", mu_roll %g", (double)co->rolling.mu);
  PetscCall(ReportPrintf(e->grid.comm,
                         "  %-3s - %-8s E* %-10.4g G* %-10.4g e %g%s, mu %g, R* %.4g .. %.4g m, bound %.4g s\n", na, nb,
                         (double)co->Estar, (double)co->Gstar, (double)co->damping.e, zeta, (double)co->tangential.mu,
                         (double)R0, (double)R1, (double)bound));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OutputPairTable(const Engine *e)
{
  PetscReal st[MATERIAL_SLOTS][SLOT_STATS];
  PetscBool wall[MATERIAL_SLOTS];

  PetscFunctionBeginUser;
  PetscCall(PairSlots(e, st, wall));
  PetscCall(ReportPrintf(e->grid.comm, "pairs of types  (E*, G* [Pa]; types 16 and above have the defaults; bound: a 1 "
                                       "m/s impact of the smallest bodies)\n"));
  for (PetscInt a = 0; a < MATERIAL_SLOTS; a++) {
    if (!(st[a][1] > 0.0)) continue;
    for (PetscInt b = a; b < MATERIAL_SLOTS; b++)
      if (st[b][1] > 0.0) PetscCall(PairRow(e, a, b, PETSC_FALSE, st[a], st[b]));
    for (PetscInt w = 0; w < MATERIAL_SLOTS; w++)
      if (wall[w]) PetscCall(PairRow(e, a, w, PETSC_TRUE, st[a], st[a]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
