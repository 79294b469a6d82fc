#include "bodies/particles.h"
#include <string.h>

PetscErrorCode ParticlesCreate(Particles *p)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  PetscCall(ParticlesReserve(p, 64));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ParticlesDestroy(Particles *p)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(p->id));
  PetscCall(PetscFree(p->type));
  PetscCall(PetscFree(p->flags));
  PetscCall(PetscFree(p->owner));
  PetscCall(PetscFree(p->origin));
  PetscCall(PetscFree(p->image));
  PetscCall(PetscFree(p->radius));
  PetscCall(PetscFree(p->mass));
  PetscCall(PetscFree(p->inertia));
  PetscCall(PetscFree(p->x));
  PetscCall(PetscFree(p->v));
  PetscCall(PetscFree(p->w));
  PetscCall(PetscFree(p->vp));
  PetscCall(PetscFree(p->wp));
  PetscCall(PetscFree(p->f));
  PetscCall(PetscFree(p->t));
  PetscCall(PetscFree(p->x0));
  PetscCall(PetscMemzero(p, sizeof(*p)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Grow every array to hold cap particles (owned + ghosts), keeping contents.
 * Each array is reallocated on its own (large ones are remapped, not
 * copied, so growing never holds two copies of the store) and by a quarter
 * at least: the store is the largest part of memory after the libraries.
 * These are the arrays every local particle has, ghosts included. */
PetscErrorCode ParticlesReserveGhosts(Particles *p, PetscInt cap)
{
  PetscFunctionBeginUser;
  if (cap <= p->cap) PetscFunctionReturn(PETSC_SUCCESS);
  /* local indices are 32-bit, and so are the sieve's gather offsets 3 i */
  PetscCheck(cap <= LOCAL_INT_MAX / 3, PETSC_COMM_SELF, PETSC_ERR_SUP, "a rank holds %" PetscInt_FMT " particles with its ghosts, more than its 32-bit local indices allow (%d): run on more ranks", cap, (int)(LOCAL_INT_MAX / 3));
  cap = PetscMin(LOCAL_INT_MAX / 3, PetscMax(cap, p->cap + p->cap / 4));
  PetscCall(PetscRealloc((size_t)cap * sizeof(*p->id), &p->id));
  PetscCall(PetscRealloc((size_t)cap * sizeof(*p->type), &p->type));
  PetscCall(PetscRealloc((size_t)cap * sizeof(*p->flags), &p->flags));
  PetscCall(PetscRealloc((size_t)cap * sizeof(*p->owner), &p->owner));
  PetscCall(PetscRealloc((size_t)cap * sizeof(*p->origin), &p->origin));
  PetscCall(PetscRealloc((size_t)cap * 3 * sizeof(*p->image), &p->image));
  PetscCall(PetscRealloc((size_t)cap * sizeof(*p->radius), &p->radius));
  PetscCall(PetscRealloc((size_t)cap * sizeof(*p->mass), &p->mass));
  PetscCall(PetscRealloc((size_t)cap * sizeof(*p->inertia), &p->inertia));
  PetscCall(PetscRealloc((size_t)cap * 3 * sizeof(*p->x), &p->x));
  PetscCall(PetscRealloc(((size_t)cap * 3 + 1) * sizeof(*p->v), &p->v));
  PetscCall(PetscRealloc(((size_t)cap * 3 + 1) * sizeof(*p->w), &p->w));
  PetscCall(PetscRealloc(((size_t)cap * 3 + 1) * sizeof(*p->vp), &p->vp));
  PetscCall(PetscRealloc(((size_t)cap * 3 + 1) * sizeof(*p->wp), &p->wp));
  /* v, w, vp, wp: one real past the last particle, zero, for the contact
   * lanes' four-real loads of a particle's three components */
  p->v[3 * cap] = p->w[3 * cap] = p->vp[3 * cap] = p->wp[3 * cap] = 0.0;
  p->cap = cap;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Also the owned-only arrays, which ghosts (most of a small subdomain's
 * particles) do not need: nothing reads a ghost's force, torque or build
 * position. */
PetscErrorCode ParticlesReserve(Particles *p, PetscInt cap)
{
  PetscFunctionBeginUser;
  PetscCall(ParticlesReserveGhosts(p, cap));
  if (cap <= p->ocap) PetscFunctionReturn(PETSC_SUCCESS);
  cap = PetscMax(cap, p->ocap + p->ocap / 4);
  PetscCall(PetscRealloc((size_t)cap * 3 * sizeof(*p->f), &p->f));
  PetscCall(PetscRealloc((size_t)cap * 3 * sizeof(*p->t), &p->t));
  PetscCall(PetscRealloc((size_t)cap * 3 * sizeof(*p->x0), &p->x0));
  p->ocap = cap;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Append an owned particle (no ghosts may exist yet). */
PetscErrorCode ParticlesAppend(Particles *p, PetscInt64 id, PetscInt type, PetscInt flags, PetscReal radius, PetscReal density, const PetscReal x[3], const PetscReal v[3], const PetscReal w[3])
{
  PetscInt i = p->n;

  PetscFunctionBeginUser;
  PetscCheck(p->nghost == 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "append owned particles before ghosts exist");
  PetscCall(ParticlesReserve(p, i + 1));
  p->id[i]      = id;
  p->type[i]    = type;
  p->flags[i]   = flags;
  p->owner[i]   = -1; /* set by the engine */
  p->origin[i]  = -1;
  p->radius[i]  = radius;
  p->mass[i]    = (4.0 / 3.0) * HDEM_PI * radius * radius * radius * density;
  p->inertia[i] = 0.4 * p->mass[i] * radius * radius;
  for (int a = 0; a < 3; a++) {
    p->image[3 * i + a] = 0;
    p->x[3 * i + a]     = x[a];
    p->v[3 * i + a]     = (flags & PARTICLE_FROZEN) ? 0.0 : v[a];
    p->w[3 * i + a]     = (flags & PARTICLE_FROZEN) ? 0.0 : w[a];
    p->vp[3 * i + a]    = p->v[3 * i + a];
    p->wp[3 * i + a]    = p->w[3 * i + a];
    p->f[3 * i + a] = p->t[3 * i + a] = 0.0;
    p->x0[3 * i + a]                  = x[a];
  }
  p->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void ParticlesCopy(Particles *p, PetscInt to, PetscInt from)
{
  p->id[to]      = p->id[from];
  p->type[to]    = p->type[from];
  p->flags[to]   = p->flags[from];
  p->owner[to]   = p->owner[from];
  p->origin[to]  = p->origin[from];
  p->radius[to]  = p->radius[from];
  p->mass[to]    = p->mass[from];
  p->inertia[to] = p->inertia[from];
  ParticlesCopyMotion(p, to, from);
  for (int a = 0; a < 3; a++) {
    p->image[3 * to + a] = p->image[3 * from + a];
    p->f[3 * to + a]     = p->f[3 * from + a];
    p->t[3 * to + a]     = p->t[3 * from + a];
    p->x0[3 * to + a]    = p->x0[3 * from + a];
  }
}

typedef struct {
  PetscInt64 id;
  PetscInt   i;
} ParticleKey;

static int ParticleKeyCompare(const void *a, const void *b)
{
  PetscInt64 x = ((const ParticleKey *)a)->id, y = ((const ParticleKey *)b)->id;
  return x < y ? -1 : (x > y);
}

/* a[bs k + c] = a[bs perm[k] + c] for n blocks of bs elements of sz bytes,
 * one component at a time through buf (n elements): a small transient. */
static void ParticlesGather(void *a, size_t sz, int bs, PetscInt n, const ParticleKey *perm, char *buf)
{
  char *c = (char *)a;
  for (int q = 0; q < bs; q++) {
    for (PetscInt k = 0; k < n; k++) memcpy(buf + (size_t)k * sz, c + ((size_t)perm[k].i * bs + q) * sz, sz);
    for (PetscInt k = 0; k < n; k++) memcpy(c + ((size_t)k * bs + q) * sz, buf + (size_t)k * sz, sz);
  }
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
  PetscInt     n = p->n, k = ParticlesSortedPrefix(p);
  ParticleKey *key;
  char        *buf;

  PetscFunctionBeginUser;
  PetscCheck(p->nghost == 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "sort owned particles before ghosts exist");
  if (k >= n) PetscFunctionReturn(PETSC_SUCCESS); /* already sorted: the usual case between migrations */
  PetscCall(PetscMalloc1(n, &key));
  PetscCall(PetscMalloc1((size_t)n * sizeof(PetscInt64), &buf));
  {
    /* the stayers of a migration keep their order ([0, k) is sorted) and the
     * arrivals are few: sort those alone and merge (ids are unique) */
    PetscInt     m = n - k, a = 0, b = 0;
    ParticleKey *tail;
    PetscCall(PetscMalloc1(m, &tail));
    for (PetscInt q = 0; q < m; q++) tail[q].id = p->id[k + q], tail[q].i = k + q;
    qsort(tail, (size_t)m, sizeof(*tail), ParticleKeyCompare);
    for (PetscInt q = 0; q < n; q++) {
      if (b >= m || (a < k && p->id[a] < tail[b].id)) key[q].id = p->id[a], key[q].i = a, a++;
      else key[q] = tail[b++];
    }
    PetscCall(PetscFree(tail));
  }
  ParticlesGather(p->id, sizeof(*p->id), 1, n, key, buf);
  ParticlesGather(p->type, sizeof(*p->type), 1, n, key, buf);
  ParticlesGather(p->flags, sizeof(*p->flags), 1, n, key, buf);
  ParticlesGather(p->owner, sizeof(*p->owner), 1, n, key, buf);
  ParticlesGather(p->origin, sizeof(*p->origin), 1, n, key, buf);
  ParticlesGather(p->image, sizeof(*p->image), 3, n, key, buf);
  ParticlesGather(p->radius, sizeof(*p->radius), 1, n, key, buf);
  ParticlesGather(p->mass, sizeof(*p->mass), 1, n, key, buf);
  ParticlesGather(p->inertia, sizeof(*p->inertia), 1, n, key, buf);
  ParticlesGather(p->x, sizeof(*p->x), 3, n, key, buf);
  ParticlesGather(p->v, sizeof(*p->v), 3, n, key, buf);
  ParticlesGather(p->w, sizeof(*p->w), 3, n, key, buf);
  ParticlesGather(p->vp, sizeof(*p->vp), 3, n, key, buf);
  ParticlesGather(p->wp, sizeof(*p->wp), 3, n, key, buf);
  ParticlesGather(p->f, sizeof(*p->f), 3, n, key, buf);
  ParticlesGather(p->t, sizeof(*p->t), 3, n, key, buf);
  ParticlesGather(p->x0, sizeof(*p->x0), 3, n, key, buf);
  PetscCall(PetscFree(buf));
  PetscCall(PetscFree(key));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Integers travel as doubles: exact below 2^53, which ids are checked against. */
void ParticlesPack(const Particles *p, PetscInt i, const PetscInt shift[3], PetscReal *b)
{
  b[0] = (PetscReal)p->id[i];
  b[1] = (PetscReal)p->type[i];
  b[2] = (PetscReal)p->flags[i];
  b[3] = p->radius[i];
  b[4] = p->mass[i];
  b[5] = p->inertia[i];
  b[18] = (PetscReal)p->owner[i];
  b[25] = (PetscReal)(i < p->n ? i : p->origin[i]);
  for (int a = 0; a < 3; a++) {
    b[6 + a]  = (PetscReal)(p->image[3 * i + a] + shift[a]);
    b[9 + a]  = p->x[3 * i + a];
    b[12 + a] = p->v[3 * i + a];
    b[15 + a] = p->w[3 * i + a];
    b[19 + a] = p->vp[3 * i + a];
    b[22 + a] = p->wp[3 * i + a];
  }
}

/* ParticlesUnpack(o, ParticlesPack(i, shift)) on this rank without the
 * message: a periodic image of local particle i becomes ghost o (reserved). */
void ParticlesImage(Particles *p, PetscInt o, PetscInt i, const PetscInt shift[3], PetscMPIInt rank)
{
  PetscInt owner = p->owner[i], origin = i < p->n ? i : p->origin[i];
  p->id[o]      = p->id[i];
  p->type[o]    = p->type[i];
  p->owner[o]   = owner;
  p->origin[o]  = owner == rank ? origin : -1;
  p->flags[o]   = (p->flags[i] & ~PARTICLE_SELF_IMAGE) | (owner == rank ? PARTICLE_SELF_IMAGE : 0);
  p->radius[o]  = p->radius[i];
  p->mass[o]    = p->mass[i];
  p->inertia[o] = p->inertia[i];
  ParticlesCopyMotion(p, o, i);
  for (int a = 0; a < 3; a++) {
    p->image[3 * o + a] = (signed char)(p->image[3 * i + a] + shift[a]);
    if (o < p->ocap) {
      p->f[3 * o + a] = p->t[3 * o + a] = 0.0;
      p->x0[3 * o + a]                  = p->x[3 * i + a];
    }
  }
}

void ParticlesUnpack(Particles *p, PetscInt i, const PetscReal *b, PetscMPIInt rank)
{
  p->id[i]      = (PetscInt64)b[0];
  p->type[i]    = (PetscInt)b[1];
  p->owner[i]   = (PetscInt)b[18];
  p->origin[i]  = p->owner[i] == rank ? (PetscInt)b[25] : -1;
  p->flags[i]   = ((PetscInt)b[2] & ~PARTICLE_SELF_IMAGE) | (p->owner[i] == rank ? PARTICLE_SELF_IMAGE : 0);
  p->radius[i]  = b[3];
  p->mass[i]    = b[4];
  p->inertia[i] = b[5];
  for (int a = 0; a < 3; a++) {
    p->image[3 * i + a] = (signed char)b[6 + a];
    p->x[3 * i + a]     = b[9 + a];
    p->v[3 * i + a]     = b[12 + a];
    p->w[3 * i + a]     = b[15 + a];
    p->vp[3 * i + a]    = b[19 + a];
    p->wp[3 * i + a]    = b[22 + a];
    if (i < p->ocap) { /* an owned particle's (a ghost's index may be past them) */
      p->f[3 * i + a] = p->t[3 * i + a] = 0.0;
      p->x0[3 * i + a]                  = b[9 + a];
    }
  }
}
