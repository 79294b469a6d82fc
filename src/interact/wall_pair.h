/* The constants of a particle against a wall (infinite mass, the model's
 * material), shared by the wall interactions: the last set is reused while
 * the particle's radius, mass and inertia match (most decks have few
 * distinct ones). */
#ifndef HDEM_WALL_PAIR_H
#define HDEM_WALL_PAIR_H

#include "interact/interaction.h"

typedef struct {
  PetscBool   valid;
  PetscReal   key[3];
  ContactPair cp;
} WallPairMemo;

static inline const ContactPair *WallPairConstants(const InteractionContext *ctx, PetscInt i, WallPairMemo *mm)
{
  const Particles *p = ctx->p;
  if (!(mm->valid && mm->key[0] == p->radius[i] && mm->key[1] == p->mass[i] && mm->key[2] == p->inertia[i])) {
    mm->key[0] = p->radius[i], mm->key[1] = p->mass[i], mm->key[2] = p->inertia[i];
    ContactPairSetUp(ctx->model, mm->key[0], mm->key[1], mm->key[2], 0.0, 0.0, 0.0, PETSC_TRUE, &mm->cp);
    mm->valid = PETSC_TRUE;
  }
  return &mm->cp;
}

#endif
