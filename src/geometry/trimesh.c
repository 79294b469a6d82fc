/* One triangle mesh: its surfaces and extent from its vertices and
 * triangles, the closest features of a point, the bins of its held
 * triangles (geometry/trimesh.h; the contacts of a sphere: mesh_select.c). */
#include "geometry/trimesh.h"
#include "decomp/exactsum.h"
#include "decomp/keysort.h"
#include <math.h>
#include <string.h>

static inline PetscReal Dot3(const PetscReal *a, const PetscReal *b)
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void Sub3(const PetscReal *a, const PetscReal *b, PetscReal *c)
{
  for (int k = 0; k < 3; k++) c[k] = a[k] - b[k];
}

static inline void Cross3(const PetscReal *a, const PetscReal *b, PetscReal *c)
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/* The closest point of the edge between vertices iu and iw (whole-mesh
 * indices, at pu and pw) to x, from the edge alone: taken from its lower
 * index, so every triangle sharing it gives the same bits. */
void MeshEdgeClosest(const PetscReal *pu, PetscInt iu, const PetscReal *pw, PetscInt iw, const PetscReal x[3],
                     MeshFeature *f)
{
  const PetscReal *a = iu < iw ? pu : pw, *b = iu < iw ? pw : pu;
  PetscReal        e[3], r[3], t, d[3];
  Sub3(b, a, e);
  Sub3(x, a, r);
  t = Dot3(r, e) / Dot3(e, e);
  t = PetscMin(PetscMax(t, 0.0), 1.0);
  for (int k = 0; k < 3; k++) f->c[k] = a[k] + t * e[k];
  Sub3(x, f->c, d);
  f->kind = MESH_FEATURE_EDGE;
  f->v[0] = PetscMin(iu, iw), f->v[1] = PetscMax(iu, iw);
  f->dist = PetscSqrtReal(Dot3(d, d));
}

void MeshVertexClosest(const PetscReal *p, PetscInt iv, const PetscReal x[3], MeshFeature *f)
{
  PetscReal d[3];
  for (int k = 0; k < 3; k++) f->c[k] = p[k];
  Sub3(x, f->c, d);
  f->kind = MESH_FEATURE_VERTEX;
  f->v[0] = iv, f->v[1] = -1;
  f->dist = PetscSqrtReal(Dot3(d, d));
}

/* Ericson's region tests (Real-Time Collision Detection, 5.1.5) pick the
 * feature; its point is then computed from the feature alone.  The
 * corners' whole-mesh indices are read only where a feature needs them. */
void MeshClosest(const Mesh *m, PetscInt k, const PetscReal x[3], MeshFeature *f)
{
  const PetscInt  *id = m->tvid + 3 * k;
  const PetscReal *a = m->x + 3 * m->tri[3 * k], *b = m->x + 3 * m->tri[3 * k + 1], *c = m->x + 3 * m->tri[3 * k + 2],
                  *n = m->normal + 3 * k;
  PetscReal ab[3], ac[3], ap[3], bp[3], cp[3], d1, d2, d3, d4, d5, d6, va, vb, vc, h;

  Sub3(b, a, ab), Sub3(c, a, ac), Sub3(x, a, ap);
  d1 = Dot3(ab, ap), d2 = Dot3(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return MeshVertexClosest(a, id[0], x, f);
  Sub3(x, b, bp);
  d3 = Dot3(ab, bp), d4 = Dot3(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return MeshVertexClosest(b, id[1], x, f);
  vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return MeshEdgeClosest(a, id[0], b, id[1], x, f);
  Sub3(x, c, cp);
  d5 = Dot3(ab, cp), d6 = Dot3(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return MeshVertexClosest(c, id[2], x, f);
  vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return MeshEdgeClosest(a, id[0], c, id[2], x, f);
  va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) return MeshEdgeClosest(b, id[1], c, id[2], x, f);
  /* the face: the plane's distance, as a plane wall has it */
  h = Dot3(ap, n);
  for (int q = 0; q < 3; q++) f->c[q] = x[q] - h * n[q];
  f->kind = MESH_FEATURE_FACE;
  f->v[0] = k, f->v[1] = -1;
  f->dist = PetscAbsReal(h);
}

typedef struct {
  PetscInt u, w, t;
} EdgeItem;

static int EdgeCompare(const void *pa, const void *pb)
{
  const EdgeItem *a = (const EdgeItem *)pa, *b = (const EdgeItem *)pb;
  if (a->u != b->u) return a->u < b->u ? -1 : 1;
  if (a->w != b->w) return a->w < b->w ? -1 : 1;
  return a->t < b->t ? -1 : a->t > b->t;
}

static PetscInt UnionFind(PetscInt *parent, PetscInt k)
{
  while (parent[k] != k) k = parent[k] = parent[parent[k]];
  return k;
}

/* Whether triangle t runs edge (u, w) from u to w. */
static PetscBool MeshRunsForward(const Mesh *m, PetscInt t, PetscInt u, PetscInt w)
{
  for (int c = 0; c < 3; c++)
    if (m->tri[3 * t + c] == u && m->tri[3 * t + (c + 1) % 3] == w) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Normals, and surfaces: triangles across an edge whose planes are within
 * the curvature are joined (orientation taken from how each runs the edge,
 * so an STL with inconsistent windings is handled).  Surfaces are numbered
 * by their lowest triangle. */
static PetscErrorCode MeshTopology(Mesh *m)
{
  EdgeItem *e;
  PetscInt *parent, *label, ne = 3 * m->nt;
  PetscReal cmin = cos(m->curvature * HDEM_PI / 180.0);

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(3 * m->nt, &m->normal));
  PetscCall(PetscMalloc1(m->nt, &m->surface));
  for (PetscInt t = 0; t < m->nt; t++) {
    const PetscReal *a = m->x + 3 * m->tri[3 * t], *b = m->x + 3 * m->tri[3 * t + 1], *c = m->x + 3 * m->tri[3 * t + 2];
    PetscCheck(MeshTriangleNormal(a, b, c, m->normal + 3 * t) > 0.0, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
               "%s: triangle %" PetscInt_FMT " (from 1) has zero area", m->file, t + 1);
  }
  PetscCall(PetscMalloc3(ne, &e, m->nt, &parent, m->nt, &label));
  for (PetscInt t = 0; t < m->nt; t++) {
    parent[t] = t;
    for (int c = 0; c < 3; c++) {
      PetscInt u = m->tri[3 * t + c], w = m->tri[3 * t + (c + 1) % 3];
      e[3 * t + c].u = PetscMin(u, w), e[3 * t + c].w = PetscMax(u, w), e[3 * t + c].t = t;
    }
  }
  qsort(e, (size_t)ne, sizeof(*e), EdgeCompare);
  for (PetscInt s = 0; s < ne;) {
    PetscInt q = s;
    while (q < ne && e[q].u == e[s].u && e[q].w == e[s].w) q++;
    for (PetscInt i = s; i < q; i++)
      for (PetscInt j = i + 1; j < q; j++) {
        PetscInt ti = e[i].t, tj = e[j].t;
        if (MeshJoined(m->normal + 3 * ti, MeshRunsForward(m, ti, e[i].u, e[i].w), m->normal + 3 * tj,
                       MeshRunsForward(m, tj, e[i].u, e[i].w), cmin)) {
          PetscInt ri = UnionFind(parent, ti), rj = UnionFind(parent, tj);
          if (ri != rj) parent[PetscMax(ri, rj)] = PetscMin(ri, rj);
        }
      }
    s = q;
  }
  m->nsurf = 0;
  for (PetscInt t = 0; t < m->nt; t++) {
    PetscInt r = UnionFind(parent, t);
    if (r == t) label[t] = m->nsurf++;
    m->surface[t] = label[r]; /* r <= t: labelled already */
  }
  PetscCall(PetscFree3(e, parent, label));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshExtent(Mesh *m)
{
  ExactSum acc[4]; /* area, and its moments: exact, so that the centroid is a distributed set-up's */

  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++) m->lo[a] = PETSC_MAX_REAL, m->hi[a] = -PETSC_MAX_REAL;
  for (PetscInt v = 0; v < m->nv; v++)
    for (int a = 0; a < 3; a++) {
      m->lo[a] = PetscMin(m->lo[a], m->x[3 * v + a]);
      m->hi[a] = PetscMax(m->hi[a], m->x[3 * v + a]);
    }
  /* area-weighted centroid of the surface: the torque's reference of a mesh that does not rotate */
  for (int q = 0; q < 4; q++) ExactSumZero(&acc[q]);
  for (PetscInt t = 0; t < m->nt; t++) {
    PetscReal mom[3];
    ExactSumAdd(&acc[0], MeshTriangleMoment(m->x + 3 * m->tri[3 * t], m->x + 3 * m->tri[3 * t + 1],
                                            m->x + 3 * m->tri[3 * t + 2], mom));
    for (int q = 0; q < 3; q++) ExactSumAdd(&acc[1 + q], mom[q]);
  }
  for (int q = 0; q < 3; q++) m->centroid[q] = ExactSumValue(&acc[1 + q]) / ExactSumValue(&acc[0]);
  m->rext = 0.0;
  for (PetscInt v = 0; v < m->nv; v++) m->rext = PetscMax(m->rext, MeshVertexRadius(m, m->x + 3 * v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A mesh read whole: held whole, its local indices its global ones. */
static PetscErrorCode MeshHoldWhole(Mesh *m)
{
  PetscFunctionBeginUser;
  m->whole    = PETSC_TRUE;
  m->nv_total = m->nv, m->nt_total = m->nt;
  PetscCall(PetscMalloc1(3 * m->nt, &m->tvid));
  PetscCall(PetscMalloc1(m->nt, &m->tid));
  for (PetscInt q = 0; q < 3 * m->nt; q++) m->tvid[q] = m->tri[q];
  for (PetscInt t = 0; t < m->nt; t++) m->tid[t] = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}
/* A mesh whose vertices and triangles are set: its surfaces, its extent, held whole. */
PetscErrorCode MeshSetUpWhole(Mesh *m)
{
  PetscFunctionBeginUser;
  PetscCheck(m->nt < MESH_TRIANGLES_MAX, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
             "%s: %" PetscInt_FMT " triangles, more than the %" PetscInt64_FMT " a mesh may have", m->file, m->nt,
             MESH_TRIANGLES_MAX - 1);
  PetscCall(MeshTopology(m));
  PetscCall(MeshExtent(m));
  PetscCall(MeshHoldWhole(m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshCreateFromArrays(const char *name, PetscInt nv, const PetscReal *x, PetscInt nt, const PetscInt *tri,
                                    PetscReal curvature, const WallMotion *mo, Mesh *m)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(m, sizeof(*m)));
  PetscCall(PetscStrncpy(m->name, name, sizeof(m->name)));
  PetscCall(PetscStrncpy(m->file, name, sizeof(m->file)));
  m->nv = nv, m->nt = nt, m->curvature = curvature;
  if (mo) m->motion = *mo;
  else m->motion.stop = m->motion.remove = INFINITY;
  PetscCall(PetscMalloc1(3 * nv, &m->x));
  PetscCall(PetscMalloc1(3 * nt, &m->tri));
  PetscCall(PetscArraycpy(m->x, x, 3 * nv));
  PetscCall(PetscArraycpy(m->tri, tri, 3 * nt));
  PetscCall(MeshSetUpWhole(m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef KeySortItem CellItem; /* key: the cell; val: the triangle */

static inline PetscInt64 MeshCellKey(const Mesh *m, const PetscInt c[3])
{
  return ((PetscInt64)c[0] * m->bn[1] + c[1]) * m->bn[2] + c[2];
}

/* Distance from point x to triangle t (without the feature's canonical point). */
static PetscReal MeshTriangleDistance(const Mesh *m, PetscInt t, const PetscReal x[3])
{
  MeshFeature f;
  MeshClosest(m, t, x, &f);
  return f.dist;
}

/* Cells whose centre is within reach + half a cell's diagonal of triangle t:
 * the columns along the triangle plane's dominant normal axis, each over the
 * slab of its plane's reach. */
static PetscErrorCode MeshBinTriangle(const Mesh *m, PetscInt t, PetscReal rho, CellItem **items, PetscInt *n,
                                      PetscInt *cap)
{
  const PetscReal *n0 = m->normal + 3 * t, *a = m->x + 3 * m->tri[3 * t];
  PetscInt         ax = 0, lo[3], hi[3];
  PetscReal        tlo[3], thi[3];

  PetscFunctionBeginUser;
  for (int q = 1; q < 3; q++)
    if (PetscAbsReal(n0[q]) > PetscAbsReal(n0[ax])) ax = q;
  for (int q = 0; q < 3; q++) {
    tlo[q] = PetscMin(PetscMin(m->x[3 * m->tri[3 * t] + q], m->x[3 * m->tri[3 * t + 1] + q]),
                      m->x[3 * m->tri[3 * t + 2] + q]) -
             rho;
    thi[q] = PetscMax(PetscMax(m->x[3 * m->tri[3 * t] + q], m->x[3 * m->tri[3 * t + 1] + q]),
                      m->x[3 * m->tri[3 * t + 2] + q]) +
             rho;
    lo[q] = PetscMax(0, (PetscInt)PetscFloorReal((tlo[q] - m->blo[q]) / m->h));
    hi[q] = PetscMin(m->bn[q] - 1, (PetscInt)PetscFloorReal((thi[q] - m->blo[q]) / m->h));
  }
  {
    int      u = (ax + 1) % 3, w = (ax + 2) % 3;
    PetscInt c[3];
    for (c[u] = lo[u]; c[u] <= hi[u]; c[u]++)
      for (c[w] = lo[w]; c[w] <= hi[w]; c[w]++) {
        PetscReal xc[3], d0, s0, s1;
        PetscInt  k0, k1;
        xc[u] = m->blo[u] + (c[u] + 0.5) * m->h;
        xc[w] = m->blo[w] + (c[w] + 0.5) * m->h;
        /* n . (x - a) = +-rho along the axis through (xc[u], xc[w]) */
        d0 = n0[u] * (xc[u] - a[u]) + n0[w] * (xc[w] - a[w]);
        s0 = a[ax] + (-rho - d0) / n0[ax], s1 = a[ax] + (rho - d0) / n0[ax];
        if (s0 > s1) {
          PetscReal s = s0;
          s0 = s1, s1 = s;
        }
        k0 = PetscMax(lo[ax], (PetscInt)PetscFloorReal((s0 - m->blo[ax]) / m->h - 0.5));
        k1 = PetscMin(hi[ax], (PetscInt)PetscCeilReal((s1 - m->blo[ax]) / m->h - 0.5));
        for (c[ax] = k0; c[ax] <= k1; c[ax]++) {
          xc[ax] = m->blo[ax] + (c[ax] + 0.5) * m->h;
          if (!(MeshTriangleDistance(m, t, xc) <= rho)) continue;
          if (*n == *cap) {
            *cap = PetscMax(1024, 2 * *cap);
            PetscCall(PetscRealloc((size_t)*cap * sizeof(**items), items));
          }
          (*items)[*n].key = MeshCellKey(m, c), (*items)[*n].val = t;
          (*n)++;
        }
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define MESH_BINS_PER_AXIS_MAX 4096
#define MESH_CELL_ITEMS_MAX    (1 << 22) /* about 64 MiB of items while the bins are made */

/* About how many (cell, triangle) items bins of side h list: each triangle's
 * cells within rho of it, a slab over its area and perimeter. */
static PetscReal MeshCellItemsEstimate(const Mesh *m, PetscReal h, PetscReal reach)
{
  PetscReal rho = reach + 0.5 * PetscSqrtReal(3.0) * h, sum = 0.0;
  for (PetscInt t = 0; t < m->nt; t++) {
    const PetscReal *a = m->x + 3 * m->tri[3 * t], *b = m->x + 3 * m->tri[3 * t + 1], *c = m->x + 3 * m->tri[3 * t + 2];
    PetscReal        u[3], v[3], w[3], area, per = 0.0;
    for (int d = 0; d < 3; d++) u[d] = b[d] - a[d], v[d] = c[d] - a[d];
    w[0] = u[1] * v[2] - u[2] * v[1], w[1] = u[2] * v[0] - u[0] * v[2], w[2] = u[0] * v[1] - u[1] * v[0];
    area = 0.5 * PetscSqrtReal(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    per  = PetscSqrtReal(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) +
          PetscSqrtReal(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    sum += (area / (h * h) + per / h + 1.0) * (2.0 * rho / h + 2.0);
  }
  return sum;
}

PetscErrorCode MeshSetUp(Mesh *m, PetscReal reach)
{
  CellItem *items = NULL;
  PetscInt  n = 0, cap = 0;
  PetscReal ext = 0.0, rho, lo[3], hi[3];

  PetscFunctionBeginUser;
  PetscCall(PetscFree(m->cellkey));
  PetscCall(PetscFree(m->cellstart));
  PetscCall(PetscFree(m->cellitem));
  PetscCall(PetscFree(m->tbox));
  PetscCall(PetscMalloc1(6 * m->nt + 1, &m->tbox));
  for (PetscInt t = 0; t < m->nt; t++)
    for (int a = 0; a < 3; a++) {
      PetscReal u = m->x[3 * m->tri[3 * t] + a], v = m->x[3 * m->tri[3 * t + 1] + a],
                w            = m->x[3 * m->tri[3 * t + 2] + a];
      m->tbox[6 * t + a]     = PetscMin(PetscMin(u, v), w);
      m->tbox[6 * t + 3 + a] = PetscMax(PetscMax(u, v), w);
    }
  m->reach = reach;
  for (int a = 0; a < 3; a++) lo[a] = PETSC_MAX_REAL, hi[a] = -PETSC_MAX_REAL;
  for (PetscInt v = 0; v < m->nv; v++) /* the held triangles' extent */
    for (int a = 0; a < 3; a++) lo[a] = PetscMin(lo[a], m->x[3 * v + a]), hi[a] = PetscMax(hi[a], m->x[3 * v + a]);
  if (m->nt == 0) {
    m->ncell = 0, m->h = reach;
    for (int a = 0; a < 3; a++) m->bn[a] = 0, m->blo[a] = 0.0;
    PetscCall(PetscMalloc1(1, &m->cellkey));
    PetscCall(PetscCalloc1(1, &m->cellstart));
    PetscCall(PetscMalloc1(1, &m->cellitem));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (int a = 0; a < 3; a++) ext = PetscMax(ext, hi[a] - lo[a]);
  m->h = PetscMax(reach, ext / MESH_BINS_PER_AXIS_MAX);
  /* triangles far larger than the reach (a plate beyond the domain) would list
   * cells by the billion: coarser bins, more triangles a cell, the same candidates */
  while (MeshCellItemsEstimate(m, m->h, reach) > MESH_CELL_ITEMS_MAX && m->h < ext) m->h *= 2.0;
  for (int a = 0; a < 3; a++) {
    m->blo[a] = lo[a] - reach - m->h;
    m->bn[a]  = (PetscInt)PetscCeilReal((hi[a] + reach + m->h - m->blo[a]) / m->h) + 1;
  }
  rho = reach + 0.5 * PetscSqrtReal(3.0) * m->h;
  for (PetscInt t = 0; t < m->nt; t++) PetscCall(MeshBinTriangle(m, t, rho, &items, &n, &cap));
  PetscCall(KeySortStable(n, items)); /* by cell, then triangle: each triangle's items come in turn */
  m->ncell = 0;
  for (PetscInt i = 0; i < n; i++)
    if (i == 0 || items[i].key != items[i - 1].key) m->ncell++;
  PetscCall(PetscMalloc1(m->ncell + 1, &m->cellkey));
  PetscCall(PetscMalloc1(m->ncell + 1, &m->cellstart));
  PetscCall(PetscMalloc1(n + 1, &m->cellitem));
  m->ncell = 0;
  for (PetscInt i = 0; i < n; i++) {
    if (i == 0 || items[i].key != items[i - 1].key) m->cellkey[m->ncell] = items[i].key, m->cellstart[m->ncell++] = i;
    m->cellitem[i] = (PetscInt)items[i].val;
  }
  m->cellstart[m->ncell] = n;
  PetscCall(PetscFree(items));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MeshCellItems(const Mesh *m, const PetscReal x[3], const PetscInt **items, PetscInt *n)
{
  PetscInt   c[3], lo = 0, hi = m->ncell - 1;
  PetscInt64 key;

  *items = NULL, *n = 0;
  for (int a = 0; a < 3; a++) {
    PetscReal s = PetscFloorReal((x[a] - m->blo[a]) / m->h);
    if (!(s >= 0.0 && s < (PetscReal)m->bn[a])) return; /* beyond the bins: nothing within reach */
    c[a] = (PetscInt)s;
  }
  key = MeshCellKey(m, c);
  while (lo <= hi) {
    PetscInt mid = lo + (hi - lo) / 2;
    if (m->cellkey[mid] < key) lo = mid + 1;
    else if (m->cellkey[mid] > key) hi = mid - 1;
    else {
      *items = m->cellitem + m->cellstart[mid];
      *n     = m->cellstart[mid + 1] - m->cellstart[mid];
      return;
    }
  }
}

PetscErrorCode MeshHeldFree(Mesh *m)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(m->x));
  PetscCall(PetscFree(m->tvid));
  PetscCall(PetscFree(m->tri));
  PetscCall(PetscFree(m->tid));
  PetscCall(PetscFree(m->normal));
  PetscCall(PetscFree(m->surface));
  m->nv = m->nt = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshDestroy(Mesh *m)
{
  PetscFunctionBeginUser;
  PetscCall(MeshHeldFree(m));
  PetscCall(PetscFree(m->hx));
  PetscCall(PetscFree(m->hrec));
  PetscCall(PetscFree(m->held));
  PetscCall(PetscFree(m->srec));
  PetscCall(PetscFree(m->sbox));
  PetscCall(PetscFree(m->cellkey));
  PetscCall(PetscFree(m->cellstart));
  PetscCall(PetscFree(m->cellitem));
  PetscCall(PetscFree(m->tbox));
  PetscFunctionReturn(PETSC_SUCCESS);
}
