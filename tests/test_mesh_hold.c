/* Distributed meshes (geometry/mesh_hold.c) at 1-4 ranks: a turning mesh
 * and moving cuts; at every point of a rank's subdomain the candidates and
 * the contacts from the triangles it holds are those of the whole mesh, bit
 * for bit; the shares tile the mesh; a rank holds less than the whole
 * mesh (checks per rank, asserted together: check_main.h). */
#include <math.h>
#include "check_main.h"
#include "geometry/mesh.h"
#include "geometry/mesh_share.h"

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
  ck_assert(!MeshesShare(ms, &g));
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

int main(int argc, char **argv)
{
  Suite *s  = suite_create("mesh_hold");
  TCase *tc = tcase_create("mesh_hold");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_held_is_whole_near_subdomain);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
