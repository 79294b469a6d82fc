/* Structure-of-arrays particle store: owned particles first, then ghosts.
 *
 * A ghost carries its owner's coordinates unshifted plus an integer image
 * shift (in box lengths), so that every rank forms the separation of a pair
 * from the same numbers in the same order: r = (x_i - x_j) + (img_i - img_j) L. */
#ifndef HDEM_PARTICLES_H
#define HDEM_PARTICLES_H

#include "hdem.h"

#define PARTICLE_FROZEN 1     /* does not move (a chute's base) */
#define PARTICLE_SELF_IMAGE 2 /* a ghost whose owner is this rank (a periodic image) */

typedef struct {
  PetscInt    n, nghost, cap; /* owned, ghosts after them, capacity */
  PetscInt    ocap;           /* capacity of the owned-only arrays f, t, x0 (ghosts have none) */
  PetscInt64 *id;
  LocalInt   *type, *flags, *owner; /* owner: rank that owns the particle */
  LocalInt   *origin;               /* a periodic self-image ghost: local index of its owned copy, else -1 */
  signed char *image;         /* 3 per particle, in box lengths: zero for owned, a ghost's -1, 0 or 1 (one sweep per axis) */
  PetscReal  *radius, *mass, *inertia;
  PetscReal  *x, *v, *w;      /* 3 per particle */
  PetscReal  *vp, *wp;        /* velocities predicted at the step's end (dashpots) */
  PetscReal  *f, *t;          /* force and torque: owned only (ocap) */
  PetscReal  *x0;             /* position at the last neighbour build (skin check): owned only */
} Particles;

PETSC_EXTERN PetscErrorCode ParticlesCreate(Particles *);
PETSC_EXTERN PetscErrorCode ParticlesDestroy(Particles *);
PETSC_EXTERN PetscErrorCode ParticlesReserve(Particles *, PetscInt cap);       /* for cap owned particles (no ghosts yet) */
PETSC_EXTERN PetscErrorCode ParticlesReserveGhosts(Particles *, PetscInt cap); /* for owned and ghosts together: cap - n ghosts */
PETSC_EXTERN PetscErrorCode ParticlesAppend(Particles *, PetscInt64 id, PetscInt type, PetscInt flags, PetscReal radius, PetscReal density, const PetscReal x[3], const PetscReal v[3], const PetscReal w[3]);
PETSC_EXTERN void           ParticlesCopy(Particles *, PetscInt to, PetscInt from);
PETSC_EXTERN PetscErrorCode ParticlesSortOwned(Particles *); /* into id order; before the ghosts */
PETSC_EXTERN PetscInt       ParticlesSortedPrefix(const Particles *); /* how many owned particles lead in id order */

/* What the forward halo refreshes: position, velocities, predicted
 * velocities (a rank's own periodic images, made and, where asked, refreshed
 * in place). */
static inline void ParticlesCopyMotion(Particles *p, PetscInt to, PetscInt from)
{
  for (int a = 0; a < 3; a++) {
    p->x[3 * to + a]  = p->x[3 * from + a];
    p->v[3 * to + a]  = p->v[3 * from + a];
    p->w[3 * to + a]  = p->w[3 * from + a];
    p->vp[3 * to + a] = p->vp[3 * from + a];
    p->wp[3 * to + a] = p->wp[3 * from + a];
  }
}

/* Doubles per particle in a migration/border message, and packing. */
#define PARTICLE_PACK_REALS 26
PETSC_EXTERN void ParticlesPack(const Particles *, PetscInt i, const PetscInt image_shift[3], PetscReal *buf);
PETSC_EXTERN void ParticlesUnpack(Particles *, PetscInt i, const PetscReal *buf, PetscMPIInt rank);
PETSC_EXTERN void ParticlesImage(Particles *, PetscInt o, PetscInt i, const PetscInt image_shift[3], PetscMPIInt rank);

#endif
