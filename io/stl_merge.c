/* The vertices of an STL file read by share (io/stl_share.h): corners
 * whose file coordinates are equal meet on the rank of their hash, each
 * vertex's first corner (its smallest index 3 t + c) goes to the owner of
 * its triangle, where vertices are numbered in the order of their first
 * corners, transformed and checked; the numbers and coordinates go back to
 * every corner.  Indices travel as reals: exact below 2^53. */
#include <string.h>
#include "io/stl_block.h"
#include "io/stl_reader.h"
#include "decomp/collective.h"

/* Records: a corner at its hash rank; a vertex at its first corner's
 * owner (first corner, coordinates, group at the hash rank, that rank); a
 * vertex's number and transformed coordinates (with a group or a corner). */
#define W_CORNER 4
#define W_FIRST  6
#define W_NUMBER 5

typedef struct {
  MPI_Comm        comm;
  PetscMPIInt     rank, size;
  const StlXform *xf;
  StlReader      *rd; /* the messages: path, format, lines of this rank's triangles */
  StlShare       *s;
  PetscInt        nh, ng; /* corners at this hash rank, sorted; their groups (vertices) */
  PetscReal      *hc;     /* W_CORNER nh */
} Merge;

static uint64_t Mix64(uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Equal coordinates, equal rank: -0 is +0, as the serial merge compares them. */
static PetscMPIInt CoordRank(const PetscReal *x, PetscMPIInt size)
{
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (int j = 0; j < 3; j++) {
    PetscReal v = x[j] == 0 ? 0.0 : x[j];
    uint64_t  b;
    memcpy(&b, &v, sizeof(b));
    h = Mix64(h ^ b);
  }
  return (PetscMPIInt)(h % (uint64_t)size);
}

static int CompareCorner(const void *a, const void *b)
{
  const PetscReal *p = (const PetscReal *)a, *q = (const PetscReal *)b;
  for (int j = 0; j < W_CORNER; j++)
    if (p[j] != q[j]) return p[j] < q[j] ? -1 : 1;
  return 0;
}

static int CompareFirst(const void *a, const void *b)
{
  const PetscReal *p = (const PetscReal *)a, *q = (const PetscReal *)b;
  return p[0] < q[0] ? -1 : (p[0] > q[0] ? 1 : 0);
}

static PetscBool SameCoords(const PetscReal *p, const PetscReal *q)
{
  return p[0] == q[0] && p[1] == q[1] && p[2] == q[2] ? PETSC_TRUE : PETSC_FALSE;
}

/* Every corner to the rank of its coordinates' hash, sorted there by (coordinates, corner). */
static PetscErrorCode CornersToHash(Merge *mg, const PetscReal *c)
{
  PetscInt     nc = 3 * mg->s->n;
  PetscReal   *items;
  PetscMPIInt *dest;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1((size_t)W_CORNER * nc + 1, &items));
  PetscCall(PetscMalloc1(nc + 1, &dest));
  for (PetscInt k = 0; k < nc; k++) {
    for (int j = 0; j < 3; j++) items[W_CORNER * k + j] = c[3 * k + j];
    items[W_CORNER * k + 3] = (PetscReal)(3 * (PetscInt64)mg->s->t0 + k);
    dest[k]                 = CoordRank(c + 3 * k, mg->size);
  }
  PetscCall(CollectiveRouteTake(mg->comm, nc, W_CORNER, &items, dest, &mg->nh, &mg->hc));
  PetscCall(PetscFree(dest));
  if (mg->nh) qsort(mg->hc, (size_t)mg->nh, sizeof(PetscReal) * W_CORNER, CompareCorner);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each group's first corner to the owner of its triangle: *nf records arrive, by first corner. */
static PetscErrorCode FirstsToOwners(Merge *mg, PetscInt *nf, PetscReal **first)
{
  PetscReal   *items;
  PetscMPIInt *dest;

  PetscFunctionBeginUser;
  mg->ng = 0;
  for (PetscInt i = 0; i < mg->nh; i++)
    if (!i || !SameCoords(mg->hc + W_CORNER * i, mg->hc + W_CORNER * (i - 1))) mg->ng++;
  PetscCall(PetscMalloc2((size_t)W_FIRST * mg->ng + 1, &items, mg->ng + 1, &dest));
  for (PetscInt i = 0, g = 0; i < mg->nh; i++) {
    const PetscReal *h = mg->hc + W_CORNER * i;
    PetscReal       *r = items + W_FIRST * g;
    if (i && SameCoords(h, h - W_CORNER)) continue;
    r[0] = h[3], r[1] = h[0], r[2] = h[1], r[3] = h[2], r[4] = (PetscReal)g, r[5] = (PetscReal)mg->rank;
    dest[g++] = StlBlockOwner(mg->s->nt, (PetscInt)(h[3] / 3), mg->size);
  }
  PetscCall(CollectiveRoute(mg->comm, mg->ng, W_FIRST, items, dest, nf, first));
  PetscCall(PetscFree2(items, dest));
  if (*nf) qsort(*first, (size_t)*nf, sizeof(PetscReal) * W_FIRST, CompareFirst);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The vertices numbered by their first corners over all ranks, transformed and
 * checked in that order (the first error of the file raised); their numbers
 * back to the hash ranks' groups (*back) and to the vertices' blocks (in s->vx). */
static PetscErrorCode NumberVertices(Merge *mg, PetscInt nf, const PetscReal *first, PetscInt *nb, PetscReal **back)
{
  StlShare      *s = mg->s;
  PetscInt64     off, total, key = 0;
  PetscReal     *toh, *tov, *vin;
  PetscMPIInt   *dh, *dv;
  PetscInt       nvin;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBeginUser;
  PetscCall(CollectiveOffset(mg->comm, nf, &off, &total));
  s->nv  = (PetscInt)total;
  s->v0  = StlBlockStart(s->nv, mg->rank, mg->size);
  s->nvl = StlBlockStart(s->nv, mg->rank + 1, mg->size) - s->v0;
  PetscCall(PetscMalloc4((size_t)W_NUMBER * nf + 1, &toh, nf + 1, &dh, (size_t)4 * nf + 1, &tov, nf + 1, &dv));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  for (PetscInt i = 0; i < nf; i++) {
    const PetscReal *r = first + W_FIRST * i;
    PetscReal       *y = toh + W_NUMBER * i + 2;
    StlXformApply(mg->xf, r + 1, y);
    if (!ierr) {
      ierr = StlCheckVertex(mg->rd, (PetscInt)r[0], r + 1, y);
      key  = (PetscInt64)r[0];
    }
    toh[W_NUMBER * i] = r[4], toh[W_NUMBER * i + 1] = (PetscReal)(off + i);
    dh[i]      = (PetscMPIInt)r[5];
    tov[4 * i] = (PetscReal)(off + i);
    for (int a = 0; a < 3; a++) tov[4 * i + 1 + a] = y[a];
    dv[i] = StlBlockOwner(s->nv, (PetscInt)(off + i), mg->size);
  }
  PetscCall(PetscPopErrorHandler());
  PetscCall(CollectiveFirstError(mg->comm, ierr, key, NULL));
  PetscCall(CollectiveRoute(mg->comm, nf, W_NUMBER, toh, dh, nb, back));
  PetscCall(CollectiveRoute(mg->comm, nf, 4, tov, dv, &nvin, &vin));
  PetscCall(PetscFree4(toh, dh, tov, dv));
  PetscCheck(nvin == s->nvl, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "%s: %" PetscInt_FMT " vertices arrived, not %" PetscInt_FMT, mg->rd->path, nvin, s->nvl);
  PetscCall(PetscMalloc1(3 * s->nvl + 1, &s->vx));
  for (PetscInt i = 0; i < nvin; i++) {
    PetscInt v = (PetscInt)vin[4 * i] - s->v0;
    for (int a = 0; a < 3; a++) s->vx[3 * v + a] = vin[4 * i + 1 + a];
  }
  PetscCall(PetscFree(vin));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The groups' numbers (back, by group) to every corner's triangle owner: s->tri and s->x. */
static PetscErrorCode NumbersToCorners(Merge *mg, PetscInt nb, const PetscReal *back)
{
  StlShare    *s = mg->s;
  PetscReal   *byg, *items, *in;
  PetscMPIInt *dest;
  PetscInt     nin;

  PetscFunctionBeginUser;
  PetscCheck(nb == mg->ng, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "%s: %" PetscInt_FMT " numbers for %" PetscInt_FMT " vertices", mg->rd->path, nb, mg->ng);
  PetscCall(PetscMalloc1((size_t)4 * mg->ng + 1, &byg));
  for (PetscInt i = 0; i < nb; i++) {
    PetscInt g = (PetscInt)back[W_NUMBER * i];
    for (int j = 0; j < 4; j++) byg[4 * g + j] = back[W_NUMBER * i + 1 + j];
  }
  PetscCall(PetscMalloc1((size_t)W_NUMBER * mg->nh + 1, &items));
  PetscCall(PetscMalloc1(mg->nh + 1, &dest));
  for (PetscInt i = 0, g = -1; i < mg->nh; i++) {
    const PetscReal *h = mg->hc + W_CORNER * i;
    if (!i || !SameCoords(h, h - W_CORNER)) g++;
    items[W_NUMBER * i] = h[3];
    for (int j = 0; j < 4; j++) items[W_NUMBER * i + 1 + j] = byg[4 * g + j];
    dest[i] = StlBlockOwner(s->nt, (PetscInt)(h[3] / 3), mg->size);
  }
  PetscCall(PetscFree(byg));
  PetscCall(PetscFree(mg->hc));
  PetscCall(CollectiveRouteTake(mg->comm, mg->nh, W_NUMBER, &items, dest, &nin, &in));
  PetscCall(PetscFree(dest));
  PetscCheck(nin == 3 * s->n, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "%s: %" PetscInt_FMT " corners arrived, not %" PetscInt_FMT, mg->rd->path, nin, 3 * s->n);
  PetscCall(PetscMalloc1(3 * s->n + 1, &s->tri));
  PetscCall(PetscMalloc1(9 * s->n + 1, &s->x));
  for (PetscInt i = 0; i < nin; i++) {
    PetscInt k = (PetscInt)((PetscInt64)in[W_NUMBER * i] - 3 * (PetscInt64)s->t0);
    s->tri[k]  = (PetscInt)in[W_NUMBER * i + 1];
    for (int a = 0; a < 3; a++) s->x[3 * k + a] = in[W_NUMBER * i + 2 + a];
  }
  PetscCall(PetscFree(in));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The triangles checked (the first error in file order raised), the box reduced. */
static PetscErrorCode CheckAndBox(Merge *mg)
{
  StlShare      *s    = mg->s;
  PetscErrorCode ierr = PETSC_SUCCESS;
  PetscInt64     key  = 0;
  PetscReal      box[6];

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  for (PetscInt i = 0; i < s->n && !ierr; i++) {
    const PetscReal *p = s->x + 9 * i;
    ierr               = StlCheckTriangle(mg->rd, s->t0 + i, s->tri + 3 * i, p, p + 3, p + 6);
    key                = s->t0 + i;
  }
  PetscCall(PetscPopErrorHandler());
  PetscCall(CollectiveFirstError(mg->comm, ierr, key, NULL));
  for (int a = 0; a < 3; a++) box[a] = -PETSC_MAX_REAL, box[3 + a] = -PETSC_MAX_REAL;
  for (PetscInt v = 0; v < s->nvl; v++)
    for (int a = 0; a < 3; a++)
      box[a] = PetscMax(box[a], -s->vx[3 * v + a]), box[3 + a] = PetscMax(box[3 + a], s->vx[3 * v + a]);
  PetscCall(CollectiveMaxAll(mg->comm, box, 6));
  for (int a = 0; a < 3; a++) s->lo[a] = -box[a], s->hi[a] = box[3 + a];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StlMergeShare(MPI_Comm comm, const char *path, const StlXform *xf, const PetscReal *c,
                             const PetscInt *tline, StlShare *s)
{
  Merge      mg;
  StlReader *rd;
  PetscInt   nf, nb;
  PetscReal *first, *back;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&mg, sizeof(mg)));
  PetscCall(PetscNew(&rd));
  rd->path = path, rd->binary = tline ? PETSC_FALSE : PETSC_TRUE, rd->base = s->t0;
  rd->tline = (PetscInt *)tline; /* read only: the messages' lines */
  mg.comm = comm, mg.xf = xf, mg.rd = rd, mg.s = s;
  PetscCall(CollectiveRank(comm, &mg.rank, &mg.size));
  PetscCall(CornersToHash(&mg, c));
  PetscCall(FirstsToOwners(&mg, &nf, &first));
  PetscCall(NumberVertices(&mg, nf, first, &nb, &back));
  PetscCall(PetscFree(first));
  PetscCall(NumbersToCorners(&mg, nb, back));
  PetscCall(PetscFree(back));
  PetscCall(CheckAndBox(&mg));
  PetscCall(PetscFree(rd));
  PetscFunctionReturn(PETSC_SUCCESS);
}
