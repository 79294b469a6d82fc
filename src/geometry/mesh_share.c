/* A mesh set up from its shares (geometry/mesh_share.h).  Triangle t lives
 * on the owner of its block (StlBlockOwner); labels and numbers of
 * triangles elsewhere are asked of their owners. */
#include <math.h>
#include <string.h>
#include "geometry/mesh_share.h"
#include "decomp/keysort.h"
#include "decomp/collective.h"
#include "decomp/exactsum.h"

#define W_EDGE 7 /* an edge's use: its vertices low and high, the triangle, whether it runs low to high, its normal */

typedef struct {
  MPI_Comm    comm;
  PetscMPIInt rank, size;
  PetscInt    nt, t0, n; /* triangles: the whole mesh's, this rank's [t0, t0 + n) */
} Share;

static uint64_t Mix64(uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static int CompareEdge(const void *a, const void *b)
{
  const PetscReal *p = (const PetscReal *)a, *q = (const PetscReal *)b;
  for (int j = 0; j < 3; j++)
    if (p[j] != q[j]) return p[j] < q[j] ? -1 : 1;
  return 0;
}

/* The pairs of triangles joined across an edge (first < second), found on the ranks of the edges' hash. */
static PetscErrorCode JoinedPairs(const Share *sh, const Mesh *m, const StlShare *s, const PetscReal *normal,
                                  PetscInt *np, PetscInt64 **pair)
{
  PetscInt     ne = 3 * sh->n, nin, cap = 0;
  PetscReal   *items, *e, cmin          = cos(m->curvature * HDEM_PI / 180.0);
  PetscMPIInt *dest;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1((size_t)W_EDGE * ne + 1, &items));
  PetscCall(PetscMalloc1(ne + 1, &dest));
  for (PetscInt t = 0; t < sh->n; t++)
    for (int c = 0; c < 3; c++) {
      PetscInt   u = s->tri[3 * t + c], w = s->tri[3 * t + (c + 1) % 3], k = 3 * t + c;
      PetscReal *r = items + W_EDGE * k;
      r[0] = (PetscReal)PetscMin(u, w), r[1] = (PetscReal)PetscMax(u, w), r[2] = (PetscReal)(sh->t0 + t);
      r[3] = u < w ? 1.0 : 0.0;
      for (int q = 0; q < 3; q++) r[4 + q] = normal[3 * t + q];
      dest[k] = (PetscMPIInt)(Mix64(((uint64_t)PetscMin(u, w) << 32) ^ (uint64_t)PetscMax(u, w)) % (uint64_t)sh->size);
    }
  PetscCall(CollectiveRouteTake(sh->comm, ne, W_EDGE, &items, dest, &nin, &e));
  PetscCall(PetscFree(dest));
  if (nin) qsort(e, (size_t)nin, sizeof(PetscReal) * W_EDGE, CompareEdge);
  *np = 0, *pair = NULL;
  for (PetscInt s0 = 0, q; s0 < nin; s0 = q) {
    for (q = s0; q < nin && e[W_EDGE * q] == e[W_EDGE * s0] && e[W_EDGE * q + 1] == e[W_EDGE * s0 + 1];) q++;
    for (PetscInt i = s0; i < q; i++)
      for (PetscInt j = i + 1; j < q; j++) {
        const PetscReal *a = e + W_EDGE * i, *b = e + W_EDGE * j;
        if (!MeshJoined(a + 4, a[3] != 0.0, b + 4, b[3] != 0.0, cmin)) continue;
        if (*np == cap) {
          cap = PetscMax(1024, 2 * cap);
          PetscCall(PetscRealloc((size_t)2 * cap * sizeof(**pair), pair));
        }
        (*pair)[2 * *np] = (PetscInt64)a[2], (*pair)[2 * *np + 1] = (PetscInt64)b[2];
        (*np)++;
      }
  }
  PetscCall(PetscFree(e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* out[i] = arr[ids[i] - t0] on the owner of triangle ids[i] (arr: every rank's n entries). Collective. */
static PetscErrorCode Lookup(const Share *sh, const PetscInt64 *arr, PetscInt nq, const PetscInt64 *ids,
                             PetscInt64 *out)
{
  PetscInt64  *req, *in, *rep, *back, *val;
  PetscMPIInt *dest, *rdest;
  PetscInt     nin, nb, nu = 0;
  KeySortItem *q;

  PetscFunctionBeginUser;
  /* each id asked once: the triangles of one surface all ask its root, on one rank */
  PetscCall(PetscMalloc1(nq + 1, &q));
  for (PetscInt i = 0; i < nq; i++) q[i].key = ids[i], q[i].val = i;
  PetscCall(KeySortStable(nq, q));
  for (PetscInt i = 0; i < nq; i++)
    if (!i || q[i].key != q[i - 1].key) nu++;
  PetscCall(PetscMalloc3(3 * nu + 1, &req, nu + 1, &dest, nu + 1, &val));
  for (PetscInt i = 0, u = 0; i < nq; i++) {
    if (i && q[i].key == q[i - 1].key) continue;
    req[3 * u] = q[i].key, req[3 * u + 1] = u, req[3 * u + 2] = sh->rank;
    dest[u++] = StlBlockOwner(sh->nt, (PetscInt)q[i].key, sh->size);
  }
  PetscCall(CollectiveRouteInt64(sh->comm, nu, 3, req, dest, &nin, &in));
  PetscCall(PetscMalloc2(2 * nin + 1, &rep, nin + 1, &rdest));
  for (PetscInt i = 0; i < nin; i++) {
    rep[2 * i] = in[3 * i + 1], rep[2 * i + 1] = arr[in[3 * i] - sh->t0];
    rdest[i] = (PetscMPIInt)in[3 * i + 2];
  }
  PetscCall(PetscFree(in));
  PetscCall(CollectiveRouteInt64(sh->comm, nin, 2, rep, rdest, &nb, &back));
  PetscCall(PetscFree2(rep, rdest));
  for (PetscInt i = 0; i < nb; i++) val[back[2 * i]] = back[2 * i + 1];
  PetscCall(PetscFree(back));
  for (PetscInt i = 0, u = -1; i < nq; i++) {
    if (!i || q[i].key != q[i - 1].key) u++;
    out[q[i].val] = val[u];
  }
  PetscCall(PetscFree3(req, dest, val));
  PetscCall(PetscFree(q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One round of the least labels: each pair's ends, and their labels, take the least of the two labels.
 * Every label stays a triangle of its triangle's component, at most the triangle. */
static PetscErrorCode LabelPairs(const Share *sh, PetscInt np, const PetscInt64 *pair, PetscInt64 *label,
                                 PetscBool *changed)
{
  PetscInt64  *lab, *prop, *in;
  PetscMPIInt *dest;
  PetscInt     n = 0, nin;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(2 * np + 1, &lab));
  PetscCall(Lookup(sh, label, 2 * np, pair, lab));
  PetscCall(PetscMalloc2(8 * np + 1, &prop, 4 * np + 1, &dest));
  for (PetscInt i = 0; i < np; i++) {
    PetscInt64 end[4] = {pair[2 * i], pair[2 * i + 1], lab[2 * i], lab[2 * i + 1]}, least = PetscMin(end[2], end[3]);
    for (int q = 0; q < 4; q++) {
      if (end[q] <= least) continue;
      prop[2 * n] = end[q], prop[2 * n + 1] = least;
      dest[n++] = StlBlockOwner(sh->nt, (PetscInt)end[q], sh->size);
    }
  }
  PetscCall(PetscFree(lab));
  PetscCall(CollectiveRouteInt64(sh->comm, n, 2, prop, dest, &nin, &in));
  PetscCall(PetscFree2(prop, dest));
  for (PetscInt i = 0; i < nin; i++) {
    PetscInt64 *l = label + (in[2 * i] - sh->t0);
    if (in[2 * i + 1] < *l) *l = in[2 * i + 1], *changed = PETSC_TRUE;
  }
  PetscCall(PetscFree(in));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Pointer jumping: each label (not its own triangle) becomes its label's label. */
static PetscErrorCode LabelJump(const Share *sh, PetscInt64 *label, PetscBool *changed)
{
  PetscInt64 *up, *ids;
  PetscInt   *at, m = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(sh->n + 1, &up, sh->n + 1, &ids, sh->n + 1, &at));
  for (PetscInt t = 0; t < sh->n; t++)
    if (label[t] != sh->t0 + t) ids[m] = label[t], at[m++] = t;
  PetscCall(Lookup(sh, label, m, ids, up));
  for (PetscInt i = 0; i < m; i++)
    if (up[i] < label[at[i]]) label[at[i]] = up[i], *changed = PETSC_TRUE;
  PetscCall(PetscFree3(up, ids, at));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt Find(PetscInt *parent, PetscInt k)
{
  while (parent[k] != k) k = parent[k] = parent[parent[k]];
  return k;
}

static int ComparePair(const void *a, const void *b)
{
  const PetscInt64 *p = (const PetscInt64 *)a, *q = (const PetscInt64 *)b;
  if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
  return p[1] < q[1] ? -1 : (p[1] > q[1] ? 1 : 0);
}

/* The pairs to the owners of their lower ends and joined there where both ends are theirs (a union-find
 * whose roots are the least): root, each triangle's; the pairs across blocks made pairs of roots, once
 * each.  A mesh whose neighbours are near in the file leaves few, and the rounds are on those alone. */
static PetscErrorCode Contract(const Share *sh, PetscInt *np, PetscInt64 **pair, PetscInt64 *root)
{
  PetscInt64  *in, *far, *rb;
  PetscMPIInt *dest;
  PetscInt    *parent, nin, nfar = 0, k = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(*np + 1, &dest));
  for (PetscInt i = 0; i < *np; i++) dest[i] = StlBlockOwner(sh->nt, (PetscInt)(*pair)[2 * i], sh->size);
  PetscCall(CollectiveRouteInt64(sh->comm, *np, 2, *pair, dest, &nin, &in));
  PetscCall(PetscFree(dest));
  PetscCall(PetscFree(*pair));
  PetscCall(PetscMalloc1(sh->n + 1, &parent));
  for (PetscInt t = 0; t < sh->n; t++) parent[t] = t;
  for (PetscInt i = 0; i < nin; i++) {
    PetscInt a = (PetscInt)(in[2 * i] - sh->t0), b = (PetscInt)(in[2 * i + 1] - sh->t0), ra, rb2;
    if (b >= sh->n) {
      in[2 * nfar] = a, in[2 * nfar + 1] = b + sh->t0, nfar++; /* across blocks: b > a, never below t0 */
      continue;
    }
    ra = Find(parent, a), rb2 = Find(parent, b);
    if (ra != rb2) parent[PetscMax(ra, rb2)] = PetscMin(ra, rb2);
  }
  for (PetscInt t = 0; t < sh->n; t++) root[t] = Find(parent, t) + sh->t0;
  PetscCall(PetscFree(parent));
  PetscCall(PetscMalloc2(nfar + 1, &far, nfar + 1, &rb));
  for (PetscInt i = 0; i < nfar; i++) far[i] = in[2 * i + 1];
  PetscCall(Lookup(sh, root, nfar, far, rb));
  for (PetscInt i = 0; i < nfar; i++) in[2 * i] = root[in[2 * i]], in[2 * i + 1] = rb[i];
  PetscCall(PetscFree2(far, rb));
  if (nfar) qsort(in, (size_t)nfar, 2 * sizeof(*in), ComparePair);
  for (PetscInt i = 0; i < nfar; i++)
    if (!k || in[2 * i] != in[2 * k - 2] || in[2 * i + 1] != in[2 * k - 1])
      in[2 * k] = in[2 * i], in[2 * k + 1] = in[2 * i + 1], k++;
  *np = k, *pair = in;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The surfaces: the least triangle of each component of the joins, numbered in triangle order.  The
 * blocks' components contracted to their roots; then at the fixed point of the rounds every pair's ends
 * share a label that is its own label, so a component's label is one of its triangles and no larger
 * than any of them: its least; the rest of each block's component take their root's. */
static PetscErrorCode Surfaces(const Share *sh, PetscInt np, PetscInt64 **pairs, PetscInt *nsurf, PetscInt *surface)
{
  PetscInt64 *label, *num, *lab, *root, *pair, off, total;
  PetscInt    nroot = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(sh->n + 1, &label, sh->n + 1, &num, sh->n + 1, &lab, sh->n + 1, &root));
  PetscCall(Contract(sh, &np, pairs, root));
  pair = *pairs;
  for (PetscInt t = 0; t < sh->n; t++) label[t] = sh->t0 + t;
  while (PETSC_TRUE) {
    PetscBool changed = PETSC_FALSE;
    PetscReal any;
    PetscCall(LabelPairs(sh, np, pair, label, &changed));
    PetscCall(LabelJump(sh, label, &changed));
    any = changed ? 1.0 : 0.0;
    PetscCall(CollectiveMaxAll(sh->comm, &any, 1));
    if (any == 0.0) break;
  }
  for (PetscInt t = 0; t < sh->n; t++) label[t] = label[root[t] - sh->t0];
  for (PetscInt t = 0; t < sh->n; t++)
    if (label[t] == sh->t0 + t) nroot++;
  PetscCall(CollectiveOffset(sh->comm, nroot, &off, &total));
  for (PetscInt t = 0; t < sh->n; t++) num[t] = label[t] == sh->t0 + t ? off++ : -1;
  PetscCall(Lookup(sh, num, sh->n, label, lab));
  for (PetscInt t = 0; t < sh->n; t++) surface[t] = (PetscInt)lab[t];
  *nsurf = (PetscInt)total;
  PetscCall(PetscFree4(label, num, lab, root));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* lo, hi, the centroid (exact sums: MeshSetUpWhole's bits) and rext over the ranks. */
static PetscErrorCode Extent(const Share *sh, Mesh *m, const StlShare *s)
{
  ExactSum  acc[4];
  PetscReal rext = 0.0;

  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++) m->lo[a] = s->lo[a], m->hi[a] = s->hi[a];
  for (int q = 0; q < 4; q++) ExactSumZero(&acc[q]);
  for (PetscInt t = 0; t < sh->n; t++) {
    PetscReal mom[3];
    ExactSumAdd(&acc[0], MeshTriangleMoment(s->x + 9 * t, s->x + 9 * t + 3, s->x + 9 * t + 6, mom));
    for (int q = 0; q < 3; q++) ExactSumAdd(&acc[1 + q], mom[q]);
  }
  PetscCall(ExactSumAllreduce(sh->comm, acc, 4));
  for (int q = 0; q < 3; q++) m->centroid[q] = ExactSumValue(&acc[1 + q]) / ExactSumValue(&acc[0]);
  for (PetscInt v = 0; v < s->nvl; v++) rext = PetscMax(rext, MeshVertexRadius(m, s->vx + 3 * v));
  PetscCall(CollectiveMaxAll(sh->comm, &rext, 1));
  m->rext = rext;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The triangle records of this rank's block, as MeshDistribute makes them. */
static PetscErrorCode Records(const Share *sh, Mesh *m, const StlShare *s, const PetscReal *normal,
                              const PetscInt *surface)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1((size_t)MESH_RECORD_WIDTH * sh->n + 1, &m->hrec));
  for (PetscInt k = 0; k < sh->n; k++) {
    PetscReal *r = m->hrec + (size_t)MESH_RECORD_WIDTH * k;
    r[0]         = (PetscReal)(sh->t0 + k);
    for (int c = 0; c < 3; c++) {
      r[1 + c] = (PetscReal)s->tri[3 * k + c];
      for (int a = 0; a < 3; a++) r[4 + 3 * c + a] = s->x[9 * k + 3 * c + a];
      r[13 + c] = normal[3 * k + c];
    }
    r[16] = (PetscReal)surface[k];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshSetUpShare(MPI_Comm comm, Mesh *m, StlShare *s)
{
  Share       sh;
  PetscReal  *normal;
  PetscInt   *surface, np;
  PetscInt64 *pair;

  PetscFunctionBeginUser;
  PetscCheck(s->nt < MESH_TRIANGLES_MAX, comm, PETSC_ERR_USER_INPUT,
             "%s: %" PetscInt_FMT " triangles, more than the %" PetscInt64_FMT " a mesh may have", m->file, s->nt,
             MESH_TRIANGLES_MAX - 1);
  sh.comm = comm, sh.nt = s->nt, sh.t0 = s->t0, sh.n = s->n;
  PetscCall(CollectiveRank(comm, &sh.rank, &sh.size));
  PetscCall(PetscMalloc2(3 * s->n + 1, &normal, s->n + 1, &surface));
  for (PetscInt t = 0; t < s->n; t++)
    PetscCheck(MeshTriangleNormal(s->x + 9 * t, s->x + 9 * t + 3, s->x + 9 * t + 6, normal + 3 * t) > 0.0,
               PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "%s: triangle %" PetscInt_FMT " (from 1) has zero area", m->file,
               s->t0 + t + 1);
  PetscCall(JoinedPairs(&sh, m, s, normal, &np, &pair));
  PetscCall(Surfaces(&sh, np, &pair, &m->nsurf, surface));
  PetscCall(PetscFree(pair));
  PetscCall(Extent(&sh, m, s));
  PetscCall(Records(&sh, m, s, normal, surface));
  PetscCall(PetscFree2(normal, surface));
  m->nv_total = s->nv, m->nt_total = s->nt, m->nrank = sh.size;
  m->hv0 = s->v0, m->hnv = s->nvl, m->hx = s->vx, s->vx = NULL;
  m->ht0 = s->t0, m->hnt = s->n;
  m->nv = m->nt = 0, m->whole = PETSC_FALSE;
  PetscCall(PetscMalloc1(6 * sh.size, &m->held));
  for (PetscMPIInt r = 0; r < sh.size; r++)
    for (int a = 0; a < 3; a++) m->held[6 * r + a] = PETSC_MAX_REAL, m->held[6 * r + 3 + a] = -PETSC_MAX_REAL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
