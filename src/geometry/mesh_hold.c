/* Distributed meshes: which triangles a rank holds, and how it gets them.
 *
 * On more than one rank a mesh is read and set up by share (mesh_share.c):
 * rank r keeps the r-th block of the vertices (for the outputs) and of the
 * triangles (as records), for the whole run; MeshDistribute cuts a mesh
 * made whole (MeshCreateFromArrays) the same way.
 * What a rank holds for its contacts is another set: every triangle whose
 * bounding box meets its held box, the box in the mesh frame that covers
 * its subdomain at the lists' build time, taken there by the inverse of the
 * mesh's pose, grown by the reach (the largest radius plus the skin) and a
 * margin.  The lists are made from owned particles, which lie in the
 * subdomain then, so every triangle within reach of one of them is held;
 * the candidates, found by distance among the held triangles and kept in
 * whole-mesh order, are those of a whole mesh, and so are the contacts.
 *
 * Every rank holds the cuts and the mesh's pose, so every rank knows every
 * rank's box: when a subdomain's box leaves its held box (the cuts moved,
 * the mesh moved), all ranks know it without a message.  The triangles are
 * then fetched from a second set of shares, by space (mesh_bins.c): each
 * share's box is known on every rank, so a rank receives from just the
 * ranks whose share boxes meet its new held box, and they alone send. */
#include "geometry/mesh_hold.h"
#include "geometry/mesh_bins.h"
#include "decomp/collective.h"
#include "decomp/grid.h"

/* A held box is the needed one grown by the reach and an eighth of its
 * largest edge: a mesh turning slowly, or cuts moving a little, are still
 * inside it for a while, and it stays about as large as the subdomain. */
#define MESH_HOLD_MARGIN 0.125

PetscErrorCode MeshDistribute(MPI_Comm comm, Mesh *m)
{
  PetscMPIInt rank, size;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, &size));
  m->nrank = size;
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  m->hv0 = (PetscInt)((PetscInt64)m->nv_total * rank / size);
  m->hnv = (PetscInt)((PetscInt64)m->nv_total * (rank + 1) / size) - m->hv0;
  m->ht0 = (PetscInt)((PetscInt64)m->nt_total * rank / size);
  m->hnt = (PetscInt)((PetscInt64)m->nt_total * (rank + 1) / size) - m->ht0;
  PetscCall(PetscMalloc1(3 * m->hnv + 1, &m->hx));
  PetscCall(PetscMalloc1((size_t)MESH_RECORD_WIDTH * m->hnt + 1, &m->hrec));
  PetscCall(PetscArraycpy(m->hx, m->x + 3 * m->hv0, 3 * m->hnv));
  for (PetscInt k = 0; k < m->hnt; k++) {
    PetscInt   t = m->ht0 + k;
    PetscReal *r = m->hrec + (size_t)MESH_RECORD_WIDTH * k;
    r[0]         = (PetscReal)t;
    for (int c = 0; c < 3; c++) {
      PetscInt v = m->tri[3 * t + c];
      r[1 + c]   = (PetscReal)v;
      for (int a = 0; a < 3; a++) r[4 + 3 * c + a] = m->x[3 * v + a];
      r[13 + c] = m->normal[3 * t + c];
    }
    r[16] = (PetscReal)m->surface[t];
  }
  PetscCall(MeshHeldFree(m));
  m->whole = PETSC_FALSE;
  PetscCall(PetscMalloc1(6 * size, &m->held));
  for (PetscMPIInt r = 0; r < size; r++)
    for (int a = 0; a < 3; a++) m->held[6 * r + a] = PETSC_MAX_REAL, m->held[6 * r + 3 + a] = -PETSC_MAX_REAL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt v, k; /* whole-mesh vertex, and where it is met: 3 triangle + corner */
} VertexUse;

static int VertexUseCompare(const void *pa, const void *pb)
{
  const VertexUse *a = (const VertexUse *)pa, *b = (const VertexUse *)pb;
  if (a->v != b->v) return a->v < b->v ? -1 : 1;
  return a->k < b->k ? -1 : a->k > b->k;
}

PetscErrorCode MeshHoldRecords(Mesh *m, PetscInt n, const PetscReal *rec, PetscReal reach)
{
  VertexUse *use;

  PetscFunctionBeginUser;
  for (PetscInt k = 1; k < n; k++)
    PetscCheck(rec[(size_t)MESH_RECORD_WIDTH * k] > rec[(size_t)MESH_RECORD_WIDTH * (k - 1)], PETSC_COMM_SELF,
               PETSC_ERR_PLIB, "%s: the held triangles are not in ascending order", m->name);
  PetscCall(MeshHeldFree(m));
  m->nt = n;
  PetscCall(PetscMalloc1(3 * n + 1, &m->tri));
  PetscCall(PetscMalloc1(3 * n + 1, &m->tvid));
  PetscCall(PetscMalloc1(n + 1, &m->tid));
  PetscCall(PetscMalloc1(3 * n + 1, &m->normal));
  PetscCall(PetscMalloc1(n + 1, &m->surface));
  PetscCall(PetscMalloc1(3 * n + 1, &use));
  for (PetscInt k = 0; k < n; k++) {
    const PetscReal *r = rec + (size_t)MESH_RECORD_WIDTH * k;
    m->tid[k]          = (PetscInt)r[0];
    m->surface[k]      = (PetscInt)r[16];
    for (int c = 0; c < 3; c++) {
      m->normal[3 * k + c] = r[13 + c];
      use[3 * k + c].v     = (PetscInt)r[1 + c];
      m->tvid[3 * k + c]   = use[3 * k + c].v;
      use[3 * k + c].k     = 3 * k + c;
    }
  }
  if (n) qsort(use, (size_t)(3 * n), sizeof(*use), VertexUseCompare);
  m->nv = 0;
  for (PetscInt u = 0; u < 3 * n; u++)
    if (u == 0 || use[u].v != use[u - 1].v) m->nv++;
  PetscCall(PetscMalloc1(3 * m->nv + 1, &m->x));
  m->nv = 0;
  /* every copy of a vertex carries the same bits: the first is taken */
  for (PetscInt u = 0; u < 3 * n; u++) {
    PetscInt k = use[u].k / 3, c = use[u].k % 3;
    if (u == 0 || use[u].v != use[u - 1].v) {
      for (int a = 0; a < 3; a++) m->x[3 * m->nv + a] = rec[(size_t)MESH_RECORD_WIDTH * k + 4 + 3 * c + a];
      m->nv++;
    }
    m->tri[3 * k + c] = m->nv - 1;
  }
  PetscCall(PetscFree(use));
  m->fetches++;
  PetscCall(MeshSetUp(m, reach));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The box in the mesh frame covering subdomain [lo, hi] in pose ps, grown by grow. */
static void MeshFrameBox(const WallPose *ps, const PetscReal lo[3], const PetscReal hi[3], PetscReal grow,
                         PetscReal box[6])
{
  for (int a = 0; a < 3; a++) box[a] = PETSC_MAX_REAL, box[3 + a] = -PETSC_MAX_REAL;
  for (int c = 0; c < 8; c++) {
    PetscReal x[3] = {c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]}, x0[3];
    WallPoseInverse(ps, x, x0);
    for (int a = 0; a < 3; a++) box[a] = PetscMin(box[a], x0[a]), box[3 + a] = PetscMax(box[3 + a], x0[a]);
  }
  for (int a = 0; a < 3; a++) box[a] -= grow, box[3 + a] += grow;
}

static PetscBool BoxInside(const PetscReal in[6], const PetscReal out[6])
{
  for (int a = 0; a < 3; a++)
    if (!(in[a] >= out[a] && in[3 + a] <= out[3 + a])) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* Which ranks' held boxes no longer cover their subdomains at tb: fetch[r],
 * their new boxes in m->held.  The same on every rank. */
static PetscErrorCode MeshHoldPlan(Mesh *m, const Grid *g, PetscReal tb, PetscBool *fetch, PetscInt *nfetch)
{
  WallPose ps;

  PetscFunctionBeginUser;
  WallMotionPose(&m->motion, tb, &ps);
  *nfetch = 0;
  for (PetscMPIInt r = 0; r < g->size; r++) {
    PetscReal lo[3], hi[3], need[6], edge = 0.0, scale = 0.0;
    GridBoxOf(g, r, lo, hi);
    for (int a = 0; a < 3; a++) scale = PetscMax(scale, PetscMax(PetscAbsReal(lo[a]), PetscAbsReal(hi[a])));
    /* the reach, and a margin for the rounding of the corners' transform */
    MeshFrameBox(&ps, lo, hi, m->reach * (1.0 + 1e-9) + 1e-12 * scale, need);
    fetch[r] = BoxInside(need, m->held + 6 * r) ? PETSC_FALSE : PETSC_TRUE;
    if (!fetch[r]) continue;
    (*nfetch)++;
    for (int a = 0; a < 3; a++) edge = PetscMax(edge, need[3 + a] - need[a]);
    for (int a = 0; a < 3; a++) {
      m->held[6 * r + a]     = need[a] - m->reach - MESH_HOLD_MARGIN * edge;
      m->held[6 * r + 3 + a] = need[3 + a] + m->reach + MESH_HOLD_MARGIN * edge;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshesHold(Meshes *ms, const Grid *g, PetscReal tb)
{
  PetscBool *fetch;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(g->size, &fetch));
  for (PetscInt q = 0; q < ms->n; q++) {
    Mesh      *m = &ms->m[q];
    PetscInt   nfetch, nout;
    PetscReal *out;
    if (m->whole || !WallMotionPresent(&m->motion, tb)) continue;
    PetscCheck(m->nrank == g->size, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: distributed over %" PetscInt_FMT " ranks, held on %d", m->name, m->nrank, g->size);
    PetscCall(MeshHoldPlan(m, g, tb, fetch, &nfetch));
    if (!nfetch) continue;
    PetscCall(MeshBinsFetch(m, g, fetch, &nout, &out));
    if (fetch[g->rank]) PetscCall(MeshHoldRecords(m, nout, out, m->reach));
    PetscCall(PetscFree(out));
  }
  PetscCall(PetscFree(fetch));
  PetscFunctionReturn(PETSC_SUCCESS);
}
