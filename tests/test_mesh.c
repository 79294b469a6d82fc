/* Sphere-triangle geometry: closest features, the contact selection (one
 * contact on a triangulated plane wherever it is touched, one at a convex
 * edge or vertex, one per face in a concave corner), surfaces, bins, and
 * the walls' closed-form motion. */
#include <math.h>
#include "check_main.h"
#include "geometry/mesh.h"

/* A flat n x n grid of unit cells in z = 0 from (0, 0), diagonals alternating. */
static void GridMesh(PetscInt n, PetscBool flip_one, Mesh *m)
{
  PetscInt   nv = (n + 1) * (n + 1), nt = 2 * n * n, *tri, t = 0;
  PetscReal *x;

  ck_assert(!PetscMalloc2(3 * nv, &x, 3 * nt, &tri));
  for (PetscInt j = 0; j <= n; j++)
    for (PetscInt i = 0; i <= n; i++)
      x[3 * (j * (n + 1) + i)] = i, x[3 * (j * (n + 1) + i) + 1] = j, x[3 * (j * (n + 1) + i) + 2] = 0.0;
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < n; i++) {
      PetscInt a = j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
      if ((i + j) % 2) {
        tri[3 * t] = a, tri[3 * t + 1] = b, tri[3 * t + 2] = d, t++;
        tri[3 * t] = b, tri[3 * t + 1] = c, tri[3 * t + 2] = d, t++;
      } else {
        tri[3 * t] = a, tri[3 * t + 1] = b, tri[3 * t + 2] = c, t++;
        tri[3 * t] = a, tri[3 * t + 1] = c, tri[3 * t + 2] = d, t++;
      }
    }
  if (flip_one) { /* an STL with one triangle wound the other way */
    PetscInt s = tri[1];
    tri[1] = tri[2], tri[2] = s;
  }
  ck_assert(!MeshCreateFromArrays("grid", nv, x, nt, tri, 1.0, NULL, m));
  ck_assert(!PetscFree2(x, tri));
}

/* The unit cube [0, 1]^3, two triangles a face, wound outward or inward. */
static void CubeMesh(PetscBool inward, Mesh *m)
{
  static const PetscReal x[24]   = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
  static const PetscInt  q[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {2, 3, 7, 6}, {1, 2, 6, 5}, {0, 4, 7, 3}};
  PetscInt               tri[36];
  for (int f = 0; f < 6; f++) {
    PetscInt a = q[f][0], b = q[f][1], c = q[f][2], d = q[f][3];
    if (inward) b = q[f][3], d = q[f][1];
    tri[6 * f] = a, tri[6 * f + 1] = b, tri[6 * f + 2] = c;
    tri[6 * f + 3] = a, tri[6 * f + 4] = c, tri[6 * f + 5] = d;
  }
  ck_assert(!MeshCreateFromArrays("cube", 8, x, 12, tri, 1.0, NULL, m));
}

static PetscBool FeatureSameBits(const MeshFeature *a, const MeshFeature *b)
{
  return a->kind == b->kind && a->v[0] == b->v[0] && a->v[1] == b->v[1] && a->dist == b->dist && a->c[0] == b->c[0] &&
             a->c[1] == b->c[1] && a->c[2] == b->c[2]
         ? PETSC_TRUE
         : PETSC_FALSE;
}

/* The contacts of a sphere at x, radius r, with every triangle a candidate. */
static PetscInt Contacts(const Mesh *m, const PetscReal x[3], PetscReal r, MeshFeature *out)
{
  PetscInt    cand[256], pick[256], near[256], np, nn;
  MeshFeature f[256];
  ck_assert(m->nt <= 256);
  for (PetscInt k = 0; k < m->nt; k++) cand[k] = k;
  MeshContactsSelect(m, cand, m->nt, x, r, f, pick, &np, near, &nn);
  for (PetscInt k = 0; k < np; k++) out[k] = f[pick[k]];
  return np;
}

/* A plate in z = 0 over [-2, 2]^2 with a square aperture [-0.5, 0.5]^2: eight cells of two triangles. */
static void PlateMesh(Mesh *m)
{
  static const PetscReal g[4] = {-2.0, -0.5, 0.5, 2.0};
  PetscReal              x[48];
  PetscInt               tri[48], t = 0;
  for (int j = 0; j < 4; j++)
    for (int i = 0; i < 4; i++) x[3 * (4 * j + i)] = g[i], x[3 * (4 * j + i) + 1] = g[j], x[3 * (4 * j + i) + 2] = 0.0;
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++) {
      PetscInt a = 4 * j + i, b = a + 1, c = a + 5, d = a + 4;
      if (i == 1 && j == 1) continue;
      tri[3 * t] = a, tri[3 * t + 1] = b, tri[3 * t + 2] = c, t++;
      tri[3 * t] = a, tri[3 * t + 1] = c, tri[3 * t + 2] = d, t++;
    }
  ck_assert(!MeshCreateFromArrays("plate", 16, x, t, tri, 1.0, NULL, m));
}

/* A sphere wedged in the aperture: one contact per rim, each keyed by its rim's feature (a surface touched in
 * four regions), in key order; the keys stay while the distances tie and flip, and a rim's key stays when
 * the others part; the key gives the feature back.  A surface touched in one region keeps its surface's key. */
START_TEST(test_aperture_rims)
{
  Mesh        m;
  MeshFeature c[8], d[8];
  PetscReal   x[3] = {0.0, 0.0, 0.6}, dist = sqrt(0.25 + 0.36);
  PlateMesh(&m);
  ck_assert_int_eq(m.nsurf, 1);
  ck_assert_int_eq(Contacts(&m, x, 0.8, c), 4);
  for (int k = 0; k < 4; k++) {
    PetscInt    cand[16];
    MeshFeature g;
    ck_assert(c[k].kind == MESH_FEATURE_EDGE && (c[k].key & MESH_KEY_REGION) && MeshKeyValid(&m, c[k].key));
    ck_assert_rel(c[k].dist, dist, 1e-15);
    ck_assert(k == 0 || c[k].key > c[k - 1].key);
    for (PetscInt q = 0; q < m.nt; q++) cand[q] = q;
    ck_assert(MeshKeyFeature(&m, cand, m.nt, c[k].key, x, &g));
    ck_assert(FeatureSameBits(&g, &c[k]));
  }
  for (int s = 0; s < 16; s++) { /* about the centre: the rims' distances tie and flip, their keys stay */
    PetscReal y[3] = {1e-9 * ((s % 4) - 1.5), 1e-9 * ((s / 4) - 1.5), 0.6 + 1e-12 * s};
    ck_assert_int_eq(Contacts(&m, y, 0.8, d), 4);
    for (int k = 0; k < 4; k++) ck_assert(d[k].key == c[k].key && d[k].v[0] == c[k].v[0] && d[k].v[1] == c[k].v[1]);
  }
  { /* off centre along x: the far rim parts, the other three keep their keys */
    PetscReal y[3] = {0.05, 0.0, 0.6};
    ck_assert_int_eq(Contacts(&m, y, 0.8, d), 3);
    for (int k = 0; k < 3; k++) {
      PetscBool found = PETSC_FALSE;
      for (int q = 0; q < 4; q++) found = found || (d[k].key == c[q].key && d[k].v[0] == c[q].v[0]);
      ck_assert(found);
    }
  }
  { /* one rim alone: the surface's key */
    PetscReal y[3] = {0.45, 0.0, 0.2};
    ck_assert_int_eq(Contacts(&m, y, 0.3, d), 1);
    ck_assert(d[0].kind == MESH_FEATURE_EDGE && d[0].key == 0);
  }
  { /* on the plate beside the aperture, the rim within reach: one region, the face's contact */
    PetscReal y[3] = {0.7, 0.0, 0.5};
    ck_assert_int_eq(Contacts(&m, y, 0.55, d), 1);
    ck_assert(d[0].kind == MESH_FEATURE_FACE && d[0].key == 0 && d[0].dist == 0.5);
  }
  { /* above the aperture, out of reach of its rims: none */
    PetscReal y[3] = {0.0, 0.0, 0.7};
    ck_assert_int_eq(Contacts(&m, y, 0.8, d), 0);
  }
  ck_assert(!MeshKeyValid(&m, 1) && !MeshKeyValid(&m, -1) && !MeshKeyValid(&m, MESH_KEY_REGION | (16 << 3)) &&
            !MeshKeyValid(&m, MESH_KEY_REGION | 7) && MeshKeyValid(&m, MESH_KEY_REGION | (15 << 3) | 6));
  ck_assert(!MeshDestroy(&m));
}
END_TEST

/* A large sphere over a small aperture: its overlap with the plate is one region around the hole (the
 * rims' overlaps meet at the corners), so one contact however many rims are local minima. */
START_TEST(test_aperture_one_region)
{
  Mesh        m;
  MeshFeature c[8];
  PetscReal   x[3] = {0.01, 0.02, 9.9};
  PlateMesh(&m);
  ck_assert_int_eq(Contacts(&m, x, 10.0, c), 1);
  ck_assert(c[0].key == 0 && c[0].kind == MESH_FEATURE_EDGE);
  ck_assert(!MeshDestroy(&m));
}
END_TEST

/* A plane with a T-junction: the left half's edge x = 1 is two edges of the right half's (vertex (1, 1) on
 * it), the halves one surface through a strip below.  Across the junction the left face and the right
 * edge are both local minima whose overlaps do not meet; their normals are within the curvature: one
 * region, one contact, the plane's. */
START_TEST(test_t_junction_one_region)
{
  static const PetscReal x[]   = {0, 0, 0, 1, 0, 0, 1, 2, 0, 0, 2,  0, 2, 0,  0,
                                  2, 1, 0, 1, 1, 0, 2, 2, 0, 0, -1, 0, 2, -1, 0};
  static const PetscInt  tri[] = {0, 1, 2, 0, 2, 3, 1, 4, 5, 1, 5, 6, 6, 5, 7, 6, 7, 2, 8, 1, 0, 8, 9, 1, 9, 4, 1};
  Mesh                   m;
  MeshFeature            c[8];
  PetscReal              y[3] = {0.999, 1.5, 0.4};
  ck_assert(!MeshCreateFromArrays("tjunction", 10, x, 9, tri, 1.0, NULL, &m));
  ck_assert_int_eq(m.nsurf, 1);
  ck_assert_int_eq(Contacts(&m, y, 0.5, c), 1);
  ck_assert(c[0].kind == MESH_FEATURE_FACE && c[0].key == 0 && fabs(c[0].dist - 0.4) < 1e-15);
  ck_assert(!MeshDestroy(&m));
}
END_TEST

START_TEST(test_closest_features)
{
  static const PetscReal x[9]   = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  static const PetscInt  tri[3] = {0, 1, 2};
  Mesh                   m;
  MeshFeature            f;
  ck_assert(!MeshCreateFromArrays("tri", 3, x, 1, tri, 1.0, NULL, &m));
  {
    PetscReal p[3] = {0.25, 0.25, 0.5};
    MeshClosest(&m, 0, p, &f);
    ck_assert(f.kind == MESH_FEATURE_FACE && f.dist == 0.5 && f.c[0] == 0.25 && f.c[1] == 0.25 && f.c[2] == 0.0);
  }
  {
    PetscReal p[3] = {-1, -1, 0.3};
    MeshClosest(&m, 0, p, &f);
    ck_assert(f.kind == MESH_FEATURE_VERTEX && f.v[0] == 0);
  }
  {
    PetscReal p[3] = {2, -0.5, 0};
    MeshClosest(&m, 0, p, &f);
    ck_assert(f.kind == MESH_FEATURE_VERTEX && f.v[0] == 1);
  }
  {
    PetscReal p[3] = {0.5, -1, 0};
    MeshClosest(&m, 0, p, &f);
    ck_assert(f.kind == MESH_FEATURE_EDGE && f.v[0] == 0 && f.v[1] == 1 && f.dist == 1.0 && f.c[0] == 0.5);
  }
  {
    PetscReal p[3] = {1, 1, 0};
    MeshClosest(&m, 0, p, &f);
    ck_assert(f.kind == MESH_FEATURE_EDGE && f.v[0] == 1 && f.v[1] == 2);
    ck_assert_rel(f.dist, sqrt(0.5), 1e-15);
  }
  {
    PetscReal p[3] = {-0.5, 0.5, 1};
    MeshClosest(&m, 0, p, &f);
    ck_assert(f.kind == MESH_FEATURE_EDGE && f.v[0] == 0 && f.v[1] == 2);
  }
  ck_assert(m.nsurf == 1 && m.normal[2] == 1.0);
  ck_assert(!MeshDestroy(&m));
}
END_TEST

/* On a triangulated plane: one contact, at the plane's distance, wherever
 * the sphere is: in a face, on an edge (axis or diagonal), at a vertex. */
START_TEST(test_flat_plane_one_contact)
{
  for (int flip = 0; flip < 2; flip++) {
    Mesh      m;
    PetscReal pts[][2] = {{2.3, 2.6}, {2.0, 2.5},   {2.5, 3.0},  {2.0, 2.0},        {2.5, 2.5},
                          {3.5, 2.5}, {2.25, 2.75}, {1e-9, 2.0}, {2.0, 3.0 - 1e-12}};
    GridMesh(6, flip ? PETSC_TRUE : PETSC_FALSE, &m);
    ck_assert_int_eq(m.nsurf, 1);
    for (size_t k = 0; k < sizeof(pts) / sizeof(*pts); k++) {
      PetscReal   x[3] = {pts[k][0], pts[k][1], 0.4};
      MeshFeature c[8];
      PetscInt    n = Contacts(&m, x, 0.5, c);
      ck_assert_msg(n == 1 && c[0].key == 0, "point %d: %d contacts", (int)k, (int)n);
      ck_assert_msg(fabs(c[0].dist - 0.4) <= 1e-15, "point %d: distance %.17g", (int)k, (double)c[0].dist);
    }
    { /* below the plane too (two-sided) */
      PetscReal   x[3] = {2.5, 2.5, -0.3};
      MeshFeature c[8];
      ck_assert_int_eq(Contacts(&m, x, 0.5, c), 1);
    }
    ck_assert(!MeshDestroy(&m));
  }
}
END_TEST

START_TEST(test_cube_surfaces_and_corners)
{
  for (int inward = 0; inward < 2; inward++) {
    Mesh        m;
    MeshFeature c[8];
    CubeMesh(inward ? PETSC_TRUE : PETSC_FALSE, &m);
    ck_assert_int_eq(m.nsurf, 6);
    { /* convex edge from outside, at 45 degrees: one edge contact */
      PetscReal x[3] = {1.2, 0.5, 1.2};
      ck_assert_int_eq(Contacts(&m, x, 0.3, c), 1);
      ck_assert(c[0].kind == MESH_FEATURE_EDGE);
      ck_assert_rel(c[0].dist, 0.2 * sqrt(2.0), 1e-14);
    }
    { /* above the top face near the edge: the face alone */
      PetscReal x[3] = {0.95, 0.5, 1.2};
      ck_assert_int_eq(Contacts(&m, x, 0.3, c), 1);
      ck_assert(c[0].kind == MESH_FEATURE_FACE && fabs(c[0].dist - 0.2) < 1e-15);
    }
    { /* convex vertex: one vertex contact */
      PetscReal x[3] = {1.1, 1.1, 1.1};
      ck_assert_int_eq(Contacts(&m, x, 0.3, c), 1);
      ck_assert(c[0].kind == MESH_FEATURE_VERTEX && c[0].v[0] == 6);
    }
    { /* concave edge from inside: one contact per face */
      PetscReal x[3] = {0.5, 0.2, 0.2};
      ck_assert_int_eq(Contacts(&m, x, 0.3, c), 2);
      ck_assert(c[0].kind == MESH_FEATURE_FACE && c[1].kind == MESH_FEATURE_FACE);
    }
    { /* concave corner: three, each keyed by its face's surface */
      PetscReal x[3] = {0.2, 0.2, 0.2};
      ck_assert_int_eq(Contacts(&m, x, 0.3, c), 3);
      for (int k = 0; k < 3; k++) ck_assert(c[k].key >= 0 && c[k].key < 6 && (k == 0 || c[k].key > c[k - 1].key));
    }
    { /* the middle of the cube, out of reach: none */
      PetscReal x[3] = {0.5, 0.5, 0.5};
      ck_assert_int_eq(Contacts(&m, x, 0.3, c), 0);
    }
    ck_assert(!MeshDestroy(&m));
  }
}
END_TEST

/* The bins give every triangle within reach of a point. */
START_TEST(test_bins_complete)
{
  Mesh      m;
  PetscReal reach = 0.7;
  GridMesh(8, PETSC_FALSE, &m);
  ck_assert(!MeshSetUp(&m, reach));
  for (int s = 0; s < 4000; s++) {
    PetscReal       x[3] = {-1.0 + 10.0 * ((s * 7919) % 1000) / 1000.0, -1.0 + 10.0 * ((s * 104729) % 997) / 997.0,
                            -1.0 + 2.0 * ((s * 31) % 101) / 101.0};
    const PetscInt *items;
    PetscInt        n;
    MeshCellItems(&m, x, &items, &n);
    for (PetscInt t = 0; t < m.nt; t++) {
      MeshFeature f;
      PetscBool   found = PETSC_FALSE;
      MeshClosest(&m, t, x, &f);
      if (!(f.dist < reach)) continue;
      for (PetscInt k = 0; k < n; k++) found = found || items[k] == t;
      ck_assert_msg(found, "triangle %d at %g from (%g, %g, %g) not in its cell", (int)t, (double)f.dist, (double)x[0],
                    (double)x[1], (double)x[2]);
    }
    for (PetscInt k = 1; k < n; k++) ck_assert(items[k] > items[k - 1]);
  }
  ck_assert(!MeshDestroy(&m));
}
END_TEST

START_TEST(test_motion_closed_form)
{
  WallMotion mo;
  WallPose   ps;
  PetscReal  x0[3] = {1.0, 0.0, 0.5}, x[3], back[3], v[3];
  PetscMemzero(&mo, sizeof(mo));
  mo.stop = mo.remove = INFINITY;
  mo.kind = MOTION_ROTATE, mo.axis[2] = 1.0, mo.omega = HDEM_PI, mo.axis_point[1] = 0.0;
  WallMotionPose(&mo, 0.5, &ps); /* a quarter turn */
  WallPoseApply(&ps, x0, x);
  ck_assert(fabs(x[0]) < 1e-15 && fabs(x[1] - 1.0) < 1e-15 && x[2] == 0.5);
  WallPoseInverse(&ps, x, back);
  for (int a = 0; a < 3; a++) ck_assert(fabs(back[a] - x0[a]) < 1e-15);
  WallMotionVelocity(&mo, 0.5, x, v);
  ck_assert(fabs(v[0] + HDEM_PI) < 1e-14 && fabs(v[1]) < 1e-14 && v[2] == 0.0);
  ck_assert(WallMotionTravel(&mo, 1.0, 0.0, 0.5) >= 0.5 * HDEM_PI);
  /* vibrate: the velocity is the derivative of the pose; the travel bounds the displacement */
  PetscMemzero(&mo, sizeof(mo));
  mo.stop = mo.remove = INFINITY;
  mo.kind = MOTION_VIBRATE, mo.frequency = 20.0, mo.amplitude[2] = 1e-3, mo.amplitude2[0] = 2e-3,
  mo.phase = 0.5 * HDEM_PI, mo.start = 0.1;
  for (int k = 1; k < 20; k++) { /* inside the motion: the pose holds before its start */
    PetscReal t = 0.1 + 0.0137 * k, h = 1e-7;
    WallPose  pa, pb;
    WallMotionPose(&mo, t - h, &pa);
    WallMotionPose(&mo, t + h, &pb);
    WallMotionVelocity(&mo, t, x0, v);
    for (int a = 0; a < 3; a++) ck_assert(fabs((pb.T[a] - pa.T[a]) / (2 * h) - v[a]) < 1e-6);
    WallMotionPose(&mo, t, &pa);
    WallMotionPose(&mo, 0.1, &pb);
    for (int a = 0; a < 3; a++) ck_assert(fabs(pa.T[a] - pb.T[a]) <= WallMotionTravel(&mo, 0.0, 0.1, t) + 1e-15);
  }
  /* before its start a motion holds its start pose; a translation from time */
  PetscMemzero(&mo, sizeof(mo));
  mo.stop = 2.0, mo.remove = 3.0, mo.kind = MOTION_TRANSLATE, mo.velocity[1] = 0.5, mo.start = 1.0;
  WallMotionPose(&mo, 0.5, &ps);
  ck_assert(ps.identity);
  WallMotionPose(&mo, 1.5, &ps);
  ck_assert(ps.T[1] == 0.25 && !ps.identity);
  WallMotionPose(&mo, 9.0, &ps);
  ck_assert(ps.T[1] == 0.5);
  ck_assert(WallMotionPresent(&mo, 2.9) && !WallMotionPresent(&mo, 3.0));
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("mesh");
  TCase *tc = tcase_create("mesh");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_closest_features);
  tcase_add_test(tc, test_flat_plane_one_contact);
  tcase_add_test(tc, test_cube_surfaces_and_corners);
  tcase_add_test(tc, test_aperture_rims);
  tcase_add_test(tc, test_aperture_one_region);
  tcase_add_test(tc, test_t_junction_one_region);
  tcase_add_test(tc, test_bins_complete);
  tcase_add_test(tc, test_motion_closed_form);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
