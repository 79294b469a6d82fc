#include "neighbor.h"
#include <stdint.h>

#define NEIGHBOR_MAX_CLASSES 24

PetscErrorCode NeighborListCreate(PetscReal skin, NeighborList *nl)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(nl, sizeof(*nl)));
  nl->skin = skin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode NeighborListDestroy(NeighborList *nl)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(nl->pair));
  PetscCall(PetscFree(nl->pf));
  PetscCall(PetscFree(nl->adj_start));
  PetscCall(PetscFree(nl->adj));
  PetscCall(PetscMemzero(nl, sizeof(*nl)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The one formula every rank uses for the separation of i from j. */
void NeighborSeparation(const Particles *p, const PetscReal L[3], PetscInt i, PetscInt j, PetscReal r[3])
{
  for (int a = 0; a < 3; a++) {
    PetscInt di = p->image[3 * i + a] - p->image[3 * j + a];
    r[a]        = p->x[3 * i + a] - p->x[3 * j + a];
    if (di) r[a] += (PetscReal)di * L[a];
  }
}

static PetscErrorCode NeighborAddPair(NeighborList *nl, PetscInt i, PetscInt j)
{
  PetscFunctionBeginUser;
  if (nl->npair == nl->cap) {
    nl->cap = nl->cap ? 2 * nl->cap : 1024;
    PetscCall(PetscRealloc((size_t)nl->cap * sizeof(*nl->pair), &nl->pair));
  }
  nl->pair[nl->npair].i = i;
  nl->pair[nl->npair].j = j;
  nl->npair++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A pair is held on this rank if its lower-id member is owned, or its upper
 * member is owned and the lower one is not a periodic image of an owned
 * particle (then the same contact is already held with the roles swapped).
 * A kept pair's self-image member passes its force to its owned copy. */
static PetscBool NeighborKeep(const Particles *p, PetscInt lo, PetscInt hi)
{
  if (lo < p->n) return PETSC_TRUE;
  return (hi < p->n && !(p->flags[lo] & PARTICLE_SELF_IMAGE)) ? PETSC_TRUE : PETSC_FALSE;
}

static PetscInt64 NeighborPartnerKey(const NeighborList *nl, const Particles *p, PetscInt e)
{
  const NeighborPair *q = &nl->pair[e >= 0 ? e : -1 - e];
  if (e < 0) return p->id[q->i];
  if (q->j < 0) return INT64_MAX - 64 + (-1 - q->j); /* walls after all particles */
  return p->id[q->j];
}

/* The owned particle that receives a pair member's force: itself, or the
 * owned copy of a periodic self-image; -1 for other ranks' ghosts. */
static inline PetscInt NeighborTarget(const Particles *p, PetscInt i)
{
  return i < p->n ? i : p->origin[i];
}

/* Each owned particle's pairs, sorted by partner id: the canonical order in
 * which its force is summed. */
static PetscErrorCode NeighborBuildAdjacency(NeighborList *nl, const Particles *p)
{
  PetscInt *cnt;

  PetscFunctionBeginUser;
  if (nl->nowned_cap < p->n + 1) {
    PetscCall(PetscFree(nl->adj_start));
    nl->nowned_cap = PetscMax(p->n + 1, 2 * nl->nowned_cap);
    PetscCall(PetscMalloc1(nl->nowned_cap, &nl->adj_start));
  }
  PetscCall(PetscCalloc1(p->n + 1, &cnt));
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt ti = NeighborTarget(p, nl->pair[k].i), tj = nl->pair[k].j >= 0 ? NeighborTarget(p, nl->pair[k].j) : -1;
    if (ti >= 0) cnt[ti]++;
    if (tj >= 0) cnt[tj]++;
  }
  nl->adj_start[0] = 0;
  for (PetscInt i = 0; i < p->n; i++) nl->adj_start[i + 1] = nl->adj_start[i] + cnt[i];
  if (nl->nadj_cap < nl->adj_start[p->n]) {
    PetscCall(PetscFree(nl->adj));
    nl->nadj_cap = PetscMax(nl->adj_start[p->n], 2 * nl->nadj_cap);
    PetscCall(PetscMalloc1(nl->nadj_cap, &nl->adj));
  }
  for (PetscInt i = 0; i < p->n; i++) cnt[i] = nl->adj_start[i];
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt ti = NeighborTarget(p, nl->pair[k].i), tj = nl->pair[k].j >= 0 ? NeighborTarget(p, nl->pair[k].j) : -1;
    if (ti >= 0) nl->adj[cnt[ti]++] = k;
    if (tj >= 0) nl->adj[cnt[tj]++] = -1 - k;
  }
  for (PetscInt i = 0; i < p->n; i++) /* segments are short: insertion sort */
    for (PetscInt a = nl->adj_start[i] + 1; a < nl->adj_start[i + 1]; a++) {
      PetscInt   e = nl->adj[a], b = a - 1;
      PetscInt64 key = NeighborPartnerKey(nl, p, e);
      while (b >= nl->adj_start[i] && NeighborPartnerKey(nl, p, nl->adj[b]) > key) {
        nl->adj[b + 1] = nl->adj[b];
        b--;
      }
      nl->adj[b + 1] = e;
    }
  PetscCall(PetscFree(cnt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscReal rmax, w[3];
  PetscInt  nc[3], *start, *member;
} CellClass;

PetscErrorCode NeighborListBuild(NeighborList *nl, const Particles *p, const PetscReal L[3], const ContactModel *model, PetscInt nwall, const Wall *walls)
{
  PetscInt   ntot = p->n + p->nghost, ncls = 0, *cls;
  PetscReal *xs, bbmin[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, bbmax[3] = {PETSC_MIN_REAL, PETSC_MIN_REAL, PETSC_MIN_REAL}, rmin = PETSC_MAX_REAL, skin = nl->skin;
  CellClass  cc[NEIGHBOR_MAX_CLASSES];

  PetscFunctionBeginUser;
  nl->npair = 0;
  nl->builds++;
  PetscCall(PetscMalloc2(3 * ntot, &xs, ntot, &cls));
  for (PetscInt i = 0; i < ntot; i++) {
    for (int a = 0; a < 3; a++) {
      xs[3 * i + a] = p->x[3 * i + a] + (p->image[3 * i + a] ? (PetscReal)p->image[3 * i + a] * L[a] : 0.0);
      bbmin[a]      = PetscMin(bbmin[a], xs[3 * i + a]);
      bbmax[a]      = PetscMax(bbmax[a], xs[3 * i + a]);
    }
    rmin = PetscMin(rmin, p->radius[i]);
  }
  /* size classes: radii within a factor 2 share cells */
  for (PetscInt i = 0; i < ntot; i++) {
    PetscInt k = 0;
    while (k < NEIGHBOR_MAX_CLASSES - 1 && p->radius[i] >= rmin * (PetscReal)(2 << k)) k++;
    cls[i] = k;
    ncls   = PetscMax(ncls, k + 1);
  }
  for (PetscInt c = 0; c < ncls; c++) cc[c].rmax = 0.0;
  for (PetscInt i = 0; i < ntot; i++) cc[cls[i]].rmax = PetscMax(cc[cls[i]].rmax, p->radius[i]);
  for (PetscInt c = 0; c < ncls; c++) {
    PetscInt ncell = 1, *fill;
    if (cc[c].rmax == 0.0) {
      cc[c].start = cc[c].member = NULL;
      continue;
    }
    for (int a = 0; a < 3; a++) {
      PetscReal ext = PetscMax(bbmax[a] - bbmin[a], 1e-300), h = 2.0 * cc[c].rmax + skin;
      cc[c].nc[a]   = (PetscInt)PetscMax(1.0, PetscMin(floor(ext / h), 1024.0));
      cc[c].w[a]    = ext / cc[c].nc[a] * (1.0 + 1e-12);
      ncell *= cc[c].nc[a];
    }
    PetscCall(PetscCalloc1(ncell + 1, &cc[c].start));
    PetscCall(PetscMalloc1(ntot, &cc[c].member));
    PetscCall(PetscMalloc1(ncell + 1, &fill));
    for (PetscInt i = 0; i < ntot; i++) {
      PetscInt cell = 0;
      if (cls[i] != c) continue;
      for (int a = 2; a >= 0; a--) cell = cell * cc[c].nc[a] + PetscMin((PetscInt)((xs[3 * i + a] - bbmin[a]) / cc[c].w[a]), cc[c].nc[a] - 1);
      cc[c].start[cell + 1]++;
    }
    for (PetscInt k = 0; k < ncell; k++) cc[c].start[k + 1] += cc[c].start[k];
    for (PetscInt k = 0; k <= ncell; k++) fill[k] = cc[c].start[k];
    for (PetscInt i = 0; i < ntot; i++) {
      PetscInt cell = 0;
      if (cls[i] != c) continue;
      for (int a = 2; a >= 0; a--) cell = cell * cc[c].nc[a] + PetscMin((PetscInt)((xs[3 * i + a] - bbmin[a]) / cc[c].w[a]), cc[c].nc[a] - 1);
      cc[c].member[fill[cell]++] = i;
    }
    PetscCall(PetscFree(fill));
  }
  for (PetscInt i = 0; i < ntot; i++) {
    for (PetscInt c = cls[i]; c < ncls; c++) {
      PetscInt  lo[3], hi[3];
      PetscReal reach = (p->radius[i] + cc[c].rmax + skin) * (1.0 + 1e-9);
      if (!cc[c].start) continue;
      for (int a = 0; a < 3; a++) {
        lo[a] = (PetscInt)PetscMax(0.0, floor((xs[3 * i + a] - reach - bbmin[a]) / cc[c].w[a]));
        hi[a] = (PetscInt)PetscMin((PetscReal)(cc[c].nc[a] - 1), floor((xs[3 * i + a] + reach - bbmin[a]) / cc[c].w[a]));
      }
      for (PetscInt cz = lo[2]; cz <= hi[2]; cz++)
        for (PetscInt cy = lo[1]; cy <= hi[1]; cy++)
          for (PetscInt cx = lo[0]; cx <= hi[0]; cx++) {
            PetscInt cell = (cz * cc[c].nc[1] + cy) * cc[c].nc[0] + cx;
            for (PetscInt m = cc[c].start[cell]; m < cc[c].start[cell + 1]; m++) {
              PetscInt  j = cc[c].member[m], a, b;
              PetscReal r[3], cut, d2;
              if ((c == cls[i] && j <= i) || p->id[i] == p->id[j]) continue;
              a = p->id[i] < p->id[j] ? i : j;
              b = a == i ? j : i;
              if (!NeighborKeep(p, a, b)) continue;
              NeighborSeparation(p, L, a, b, r);
              cut = p->radius[a] + p->radius[b] + skin;
              d2  = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
              if (d2 < cut * cut) PetscCall(NeighborAddPair(nl, a, b));
            }
          }
    }
  }
  for (PetscInt i = 0; i < p->n; i++)
    for (PetscInt w = 0; w < nwall; w++) {
      const Wall *wl  = &walls[w];
      PetscReal   gap = (p->x[3 * i] - wl->p[0]) * wl->n[0] + (p->x[3 * i + 1] - wl->p[1]) * wl->n[1] + (p->x[3 * i + 2] - wl->p[2]) * wl->n[2] - p->radius[i];
      if (gap < skin) PetscCall(NeighborAddPair(nl, i, -1 - w));
    }
  for (PetscInt k = 0; k < nl->npair; k++) {
    NeighborPair *q = &nl->pair[k];
    if (q->j < 0) ContactPairSetUp(model, p->radius[q->i], p->mass[q->i], p->inertia[q->i], 0.0, 0.0, 0.0, PETSC_TRUE, &q->cp);
    else {
      ContactPairSetUp(model, p->radius[q->i], p->mass[q->i], p->inertia[q->i], p->radius[q->j], p->mass[q->j], p->inertia[q->j], PETSC_FALSE, &q->cp);
      /* a frozen body has infinite mass: the contact moves only the other one */
      if ((p->flags[q->i] ^ p->flags[q->j]) & PARTICLE_FROZEN) {
        PetscInt f = (p->flags[q->j] & PARTICLE_FROZEN) ? q->i : q->j;
        q->cp.m  = p->mass[f];
        q->cp.mt = 1.0 / (1.0 / p->mass[f] + p->radius[f] * p->radius[f] / p->inertia[f]);
      }
    }
  }
  PetscCall(PetscFree(nl->pf));
  PetscCall(PetscMalloc1(9 * PetscMax(nl->npair, 1), &nl->pf));
  PetscCall(NeighborBuildAdjacency(nl, p));
  for (PetscInt c = 0; c < ncls; c++) {
    PetscCall(PetscFree(cc[c].start));
    PetscCall(PetscFree(cc[c].member));
  }
  PetscCall(PetscFree2(xs, cls));
  PetscFunctionReturn(PETSC_SUCCESS);
}
