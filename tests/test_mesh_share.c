/* Meshes read and set up by share (io/stl_share.h, geometry/mesh_share.h)
 * at 1-4 ranks against the whole read (StlRead, MeshCreateFromArrays) cut
 * into the same blocks: each rank's vertex block and triangle records,
 * the counts of vertices, triangles and surfaces, the box, the centroid
 * and rext, bit for bit; binary and ASCII files of a mesh with shared
 * vertices (some written -0), faces a curvature splits and joins, a
 * disconnected part and inconsistent windings, in a shuffled order, and
 * the repository's meshes; and
 * bad files give the serial read's message on every rank. */
#include <math.h>
#include <string.h>
#include "check_main.h"
#include "stl_fixtures.h"
#include "geometry/mesh_share.h"

#define CURVATURE 15.0 /* [deg]: the box's faces apart, the prism's facets (10 deg) one surface */

static unsigned long long seed = 12345;

static unsigned Next(void)
{
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(seed >> 33);
}

/* Two triangles of quad (p, q, r, s), the second flipped when flip. */
static int Quad(double *c, const double *p, const double *q, const double *r, const double *s, int flip)
{
  const double *t[6] = {p, q, r, p, r, s};
  if (flip) t[4] = s, t[5] = r;
  for (int k = 0; k < 6; k++)
    for (int j = 0; j < 3; j++) c[3 * k + j] = t[k][j];
  return 2;
}

/* The box [-1, 1]^3 in n x n quads a face, a prism of 8 facets 10 degrees apart, a plate apart whose
 * triangles alternate their winding (its corners on x = 0 written -0): 8 surfaces. Returns nt. */
static int Fixture(int n, double *c)
{
  int nt = 0;
  for (int f = 0; f < 6; f++) {
    int ax = f / 2, u = (ax + 1) % 3, w = (ax + 2) % 3;
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        double p[4][3];
        for (int k = 0; k < 4; k++) {
          p[k][ax] = f % 2 ? 1.0 : -1.0;
          p[k][u]  = -1.0 + 2.0 * (i + (k == 1 || k == 2)) / n;
          p[k][w]  = -1.0 + 2.0 * (j + (k >= 2)) / n;
        }
        nt += Quad(c + 9 * nt, p[0], p[1], p[2], p[3], (i + j) % 3 == 0);
      }
  }
  for (int k = 0; k < 8; k++) { /* facets of a prism about the z axis at x = 5 */
    double a0 = 10.0 * k * HDEM_PI / 180.0, a1 = 10.0 * (k + 1) * HDEM_PI / 180.0;
    double p[4][3] = {{5 + cos(a0), sin(a0), 0},
                      {5 + cos(a1), sin(a1), 0},
                      {5 + cos(a1), sin(a1), 1},
                      {5 + cos(a0), sin(a0), 1}};
    nt += Quad(c + 9 * nt, p[0], p[1], p[2], p[3], k % 2);
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      double x0 = i ? 1.0 : -0.0, x1 = i ? 2.0 : 1.0;
      double p[4][3] = {{x0, j, -4}, {x1, j, -4}, {x1, j + 1, -4}, {x0, j + 1, -4}};
      if (i == 1) p[0][0] = p[3][0] = 1.0;
      if (i == 0 && j == 1) p[0][0] = p[3][0] = 0.0; /* +0 here, -0 elsewhere: one vertex */
      nt += Quad(c + 9 * nt, p[0], p[1], p[2], p[3], 1);
    }
  for (int t = nt - 1; t > 0; t--) { /* shuffled: surfaces' lowest triangles and vertices' first corners mixed */
    int    s = (int)(Next() % (unsigned)(t + 1));
    double tmp[9];
    memcpy(tmp, c + 9 * t, sizeof(tmp));
    memcpy(c + 9 * t, c + 9 * s, sizeof(tmp));
    memcpy(c + 9 * s, tmp, sizeof(tmp));
  }
  return nt;
}

static void Transform(StlTransform *tr)
{
  StlTransformDefault(tr);
  tr->scale   = 0.001;
  tr->axis[0] = 1, tr->axis[1] = 2, tr->axis[2] = 3, tr->angle = 30;
  tr->translate[0] = 0.1, tr->translate[1] = -0.2, tr->translate[2] = 0.3;
}

static PetscBool Same(const PetscReal *a, const PetscReal *b, size_t n)
{
  return n == 0 || !memcmp(a, b, n * sizeof(PetscReal)) ? PETSC_TRUE : PETSC_FALSE;
}

/* The share's set-up against the whole read's, this rank's blocks; nsurf: the surfaces expected (-1: any). */
static void CompareWithWhole(const char *path, const StlTransform *tr, PetscReal curvature, PetscInt nsurf)
{
  StlMesh     w;
  Mesh        whole, m;
  StlShare    sh;
  PetscMPIInt rank, size;
  PetscInt    t0, nt, v0, nv;

  ck_assert(!MPI_Comm_rank(PETSC_COMM_WORLD, &rank) && !MPI_Comm_size(PETSC_COMM_WORLD, &size));
  ck_assert(!StlRead(PETSC_COMM_WORLD, path, tr, &w));
  ck_assert(!MeshCreateFromArrays(path, w.nv, w.x, w.nt, w.tri, curvature, NULL, &whole));
  ck_assert(!StlMeshDestroy(&w));
  ck_assert(!PetscMemzero(&m, sizeof(m)));
  ck_assert(!PetscStrncpy(m.file, path, sizeof(m.file)));
  m.curvature   = curvature;
  m.motion.stop = m.motion.remove = INFINITY;
  ck_assert(!StlReadShare(PETSC_COMM_WORLD, path, tr, &sh));
  ck_assert(!MeshSetUpShare(PETSC_COMM_WORLD, &m, &sh));
  ck_assert(!StlShareDestroy(&sh));
  if (nsurf >= 0)
    EXPECT(whole.nsurf == nsurf, "%s: the whole read has %d surfaces, not %d", path, (int)whole.nsurf, (int)nsurf);
  EXPECT(m.nv_total == whole.nv && m.nt_total == whole.nt && m.nsurf == whole.nsurf,
         "%s: %d vertices, %d triangles, %d surfaces; whole %d, %d, %d", path, (int)m.nv_total, (int)m.nt_total,
         (int)m.nsurf, (int)whole.nv, (int)whole.nt, (int)whole.nsurf);
  EXPECT(Same(m.lo, whole.lo, 3) && Same(m.hi, whole.hi, 3), "%s: box differs", path);
  EXPECT(Same(m.centroid, whole.centroid, 3), "%s: centroid (%.17g %.17g %.17g), whole (%.17g %.17g %.17g)", path,
         m.centroid[0], m.centroid[1], m.centroid[2], whole.centroid[0], whole.centroid[1], whole.centroid[2]);
  EXPECT(m.rext == whole.rext, "%s: rext %.17g, whole %.17g", path, m.rext, whole.rext);
  t0 = (PetscInt)((PetscInt64)whole.nt * rank / size), nt = (PetscInt)((PetscInt64)whole.nt * (rank + 1) / size) - t0;
  v0 = (PetscInt)((PetscInt64)whole.nv * rank / size), nv = (PetscInt)((PetscInt64)whole.nv * (rank + 1) / size) - v0;
  EXPECT(m.ht0 == t0 && m.hnt == nt && m.hv0 == v0 && m.hnv == nv,
         "%s: blocks [%d +%d) [%d +%d), not [%d +%d) [%d +%d)", path, (int)m.ht0, (int)m.hnt, (int)m.hv0, (int)m.hnv,
         (int)t0, (int)nt, (int)v0, (int)nv);
  EXPECT(!m.whole && m.nt == 0 && m.held && m.held[0] > m.held[3], "%s: the share holds triangles", path);
  if (m.hnv == nv) EXPECT(Same(m.hx, whole.x + 3 * v0, 3 * (size_t)nv), "%s: the vertex block differs", path);
  for (PetscInt k = 0; k < PetscMin(nt, m.hnt); k++) {
    PetscInt  t = t0 + k;
    PetscReal r[MESH_RECORD_WIDTH];
    r[0] = (PetscReal)t;
    for (int c = 0; c < 3; c++) {
      PetscInt v = whole.tri[3 * t + c];
      r[1 + c]   = (PetscReal)v;
      for (int a = 0; a < 3; a++) r[4 + 3 * c + a] = whole.x[3 * v + a];
      r[13 + c] = whole.normal[3 * t + c];
    }
    r[16] = (PetscReal)whole.surface[t];
    EXPECT(Same(r, m.hrec + (size_t)MESH_RECORD_WIDTH * k, MESH_RECORD_WIDTH),
           "%s: triangle %d's record differs (surface %g, whole %g; vertices %g %g %g, whole %g %g %g)", path, (int)t,
           m.hrec[MESH_RECORD_WIDTH * k + 16], r[16], m.hrec[MESH_RECORD_WIDTH * k + 1],
           m.hrec[MESH_RECORD_WIDTH * k + 2], m.hrec[MESH_RECORD_WIDTH * k + 3], r[1], r[2], r[3]);
  }
  ck_assert(!MeshDestroy(&whole));
  ck_assert(!MeshDestroy(&m));
}

START_TEST(test_share_is_whole)
{
  int            n[2] = {3, 10};
  StlTransform   tr;
  char           path[PETSC_MAX_PATH_LEN];
  static double  c[9 * 1400];
  unsigned char *b;
  char          *text;
  size_t         nb;

  Transform(&tr);
  for (int q = 0; q < 2; q++) {
    int nt = Fixture(n[q], c);
    b      = Binary(c, nt, "solid binary, yet binary", ' ', (uint32_t)nt, &nb);
    FileOf(q ? "big.stl" : "small.stl", b, nb, path, sizeof(path));
    free(b);
    CompareWithWhole(path, &tr, CURVATURE, 8);
    CompareWithWhole(path, NULL, CURVATURE, 8);
    text = Ascii(c, nt, nt / 2 + 1, "\r\n", q);
    FileOf(q ? "big_ascii.stl" : "small_ascii.stl", text, strlen(text), path, sizeof(path));
    free(text);
    CompareWithWhole(path, &tr, CURVATURE, 8);
  }
  {
    double one[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}; /* fewer triangles than ranks */
    b             = Binary(one, 1, "one", ' ', 1, &nb);
    FileOf("one.stl", b, nb, path, sizeof(path));
    free(b);
    CompareWithWhole(path, NULL, CURVATURE, 1);
  }
  ASSERT_ALL_RANKS();
}
END_TEST

/* The repository's meshes (the decks' and the tests'), at the default curvature and a coarser one. */
START_TEST(test_repository_meshes)
{
  const char  *files[] = {"inputs/meshes/drum.stl",      "inputs/meshes/screen.stl",
                          "inputs/meshes/silo.stl",      "inputs/meshes/silo_plug.stl",
                          "tests/data/meshes/floor.stl", "tests/data/meshes/obstacle.stl"};
  StlTransform tr;
  char         path[PETSC_MAX_PATH_LEN];

  Transform(&tr);
  tr.scale = 1; /* they are in metres already */
  for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
    snprintf(path, sizeof(path), "%s/%s", HDEM_SOURCE_DIR, files[i]);
    CompareWithWhole(path, NULL, 1.0, -1);
    CompareWithWhole(path, &tr, 30.0, -1);
  }
  ASSERT_ALL_RANKS();
}
END_TEST

/* Every other 'facet' of an ASCII text moved to the end of the line before: not a line's first word. */
static void JoinLines(char *text)
{
  int   k = 0;
  char *at;
  for (char *p = text; (at = strstr(p, "endfacet\n  facet")); p = at + 9)
    if (k++ % 2) at[8] = ' ', at[9] = ' ';
}

/* ASCII files whose facets do not all start lines, and whose ranges hold no line that starts one. */
START_TEST(test_ascii_ranges)
{
  static double c[9 * 1400];
  int           nt = Fixture(10, c);
  char          path[PETSC_MAX_PATH_LEN], *text;

  text = Ascii(c, nt, nt / 3, "\n", 0);
  JoinLines(text);
  FileOf("joined.stl", text, strlen(text), path, sizeof(path));
  CompareWithWhole(path, NULL, CURVATURE, 8);
  free(text);
  text = Ascii(c, 3, 0, "\n", 0); /* three facets, four ranks: some ranges are empty */
  FileOf("three.stl", text, strlen(text), path, sizeof(path));
  CompareWithWhole(path, NULL, CURVATURE, -1);
  free(text);
  ASSERT_ALL_RANKS();
}
END_TEST

/* The message an error of f leaves (empty: none). */
static void ErrorOf(PetscErrorCode ierr, char *msg, size_t len)
{
  char *specific = NULL;
  msg[0]         = 0;
  if (!ierr) return;
  (void)PetscErrorMessage(ierr, NULL, &specific);
  snprintf(msg, len, "%s", specific ? specific : "?");
}

/* The whole read (its rank 0) and the share's (every rank) refuse the file with the same message. */
static void SameError(const char *name, const void *bytes, size_t n, const StlTransform *tr, const char *expect)
{
  char           path[PETSC_MAX_PATH_LEN], m1[1024], m2[1024];
  StlMesh        w;
  StlShare       sh;
  PetscErrorCode ierr;

  FileOf(name, bytes, n, path, sizeof(path));
  PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
  ierr = StlRead(PETSC_COMM_WORLD, path, tr, &w);
  ErrorOf(ierr, m1, sizeof(m1));
  ierr = StlReadShare(PETSC_COMM_WORLD, path, tr, &sh);
  ErrorOf(ierr, m2, sizeof(m2));
  PetscPopErrorHandler();
  /* the whole read's other ranks say only that rank 0 failed */
  ck_assert(!MPI_Bcast(m1, sizeof(m1), MPI_CHAR, 0, PETSC_COMM_WORLD));
  EXPECT(m1[0] && strstr(m1, expect), "%s: the whole read says '%s', expected '%s'", name, m1, expect);
  EXPECT(!strcmp(m1, m2), "%s: the share says '%s', the whole read '%s'", name, m2, m1);
}

START_TEST(test_errors_are_serial)
{
  static double  c[9 * 200];
  int            nt = Fixture(3, c);
  unsigned char *b;
  char          *text, *at;
  size_t         nb;
  StlTransform   big;

  memcpy(c + 9 * (nt - 3) + 3, c + 9 * (nt - 3), 3 * sizeof(double)); /* corners 1 and 2 one vertex */
  b = Binary(c, nt, "degenerate", ' ', (uint32_t)nt, &nb);
  SameError("degenerate.stl", b, nb, NULL, "are the same vertex");
  free(b);
  memcpy(c + 9 * 5 + 6, c + 9 * 5, 3 * sizeof(double)); /* and an earlier one: the first in the file is said */
  b = Binary(c, nt, "degenerate twice", ' ', (uint32_t)nt, &nb);
  SameError("degenerate2.stl", b, nb, NULL, "triangle 6 (byte 334) is degenerate: corners 1 and 3");
  SameError("truncated.stl", b, nb - 7, NULL, "neither an ASCII nor a binary STL");
  {
    float    inf = INFINITY;
    uint32_t u;
    memcpy(&u, &inf, 4);
    PutLe32(b + 84 + 50 * (nt - 5) + 20, u);
    SameError("infinite.stl", b, nb, NULL, "not a finite number");
  }
  free(b);
  Fixture(3, c);
  StlTransformDefault(&big);
  big.scale = 1e308; /* the box's corners finite, the prism's beyond */
  b         = Binary(c, nt, "huge", ' ', (uint32_t)nt, &nb);
  SameError("huge.stl", b, nb, &big, "not finite after the transform");
  free(b);
  text = Ascii(c, nt, 0, "\n", 0);
  at   = strstr(text + strlen(text) * 3 / 4, "vertex ");
  ck_assert_ptr_nonnull(at);
  at[7] = 'x'; /* a number no more */
  SameError("bad_number.stl", text, strlen(text), NULL, "is not a number");
  free(text);
  text = Ascii(c, nt, 2 * nt / 3, "\n", 0);
  at   = strstr(text, "endsolid cube\nsolid lid\n");
  ck_assert_ptr_nonnull(at);
  memcpy(at + 14, "         ", 9); /* facets after 'endsolid' without 'solid' */
  SameError("no_solid.stl", text, strlen(text), NULL, "expected 'solid' or the end of the file");
  free(text);
  text  = Ascii(c, nt, 0, "\n", 0);
  at    = strstr(text + strlen(text) * 2 / 3, "vertex ");
  at[3] = 0; /* a NUL byte */
  SameError("nul.stl", text, strlen(text) + strlen(at + 4) + 1, NULL, "NUL byte");
  free(text);
  text = Ascii(c, nt, 0, "\n", 0);
  SameError("cut.stl", text, strlen(text) - 60, NULL, "truncated file?");
  at = strstr(text + strlen(text) * 2 / 3, "endloop");
  memcpy(at, "vertex 1 2 3 endloop", 20);
  SameError("four_corners.stl", text, strlen(text), NULL, "more than 3 corners");
  free(text);
  ASSERT_ALL_RANKS();
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("mesh_share");
  TCase *tc = tcase_create("mesh_share");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_share_is_whole);
  tcase_add_test(tc, test_repository_meshes);
  tcase_add_test(tc, test_ascii_ranges);
  tcase_add_test(tc, test_errors_are_serial);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
