/* Verlet pair lists over link cells, with contact history per pair.
 *
 * Cells are binned per size class (radii within a factor 2), each class with
 * cells one cutoff of its largest member wide, and a particle searches only
 * its own class and larger ones: a 10:1 size ratio stays linear in N.
 *
 * Membership is decided on the canonical separation (lower global id first,
 * owner coordinates plus the image difference), so every decomposition holds
 * the same pairs with the same numbers.  The sphere-sphere interaction's
 * list (interact/sphere_sphere.c). */
#ifndef HDEM_NEIGHBOR_H
#define HDEM_NEIGHBOR_H

#include "particles/particles.h"
#include "interact/history.h"
#include "decomp/scratch.h"

/* Pairs are slim (two indices and the history; contact constants are derived
 * from the two bodies when they touch) and stored in the canonical summation
 * order: by (upper id, lower id).  Each particle then meets its pairs in
 * partner-id order (lower partners by their id, then upper ones), so forces
 * are summed canonically by accumulating in pair order, with no adjacency
 * or per-pair force buffer. */
#define NEIGHBOR_TOUCHED 1 /* the history is in contact: read the pair even when apart */
#define NEIGHBOR_IMAGED  2 /* the members' image shifts differed at the build: the pair's image[] is not zero */
/* A particle pair's image difference img_i - img_j, -2 .. 2 per axis (ghosts
 * are one box length away at most), as an index into the list's table of
 * the 125 periodic shifts */
#define NEIGHBOR_IMAGE_INDEX(d0, d1, d2) (((d0) + 2) * 25 + ((d1) + 2) * 5 + ((d2) + 2))
#define NEIGHBOR_IMAGES                  125
#define NEIGHBOR_BODY_CLASSES            7
/* The rest of a pair's flag: its members' body classes bi NEIGHBOR_BODY_CLASSES + bj,
 * or NEIGHBOR_CLASS_NONE */
#define NEIGHBOR_PAIR_CLASS(bi, bj) ((bi)*NEIGHBOR_BODY_CLASSES + (bj))
#define NEIGHBOR_CLASS_SHIFT        2
#define NEIGHBOR_CLASS_NONE         63
_Static_assert(NEIGHBOR_BODY_CLASSES *NEIGHBOR_BODY_CLASSES < NEIGHBOR_CLASS_NONE, "body classes fit the pair flag");

typedef struct {
  PetscInt  npair, cap;
  LocalInt *ij;   /* 2 per pair: local indices i, j, id[i] < id[j] */
  LocalInt *slot; /* per pair: its history in h[], or -1 (a zero history) */
  /* per pair: NEIGHBOR_TOUCHED (mirrors the history's touched), NEIGHBOR_IMAGED, class */
  unsigned char *flag;
  unsigned char *image; /* per pair: its members' image difference at the build (NEIGHBOR_IMAGE_INDEX), which the
        members' indices no longer carry once aliased (NeighborListAlias) */
  PetscReal    shift[NEIGHBOR_IMAGES][3]; /* each image difference's periodic shift, (img_i - img_j) L */
  HistorySlots hs;                        /* the histories of the pairs that have one */
  /* Body class of each local particle at the build (shapes are fixed between
   * builds): particles of one class have the same radius, mass, inertia,
   * type and frozen flag; -1 past the first NEIGHBOR_BODY_CLASSES distinct bodies. */
  LocalInt *body;
  PetscInt  bcap;
  PetscReal skin;
  PetscInt  builds;
} NeighborList;

PETSC_EXTERN PetscErrorCode NeighborListCreate(PetscReal skin, NeighborList *);
PETSC_EXTERN PetscErrorCode NeighborListDestroy(NeighborList *);
/* Drops the pairs' histories (keeping their room): gather them first.  Its
 * transient arrays come from the Scratch. */
PETSC_EXTERN PetscErrorCode NeighborListBuild(NeighborList *, const Particles *, const PetscReal L[3], Scratch *);
/* Each particle member i becomes root[i], a local particle with the same
 * id and motion (a rank's own periodic images to the particle they copy,
 * ExchangeBorders): the pairs read motion that is kept current, their image
 * differences stay in image[]. */
PETSC_EXTERN void NeighborListAlias(NeighborList *, const LocalInt *root);
/* The one formula every rank uses for the separation of i from j, from the
 * particles' images: for particles as the build sees them, not for a pair's
 * members once aliased (NeighborListAlias), whose separation is
 * NeighborPairSeparation (the same arithmetic). */
static inline void NeighborSeparationInline(const Particles *p, const PetscReal L[3], PetscInt i, PetscInt j,
                                            PetscReal r[3])
{
  for (int a = 0; a < 3; a++) {
    PetscInt di = p->image[3 * i + a] - p->image[3 * j + a];
    r[a]        = p->x[3 * i + a] - p->x[3 * j + a];
    if (di) r[a] += (PetscReal)di * L[a];
  }
}

/* The separation of pair k's particle members i from j (NeighborSeparationInline's
 * arithmetic, the image difference the pair's). */
static inline void NeighborPairSeparation(const NeighborList *nl, const Particles *p, PetscInt k, PetscInt i,
                                          PetscInt j, PetscReal r[3])
{
  const PetscReal *t = nl->shift[nl->image[k]];
  for (int a = 0; a < 3; a++) {
    r[a] = p->x[3 * i + a] - p->x[3 * j + a];
    if (t[a] != 0.0) r[a] += t[a];
  }
}

/* The owned particle that receives a pair member's force: itself, or the
 * owned copy of a periodic self-image; -1 for other ranks' ghosts. */
static inline PetscInt NeighborTarget(const Particles *p, PetscInt i)
{
  return i < p->n ? i : p->origin[i];
}

#endif
