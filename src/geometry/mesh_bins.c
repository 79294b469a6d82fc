/* A distributed mesh's triangles shared by space, for the fetches.
 *
 * MeshDistribute's shares are blocks of triangle indices, kept for the
 * outputs; a block of an unordered mesh is scattered over the whole of it.
 * For the fetches each triangle record is also given, once at set-up, to a
 * share of a tree of boxes that bisects the centroids in the mesh frame
 * (decomp/balance_rcb.h), as many on each side as ranks: the shares are
 * compact and of about equal size, and every rank keeps every share's box.
 * A rank's held triangles (every triangle whose bounding box meets its held
 * box) lie in the shares whose boxes meet the held box: those ranks, known
 * alike on every rank, send them (decomp/route.h), and no other rank takes
 * part.  The shares stay for the run, in the mesh's own frame: the mesh's
 * motion and moving cuts change which shares a held box meets, never what
 * is held. */
#include "geometry/mesh_bins.h"
#include "decomp/collective.h"
#include "decomp/route.h"
#include "decomp/balance_rcb.h"

typedef struct {
  PetscInt tid, k; /* a record's triangle, and where it is */
} RecordKey;

static int RecordKeyCompare(const void *pa, const void *pb)
{
  const RecordKey *a = (const RecordKey *)pa, *b = (const RecordKey *)pb;
  return a->tid < b->tid ? -1 : a->tid > b->tid;
}

/* n records put in ascending triangle order; *rec may be replaced. */
static PetscErrorCode RecordsSortByTid(PetscInt n, PetscReal **rec)
{
  RecordKey *key;
  PetscReal *out;
  PetscBool  sorted = PETSC_TRUE;

  PetscFunctionBeginUser;
  for (PetscInt k = 1; k < n && sorted; k++)
    if (!((*rec)[(size_t)MESH_RECORD_WIDTH * k] > (*rec)[(size_t)MESH_RECORD_WIDTH * (k - 1)])) sorted = PETSC_FALSE;
  if (sorted) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(n, &key));
  PetscCall(PetscMalloc1((size_t)MESH_RECORD_WIDTH * n, &out));
  for (PetscInt k = 0; k < n; k++) key[k].tid = (PetscInt)(*rec)[(size_t)MESH_RECORD_WIDTH * k], key[k].k = k;
  qsort(key, (size_t)n, sizeof(*key), RecordKeyCompare);
  for (PetscInt k = 0; k < n; k++)
    PetscCall(PetscArraycpy(out + (size_t)MESH_RECORD_WIDTH * k, *rec + (size_t)MESH_RECORD_WIDTH * key[k].k,
                            MESH_RECORD_WIDTH));
  PetscCall(PetscFree(key));
  PetscCall(PetscFree(*rec));
  *rec = out;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A record's corners' box grows box. */
static void RecordGrow(const PetscReal *r, PetscReal box[6])
{
  for (int c = 0; c < 3; c++)
    for (int a = 0; a < 3; a++)
      box[a] = PetscMin(box[a], r[4 + 3 * c + a]), box[3 + a] = PetscMax(box[3 + a], r[4 + 3 * c + a]);
}

/* Where each of this rank's block of records goes: a tree of boxes over the
 * mesh's box (grown a little: a flat mesh has no depth) bisecting the
 * centroids, as many on each side as the ranks below and above. */
static PetscErrorCode MeshBinDest(MPI_Comm comm, const Mesh *m, PetscMPIInt *dest)
{
  Grid         tg;
  PetscReal    lo[3], hi[3], *c, edge = 0.0;
  PetscMPIInt *axis;
  PetscReal   *cut;

  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++)
    edge = PetscMax(edge,
                    PetscMax(m->hi[a] - m->lo[a], 1e-9 * PetscMax(PetscAbsReal(m->lo[a]), PetscAbsReal(m->hi[a]))));
  edge = PetscMax(edge, 1e-9); /* above the rounding of the box's bounds, however far from the origin */
  for (int a = 0; a < 3; a++) lo[a] = m->lo[a] - 1e-3 * edge, hi[a] = m->hi[a] + 1e-3 * edge;
  PetscCall(GridCreate(comm, lo, hi, NULL, NULL, &tg));
  PetscCall(PetscMalloc3(3 * m->hnt + 1, &c, tg.size, &axis, tg.size, &cut));
  for (PetscInt k = 0; k < m->hnt; k++) {
    const PetscReal *r = m->hrec + (size_t)MESH_RECORD_WIDTH * k;
    for (int a = 0; a < 3; a++) c[3 * k + a] = (r[4 + a] + r[7 + a] + r[10 + a]) / 3.0;
  }
  PetscCall(BalanceRcbTree(&tg, m->hnt, c, 3, 1, axis, cut));
  PetscCall(GridSetTree(&tg, axis, cut));
  for (PetscInt k = 0; k < m->hnt; k++) dest[k] = GridRankAt(&tg, c + 3 * k);
  PetscCall(PetscFree3(c, axis, cut));
  PetscCall(GridDestroy(&tg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshBin(MPI_Comm comm, Mesh *m)
{
  PetscMPIInt *dest, size;
  PetscReal    box[6];
  PetscInt     len;
  char        *all;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, NULL, &size));
  PetscCheck(m->nrank == size, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "%s: distributed over %" PetscInt_FMT " ranks, shared on %d", m->name, m->nrank, size);
  PetscCall(PetscMalloc1(m->hnt + 1, &dest));
  PetscCall(MeshBinDest(comm, m, dest));
  PetscCall(PetscFree(m->srec));
  PetscCall(PetscFree(m->sbox));
  PetscCall(CollectiveRoute(comm, m->hnt, MESH_RECORD_WIDTH, m->hrec, dest, &m->snt, &m->srec));
  PetscCall(PetscFree(dest));
  PetscCall(RecordsSortByTid(m->snt, &m->srec));
  for (int a = 0; a < 3; a++) box[a] = PETSC_MAX_REAL, box[3 + a] = -PETSC_MAX_REAL;
  for (PetscInt k = 0; k < m->snt; k++) RecordGrow(m->srec + (size_t)MESH_RECORD_WIDTH * k, box);
  PetscCall(CollectiveGatherAllBytes(comm, box, (PetscInt)sizeof(box), &len, &all));
  PetscCheck(len == (PetscInt)sizeof(box) * size, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "%s: share boxes of %" PetscInt_FMT " bytes", m->name, len);
  PetscCall(PetscMalloc1(6 * size, &m->sbox));
  PetscCall(PetscMemcpy(m->sbox, all, (size_t)len));
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshesBin(MPI_Comm comm, Meshes *ms)
{
  PetscFunctionBeginUser;
  for (PetscInt q = 0; q < ms->n; q++)
    if (!ms->m[q].whole) PetscCall(MeshBin(comm, &ms->m[q]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool BoxesMeet(const PetscReal a[6], const PetscReal b[6])
{
  for (int k = 0; k < 3; k++)
    if (a[3 + k] < b[k] || a[k] > b[3 + k]) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* Whether a triangle record's bounding box meets box. */
static PetscBool RecordMeets(const PetscReal *r, const PetscReal box[6])
{
  PetscReal rb[6];
  for (int a = 0; a < 3; a++) rb[a] = PETSC_MAX_REAL, rb[3 + a] = -PETSC_MAX_REAL;
  RecordGrow(r, rb);
  return BoxesMeet(rb, box);
}

/* What this rank sends: to each fetching rank whose held box meets its
 * share's box, the records of its share meeting that box, in share order. */
static PetscErrorCode MeshBinsOutgoing(const Mesh *m, const Grid *g, const PetscBool fetch[], PetscInt *nsend,
                                       PetscMPIInt *to, PetscInt *nto, PetscReal **items)
{
  PetscInt n = 0, cap = 0;

  PetscFunctionBeginUser;
  *nsend = 0, *items = NULL;
  for (PetscMPIInt r = 0; r < g->size; r++) {
    const PetscReal *held = m->held + 6 * r;
    if (!fetch[r] || !BoxesMeet(m->sbox + 6 * g->rank, held)) continue;
    to[*nsend] = r, nto[*nsend] = 0;
    for (PetscInt k = 0; k < m->snt; k++) {
      const PetscReal *rec = m->srec + (size_t)MESH_RECORD_WIDTH * k;
      if (!RecordMeets(rec, held)) continue;
      if (n == cap) {
        cap = PetscMax(256, 2 * cap);
        PetscCall(PetscRealloc((size_t)MESH_RECORD_WIDTH * cap * sizeof(**items), items));
      }
      PetscCall(PetscArraycpy(*items + (size_t)MESH_RECORD_WIDTH * n++, rec, MESH_RECORD_WIDTH));
      nto[*nsend]++;
    }
    (*nsend)++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshBinsFetch(Mesh *m, const Grid *g, const PetscBool fetch[], PetscInt *nout, PetscReal **out)
{
  PetscMPIInt *to, *from;
  PetscInt    *nto, nsend, nrecv = 0;
  PetscReal   *items;

  PetscFunctionBeginUser;
  PetscCheck(m->sbox, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: held before it was shared (MeshesBin)", m->name);
  PetscCall(PetscMalloc3(g->size, &to, g->size, &nto, g->size, &from));
  PetscCall(MeshBinsOutgoing(m, g, fetch, &nsend, to, nto, &items));
  if (fetch[g->rank])
    for (PetscMPIInt s = 0; s < g->size; s++)
      if (BoxesMeet(m->sbox + 6 * s, m->held + 6 * g->rank)) from[nrecv++] = s;
  PetscCall(RouteSparse(g->comm, MESH_RECORD_WIDTH, nsend, to, nto, items, nrecv, from, nout, out));
  PetscCall(PetscFree(items));
  if (fetch[g->rank]) {
    m->fetch_peers = 0;
    for (PetscInt j = 0; j < nrecv; j++) m->fetch_peers += from[j] != g->rank;
    PetscCall(RecordsSortByTid(*nout, out));
  }
  PetscCall(PetscFree3(to, nto, from));
  PetscFunctionReturn(PETSC_SUCCESS);
}
