/* Verlet pair lists over link cells, with contact history per pair.
 *
 * Cells are binned per size class (radii within a factor 2), each class with
 * cells one cutoff of its largest member wide, and a particle searches only
 * its own class and larger ones: a 10:1 size ratio stays linear in N.
 *
 * Membership is decided on the canonical separation (lower global id first,
 * owner coordinates plus the image difference), so every decomposition holds
 * the same pairs with the same numbers.  Walls are pairs too (j = -1 - wall). */
#ifndef HDEM_NEIGHBOR_H
#define HDEM_NEIGHBOR_H

#include "particles.h"
#include "contact.h"

typedef struct {
  PetscReal n[3], p[3]; /* unit normal into the domain, a point on the plane */
} Wall;

typedef struct {
  PetscInt       i, j;  /* local indices, id[i] < id[j]; j < 0: wall -1 - j */
  ContactPair    cp;    /* pair constants */
  ContactHistory h;
} NeighborPair;

typedef struct {
  PetscInt      npair, cap;
  NeighborPair *pair;
  PetscReal    *pf;        /* per pair: force on i (3), torque on i (3), torque on j (3) */
  PetscInt     *adj_start; /* CSR over owned particles: their pairs by partner id */
  PetscInt     *adj;       /* pair index, negative (-1 - p) where the particle is j */
  PetscInt      nadj_cap, nowned_cap;
  PetscReal     skin;
  PetscInt      builds;
} NeighborList;

PETSC_EXTERN PetscErrorCode NeighborListCreate(PetscReal skin, NeighborList *);
PETSC_EXTERN PetscErrorCode NeighborListDestroy(NeighborList *);
PETSC_EXTERN PetscErrorCode NeighborListBuild(NeighborList *, const Particles *, const PetscReal L[3], const ContactModel *, PetscInt nwall, const Wall *walls);
PETSC_EXTERN void           NeighborSeparation(const Particles *, const PetscReal L[3], PetscInt i, PetscInt j, PetscReal r[3]);

#endif
