/* Distributed meshes (geometry/mesh_hold.c) at 1-4 ranks: a turning mesh
 * and moving cuts; at every point of a rank's subdomain the candidates and
 * the contacts from the triangles it holds are those of the whole mesh, bit
 * for bit; the shares tile the mesh; a rank holds less than the whole
 * mesh; a plate over slabs of ranks is fetched, at every change of the
 * held boxes, from the shares next to a rank's only (geometry/mesh_bins.c;
 * checks per rank, asserted together: check_main.h). */
#include <math.h>
#include "check_main.h"
#include "geometry/mesh.h"
#include "geometry/mesh_bins.h"

/* The surface of the cube [-s, s]^3, each face an n x n grid of cells in two triangles. */
static void BoxSurface(PetscInt n, PetscReal s, const WallMotion *mo, Mesh *m)
{
  PetscInt   nv = 6 * (n + 1) * (n + 1), nt = 12 * n * n, *tri, t = 0;
  PetscReal *x;

  ck_assert(!PetscMalloc2(3 * nv, &x, 3 * nt, &tri));
  for (PetscInt f = 0; f < 6; f++) {
    int      ax = (int)(f / 2), u = (ax + 1) % 3, w = (ax + 2) % 3;
    PetscInt v0 = f * (n + 1) * (n + 1);
    for (PetscInt j = 0; j <= n; j++)
      for (PetscInt i = 0; i <= n; i++) {
        PetscReal *p = x + 3 * (v0 + j * (n + 1) + i);
        p[ax] = f % 2 ? s : -s, p[u] = -s + 2.0 * s * i / n, p[w] = -s + 2.0 * s * j / n;
      }
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < n; i++) {
        PetscInt a = v0 + j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
        tri[3 * t] = a, tri[3 * t + 1] = b, tri[3 * t + 2] = c, t++;
        tri[3 * t] = a, tri[3 * t + 1] = c, tri[3 * t + 2] = d, t++;
      }
  }
  /* faces meet along edges whose vertices are repeated: distinct vertices, not a problem for the contacts */
  ck_assert(!MeshCreateFromArrays("box", nv, x, nt, tri, 1.0, mo, m));
  ck_assert(!PetscFree2(x, tri));
}

/* Deterministic points: a 64-bit LCG's top bits. */
static PetscReal Uniform(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (PetscReal)(*s >> 11) / 9007199254740992.0;
}

/* The whole mesh's triangles within reach of x, ascending; and the held mesh's, as whole-mesh indices. */
static PetscInt WholeNear(const Mesh *w, const PetscReal x[3], PetscReal reach, PetscInt *out)
{
  PetscInt n = 0;
  for (PetscInt t = 0; t < w->nt; t++) {
    MeshFeature f;
    MeshClosest(w, t, x, &f);
    if (f.dist < reach) out[n++] = t;
  }
  return n;
}

static PetscInt HeldNear(const Mesh *m, const PetscReal x[3], PetscReal reach, PetscInt *local, PetscInt *out)
{
  const PetscInt *items;
  PetscInt        n = 0, ni;
  MeshCellItems(m, x, &items, &ni);
  for (PetscInt k = 0; k < ni; k++) {
    MeshFeature f;
    MeshClosest(m, items[k], x, &f);
    if (f.dist < reach) local[n] = items[k], out[n++] = m->tid[items[k]];
  }
  return n;
}

/* Two contacts are the same: kind, feature (a face by its whole-mesh triangle), point and distance bit for bit. */
static PetscBool SameContact(const Mesh *w, const MeshFeature *a, const Mesh *m, const MeshFeature *b)
{
  PetscInt ta = a->kind == MESH_FEATURE_FACE ? w->tid[a->v[0]] : a->v[0],
           tb = b->kind == MESH_FEATURE_FACE ? m->tid[b->v[0]] : b->v[0];
  if (a->kind != b->kind || ta != tb || a->v[1] != b->v[1] || a->dist != b->dist) return PETSC_FALSE;
  return a->c[0] == b->c[0] && a->c[1] == b->c[1] && a->c[2] == b->c[2] ? PETSC_TRUE : PETSC_FALSE;
}

#define NMAX 8192

START_TEST(test_held_is_whole_near_subdomain)
{
  Grid               g;
  Meshes            *ms;
  Mesh               whole;
  WallMotion         mo;
  PetscReal          lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1}, reach = 0.07;
  PetscInt          *cw, *ch, *lh, *pw, *ph, *nw, *nh, nshare[2];
  MeshFeature       *fw, *fh;
  unsigned long long seed;

  ck_assert(!PetscMemzero(&mo, sizeof(mo)));
  mo.kind = MOTION_ROTATE, mo.omega = 0.7, mo.stop = mo.remove = INFINITY;
  mo.axis[0] = 0.36, mo.axis[1] = 0.8, mo.axis[2] = 0.48; /* unit */
  mo.axis_point[0] = 0.1;
  ck_assert(!PetscNew(&ms));
  ck_assert(!GridCreate(PETSC_COMM_WORLD, lo, hi, NULL, NULL, &g));
  BoxSurface(40, 0.8, &mo, &whole);
  BoxSurface(40, 0.8, &mo, &ms->m[0]);
  ms->n = 1;
  ck_assert(!MeshDistribute(PETSC_COMM_WORLD, &ms->m[0]));
  ck_assert(!MeshesBin(PETSC_COMM_WORLD, ms));
  ck_assert(!MeshesSetUp(ms, reach));
  ck_assert(!MeshSetUp(&whole, reach));
  EXPECT(ms->m[0].nt_total == whole.nt && ms->m[0].nv_total == whole.nv, "totals %d %d", (int)ms->m[0].nt_total,
         (int)ms->m[0].nv_total);
  /* the shares tile the mesh in rank order */
  nshare[0] = ms->m[0].whole ? whole.nv : ms->m[0].hnv, nshare[1] = ms->m[0].whole ? whole.nt : ms->m[0].hnt;
  ck_assert(MPI_Allreduce(MPI_IN_PLACE, nshare, 2, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD) == MPI_SUCCESS);
  EXPECT(nshare[0] == whole.nv && nshare[1] == whole.nt, "shares %d %d of %d %d", (int)nshare[0], (int)nshare[1],
         (int)whole.nv, (int)whole.nt);
  ck_assert(!PetscMalloc5(NMAX, &cw, NMAX, &ch, NMAX, &lh, NMAX, &pw, NMAX, &ph));
  ck_assert(!PetscMalloc4(NMAX, &nw, NMAX, &nh, NMAX, &fw, NMAX, &fh));
  seed = 12345 + 977 * (unsigned long long)g.rank;
  for (int stage = 0; stage < 6; stage++) {
    PetscReal tb = 0.4 * stage;
    WallPose  ps;
    if (stage == 3 && g.dims[0] > 1) { /* the balance moves a cut */
      PetscReal cuts[8];
      for (int c = 0; c <= g.dims[0]; c++) cuts[c] = g.cuts[0][c];
      cuts[1] = cuts[0] + 0.3 * (cuts[1] - cuts[0]);
      ck_assert(!GridSetCuts(&g, 0, cuts));
    }
    ck_assert(!MeshesHold(ms, &g, tb));
    if (stage == 0 && g.size > 1)
      EXPECT(ms->m[0].nt < whole.nt, "rank %d holds %d of %d triangles", g.rank, (int)ms->m[0].nt, (int)whole.nt);
    WallMotionPose(&mo, tb, &ps);
    for (int k = 0; k < 1500; k++) {
      PetscReal xw[3], x0[3];
      PetscInt  n1, n2, np1, np2, nn1, nn2;
      /* half of them within reach of the subdomain's faces, where a held set is tight */
      for (int a = 0; a < 3; a++) {
        PetscReal u = Uniform(&seed), s = Uniform(&seed) * reach;
        xw[a] = u < 0.25 ? g.sublo[a] + s
              : u < 0.5  ? g.subhi[a] - s
                         : g.sublo[a] + Uniform(&seed) * (g.subhi[a] - g.sublo[a]);
      }
      WallPoseInverse(&ps, xw, x0);
      n1 = WholeNear(&whole, x0, reach, cw);
      n2 = HeldNear(&ms->m[0], x0, reach, lh, ch);
      EXPECT(n1 == n2, "stage %d point %d: %d candidates held, %d in the whole mesh", stage, k, (int)n2, (int)n1);
      if (n1 != n2) continue;
      for (PetscInt q = 0; q < n1; q++)
        EXPECT(cw[q] == ch[q], "stage %d point %d: candidate %d is %d, not %d", stage, k, (int)q, (int)ch[q],
               (int)cw[q]);
      MeshContactsSelect(&whole, cw, n1, x0, 0.8 * reach, fw, pw, &np1, nw, &nn1);
      MeshContactsSelect(&ms->m[0], lh, n2, x0, 0.8 * reach, fh, ph, &np2, nh, &nn2);
      EXPECT(np1 == np2 && nn1 == nn2, "stage %d point %d: %d contacts held, %d whole", stage, k, (int)np2, (int)np1);
      for (PetscInt q = 0; q < PetscMin(np1, np2); q++)
        EXPECT(SameContact(&whole, &fw[pw[q]], &ms->m[0], &fh[ph[q]]), "stage %d point %d: contact %d differs", stage,
               k, (int)q);
    }
  }
  ASSERT_ALL_RANKS();
  ck_assert(!PetscFree5(cw, ch, lh, pw, ph));
  ck_assert(!PetscFree4(nw, nh, fw, fh));
  ck_assert(!MeshDestroy(&whole));
  ck_assert(!MeshesDestroy(ms));
  ck_assert(!PetscFree(ms));
  ck_assert(!GridDestroy(&g));
}
END_TEST

/* A plate z = 1 over [0, 4] x [0, 2], nx x ny cells in two triangles,
 * listed in a scrambled order (stride 7 over the triangles): an index block
 * of it lies all over the plate. */
static void SlabPlate(PetscInt nx, PetscInt ny, const WallMotion *mo, Mesh *m)
{
  PetscInt   nv = (nx + 1) * (ny + 1), nt = 2 * nx * ny, *tri, *ord;
  PetscReal *x;

  ck_assert(!PetscMalloc3(3 * nv, &x, 3 * nt, &tri, 3 * nt, &ord));
  for (PetscInt j = 0; j <= ny; j++)
    for (PetscInt i = 0; i <= nx; i++) {
      PetscReal *p = x + 3 * (j * (nx + 1) + i);
      p[0] = 4.0 * i / nx, p[1] = 2.0 * j / ny, p[2] = 1.0;
    }
  for (PetscInt j = 0, t = 0; j < ny; j++)
    for (PetscInt i = 0; i < nx; i++) {
      PetscInt a = j * (nx + 1) + i, b = a + 1, c = a + nx + 2, d = a + nx + 1;
      ord[3 * t] = a, ord[3 * t + 1] = b, ord[3 * t + 2] = c, t++;
      ord[3 * t] = a, ord[3 * t + 1] = c, ord[3 * t + 2] = d, t++;
    }
  ck_assert(nt % 7 != 0);
  for (PetscInt t = 0; t < nt; t++)
    for (int c = 0; c < 3; c++) tri[3 * t + c] = ord[3 * ((7 * t) % nt) + c];
  ck_assert(!MeshCreateFromArrays("plate", nv, x, nt, tri, 1.0, mo, m));
  ck_assert(!PetscFree3(x, tri, ord));
}

/* The triangles of w whose bounding boxes meet box, ascending. */
static PetscInt WholeMeeting(const Mesh *w, const PetscReal box[6], PetscInt *out)
{
  PetscInt n = 0;
  for (PetscInt t = 0; t < w->nt; t++) {
    PetscBool meets = PETSC_TRUE;
    for (int a = 0; a < 3; a++) {
      PetscReal lo = PETSC_MAX_REAL, hi = -PETSC_MAX_REAL;
      for (int c = 0; c < 3; c++)
        lo = PetscMin(lo, w->x[3 * w->tri[3 * t + c] + a]), hi = PetscMax(hi, w->x[3 * w->tri[3 * t + c] + a]);
      if (hi < box[a] || lo > box[3 + a]) meets = PETSC_FALSE;
    }
    if (meets) out[n++] = t;
  }
  return n;
}

/* Ranks in slabs along x, a plate over all of them turning about x: the
 * tree of shares cuts the plate as the slabs do, so a rank's share lies in
 * its slab, and each fetch of its held triangles (all that meet its held
 * box) comes from its two neighbours' shares and its own, never from the
 * others. */
START_TEST(test_fetch_from_near_shares)
{
  Grid       g;
  Meshes    *ms;
  Mesh       whole;
  WallMotion mo;
  PetscReal  lo[3] = {0, 0, 0}, hi[3] = {4, 2, 2}, reach = 0.05;
  PetscInt   dims[3] = {0, 1, 1}, *cw, fetches = 0;

  ck_assert(!PetscMemzero(&mo, sizeof(mo)));
  mo.kind = MOTION_ROTATE, mo.omega = 0.7, mo.stop = mo.remove = INFINITY;
  mo.axis[0] = 1.0, mo.axis_point[1] = 1.0, mo.axis_point[2] = 1.0;
  ck_assert(!PetscNew(&ms));
  {
    PetscMPIInt size;
    ck_assert(MPI_Comm_size(PETSC_COMM_WORLD, &size) == MPI_SUCCESS);
    dims[0] = size;
  }
  ck_assert(!GridCreate(PETSC_COMM_WORLD, lo, hi, NULL, dims, &g));
  SlabPlate(40, 10, &mo, &whole);
  SlabPlate(40, 10, &mo, &ms->m[0]);
  ms->n = 1;
  ck_assert(!MeshDistribute(PETSC_COMM_WORLD, &ms->m[0]));
  ck_assert(!MeshesBin(PETSC_COMM_WORLD, ms));
  ck_assert(!MeshesSetUp(ms, reach));
  ck_assert(!PetscMalloc1(whole.nt, &cw));
  if (g.size > 1) { /* the share lies in the slab, give or take a triangle's width (0.1), and is a fair part */
    const PetscReal *b = ms->m[0].sbox + 6 * g.rank;
    EXPECT(ms->m[0].snt * g.size >= 0.9 * whole.nt && ms->m[0].snt * g.size <= 1.1 * whole.nt,
           "rank %d's share holds %d of %d triangles", g.rank, (int)ms->m[0].snt, (int)whole.nt);
    EXPECT(b[0] >= g.sublo[0] - 0.1 && b[3] <= g.subhi[0] + 0.1, "rank %d's share spans x in [%g, %g]", g.rank,
           (double)b[0], (double)b[3]);
  }
  for (int stage = 0; stage < 8; stage++) {
    const Mesh *m = &ms->m[0];
    PetscInt    n, before = m->fetches;
    ck_assert(!MeshesHold(ms, &g, 0.5 * stage));
    if (g.size == 1 || m->fetches == before) continue;
    fetches++;
    n = WholeMeeting(&whole, m->held + 6 * g.rank, cw);
    EXPECT(n == m->nt, "stage %d: %d triangles held, %d meet the held box", stage, (int)m->nt, (int)n);
    for (PetscInt k = 0; k < PetscMin(n, m->nt); k++)
      EXPECT(m->tid[k] == cw[k], "stage %d: held triangle %d is %d, not %d", stage, (int)k, (int)m->tid[k], (int)cw[k]);
    EXPECT(m->fetch_peers == (g.rank > 0) + (g.rank < g.size - 1), "stage %d: rank %d of %d fetched from %d ranks",
           stage, g.rank, g.size, (int)m->fetch_peers);
  }
  if (g.size > 1) EXPECT(fetches >= 2, "rank %d fetched %d times", g.rank, (int)fetches);
  ASSERT_ALL_RANKS();
  ck_assert(!PetscFree(cw));
  ck_assert(!MeshDestroy(&whole));
  ck_assert(!MeshesDestroy(ms));
  ck_assert(!PetscFree(ms));
  ck_assert(!GridDestroy(&g));
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("mesh_hold");
  TCase *tc = tcase_create("mesh_hold");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_held_is_whole_near_subdomain);
  tcase_add_test(tc, test_fetch_from_near_shares);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
