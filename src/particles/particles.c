#include "particles/particles.h"
#include <string.h>

PetscErrorCode ParticlesCreate(Particles *p)
{
  FieldStore *st = &p->st;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  PetscCall(FieldStoreCreate(st, &p->n, &p->nghost, &p->id, &p->x, &p->image, &p->owner, &p->origin, &p->flags));
  PetscCall(
    FieldStoreAdd(st, "type", FIELD_INT32, 1, FIELD_GHOST | FIELD_CHECKPOINT | FIELD_SNAPSHOT, (void **)&p->type));
  PetscCall(
    FieldStoreAdd(st, "radius", FIELD_REAL, 1, FIELD_GHOST | FIELD_CHECKPOINT | FIELD_SNAPSHOT, (void **)&p->radius));
  PetscCall(FieldStoreAdd(st, "mass", FIELD_REAL, 1, FIELD_GHOST | FIELD_CHECKPOINT, (void **)&p->mass));
  PetscCall(FieldStoreAdd(st, "inertia", FIELD_REAL, 1, FIELD_GHOST | FIELD_CHECKPOINT, (void **)&p->inertia));
  PetscCall(FieldStoreAdd(st, "velocity", FIELD_REAL, 3,
                          FIELD_GHOST | FIELD_FORWARD | FIELD_CHECKPOINT | FIELD_SNAPSHOT | FIELD_PAD, (void **)&p->v));
  PetscCall(FieldStoreAdd(st, "angular_velocity", FIELD_REAL, 3,
                          FIELD_GHOST | FIELD_FORWARD | FIELD_CHECKPOINT | FIELD_SNAPSHOT | FIELD_PAD, (void **)&p->w));
  PetscCall(FieldStoreAdd(st, "velocity_predicted", FIELD_REAL, 3,
                          FIELD_GHOST | FIELD_FORWARD | FIELD_PAD | FIELD_STEPPING, (void **)&p->vp));
  PetscCall(FieldStoreAdd(st, "angular_velocity_predicted", FIELD_REAL, 3,
                          FIELD_GHOST | FIELD_FORWARD | FIELD_PAD | FIELD_STEPPING, (void **)&p->wp));
  PetscCall(FieldStoreAdd(st, "force", FIELD_REAL, 3, FIELD_OWNED | FIELD_CHECKPOINT | FIELD_SNAPSHOT, (void **)&p->f));
  PetscCall(
    FieldStoreAdd(st, "torque", FIELD_REAL, 3, FIELD_OWNED | FIELD_CHECKPOINT | FIELD_STEPPING, (void **)&p->t));
  PetscCall(FieldStoreAdd(st, "position_at_build", FIELD_REAL, 3, FIELD_OWNED | FIELD_CHECKPOINT | FIELD_STEPPING,
                          (void **)&p->x0));
  /* no ledger unless ParticlesAddLedger */
  for (PetscInt t = 0; t < LEDGER_TERMS; t++) p->ledger_slot[t] = -1;
  PetscCall(ParticlesReserve(p, 64));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ParticlesDestroy(Particles *p)
{
  PetscFunctionBeginUser;
  PetscCall(FieldStoreDestroy(&p->st));
  PetscCall(PetscMemzero(p, sizeof(*p)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ParticlesAddField(Particles *p, const char *name, FieldType type, PetscInt ncomp, unsigned flags,
                                 void **data)
{
  PetscFunctionBeginUser;
  PetscCall(FieldStoreAdd(&p->st, name, type, ncomp, flags, data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Carried by migration and checkpoints: the trapezoid of the next force
 * pass needs the last one's powers. */
PetscErrorCode ParticlesAddLedger(Particles *p, PetscBool full, PetscBool rolling, PetscBool liquid, PetscBool walls)
{
  const PetscBool on[LEDGER_TERMS] = {full, full, full && rolling, full && liquid, walls};

  PetscFunctionBeginUser;
  p->nledger = 0;
  for (PetscInt t = 0; t < LEDGER_TERMS; t++) p->ledger_slot[t] = on[t] ? (PetscInt)p->nledger++ : -1;
  PetscCall(
    FieldStoreAdd(&p->st, "ledger_power", FIELD_REAL, p->nledger, FIELD_GHOST | FIELD_CHECKPOINT, (void **)&p->lpow));
  PetscCall(
    FieldStoreAdd(&p->st, "ledger_power_now", FIELD_REAL, p->nledger, FIELD_OWNED | FIELD_STEPPING, (void **)&p->lnow));
  PetscCall(FieldStoreAdd(&p->st, "ledger_work", FIELD_REAL, p->nledger + 1, FIELD_GHOST | FIELD_CHECKPOINT,
                          (void **)&p->lwork));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ParticlesAddGravityWork(Particles *p)
{
  PetscFunctionBeginUser;
  PetscCall(FieldStoreAdd(&p->st, "gravity_work", FIELD_REAL, 1, FIELD_GHOST | FIELD_CHECKPOINT, (void **)&p->wgrav));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The body state is carried (and checkpointed) on every member so that a
 * body migrates, and restarts, whole; what the owner alone reads stays off
 * the ghosts (FIELD_MIGRATE); the orientation is forwarded, so that a
 * ghost's contacts have their lever arms and inertia (BodyLever). */
PetscErrorCode ParticlesAddBodies(Particles *p)
{
  FieldStore *st = &p->st;
  /* mc: the owner's alone */
  const unsigned gc = FIELD_GHOST | FIELD_CHECKPOINT, mc = FIELD_OWNED | FIELD_MIGRATE | FIELD_CHECKPOINT;

  PetscFunctionBeginUser;
  PetscCall(FieldStoreAdd(st, "body", FIELD_INT64, 1, gc | FIELD_SNAPSHOT, (void **)&p->body));
  PetscCall(FieldStoreAdd(st, "body_template", FIELD_INT32, 1, mc, (void **)&p->btmpl));
  PetscCall(FieldStoreAdd(st, "body_position", FIELD_REAL, 3, mc, (void **)&p->bx));
  PetscCall(FieldStoreAdd(st, "body_position_at_build", FIELD_REAL, 3, FIELD_OWNED | FIELD_CHECKPOINT | FIELD_STEPPING,
                          (void **)&p->bx0));
  /* a contact's lever arm and inertia come from it */
  PetscCall(FieldStoreAdd(st, "body_orientation", FIELD_REAL, 4, gc | FIELD_FORWARD, (void **)&p->bq));
  PetscCall(FieldStoreAdd(st, "body_velocity", FIELD_REAL, 3, mc, (void **)&p->bv));
  PetscCall(FieldStoreAdd(st, "body_momentum", FIELD_REAL, 4, mc, (void **)&p->bp));
  /* for a ghost's contacts too */
  PetscCall(FieldStoreAdd(st, "body_mass", FIELD_REAL, 1, gc, (void **)&p->bm));
  PetscCall(FieldStoreAdd(st, "body_inertia", FIELD_REAL, 4, gc, (void **)&p->bI));
  PetscCall(FieldStoreAdd(st, "body_offset", FIELD_REAL, 3, gc, (void **)&p->bd));
  PetscCall(FieldStoreAdd(st, "body_force", FIELD_REAL, 6, mc, (void **)&p->bft));
  FieldStoreSetHome(st, &p->bx, PARTICLE_MEMBER);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Forwarded every step: a bridge takes its share of the liquid a ghost held at the step's start. */
PetscErrorCode ParticlesAddLiquid(Particles *p)
{
  PetscFunctionBeginUser;
  PetscCall(FieldStoreAdd(&p->st, "liquid", FIELD_REAL, 1,
                          FIELD_GHOST | FIELD_FORWARD | FIELD_CHECKPOINT | FIELD_SNAPSHOT, (void **)&p->liquid));
  PetscCall(FieldStoreAdd(&p->st, "liquid_change", FIELD_REAL, 1, FIELD_OWNED | FIELD_STEPPING, (void **)&p->dliquid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ParticlesReleaseStepping(Particles *p)
{
  PetscFunctionBeginUser;
  PetscCall(FieldStoreRelease(&p->st, FIELD_STEPPING));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ParticlesReserve(Particles *p, PetscInt cap)
{
  PetscFunctionBeginUser;
  PetscCall(FieldStoreReserve(&p->st, cap));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ParticlesAppend(Particles *p, PetscInt64 id, PetscInt type, PetscInt flags, PetscReal radius,
                               PetscReal density, const PetscReal x[3], const PetscReal v[3], const PetscReal w[3])
{
  PetscInt i;

  PetscFunctionBeginUser;
  PetscCall(FieldStoreAppend(&p->st, &i));
  p->id[i]      = id;
  p->type[i]    = type;
  p->flags[i]   = flags;
  p->radius[i]  = radius;
  p->mass[i]    = (4.0 / 3.0) * HDEM_PI * radius * radius * radius * density;
  p->inertia[i] = 0.4 * p->mass[i] * radius * radius;
  for (int a = 0; a < 3; a++) {
    p->x[3 * i + a]  = x[a];
    p->v[3 * i + a]  = (flags & PARTICLE_FROZEN) ? 0.0 : v[a];
    p->w[3 * i + a]  = (flags & PARTICLE_FROZEN) ? 0.0 : w[a];
    p->vp[3 * i + a] = p->v[3 * i + a];
    p->wp[3 * i + a] = p->w[3 * i + a];
    p->x0[3 * i + a] = x[a];
  }
  if (p->body) { /* a sphere: a body of its own (a member's are set by its body) */
    p->body[i]  = id;
    p->btmpl[i] = -1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt64 id;
  LocalInt   i;
} ParticleKey;

static int ParticleKeyCompare(const void *a, const void *b)
{
  PetscInt64 x = ((const ParticleKey *)a)->id, y = ((const ParticleKey *)b)->id;
  return x < y ? -1 : (x > y);
}

/* Owned ids are unique: the prefix is strictly increasing. */
PetscInt ParticlesSortedPrefix(const Particles *p)
{
  PetscInt k = 1;
  while (k < p->n && p->id[k] > p->id[k - 1]) k++;
  return PetscMin(k, p->n);
}

/* Owned particles into id order (no ghosts may exist): the pair lists run in
 * id order, so their loads then stream through the arrays.  Only local
 * indices change; everything keyed by id, sums included, stays the same. */
PetscErrorCode ParticlesSortOwned(Particles *p)
{
  PetscInt     n = p->n, k = ParticlesSortedPrefix(p), m = n - k, a = 0, b = 0;
  ParticleKey *tail;
  LocalInt    *perm;
  char        *buf;

  PetscFunctionBeginUser;
  PetscCheck(p->nghost == 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "sort owned particles before ghosts exist");
  if (k >= n) PetscFunctionReturn(PETSC_SUCCESS); /* already sorted: the usual case between migrations */
  /* the stayers of a migration keep their order ([0, k) is sorted) and the
   * arrivals are few: sort those alone and merge (ids are unique) */
  PetscCall(PetscMalloc3(m, &tail, n, &perm, (size_t)n * sizeof(PetscInt64), &buf));
  for (PetscInt q = 0; q < m; q++) tail[q].id = p->id[k + q], tail[q].i = (LocalInt)(k + q);
  qsort(tail, (size_t)m, sizeof(*tail), ParticleKeyCompare);
  for (PetscInt q = 0; q < n; q++) perm[q] = (b >= m || (a < k && p->id[a] < tail[b].id)) ? (LocalInt)a++ : tail[b++].i;
  FieldStorePermuteOwned(&p->st, perm, buf);
  PetscCall(PetscFree3(tail, perm, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}
