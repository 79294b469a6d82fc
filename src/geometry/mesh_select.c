/* Which contacts a sphere has with a mesh (MeshContactsSelect, geometry/trimesh.h): the local minima of
 * its distance, one per region of a surface it touches, and the keys their histories are kept by. */
#include "geometry/trimesh.h"
#include <math.h>

/* Same feature: same kind and vertices (a face: the same triangle). */
static inline PetscBool FeatureSame(const MeshFeature *a, const MeshFeature *b)
{
  return a->kind == b->kind && a->v[0] == b->v[0] && a->v[1] == b->v[1] ? PETSC_TRUE : PETSC_FALSE;
}

/* Whether triangle t has the feature's vertices. */
static inline PetscBool FeatureOn(const Mesh *m, PetscInt t, const MeshFeature *f)
{
  if (f->kind == MESH_FEATURE_FACE) return f->v[0] == t ? PETSC_TRUE : PETSC_FALSE;
  if (!MeshTriangleHas(m, t, f->v[0])) return PETSC_FALSE;
  return f->kind == MESH_FEATURE_VERTEX || MeshTriangleHas(m, t, f->v[1]) ? PETSC_TRUE : PETSC_FALSE;
}

PetscBool MeshFeatureMinimum(const Mesh *m, const PetscInt *cand, PetscInt nc, const MeshFeature *f, PetscInt k,
                             PetscReal r)
{
  PetscBool ok = f[k].dist < r ? PETSC_TRUE : PETSC_FALSE;
  if (ok && f[k].kind != MESH_FEATURE_FACE)
    for (PetscInt q = 0; q < nc && ok; q++) {
      if (q == k || !(f[q].dist < r) || !FeatureOn(m, cand[q], &f[k])) continue;
      /* a neighbour is nearer elsewhere: not a local minimum */
      if (!FeatureSame(&f[q], &f[k])) ok = PETSC_FALSE;
      else if (q < k) ok = PETSC_FALSE; /* carried by the first triangle that names it */
    }
  return ok;
}

/* The feature's key in its carrying triangle t (MESH_KEY_REGION's low bits). */
static PetscInt64 FeatureKey(const Mesh *m, PetscInt t, const MeshFeature *f)
{
  const PetscInt *id   = m->tvid + 3 * t;
  PetscInt        code = 0;
  for (int c = 0; c < 3; c++) {
    PetscInt u = id[c], w = id[(c + 1) % 3];
    if (f->kind == MESH_FEATURE_VERTEX && u == f->v[0]) code = 1 + c;
    if (f->kind == MESH_FEATURE_EDGE && PetscMin(u, w) == f->v[0] && PetscMax(u, w) == f->v[1]) code = 4 + c;
  }
  return (PetscInt64)m->tid[t] << 3 | code;
}

void MeshFeatureNormal(const Mesh *m, const MeshFeature *f, const PetscReal x[3], PetscReal n[3])
{
  if (f->kind == MESH_FEATURE_FACE) {
    const PetscReal *nf = m->normal + 3 * f->v[0];
    PetscReal        h  = (x[0] - f->c[0]) * nf[0] + (x[1] - f->c[1]) * nf[1] + (x[2] - f->c[2]) * nf[2];
    for (int a = 0; a < 3; a++) n[a] = h < 0.0 ? -nf[a] : nf[a];
  } else if (f->dist > 0.0) {
    PetscReal inv = 1.0 / f->dist;
    for (int a = 0; a < 3; a++) n[a] = (x[a] - f->c[a]) * inv;
  } else { /* the centre on the edge or vertex itself: any normal of a triangle there */
    n[0] = n[1] = 0.0, n[2] = 1.0;
  }
}

static PetscInt RegionFind(MeshFeature *f, PetscInt k)
{
  while (f[k].up != k) k = f[k].up = f[f[k].up].up;
  return k;
}

static void RegionJoin(MeshFeature *f, PetscInt a, PetscInt b)
{
  PetscInt ra = RegionFind(f, a), rb = RegionFind(f, b);
  if (ra != rb) f[PetscMax(ra, rb)].up = PetscMin(ra, rb);
}

/* Whether the sphere's overlaps with triangles a and b meet: they share an edge or a vertex within r of x. */
static PetscBool OverlapsMeet(const Mesh *m, PetscInt a, PetscInt b, const PetscReal x[3], PetscReal r)
{
  PetscInt    id[3], loc[3], n = 0;
  MeshFeature g;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      if (m->tvid[3 * a + i] == m->tvid[3 * b + j]) id[n] = m->tvid[3 * a + i], loc[n++] = m->tri[3 * a + i];
  if (n == 0) return PETSC_FALSE;
  if (n == 3) return PETSC_TRUE; /* the same corners: both touch */
  if (n == 1) MeshVertexClosest(m->x + 3 * loc[0], id[0], x, &g);
  else MeshEdgeClosest(m->x + 3 * loc[0], id[0], m->x + 3 * loc[1], id[1], x, &g);
  return g.dist < r ? PETSC_TRUE : PETSC_FALSE;
}

/* How many of the minima pick[0 .. nmin) lie on surface s. */
static PetscInt SurfaceMinima(const Mesh *m, const PetscInt *cand, const PetscInt *pick, PetscInt nmin, PetscInt s)
{
  PetscInt n = 0;
  for (PetscInt a = 0; a < nmin; a++) n += m->surface[cand[pick[a]]] == s;
  return n;
}

/* The regions of the surfaces with several minima: the touching triangles of such a surface joined where
 * their overlaps meet, and minima whose normals are within the curvature; each minimum's region into
 * its up (the others' -1: their surface is one region). */
static void RegionsJoin(const Mesh *m, const PetscInt *cand, PetscInt nc, const PetscReal x[3], PetscReal r,
                        MeshFeature *f, const PetscInt *pick, PetscInt nmin)
{
  const PetscReal cmin = cos(m->curvature * HDEM_PI / 180.0);

  for (PetscInt k = 0; k < nc; k++)
    f[k].up = f[k].dist < r && SurfaceMinima(m, cand, pick, nmin, m->surface[cand[k]]) > 1 ? k : -1;
  for (PetscInt a = 0; a < nc; a++)
    for (PetscInt b = a + 1; f[a].up >= 0 && b < nc; b++)
      if (f[b].up >= 0 && m->surface[cand[a]] == m->surface[cand[b]] && OverlapsMeet(m, cand[a], cand[b], x, r))
        RegionJoin(f, a, b);
  for (PetscInt i = 0; i < nmin; i++)
    for (PetscInt j = i + 1; f[pick[i]].up >= 0 && j < nmin; j++) {
      PetscInt  a = pick[i], b = pick[j];
      PetscReal na[3], nb[3];
      if (f[b].up < 0 || m->surface[cand[a]] != m->surface[cand[b]]) continue;
      MeshFeatureNormal(m, &f[a], x, na);
      MeshFeatureNormal(m, &f[b], x, nb);
      if (na[0] * nb[0] + na[1] * nb[1] + na[2] * nb[2] >= cmin) RegionJoin(f, a, b);
    }
  for (PetscInt i = 0; i < nmin; i++)
    if (f[pick[i]].up >= 0) f[pick[i]].up = RegionFind(f, pick[i]);
}

/* One contact a region, its nearest minimum (ties: the first), its fkey the region's least; keys; in key
 * order.  pick[0 .. nmin) the minima in candidate order, then the contacts: their number. */
static PetscInt RegionsPick(const Mesh *m, const PetscInt *cand, MeshFeature *f, PetscInt *pick, PetscInt nmin)
{
  PetscInt n = 0;

  for (PetscInt a = 0; a < nmin; a++) {
    PetscInt k = pick[a], s = m->surface[cand[k]], j;
    for (j = 0; j < n; j++)
      if (m->surface[cand[pick[j]]] == s && f[pick[j]].up == f[k].up) break;
    if (j == n) pick[n++] = k;
    else {
      PetscInt64 fkey = PetscMin(f[pick[j]].fkey, f[k].fkey);
      if (f[k].dist < f[pick[j]].dist) pick[j] = k;
      f[pick[j]].fkey = fkey;
    }
  }
  for (PetscInt j = 0; j < n; j++) {
    PetscInt s = m->surface[cand[pick[j]]], same = 0;
    for (PetscInt q = 0; q < n; q++) same += m->surface[cand[pick[q]]] == s;
    f[pick[j]].key = same > 1 ? MESH_KEY_REGION | f[pick[j]].fkey : (PetscInt64)s;
  }
  for (PetscInt a = 1; a < n; a++) { /* in key order: the order histories come back in after a rebuild */
    PetscInt k = pick[a], b = a;
    while (b > 0 && f[pick[b - 1]].key > f[k].key) pick[b] = pick[b - 1], b--;
    pick[b] = k;
  }
  return n;
}

void MeshContactsSelect(const Mesh *m, const PetscInt *cand, PetscInt nc, const PetscReal x[3], PetscReal r,
                        MeshFeature *f, PetscInt *pick, PetscInt *npick, PetscInt *near, PetscInt *nnear)
{
  PetscInt  nmin  = 0;
  PetscBool multi = PETSC_FALSE;

  *nnear = 0;
  for (PetscInt k = 0; k < nc; k++) {
    PetscInt s = m->surface[cand[k]], j;
    MeshClosest(m, cand[k], x, &f[k]);
    for (j = 0; j < *nnear; j++)
      if (m->surface[cand[near[j]]] == s) break;
    if (j == *nnear) near[(*nnear)++] = k;
    else if (f[k].dist < f[near[j]].dist) near[j] = k;
  }
  for (PetscInt k = 0; k < nc; k++)
    if (MeshFeatureMinimum(m, cand, nc, f, k, r)) {
      f[k].fkey = FeatureKey(m, cand[k], &f[k]);
      f[k].up   = -1;
      for (PetscInt a = 0; a < nmin && !multi; a++) multi = m->surface[cand[pick[a]]] == m->surface[cand[k]];
      pick[nmin++] = k;
    }
  if (multi) RegionsJoin(m, cand, nc, x, r, f, pick, nmin);
  *npick = RegionsPick(m, cand, f, pick, nmin);
}

PetscBool MeshKeyValid(const Mesh *m, PetscInt64 key)
{
  PetscInt64 t = (key & ~MESH_KEY_REGION) >> 3, code = key & 7;
  if (key >= 0 && key < m->nsurf) return PETSC_TRUE;
  return key >= MESH_KEY_REGION && key < 2 * MESH_KEY_REGION && t < m->nt_total && code <= 6 ? PETSC_TRUE : PETSC_FALSE;
}

PetscBool MeshKeyFeature(const Mesh *m, const PetscInt *cand, PetscInt nc, PetscInt64 key, const PetscReal x[3],
                         MeshFeature *f)
{
  PetscInt64 t    = (key & ~MESH_KEY_REGION) >> 3;
  PetscInt   code = (PetscInt)(key & 7), lo = 0, hi = nc - 1;

  while (lo <= hi) { /* the candidates ascend, and so do their whole-mesh indices */
    PetscInt k = lo + (hi - lo) / 2, u, w;
    if (m->tid[cand[k]] < t) lo = k + 1;
    else if (m->tid[cand[k]] > t) hi = k - 1;
    else {
      u = 3 * cand[k] + (code <= 3 ? code - 1 : code - 4), w = 3 * cand[k] + (code - 3) % 3;
      if (code == 0) MeshClosest(m, cand[k], x, f);
      else if (code <= 3) MeshVertexClosest(m->x + 3 * m->tri[u], m->tvid[u], x, f);
      else MeshEdgeClosest(m->x + 3 * m->tri[u], m->tvid[u], m->x + 3 * m->tri[w], m->tvid[w], x, f);
      return PETSC_TRUE;
    }
  }
  return PETSC_FALSE;
}
