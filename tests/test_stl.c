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
#include "io/stl.h"

static char tmpdir[64];

/* The bytes as a file of rank 0's (only rank 0 reads), in one folder made on first use. */
static void FileOf(const char *name, const void *bytes, size_t n, char *path, size_t len)
{
  int rank;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (!tmpdir[0]) {
    if (rank == 0) {
      strcpy(tmpdir, "/tmp/hdem_stl_XXXXXX");
      ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    }
    (void)MPI_Bcast(tmpdir, sizeof(tmpdir), MPI_CHAR, 0, PETSC_COMM_WORLD);
  }
  snprintf(path, len, "%s/%s", tmpdir, name);
  if (rank == 0) {
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(bytes, 1, n, fp), n);
    ck_assert_int_eq(fclose(fp), 0);
  }
}

/* StlParseStream on n bytes in memory; size as the reader is told (-1: unknown). */
static PetscErrorCode ParseBytes(const char *name, const void *bytes, size_t n, PetscInt64 size, const StlTransform *tr,
                                 StlMesh *m)
{
  static char    one[1];
  FILE          *fp = fmemopen(n ? (void *)bytes : one, n ? n : 1, "r");
  PetscErrorCode ierr;

  ck_assert_ptr_nonnull(fp);
  if (!n) (void)getc(fp); /* fmemopen wants a buffer of at least one byte */
  ierr = StlParseStream(fp, name, size, tr, m);
  fclose(fp);
  return ierr;
}

/* The unit cube: corners of vertex i at (i & 1, i >> 1 & 1, i >> 2 & 1), two triangles a face. */
static const int cube_tri[12][3] = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                                    {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};

static void Cube(double c[12 * 9], double size)
{
  for (int t = 0; t < 12; t++)
    for (int k = 0; k < 3; k++)
      for (int j = 0; j < 3; j++) c[9 * t + 3 * k + j] = size * (cube_tri[t][k] >> j & 1);
}

/* ASCII STL of nt triangles: a solid, or two split at triangle `split`;
 * lines end in nl; keywords in lower or mixed case. */
static char *Ascii(const double *c, int nt, int split, const char *nl, int mixed)
{
  static const char *kw[2][9] = {
    {"solid", "facet normal", "outer loop", "vertex", "endloop", "endfacet", "endsolid", "cube", "lid"},
    {"SOLID", "Facet\tNORMAL", "outer  Loop", "VerTex", "ENDloop", "EndFacet", "ENDSOLID", "cube base", "cube lid"},
  };
  const char *const *k = kw[mixed ? 1 : 0];
  char              *s = malloc((size_t)nt * 640 + 256), *p = s;

  p += sprintf(p, "%s %s%s", k[0], k[7], nl);
  for (int t = 0; t < nt; t++) {
    if (split && t == split) p += sprintf(p, "%s %s%s%s %s%s", k[6], k[7], nl, k[0], k[8], nl);
    p += sprintf(p, "  %s 0 0 1%s    %s%s", k[1], nl, k[2], nl);
    for (int v = 0; v < 3; v++)
      p += sprintf(p, "      %s %.17g %.17g %.17g%s", k[3], c[9 * t + 3 * v], c[9 * t + 3 * v + 1],
                   c[9 * t + 3 * v + 2], nl);
    p += sprintf(p, "    %s%s  %s%s", k[4], nl, k[5], nl);
  }
  sprintf(p, "%s %s%s", k[6], split ? k[8] : k[7], nl);
  return s;
}

static void PutLe32(unsigned char *b, uint32_t u)
{
  for (int i = 0; i < 4; i++) b[i] = (unsigned char)(u >> 8 * i);
}

/* Binary STL of nt triangles with this header text (padded with pad) and count. */
static unsigned char *Binary(const double *c, int nt, const char *header, char pad, uint32_t count, size_t *n)
{
  unsigned char *b = calloc(84 + 50 * (size_t)nt, 1);

  memset(b, pad, 80);
  memcpy(b, header, strlen(header));
  PutLe32(b + 80, count);
  for (int t = 0; t < nt; t++) {
    unsigned char *r = b + 84 + 50 * t;
    for (int k = 0; k < 12; k++) {
      float    f = k < 3 ? (k == 2 ? 1.0f : 0.0f) : (float)c[9 * t + k - 3];
      uint32_t u;
      memcpy(&u, &f, 4);
      PutLe32(r + 4 * k, u);
    }
    r[48] = (unsigned char)t; /* the attribute byte count is ignored */
  }
  *n = 84 + 50 * (size_t)nt;
  return b;
}

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

#define FACET(a, b, c) "facet normal 0 0 1\nouter loop\nvertex " a "\nvertex " b "\nvertex " c "\nendloop\nendfacet\n"

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

/* One reader's refusal: an error, the mesh left empty, and (when msg) the
 * message naming file and holding want1 and want2 (NULL: nothing more);
 * 1 when not, with the details on stderr. */
static int Verdict(PetscErrorCode ierr, StlMesh *m, const char *who, const char *file, PetscBool msg, const char *want1,
                   const char *want2)
{
  char *text = NULL;

  if (!ierr) {
    fprintf(stderr, "%s accepted %s\n", who, file);
    PetscCall(StlMeshDestroy(m));
    return 1;
  }
  if (m->x || m->tri || m->nv || m->nt)
    return fprintf(stderr, "%s refused %s but did not leave the mesh empty\n", who, file), 1;
  if (!msg) return 0;
  PetscErrorMessage(0, NULL, &text);
  if (text && strstr(text, file) && (!want1 || strstr(text, want1)) && (!want2 || strstr(text, want2))) return 0;
  fprintf(stderr, "%s: message '%s' does not name %s, '%s' and '%s'\n", who, text ? text : "", file, want1 ? want1 : "",
          want2 ? want2 : "");
  return 1;
}

/* The bytes refused by StlParseStream on every rank (told size, -1:
 * unknown) and, when the size is told, by StlRead (only rank 0 has its
 * message: the others say rank 0 failed); returns the failures. */
static int Refused(const char *name, const void *bytes, size_t n, PetscInt64 size, const StlTransform *tr,
                   const char *want1, const char *want2)
{
  char           path[PETSC_MAX_PATH_LEN];
  StlMesh        m;
  PetscErrorCode ierr;
  int            rank, bad;

  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
  ierr = ParseBytes(name, bytes, n, size, tr, &m);
  PetscPopErrorHandler();
  bad = Verdict(ierr, &m, "StlParseStream", name, PETSC_TRUE, want1, want2);
  if (size < 0) return bad;
  FileOf(name, bytes, n, path, sizeof(path));
  PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
  ierr = StlRead(PETSC_COMM_WORLD, path, tr, &m);
  PetscPopErrorHandler();
  return bad + Verdict(ierr, &m, "StlRead", path, rank == 0 ? PETSC_TRUE : PETSC_FALSE, want1, want2);
}

static int RefusedText(const char *name, const char *text, const char *want1, const char *want2)
{
  return Refused(name, text, strlen(text), (PetscInt64)strlen(text), NULL, want1, want2);
}

/* Bad ASCII files: lines of the triangle t (from 1) of FACET texts: 'facet'
 * at 2 + 7 (t - 1), corner k (from 1) at 3 + 7 (t - 1) + k. */
START_TEST(test_bad_ascii)
{
#define OK3 FACET("0 0 0", "1 0 0", "0 1 0")
  static const struct {
    const char *name, *text, *want1, *want2;
  } cases[] = {
    {"nan.stl", "solid s\n" OK3 OK3 FACET("0 0 0", "1 nan 0", "0 1 0") "endsolid s\n", ":19: triangle 3",
     "corner 2 y 'nan' is not finite"},
    {"inf.stl", "solid s\n" OK3 FACET("1e999 0 0", "1 0 0", "0 1 0") "endsolid s\n", ":11: triangle 2",
     "corner 1 x '1e999' is not finite"},
    {"minus_inf.stl", "solid s\n" FACET("0 0 0", "1 0 0", "0 1 -inf") "endsolid s\n", ":6: triangle 1",
     "corner 3 z '-inf'"},
    {"repeated.stl", "solid s\n" OK3 FACET("0 0 0", "1 0 0", "0.0 0 0") "endsolid s\n", ":9: triangle 2 is degenerate",
     "corners 1 and 3 are the same vertex"},
    {"collinear.stl", "solid s\n" FACET("0 0 0", "1 1 1", "2 2 2") "endsolid s\n",
     ":2: triangle 1 is degenerate (zero area)", "(2. 2. 2.)"},
    {"sliver.stl", "solid s\n" OK3 OK3 FACET("0 0 0", "1 0 0", "0.5 1e-15 0") "endsolid s\n",
     ":16: triangle 3 is degenerate (zero area)", NULL},
    {"truncated.stl", "solid s\n" OK3 "facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0",
     ":12: end of file in triangle 2", NULL},
    {"truncated_facet.stl", "solid s\n" OK3 OK3, ":15: end of file after triangle 2, before 'endsolid'", NULL},
    {"four.stl",
     "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nvertex 1 1 "
     "0\nendloop\nendfacet\nendsolid\n",
     ":7: triangle 1 has more than 3 corners", NULL},
    {"two.stl",
     "solid s\n" OK3 "facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\nendfacet\nendsolid\n",
     ":13: triangle 2: expected 'vertex', found 'endloop'", NULL},
    {"word.stl", "solid s\n" FACET("0 0 0", "1 zero 0", "0 1 0") "endsolid s\n",
     ":5: triangle 1: corner 2 y 'zero' is not a number", NULL},
    {"normal.stl", "solid s\nfacet normal 0 0 1x\n", ":2: triangle 1: normal component '1x' is not a number", NULL},
    {"keyword.stl", "solid s\n" OK3 "facet normal 0 0 1\nouter lop\n", ":10: triangle 2: expected 'loop', found 'lop'",
     NULL},
    {"after.stl", "solid s\n" OK3 "endsolid s\nsolid t\n" OK3 "endsolid t\ngarbage\n",
     ":19: expected 'solid' or the end", "'garbage'"},
    {"between.stl", "solid s\n" OK3 "vertex 0 0 0\n", ":9: expected 'facet' (triangle 2) or 'endsolid'", NULL},
    {"no_triangles.stl", "solid s\nendsolid s\nsolid t\nendsolid t\n", "has no triangles", NULL},
    {"hello.stl", "hello world\n", "is neither an ASCII nor a binary STL file", "first word is 'hello'"},
    {"solidify.stl", "solidify\n" OK3 "endsolid\n", "is neither an ASCII nor a binary STL file", "'solidify'"},
    {"blanks.stl", " \n\t\r\n  ", "is neither an ASCII nor a binary STL file", "nothing but blanks"},
    {"nul_first.stl", "\0solid", "is neither an ASCII nor a binary STL file", "NUL"},
  };
  int bad = 0;

  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    size_t n = strcmp(cases[i].name, "nul_first.stl") ? strlen(cases[i].text) : 6;
    bad += Refused(cases[i].name, cases[i].text, n, (PetscInt64)n, NULL, cases[i].want1, cases[i].want2);
  }
  bad += RefusedText("empty.stl", "", "empty.stl is neither an ASCII nor a binary STL file (it is empty", NULL);
  { /* a line past 4096 characters; a NUL byte in line 5 */
    char  *s = malloc(6000), *p = s;
    size_t n;
    p += sprintf(p, "solid ");
    memset(p, 'n', 4091), p += 4091;
    strcpy(p, "\n" OK3 "endsolid\n");
    bad += RefusedText("long.stl", s, ":1: line longer than 4096 characters", NULL);
    strcpy(s, "solid s\n" OK3 "endsolid\n");
    n                                = strlen(s);
    s[strstr(s, "vertex 1") - s + 3] = 0;
    bad += Refused("nul.stl", s, n, (PetscInt64)n, NULL, ":5: NUL byte in column 4", NULL);
    free(s);
  }
  { /* the sliver's ten-times-wider cousin is a triangle */
    static const char thin[] = "solid s\n" FACET("0 0 0", "1 0 0", "0.5 1e-13 0") "endsolid s\n";
    StlMesh           m;
    EXPECT(ParseBytes("thin.stl", thin, strlen(thin), -1, NULL, &m) == 0, "a thin triangle refused");
    PetscCallVoid(StlMeshDestroy(&m));
  }
  ck_assert_int_eq(bad, 0);
  ASSERT_ALL_RANKS();
}
END_TEST

START_TEST(test_bad_binary)
{
  double         c[108];
  unsigned char *b;
  size_t         n;
  float          nan = NAN, inf = INFINITY;
  int            bad = 0;

  Cube(c, 1);
  /* non-finite corners: triangle 5 (byte 84 + 4 * 50), triangle 12 */
  b = Binary(c, 12, "binary", 0, 12, &n);
  memcpy(b + 84 + 4 * 50 + 12, &nan, 4);
  bad += Refused("nan_bin.stl", b, n, (PetscInt64)n, NULL, "triangle 5 (byte 284): corner 1 x is nan", NULL);
  free(b);
  b = Binary(c, 12, "binary", 0, 12, &n);
  memcpy(b + 84 + 11 * 50 + 12 + 4 * 8, &inf, 4);
  bad += Refused("inf_bin.stl", b, n, (PetscInt64)n, NULL, "triangle 12 (byte 634): corner 3 z is inf", NULL);
  free(b);
  /* NaN normals are ignored */
  b = Binary(c, 12, "binary", 0, 12, &n);
  memcpy(b + 84 + 50, &nan, 4);
  {
    StlMesh m;
    EXPECT(ParseBytes("nan_normal.stl", b, n, (PetscInt64)n, NULL, &m) == 0, "a NaN normal refused");
    PetscCallVoid(StlMeshDestroy(&m));
  }
  free(b);
  /* triangle 7 with its first corner again as its second */
  Cube(c, 1);
  for (int j = 0; j < 3; j++) c[9 * 6 + 3 + j] = c[9 * 6 + j];
  b = Binary(c, 12, "binary", 0, 12, &n);
  bad += Refused("repeated_bin.stl", b, n, (PetscInt64)n, NULL, "triangle 7 (byte 384) is degenerate: corners 1 and 2",
                 NULL);
  free(b);
  Cube(c, 1);
  /* counts that do not match the size */
  b = Binary(c, 12, "binary", 0, 13, &n);
  bad += Refused("count_bin.stl", b, n, (PetscInt64)n, NULL, "neither an ASCII nor a binary STL",
                 "not 84 + 50 n for the n = 13");
  free(b);
  b = Binary(c, 12, "binary", 0, 4000000000u, &n);
  bad += Refused("huge_bin.stl", b, n, (PetscInt64)n, NULL, "neither an ASCII nor a binary STL", "n = 4000000000");
  free(b);
  b = Binary(c, 12, "solid binary", ' ', 11, &n);
  bad += Refused("count_solid_bin.stl", b, n, (PetscInt64)n, NULL, ":1: NUL byte in column 82",
                 "not 84 + 50 n for the n = 11");
  free(b);
  b = Binary(c, 0, "binary", 0, 0, &n);
  bad += Refused("zero_bin.stl", b, n, (PetscInt64)n, NULL, "has no triangles", NULL);
  free(b);
  b = Binary(c, 2, "bin", 0, 2, &n);
  bad += Refused("short.stl", b, 40, 40, NULL, "neither an ASCII nor a binary STL",
                 "at 40 bytes it is shorter than a binary STL's 84-byte header");
  /* streams of unknown size: the records must end the stream */
  bad += Refused("trunc_stream.stl", b, n - 1, -1, NULL, "end of file in triangle 2 (byte 134) of the 2", NULL);
  free(b);
  b = Binary(c, 3, "bin", 0, 2, &n);
  bad += Refused("long_stream.stl", b, n, -1, NULL, "holds more than the 2 triangles", NULL);
  free(b);
  ck_assert_int_eq(bad, 0);
  ASSERT_ALL_RANKS();
}
END_TEST

START_TEST(test_bad_transform)
{
  static const char text[] = "solid s\n" FACET("0 0 0", "1e10 0 0", "0 1e10 0") "endsolid s\n";
  static const char huge[] = "solid s\n" FACET("0 0 0", "1e200 0 0", "0 1e200 0") "endsolid s\n";
  StlTransform      tr;
  int               bad = 0;

  StlTransformDefault(&tr), tr.scale = 0;
  bad += Refused("scale0.stl", text, strlen(text), (PetscInt64)strlen(text), &tr,
                 "transform scale 0. must be finite and positive", NULL);
  StlTransformDefault(&tr), tr.scale = -1;
  bad += Refused("scale-1.stl", text, strlen(text), (PetscInt64)strlen(text), &tr, "transform scale -1", NULL);
  StlTransformDefault(&tr), tr.scale = NAN;
  bad += Refused("scalenan.stl", text, strlen(text), (PetscInt64)strlen(text), &tr, "transform scale nan", NULL);
  StlTransformDefault(&tr), tr.angle = 90, tr.axis[2] = 0;
  bad += Refused("axis0.stl", text, strlen(text), (PetscInt64)strlen(text), &tr,
                 "transform axis (0, 0, 0) with angle 90", NULL);
  StlTransformDefault(&tr), tr.axis[0] = INFINITY;
  bad += Refused("axisinf.stl", text, strlen(text), (PetscInt64)strlen(text), &tr, "transform axis x component inf",
                 NULL);
  StlTransformDefault(&tr), tr.angle = INFINITY;
  bad += Refused("angleinf.stl", text, strlen(text), (PetscInt64)strlen(text), &tr, "transform angle inf", NULL);
  StlTransformDefault(&tr), tr.translate[1] = NAN;
  bad += Refused("translatenan.stl", text, strlen(text), (PetscInt64)strlen(text), &tr,
                 "transform translate y component nan", NULL);
  /* what the file holds may overflow only after the transform, or in the area */
  StlTransformDefault(&tr), tr.scale = 1e300;
  bad += Refused("overflow.stl", text, strlen(text), (PetscInt64)strlen(text), &tr, ":2: triangle 1: corner 2",
                 "not finite after the transform");
  bad += RefusedText("huge.stl", huge, ":2: triangle 1 is too large", NULL);
  /* ... or underflow to a point */
  StlTransformDefault(&tr), tr.scale = 1e-320;
  bad += Refused("underflow.stl", text, strlen(text), (PetscInt64)strlen(text), &tr,
                 ":2: triangle 1 is degenerate (zero area)", NULL);
  ck_assert_int_eq(bad, 0);
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
  tcase_add_test(tc, test_bad_ascii);
  tcase_add_test(tc, test_bad_binary);
  tcase_add_test(tc, test_bad_transform);
  tcase_add_test(tc, test_files);
  tcase_add_test(tc, test_warning);
  tcase_add_test(tc, test_cleanup);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
