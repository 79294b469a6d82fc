/* What the STL tests make (stl_fixtures.h). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "check_main.h"
#include "stl_fixtures.h"

char tmpdir[64];

/* The bytes as a file of rank 0's (only rank 0 reads), in one folder made on first use. */
void FileOf(const char *name, const void *bytes, size_t n, char *path, size_t len)
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
PetscErrorCode ParseBytes(const char *name, const void *bytes, size_t n, PetscInt64 size, const StlTransform *tr,
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
const int cube_tri[12][3] = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                             {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};

void Cube(double c[12 * 9], double size)
{
  for (int t = 0; t < 12; t++)
    for (int k = 0; k < 3; k++)
      for (int j = 0; j < 3; j++) c[9 * t + 3 * k + j] = size * (cube_tri[t][k] >> j & 1);
}

/* ASCII STL of nt triangles: a solid, or two split at triangle `split`;
 * lines end in nl; keywords in lower or mixed case. */
char *Ascii(const double *c, int nt, int split, const char *nl, int mixed)
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

void PutLe32(unsigned char *b, uint32_t u)
{
  for (int i = 0; i < 4; i++) b[i] = (unsigned char)(u >> 8 * i);
}

/* Binary STL of nt triangles with this header text (padded with pad) and count. */
unsigned char *Binary(const double *c, int nt, const char *header, char pad, uint32_t count, size_t *n)
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
