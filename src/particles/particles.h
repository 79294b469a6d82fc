/* The particle store: structure of arrays over a field table (decomp/fields.h),
 * owned particles first, then ghosts.  Each field is a named member here and
 * a row of the table there, which says what travels with ghosts, what is
 * forwarded each step, checkpointed and written to snapshots.
 *
 * A ghost carries its owner's coordinates unshifted plus an integer image
 * shift (in box lengths), so that every rank forms the separation of a pair
 * from the same numbers in the same order: r = (x_i - x_j) + (img_i - img_j) L.
 *
 * A Particles is never copied by value: its table holds the addresses of
 * its own members. */
#ifndef HDEM_PARTICLES_H
#define HDEM_PARTICLES_H

#include "decomp/fields.h"

#define PARTICLE_FROZEN     1                /* does not move (a chute's base) */
#define PARTICLE_SELF_IMAGE FIELD_SELF_IMAGE /* a ghost whose owner is this rank (a periodic image) */
#define PARTICLE_MEMBER     4 /* a sphere of a multi-sphere body: its body moves it (rigid/body_step.h) */
#define PARTICLE_STILL      (PARTICLE_FROZEN | PARTICLE_MEMBER) /* what the sphere integrator leaves where it is */

/* The energy ledger's per-particle terms: what the contacts a particle
 * leads (it is their lower id, or their wall's particle) take of the
 * energy, by channel.  Each active term has a slot; normal and tangential
 * always, the others where the run has them. */
typedef enum {
  LEDGER_NORMAL,     /* normal force beyond its elastic part: damping, clipping */
  LEDGER_TANGENTIAL, /* tangential force on the sliding contact points */
  LEDGER_ROLLING,    /* rolling torque */
  LEDGER_LIQUID,     /* liquid bridges' force */
  LEDGER_WALLS,      /* the work moving walls do (on the particle, a gain) */
  LEDGER_TERMS
} LedgerTerm;

typedef struct {
  PetscInt    n, nghost; /* owned, ghosts after them */
  FieldStore  st;        /* the table of the fields below (and any added) */
  PetscInt64 *id;
  LocalInt   *type, *flags, *owner; /* owner: rank that owns the particle */
  LocalInt   *origin;               /* a periodic self-image ghost: local index of its owned copy, else -1 */
  /* 3 per particle, in box lengths: zero for owned, a ghost's -1, 0 or 1 (one sweep per axis) */
  signed char *image;
  PetscReal   *radius, *mass, *inertia;
  /* 3 per particle; v, w (and vp, wp) with one zero real after the last (contact lanes) */
  PetscReal *x, *v, *w;
  PetscReal *vp, *wp; /* velocities predicted at the step's end (dashpots) */
  PetscReal *f, *t;   /* force and torque: owned only */
  PetscReal *x0;      /* position at the last neighbour build (skin check): owned only */
  /* wet runs only (ParticlesAddLiquid), else NULL: the liquid each particle holds [m^3] */
  PetscReal *liquid;
  /* what the step's bridges give (+) and take (-), applied after the force pass: owned only */
  PetscReal *dliquid;
  /* the ledger (ParticlesAddLedger): per particle nledger powers [W] at the
   * last force pass and summed in this one, and nledger + 1 time integrals
   * [J], gravity's work last */
  PetscInt   nledger;
  PetscInt   ledger_slot[LEDGER_TERMS]; /* -1: off */
  PetscReal *lpow, *lnow, *lwork;
  /* without the ledger (ParticlesAddGravityWork): gravity's work on each particle [J], summed by the integrator's first
   * half */
  PetscReal *wgrav;
  /* multi-sphere bodies (ParticlesAddBodies), else NULL.  Every row has its
   * body's id (a sphere's own); a member row (PARTICLE_MEMBER) also carries
   * its body's state, the same on all of its members, which all live on the
   * rank owning the body's centre of mass (bx: migration's key). */
  PetscInt64 *body;  /* the body's id: its first member's (a sphere: its own id) */
  LocalInt   *btmpl; /* the template (clumpN), -1 for a sphere */
  /* 3: the centre of mass: the first member's current, the others' brought to it at each rebuild (BodiesSyncHome) */
  PetscReal *bx;
  /* 3: where the row belonged at the last list build (a member: its centre of mass, a sphere: x0): owned only */
  PetscReal *bx0;
  /* 4: unit quaternion w, x, y, z, body (principal frame) to world (on every member, forwarded) */
  PetscReal *bq;
  PetscReal *bv; /* 3: the centre of mass's velocity */
  PetscReal *bp; /* 4: NO_SQUISH's conjugate momentum of q (rigid/rotation.h) */
  PetscReal *bm; /* the body's mass */
  PetscReal *bI; /* 4: its principal moments and volume-equivalent radius */
  PetscReal *bd; /* 3: the member's centre in the body frame */
  /* 6: the body's force and torque (world, about the centre of mass) at the last force pass */
  PetscReal *bft;
} Particles;

/* Whether the ledger has all its terms (thermo_ledger), not the moving
 * walls' alone that dissipated needs without it; then normal and
 * tangential are slots 0 and 1. */
static inline PetscBool ParticlesLedgerFull(const Particles *p)
{
  return p->ledger_slot[LEDGER_NORMAL] >= 0 ? PETSC_TRUE : PETSC_FALSE;
}

/* Power P of a contact particle t leads into its ledger term (an owned row). */
static inline void ParticlesLedgerAdd(Particles *p, PetscInt t, LedgerTerm term, PetscReal P)
{
  PetscInt s = p->ledger_slot[term];
  if (s >= 0) p->lnow[p->nledger * t + s] += P;
}

PETSC_EXTERN PetscErrorCode ParticlesCreate(Particles *);
PETSC_EXTERN PetscErrorCode ParticlesDestroy(Particles *);
/* Another field (a test's scratch field, a later model's state): one line. */
PETSC_EXTERN PetscErrorCode ParticlesAddField(Particles *, const char *name, FieldType, PetscInt ncomp, unsigned flags,
                                              void **data);
/* The ledger's fields (before any particle is made): full, normal and
 * tangential and the terms beyond them that the run has; else the moving
 * walls' term alone (with gravity's, as always). */
PETSC_EXTERN PetscErrorCode ParticlesAddLedger(Particles *, PetscBool full, PetscBool rolling, PetscBool liquid,
                                               PetscBool walls);
/* Without the ledger: gravity's work per particle alone, so that thermo's
 * dissipated is an exact sum too (before any particle is made). */
PETSC_EXTERN PetscErrorCode ParticlesAddGravityWork(Particles *);
/* A run with multi-sphere bodies: the body fields (before any particle is made). */
PETSC_EXTERN PetscErrorCode ParticlesAddBodies(Particles *);
/* A wet run: the liquid fields (before any particle is made). */
PETSC_EXTERN PetscErrorCode ParticlesAddLiquid(Particles *);
/* for cap owned particles (no ghosts yet) */
PETSC_EXTERN PetscErrorCode ParticlesReserve(Particles *, PetscInt cap);
/* An owned particle (no ghosts may exist yet): a sphere of that density, at rest if frozen. */
PETSC_EXTERN PetscErrorCode ParticlesAppend(Particles *, PetscInt64 id, PetscInt type, PetscInt flags, PetscReal radius,
                                            PetscReal density, const PetscReal x[3], const PetscReal v[3],
                                            const PetscReal w[3]);
PETSC_EXTERN PetscErrorCode ParticlesSortOwned(Particles *); /* into id order; before the ghosts */
/* how many owned particles lead in id order */
PETSC_EXTERN PetscInt ParticlesSortedPrefix(const Particles *);
/* What only the time loop needs (predicted velocities, torques, build
 * positions), freed when a run ends so its output does not stack on it. */
PETSC_EXTERN PetscErrorCode ParticlesReleaseStepping(Particles *);

#endif
