/* The owned bodies as state files write them (io/snapshot.h's /bodies). */
#include "engine/engine.h"
#include "rigid/rotation.h"

PetscErrorCode EngineBodiesGet(const Engine *e, SnapshotBodies *b)
{
  const Particles *p  = &e->p;
  const BodyIndex *bi = EngineBodyIndex(e);
  const PetscInt   n  = bi->nbody;
  PetscInt64      *id;
  LocalInt        *tm;
  PetscReal       *x, *q, *v, *w;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(b, sizeof(*b)));
  if (!p->body) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc6(n + 1, &id, n + 1, &tm, 3 * n + 1, &x, 4 * n + 1, &q, 3 * n + 1, &v, 3 * n + 1, &w));
  for (PetscInt k = 0; k < n; k++) {
    PetscInt l = bi->row[bi->start[k]];
    id[k] = p->body[l], tm[k] = p->btmpl[l];
    for (int a = 0; a < 3; a++) x[3 * k + a] = p->bx[3 * l + a], v[3 * k + a] = p->bv[3 * l + a];
    for (int a = 0; a < 4; a++) q[4 * k + a] = p->bq[4 * l + a];
    RigidOmegaWorld(p->bq + 4 * l, p->bp + 4 * l, p->bI + 4 * l, w + 3 * k);
  }
  b->on = PETSC_TRUE, b->n = n;
  b->id = id, b->tmpl = tm, b->position = x, b->orientation = q, b->velocity = v, b->angular_velocity = w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineBodiesFree(SnapshotBodies *b)
{
  PetscInt64 *id = (PetscInt64 *)b->id;
  LocalInt   *tm = (LocalInt *)b->tmpl;
  PetscReal  *x = (PetscReal *)b->position, *q = (PetscReal *)b->orientation, *v = (PetscReal *)b->velocity,
            *w = (PetscReal *)b->angular_velocity;

  PetscFunctionBeginUser;
  if (b->on) PetscCall(PetscFree6(id, tm, x, q, v, w));
  PetscCall(PetscMemzero(b, sizeof(*b)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
