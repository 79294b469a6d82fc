/* Bad STL input (io/stl.c), for test_stl.c: every bad ASCII or binary file
 * and every bad transform refused with the file and the triangle named, by
 * StlParseStream on each rank and by StlRead at any rank count. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "check_main.h"
#include "stl_fixtures.h"
#include "test_stl_bad.h"

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

void StlBadTestsAdd(TCase *tc)
{
  tcase_add_test(tc, test_bad_ascii);
  tcase_add_test(tc, test_bad_binary);
  tcase_add_test(tc, test_bad_transform);
}
