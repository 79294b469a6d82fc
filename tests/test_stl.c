/* STL meshes (io/stl.c): ASCII and binary of one cube give the same mesh,
 * whose shared edges share vertices; a binary file that starts with
 * "solid"; several solids, any keyword case, CRLF, streams of unknown size;
 * merging by exact value in order of first appearance; the transform against
 * hand-computed coordinates; every bad input refused with the file and the
 * triangle named, by StlParseStream on each rank and by StlRead at any rank
 * count; the scale warning.  Runs at 1 or more ranks. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_main.h"
#include "stl_fixtures.h"
#include "test_stl_bad.h"

/* The cube as read: vertices in order of first appearance (file vertices
 * 0 2 3 1 4 5 7 6), triangles in file order, every edge in two triangles. */
static void ExpectCube(const StlMesh *m, double size, const char *what)
{
  static const int order[8] = {0, 2, 3, 1, 4, 5, 7, 6};
  int              id[8], nedge[8][8];

  EXPECT(m->nv == 8 && m->nt == 12, "%s: %d vertices, %d triangles", what, (int)m->nv, (int)m->nt);
  if (m->nv != 8 || m->nt != 12) return;
  for (int i = 0; i < 8; i++) {
    id[order[i]] = i;
    for (int j = 0; j < 3; j++) EXPECT(m->x[3 * i + j] == size * (order[i] >> j & 1), "%s: vertex %d", what, i);
  }
  memset(nedge, 0, sizeof(nedge));
  for (int t = 0; t < 12; t++)
    for (int k = 0; k < 3; k++) {
      int a = (int)m->tri[3 * t + k], b = (int)m->tri[3 * t + (k + 1) % 3];
      EXPECT(a == id[cube_tri[t][k]], "%s: triangle %d corner %d is vertex %d", what, t, k, a);
      if (a >= 0 && a < 8 && b >= 0 && b < 8) nedge[PetscMin(a, b)][PetscMax(a, b)]++;
    }
  for (int a = 0; a < 8; a++)
    for (int b = a + 1; b < 8; b++)
      EXPECT(nedge[a][b] == 0 || nedge[a][b] == 2, "%s: edge %d-%d in %d triangles", what, a, b, nedge[a][b]);
  for (int j = 0; j < 3; j++) EXPECT(m->lo[j] == 0 && m->hi[j] == size, "%s: box", what);
}

static void ExpectSame(const StlMesh *a, const StlMesh *b, const char *what)
{
  EXPECT(a->nv == b->nv && a->nt == b->nt, "%s: sizes differ", what);
  if (a->nv != b->nv || a->nt != b->nt) return;
  EXPECT(!memcmp(a->x, b->x, 3 * (size_t)a->nv * sizeof(PetscReal)), "%s: vertices differ", what);
  EXPECT(!memcmp(a->tri, b->tri, 3 * (size_t)a->nt * sizeof(PetscInt)), "%s: triangles differ", what);
  EXPECT(!memcmp(a->lo, b->lo, sizeof(a->lo)) && !memcmp(a->hi, b->hi, sizeof(a->hi)), "%s: boxes differ", what);
}

START_TEST(test_cube)
{
  double         c[108];
  char          *text, path[PETSC_MAX_PATH_LEN];
  unsigned char *bin;
  size_t         nbin;
  StlMesh        a, b;

  Cube(c, 1);
  text = Ascii(c, 12, 0, "\n", 0);
  bin  = Binary(c, 12, "binary cube", 0, 12, &nbin);
  FileOf("cube_ascii.stl", text, strlen(text), path, sizeof(path));
  ck_assert_int_eq(StlRead(PETSC_COMM_WORLD, path, NULL, &a), 0);
  EXPECT(!a.binary, "the ASCII cube was read as binary");
  ExpectCube(&a, 1, "ASCII cube");
  FileOf("cube_binary.stl", bin, nbin, path, sizeof(path));
  ck_assert_int_eq(StlRead(PETSC_COMM_WORLD, path, NULL, &b), 0);
  EXPECT(b.binary, "the binary cube was read as ASCII");
  ExpectCube(&b, 1, "binary cube");
  ExpectSame(&a, &b, "ASCII and binary cubes");
  ck_assert_int_eq(StlMeshDestroy(&b), 0);
  ck_assert_ptr_null(b.x);
  /* a binary file whose header starts with "solid", as many exporters write */
  free(bin);
  bin = Binary(c, 12, "solid cube exported as binary", ' ', 12, &nbin);
  FileOf("cube_binary_solid.stl", bin, nbin, path, sizeof(path));
  ck_assert_int_eq(StlRead(PETSC_COMM_WORLD, path, NULL, &b), 0);
  EXPECT(b.binary, "the binary cube with a 'solid' header was read as ASCII");
  ExpectSame(&a, &b, "ASCII and binary cube with a 'solid' header");
  PetscCallVoid(StlMeshDestroy(&b));
  /* ... also from a stream of unknown size when its header holds a NUL */
  free(bin);
  bin = Binary(c, 12, "solid", 0, 12, &nbin);
  EXPECT(ParseBytes("solid-nul (stream)", bin, nbin, -1, NULL, &b) == 0,
         "binary with 'solid' and NULs refused from a stream");
  EXPECT(b.binary, "binary with 'solid' and NULs from a stream read as ASCII");
  ExpectSame(&a, &b, "binary with 'solid' and NULs from a stream");
  PetscCallVoid(StlMeshDestroy(&b));
  PetscCallVoid(StlMeshDestroy(&a));
  free(text);
  free(bin);
  ASSERT_ALL_RANKS();
}
END_TEST

/* Several solids, keywords in any case, tabs, CRLF, no last line end, a
 * 4096-character name line, streams of unknown size: all the same cube. */
START_TEST(test_ascii_variants)
{
  double  c[108];
  char   *ref = NULL, *text, path[PETSC_MAX_PATH_LEN];
  StlMesh a, b;

  Cube(c, 2.5);
  ref = Ascii(c, 12, 0, "\n", 0);
  ck_assert_int_eq(ParseBytes("ref", ref, strlen(ref), (PetscInt64)strlen(ref), NULL, &a), 0);
  ExpectCube(&a, 2.5, "reference");
  {
    struct {
      const char *name, *nl;
      int         split, mixed;
    } v[] = {
      {"two_solids.stl", "\n", 6, 0},
      {"mixed_case.stl", "\n", 0, 1},
      {"crlf.stl", "\r\n", 0, 0},
      {"crlf_two_solids_mixed.stl", "\r\n", 5, 1},
    };
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
      text = Ascii(c, 12, v[i].split, v[i].nl, v[i].mixed);
      FileOf(v[i].name, text, strlen(text), path, sizeof(path));
      EXPECT(StlRead(PETSC_COMM_WORLD, path, NULL, &b) == 0, "%s refused", v[i].name);
      ExpectSame(&a, &b, v[i].name);
      PetscCallVoid(StlMeshDestroy(&b));
      /* the same bytes from a stream of unknown size, and without the last line end */
      EXPECT(ParseBytes(v[i].name, text, strlen(text), -1, NULL, &b) == 0, "%s refused from a stream", v[i].name);
      ExpectSame(&a, &b, v[i].name);
      PetscCallVoid(StlMeshDestroy(&b));
      EXPECT(ParseBytes(v[i].name, text, strlen(text) - strlen(v[i].nl), (PetscInt64)(strlen(text) - strlen(v[i].nl)),
                        NULL, &b) == 0,
             "%s without its last line end refused", v[i].name);
      ExpectSame(&a, &b, v[i].name);
      PetscCallVoid(StlMeshDestroy(&b));
      free(text);
    }
  }
  { /* a name line of exactly 4096 characters (and its CR) */
    size_t n = strlen(ref);
    char  *s = malloc(n + 4200), *p = s;
    p += sprintf(p, "solid ");
    memset(p, 'n', 4090), p += 4090;
    p += sprintf(p, "\r%s", strchr(ref, '\n'));
    EXPECT(ParseBytes("name4096.stl", s, strlen(s), (PetscInt64)strlen(s), NULL, &b) == 0,
           "a 4096-character line refused");
    ExpectSame(&a, &b, "4096-character line");
    PetscCallVoid(StlMeshDestroy(&b));
    free(s);
  }
  PetscCallVoid(StlMeshDestroy(&a));
  free(ref);
  ASSERT_ALL_RANKS();
}
END_TEST

/* Corners merge when their values are equal however written, and only then;
 * vertices are numbered in order of first appearance. */
START_TEST(test_merge)
{
  static const char text[] = "solid merge\n" FACET("0 0 0", "1 0 0", "0 1 0") FACET("1.0 0 0", "1e0 1 0", "0.0 1.0 0e0")
    FACET("1.0000001 0 0", "1 1 0", "-0 +1 -0.0") FACET("5 5 5", "0.1 0.2 0.3", "1 1 0") "endsolid\n";
  static const int want[12] = {0, 1, 2, 1, 3, 2, 4, 3, 2, 5, 6, 3};
  StlMesh          m;

  ck_assert_int_eq(ParseBytes("merge.stl", text, strlen(text), (PetscInt64)strlen(text), NULL, &m), 0);
  EXPECT(m.nv == 7 && m.nt == 4, "%d vertices, %d triangles", (int)m.nv, (int)m.nt);
  if (m.nt == 4)
    for (int k = 0; k < 12; k++)
      EXPECT(m.tri[k] == want[k], "corner %d is vertex %d, not %d", k, (int)m.tri[k], want[k]);
  if (m.nv == 7) {
    EXPECT(m.x[12] == 1.0000001 && m.x[15] == 5 && m.x[18] == 0.1 && m.x[20] == 0.3, "coordinates");
    EXPECT(m.lo[0] == 0 && m.lo[1] == 0 && m.lo[2] == 0 && m.hi[0] == 5 && m.hi[1] == 5 && m.hi[2] == 5, "box");
  }
  PetscCallVoid(StlMeshDestroy(&m));
  ASSERT_ALL_RANKS();
}
END_TEST

/* x' = R(axis, angle) (scale x) + translate, against coordinates worked by hand. */
START_TEST(test_transform)
{
  double       c[108];
  char        *text, path[PETSC_MAX_PATH_LEN];
  StlTransform tr;
  StlMesh      m;
  const double s30 = 0.5, c30 = sqrt(3.0) / 2;
  struct {
    double scale, axis[3], angle, translate[3];
    int    map; /* which hand-worked formula */
  } cases[] = {
    /* (1 - s y, 2 + s x, 3 + s z): quarter turn about z, axis not unit */
    {1e-3, {0, 0, 2}, 90, {1, 2, 3}, 0}, {1e-3, {0, 0, 1}, 450, {1, 2, 3}, 0}, /* the same turn, once round more */
    {2, {0, 0, 1}, -90, {0, 0, 0}, 1},                                         /* (2 y, -2 x, 2 z) */
    {1, {3, 0, 0}, 30, {0, 0, -1}, 2},  /* (x, c30 y - s30 z, s30 y + c30 z - 1) */
    {1, {1, 1, 1}, 120, {0, 0, 0}, 3},  /* (z, x, y): x goes to y about the diagonal */
    {0.5, {0, 0, 0}, 0, {-1, 0, 0}, 4}, /* no rotation: the axis is not looked at */
  };

  Cube(c, 1);
  text = Ascii(c, 12, 0, "\n", 0);
  FileOf("transform.stl", text, strlen(text), path, sizeof(path));
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    /* quarter turns and none are exact */
    double s = cases[i].scale, tol = cases[i].map == 2 || cases[i].map == 3 ? 1e-15 : 0,
           lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    StlTransformDefault(&tr);
    tr.scale = s, tr.angle = cases[i].angle;
    for (int j = 0; j < 3; j++) tr.axis[j] = cases[i].axis[j], tr.translate[j] = cases[i].translate[j];
    EXPECT(StlRead(PETSC_COMM_WORLD, path, &tr, &m) == 0, "case %d refused", (int)i);
    if (m.nv != 8) {
      EXPECT(0, "case %d: %d vertices", (int)i, (int)m.nv);
      continue;
    }
    for (int v = 0; v < 8; v++) {
      static const int order[8] = {0, 2, 3, 1, 4, 5, 7, 6};
      double           x = order[v] & 1, y = order[v] >> 1 & 1, z = order[v] >> 2 & 1, w[3];
      switch (cases[i].map) {
      case 0:
        w[0] = 1 - s * y, w[1] = 2 + s * x, w[2] = 3 + s * z;
        break;
      case 1:
        w[0] = 2 * y, w[1] = -2 * x, w[2] = 2 * z;
        break;
      case 2:
        w[0] = x, w[1] = c30 * y - s30 * z, w[2] = s30 * y + c30 * z - 1;
        break;
      case 3:
        w[0] = z, w[1] = x, w[2] = y;
        break;
      default:
        w[0] = 0.5 * x - 1, w[1] = 0.5 * y, w[2] = 0.5 * z;
      }
      for (int j = 0; j < 3; j++) {
        EXPECT(fabs(m.x[3 * v + j] - w[j]) <= tol, "case %d vertex %d: %c = %.17g, expected %.17g", (int)i, v, 'x' + j,
               (double)m.x[3 * v + j], w[j]);
        lo[j] = PetscMin(lo[j], w[j]), hi[j] = PetscMax(hi[j], w[j]);
      }
    }
    for (int j = 0; j < 3; j++)
      EXPECT(fabs(m.lo[j] - lo[j]) <= tol && fabs(m.hi[j] - hi[j]) <= tol, "case %d: box", (int)i);
    PetscCallVoid(StlMeshDestroy(&m));
  }
  free(text);
  ASSERT_ALL_RANKS();
}
END_TEST

START_TEST(test_files)
{
  StlMesh        m;
  PetscErrorCode ierr;
  char           path[PETSC_MAX_PATH_LEN];

  FileOf("placeholder", "", 0, path, sizeof(path));
  PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
  ierr = StlRead(PETSC_COMM_WORLD, tmpdir, NULL, &m);
  PetscPopErrorHandler();
  EXPECT(ierr != 0 && !m.x, "the folder %s was read as an STL file", tmpdir);
  snprintf(path, sizeof(path), "%s/no_such_file.stl", tmpdir);
  PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
  ierr = StlRead(PETSC_COMM_WORLD, path, NULL, &m);
  PetscPopErrorHandler();
  EXPECT(ierr != 0 && !m.x, "a missing file was read");
  ASSERT_ALL_RANKS();
}
END_TEST

/* What StlRead printed (PetscPrintf: rank 0's PETSC_STDOUT) reading the file with this scale. */
static const char *ReadPrinting(const char *path, double scale)
{
  static char  printed[4096];
  FILE        *saved = PETSC_STDOUT, *out = tmpfile();
  StlTransform tr;
  StlMesh      m;
  size_t       n;

  ck_assert_ptr_nonnull(out);
  StlTransformDefault(&tr);
  tr.scale     = scale;
  PETSC_STDOUT = out;
  EXPECT(StlRead(PETSC_COMM_WORLD, path, &tr, &m) == 0, "%s refused", path);
  PETSC_STDOUT = saved;
  PetscCallAbort(PETSC_COMM_SELF, StlMeshDestroy(&m));
  rewind(out);
  n          = fread(printed, 1, sizeof(printed) - 1, out);
  printed[n] = 0;
  fclose(out);
  return printed;
}

START_TEST(test_warning)
{
  double      c[108];
  char       *text, path[PETSC_MAX_PATH_LEN];
  const char *out;
  int         rank;

  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  Cube(c, 25000);
  text = Ascii(c, 12, 0, "\n", 0);
  FileOf("mm.stl", text, strlen(text), path, sizeof(path));
  out = ReadPrinting(path, 1);
  if (rank == 0)
    EXPECT(!strncmp(out, "Warning:", 8) && strstr(out, path) &&
             strstr(out, "spans 25000 m: a file in millimetres needs scale: 0.001") && strchr(out, '\n') &&
             !strchr(out, '\n')[1],
           "printed '%s'", out);
  out = ReadPrinting(path, 1e-3);
  EXPECT(!out[0], "a 25 m cube printed '%s'", out);
  out = ReadPrinting(path, 0.4); /* 1e4 m: the limit itself is fine */
  EXPECT(!out[0], "a 1e4 m cube printed '%s'", out);
  out = ReadPrinting(path, 1e-9);
  if (rank == 0)
    EXPECT(!strncmp(out, "Warning:", 8) && strstr(out, path) && strstr(out, "spans only 2.5e-05 m"), "printed '%s'",
           out);
  free(text);
  ASSERT_ALL_RANKS();
}
END_TEST

START_TEST(test_cleanup)
{
  int rank;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0 && tmpdir[0]) {
    char cmd[PETSC_MAX_PATH_LEN + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
  }
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("stl");
  TCase *tc = tcase_create("read");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_cube);
  tcase_add_test(tc, test_ascii_variants);
  tcase_add_test(tc, test_merge);
  tcase_add_test(tc, test_transform);
  StlBadTestsAdd(tc);
  tcase_add_test(tc, test_files);
  tcase_add_test(tc, test_warning);
  tcase_add_test(tc, test_cleanup);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
