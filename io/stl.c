#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "io/stl.h"
#include "io/stl_reader.h"
#include "io/inputfile.h"
#include "decomp/collective.h"

/* Below this times the squared longest edge, |cross product| is rounding: a sliver of zero area. */
#define STL_MIN_AREA_RATIO 1e-14
/* Largest extents [m] beyond which StlRead suspects the scale. */
#define STL_SPAN_SMALL 1e-4
#define STL_SPAN_LARGE 1e4

void StlTransformDefault(StlTransform *tr)
{
  tr->scale   = 1;
  tr->axis[0] = 0, tr->axis[1] = 0, tr->axis[2] = 1;
  tr->angle = 0;
  for (int j = 0; j < 3; j++) tr->translate[j] = 0;
}

/* R (scale x) + translate as a matrix; the fields are checked on the way,
 * an error naming the file and the field. */
PetscErrorCode StlXformSet(const char *path, const StlTransform *in, StlXform *xf)
{
  StlTransform def;
  const char  *xyz = "xyz";

  PetscFunctionBeginUser;
  if (!in) StlTransformDefault(&def), in = &def;
  PetscCheck(isfinite(in->scale) && in->scale > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "STL file %s: transform scale %g must be finite and positive", path, (double)in->scale);
  PetscCheck(isfinite(in->angle), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "STL file %s: transform angle %g is not finite", path, (double)in->angle);
  for (int j = 0; j < 3; j++) {
    PetscCheck(isfinite(in->axis[j]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "STL file %s: transform axis %c component %g is not finite", path, xyz[j], (double)in->axis[j]);
    PetscCheck(isfinite(in->translate[j]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "STL file %s: transform translate %c component %g is not finite", path, xyz[j],
               (double)in->translate[j]);
  }
  PetscCall(PetscMemzero(xf, sizeof(*xf)));
  xf->s = in->scale;
  for (int j = 0; j < 3; j++) xf->t[j] = in->translate[j], xf->R[j][j] = 1;
  if (in->angle != 0) {
    PetscReal amax = 0, k[3], norm = 0, a, c, s;
    for (int j = 0; j < 3; j++) amax = PetscMax(amax, PetscAbsReal(in->axis[j]));
    PetscCheck(amax > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "STL file %s: transform axis (0, 0, 0) with angle %g: a rotation needs a nonzero axis", path,
               (double)in->angle);
    /* divided by the largest component first: no overflow in the norm */
    for (int j = 0; j < 3; j++) k[j] = in->axis[j] / amax, norm += k[j] * k[j];
    norm = PetscSqrtReal(norm);
    for (int j = 0; j < 3; j++) k[j] /= norm;
    /* quarter turns exact, so that what lies on a coordinate plane stays on one */
    a = fmod(in->angle, 360.0);
    if (a < 0) a += 360.0;
    if (a == 0) c = 1, s = 0;
    else if (a == 90) c = 0, s = 1;
    else if (a == 180) c = -1, s = 0;
    else if (a == 270) c = 0, s = -1;
    else c = PetscCosReal(a * HDEM_PI / 180), s = PetscSinReal(a * HDEM_PI / 180);
    /* Rodrigues: c I + s [k]x + (1 - c) k k^T, right-handed */
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) xf->R[i][j] = (i == j ? c : 0) + (1 - c) * k[i] * k[j];
    xf->R[0][1] -= s * k[2], xf->R[1][0] += s * k[2];
    xf->R[0][2] += s * k[1], xf->R[2][0] -= s * k[1];
    xf->R[1][2] -= s * k[0], xf->R[2][1] += s * k[0];
    xf->rotate = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

void StlXformApply(const StlXform *xf, const PetscReal *x, PetscReal *y)
{
  PetscReal sx[3] = {xf->s * x[0], xf->s * x[1], xf->s * x[2]};
  for (int i = 0; i < 3; i++)
    y[i] = (xf->rotate ? xf->R[i][0] * sx[0] + xf->R[i][1] * sx[1] + xf->R[i][2] * sx[2] : sx[i]) + xf->t[i];
}

/* facet normal nx ny nz / outer loop / vertex x y z (3) / endloop / endfacet, 'facet' read. */
static PetscErrorCode ReadFacet(StlReader *rd)
{
  static const char *coord[3] = {"x", "y", "z"};
  PetscReal          normal, scratch[9], *c = scratch;

  PetscFunctionBeginUser;
  if (rd->nostore)
    PetscCheck(rd->nt < STL_MAX_TRIANGLES, PETSC_COMM_SELF, PETSC_ERR_SUP,
               "%s: more than %" PetscInt64_FMT " triangles, which is what hdem reads from one file", rd->path,
               STL_MAX_TRIANGLES);
  else {
    PetscCall(StlReserve(rd, (PetscInt64)(rd->nt - rd->base) + 1));
    c                            = rd->c + 9 * (rd->nt - rd->base);
    rd->tline[rd->nt - rd->base] = rd->tokline;
  }
  PetscCall(StlExpect(rd, "normal", ""));
  /* orientation is not used */
  for (int j = 0; j < 3; j++) PetscCall(StlReadNumber(rd, "normal component", &normal));
  PetscCall(StlExpect(rd, "outer", ""));
  PetscCall(StlExpect(rd, "loop", ""));
  for (int v = 0; v < 3; v++) {
    PetscCall(StlExpect(rd, "vertex", " (a triangle has 3 corners)"));
    for (int j = 0; j < 3; j++) {
      char what[32];
      snprintf(what, sizeof(what), "corner %d %s", v + 1, coord[j]);
      PetscCall(StlReadNumber(rd, what, &c[3 * v + j]));
      PetscCheck(isfinite(c[3 * v + j]), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 "%s:%" PetscInt_FMT ": triangle %" PetscInt_FMT ": %s %s is not finite", rd->path, rd->tokline,
                 rd->nt + 1, what, StlQuote(rd, rd->tok));
    }
  }
  PetscCall(StlNextWord(rd));
  PetscCall(StlNotEnd(rd));
  PetscCheck(!StlKeyIs(rd->tok, "vertex"), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "%s:%" PetscInt_FMT ": triangle %" PetscInt_FMT " has more than 3 corners (hdem reads triangles only)",
             rd->path, rd->tokline, rd->nt + 1);
  PetscCheck(StlKeyIs(rd->tok, "endloop"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%" PetscInt_FMT ": triangle %" PetscInt_FMT ": expected 'endloop', found %s", rd->path, rd->tokline,
             rd->nt + 1, StlQuote(rd, rd->tok));
  PetscCall(StlExpect(rd, "endfacet", ""));
  rd->nt++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Facets up to and with 'endsolid'; a 'facet' at or after rd->stop (> 0) ends the range (rd->stopped). */
static PetscErrorCode ReadSolidBody(StlReader *rd)
{
  PetscFunctionBeginUser;
  while (PETSC_TRUE) {
    PetscCall(StlNextWord(rd));
    PetscCheck(rd->tok[0], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s:%" PetscInt_FMT ": end of file after triangle %" PetscInt_FMT
               ", before 'endsolid' (truncated file?)",
               rd->path, rd->tokline, rd->nt);
    if (StlKeyIs(rd->tok, "endsolid")) break;
    PetscCheck(StlKeyIs(rd->tok, "facet"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s:%" PetscInt_FMT ": expected 'facet' (triangle %" PetscInt_FMT ") or 'endsolid', found %s", rd->path,
               rd->tokline, rd->nt + 1, StlQuote(rd, rd->tok));
    if (rd->stop > 0 && rd->tokpos >= rd->stop) {
      rd->stopped = PETSC_TRUE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(ReadFacet(rd));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* solid [name] facet... endsolid [name], as many solids as the file holds;
 * a range (rd->mid) starts among a solid's facets. */
PetscErrorCode StlReadAscii(StlReader *rd)
{
  char      why[STL_MAX_QUOTE + 96];
  PetscBool inside = rd->mid;

  PetscFunctionBeginUser;
  if (!rd->mid) {
    rd->probing = PETSC_TRUE;
    PetscCall(StlNextWord(rd));
    if (!StlKeyIs(rd->tok, "solid")) {
      if (rd->tok[0]) snprintf(why, sizeof(why), "its first word is %s, not 'solid'", StlQuote(rd, rd->tok));
      else snprintf(why, sizeof(why), "%s", rd->nhead ? "it holds nothing but blanks" : "it is empty");
      PetscCall(StlNotStl(rd, why));
    }
    rd->probing = PETSC_FALSE;
  }
  while (inside || rd->tok[0]) {
    if (!inside) PetscCall(StlSkipLine(rd));
    inside = PETSC_FALSE;
    PetscCall(ReadSolidBody(rd));
    if (rd->stopped) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(StlSkipLine(rd));
    PetscCall(StlNextWord(rd));
    PetscCheck(!rd->tok[0] || StlKeyIs(rd->tok, "solid"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s:%" PetscInt_FMT ": expected 'solid' or the end of the file after 'endsolid', found %s", rd->path,
               rd->tokline, StlQuote(rd, rd->tok));
  }
  if (!rd->mid) PetscCheck(rd->nt, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s has no triangles", rd->path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The count was checked against the size when the size is known; else the
 * arrays grow with what arrives and the stream must end after n records. */
PetscErrorCode StlBinaryCount(StlReader *rd, uint32_t *count)
{
  uint32_t n = StlLe32(rd->head + 80);

  PetscFunctionBeginUser;
  PetscCheck(n > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s has no triangles (binary STL, count 0 at byte 80)",
             rd->path);
  PetscCheck(n <= STL_MAX_TRIANGLES, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "%s: %" PRIu32
             " triangles (binary STL, the count at byte 80) is more than hdem reads from one file (%" PetscInt64_FMT
             ")",
             rd->path, n, STL_MAX_TRIANGLES);
  *count = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadBinary(StlReader *rd)
{
  uint32_t      n;
  unsigned char rec[STL_RECORD];

  PetscFunctionBeginUser;
  PetscCall(StlBinaryCount(rd, &n));
  if (rd->size >= 0) PetscCall(StlReserve(rd, n));
  for (PetscInt t = 0; t < (PetscInt)n; t++) {
    PetscCall(StlReserve(rd, (PetscInt64)t + 1));
    errno = 0;
    if (fread(rec, 1, STL_RECORD, rd->fp) != STL_RECORD) {
      PetscCheck(!ferror(rd->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: read error: %s", StlWhere(rd, t),
                 strerror(errno));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
              "%s: end of file in triangle %" PetscInt_FMT " (byte %" PetscInt64_FMT ") of the %" PRIu32
              " its binary count at byte 80 says (truncated file?)",
              rd->path, t + 1, (PetscInt64)STL_HEADER + (PetscInt64)STL_RECORD * t, n);
    }
    for (int k = 0; k < 9; k++) {
      float f = StlLeFloat(rec + 12 + 4 * k);
      PetscCheck(isfinite(f), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: corner %d %c is %g, not a finite number",
                 StlWhere(rd, t), k / 3 + 1, "xyz"[k % 3], (double)f);
      rd->c[9 * t + k] = (PetscReal)f;
    }
    rd->nt = t + 1;
  }
  if (rd->size < 0)
    PetscCheck(getc(rd->fp) == EOF, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s: read as a binary STL (its first %d bytes do not start like an ASCII one), it holds more than the "
               "%" PRIu32 " triangles its count at byte 80 says",
               rd->path, STL_HEADER, n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first word of the header is "solid", followed by a blank (or the header's end). */
static PetscBool HeadStartsSolid(const StlReader *rd)
{
  size_t i = 0;

  while (i < rd->nhead && StlIsBlank(rd->head[i])) i++;
  if (i + 5 > rd->nhead || strncasecmp((const char *)rd->head + i, "solid", 5)) return PETSC_FALSE;
  return i + 5 == rd->nhead || StlIsBlank(rd->head[i + 5]) ? PETSC_TRUE : PETSC_FALSE;
}

PetscErrorCode StlDetect(StlReader *rd)
{
  PetscFunctionBeginUser;
  errno     = 0;
  rd->nhead = fread(rd->head, 1, STL_HEADER, rd->fp);
  PetscCheck(rd->nhead == STL_HEADER || !ferror(rd->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: read error: %s",
             rd->path, strerror(errno));
  if (rd->nhead < STL_HEADER) rd->binary = PETSC_FALSE;
  else if (rd->size >= 0)
    rd->binary = rd->size == STL_HEADER + (PetscInt64)STL_RECORD * StlLe32(rd->head + 80) ? PETSC_TRUE : PETSC_FALSE;
  else rd->binary = memchr(rd->head, 0, STL_HEADER) || !HeadStartsSolid(rd) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CompareCorners(const void *a, const void *b)
{
  const Corner *p = (const Corner *)a, *q = (const Corner *)b;
  for (int j = 0; j < 3; j++)
    if (p->x[j] != q->x[j]) return p->x[j] < q->x[j] ? -1 : 1;
  return p->k < q->k ? -1 : (p->k > q->k ? 1 : 0);
}

PetscErrorCode StlCheckVertex(StlReader *rd, PetscInt k, const PetscReal *c, const PetscReal *y)
{
  PetscFunctionBeginUser;
  PetscCheck(isfinite(y[0]) && isfinite(y[1]) && isfinite(y[2]), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: corner %d (%g %g %g in the file) is not finite after the transform (%g %g %g)", StlWhere(rd, k / 3),
             (int)(k % 3) + 1, (double)c[0], (double)c[1], (double)c[2], (double)y[0], (double)y[1], (double)y[2]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StlCheckTriangle(StlReader *rd, PetscInt t, const PetscInt v[3], const PetscReal *p, const PetscReal *q,
                                const PetscReal *r)
{
  const PetscReal *x[3] = {p, q, r};
  PetscReal        e[3][3], cr[3], len2 = 0, cn;

  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++)
    for (int b = a + 1; b < 3; b++)
      PetscCheck(v[a] != v[b], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 "%s is degenerate: corners %d and %d are the same vertex (%g %g %g)", StlWhere(rd, t), a + 1, b + 1,
                 (double)x[a][0], (double)x[a][1], (double)x[a][2]);
  for (int j = 0; j < 3; j++) e[0][j] = q[j] - p[j], e[1][j] = r[j] - p[j], e[2][j] = r[j] - q[j];
  for (int a = 0; a < 3; a++) len2 = PetscMax(len2, e[a][0] * e[a][0] + e[a][1] * e[a][1] + e[a][2] * e[a][2]);
  cr[0] = e[0][1] * e[1][2] - e[0][2] * e[1][1];
  cr[1] = e[0][2] * e[1][0] - e[0][0] * e[1][2];
  cr[2] = e[0][0] * e[1][1] - e[0][1] * e[1][0];
  cn    = PetscSqrtReal(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]);
  PetscCheck(isfinite(cn) && isfinite(len2), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s is too large for double precision: corners (%g %g %g) (%g %g %g) (%g %g %g)", StlWhere(rd, t),
             (double)p[0], (double)p[1], (double)p[2], (double)q[0], (double)q[1], (double)q[2], (double)r[0],
             (double)r[1], (double)r[2]);
  PetscCheck(cn > 0 && cn >= STL_MIN_AREA_RATIO * len2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s is degenerate (zero area): corners (%g %g %g) (%g %g %g) (%g %g %g)", StlWhere(rd, t), (double)p[0],
             (double)p[1], (double)p[2], (double)q[0], (double)q[1], (double)q[2], (double)r[0], (double)r[1],
             (double)r[2]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Corners equal in file coordinates become one vertex, numbered in order
 * of first appearance: sorted by (coordinates, corner), each group's first
 * corner is its smallest, so the result depends on the file alone.  Then
 * the transform, and the triangles' checks on what the engine will see. */
static PetscErrorCode BuildMesh(StlReader *rd, const StlXform *xf, StlMesh *m)
{
  PetscInt nc = 3 * rd->nt, nv = 0, first = 0;

  PetscFunctionBeginUser;
  PetscCall(StlAllocFor(rd, (size_t)nc * sizeof(Corner), "merging the corners", &rd->sorted));
  PetscCall(StlAllocFor(rd, (size_t)nc * sizeof(PetscInt), "the mesh", &m->tri));
  for (PetscInt k = 0; k < nc; k++) {
    for (int j = 0; j < 3; j++) rd->sorted[k].x[j] = rd->c[3 * k + j];
    rd->sorted[k].k = k;
  }
  qsort(rd->sorted, (size_t)nc, sizeof(Corner), CompareCorners);
  for (PetscInt i = 0; i < nc; i++) {
    const PetscReal *x = rd->sorted[i].x, *y = i ? rd->sorted[i - 1].x : NULL;
    if (!i || x[0] != y[0] || x[1] != y[1] || x[2] != y[2]) first = rd->sorted[i].k, nv++;
    m->tri[rd->sorted[i].k] = first;
  }
  PetscCall(PetscFree(rd->sorted));
  PetscCall(StlAllocFor(rd, (size_t)(3 * nv) * sizeof(PetscReal), "the vertices", &m->x));
  m->nt = rd->nt;
  /* tri[k] is its group's first corner f <= k, whose tri[f] is a vertex number by now */
  nv = 0;
  for (PetscInt k = 0; k < nc; k++) {
    if (m->tri[k] == k) {
      PetscReal *y = m->x + 3 * nv;
      StlXformApply(xf, rd->c + 3 * k, y);
      PetscCall(StlCheckVertex(rd, k, rd->c + 3 * k, y));
      m->tri[k] = nv++;
    } else m->tri[k] = m->tri[m->tri[k]];
  }
  m->nv = nv;
  for (PetscInt t = 0; t < m->nt; t++) {
    const PetscInt *v = m->tri + 3 * t;
    PetscCall(StlCheckTriangle(rd, t, v, m->x + 3 * v[0], m->x + 3 * v[1], m->x + 3 * v[2]));
  }
  for (int j = 0; j < 3; j++) m->lo[j] = PETSC_MAX_REAL, m->hi[j] = -PETSC_MAX_REAL;
  for (PetscInt i = 0; i < nv; i++)
    for (int j = 0; j < 3; j++)
      m->lo[j] = PetscMin(m->lo[j], m->x[3 * i + j]), m->hi[j] = PetscMax(m->hi[j], m->x[3 * i + j]);
  m->binary = rd->binary;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StlParse(StlReader *rd, const StlXform *xf, StlMesh *m)
{
  PetscFunctionBeginUser;
  PetscCall(StlDetect(rd));
  if (rd->binary) PetscCall(ReadBinary(rd));
  else PetscCall(StlReadAscii(rd));
  PetscCall(BuildMesh(rd, xf, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StlParseStream(FILE *fp, const char *name, PetscInt64 size, const StlTransform *tr, StlMesh *m)
{
  StlReader     *rd;
  StlXform       xf;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(m, sizeof(*m)));
  PetscCall(StlXformSet(name, tr, &xf));
  PetscCall(PetscNew(&rd));
  rd->fp   = fp;
  rd->path = name;
  rd->size = size;
  rd->line = 1;
  ierr     = StlParse(rd, &xf, m);
  PetscCall(PetscFree(rd->c));
  PetscCall(PetscFree(rd->tline));
  PetscCall(PetscFree(rd->sorted));
  PetscCall(PetscFree(rd));
  if (ierr) PetscCall(StlMeshDestroy(m));
  PetscFunctionReturn(ierr);
}

/* Rank 0: the error code comes back instead of returning, so that the other
 * ranks can be told rather than left waiting in the broadcast. */
static PetscErrorCode StlReadRoot(const char *path, const StlTransform *tr, StlMesh *m)
{
  FILE          *fp;
  char           why[PETSC_MAX_PATH_LEN + 128];
  struct stat    st;
  PetscInt64     size = -1;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  fp = InputFileOpen(path, "rb", "STL file", why, sizeof(why));
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "%s", why);
  if (!fstat(fileno(fp), &st)) size = (PetscInt64)st.st_size;
  ierr = StlParseStream(fp, path, size, tr, m);
  fclose(fp);
  PetscFunctionReturn(ierr);
}

PetscErrorCode StlRead(MPI_Comm comm, const char *path, const StlTransform *tr, StlMesh *m)
{
  PetscMPIInt    rank;
  PetscInt       status = 0, hdr[3];
  PetscReal      box[6], failed;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(m, sizeof(*m)));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    status = (PetscInt)StlReadRoot(path, tr, m);
    PetscCall(PetscPopErrorHandler());
  }
  PetscCall(InputRootStatus(comm, (PetscErrorCode)status));

  hdr[0] = m->nv, hdr[1] = m->nt, hdr[2] = m->binary;
  for (int j = 0; j < 3; j++) box[j] = m->lo[j], box[3 + j] = m->hi[j];
  PetscCall(CollectiveBcastInt(comm, hdr, 3));
  PetscCall(CollectiveBcastReal(comm, box, 6));
  /* every rank allocates, and all agree whether that worked before the
   * broadcasts: a rank that failed alone would leave the others waiting */
  if (rank) {
    m->nv = hdr[0], m->nt = hdr[1], m->binary = hdr[2] ? PETSC_TRUE : PETSC_FALSE;
    for (int j = 0; j < 3; j++) m->lo[j] = box[j], m->hi[j] = box[3 + j];
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = PetscMalloc1(3 * m->nv, &m->x);
    if (!ierr) ierr = PetscMalloc1(3 * m->nt, &m->tri);
    PetscCall(PetscPopErrorHandler());
  }
  failed = ierr ? 1.0 : 0.0;
  PetscCall(CollectiveMaxAll(comm, &failed, 1));
  if (failed) {
    PetscInt nv = hdr[0], nt = hdr[1];
    PetscCall(StlMeshDestroy(m));
    PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_MEM,
               "rank %d: out of memory for the %" PetscInt_FMT " vertices and %" PetscInt_FMT
               " triangles of STL file %s (%.3g GB)",
               (int)rank, nv, nt, path, (double)(3 * nv * sizeof(PetscReal) + 3 * nt * sizeof(PetscInt)) / 1e9);
    SETERRQ(comm, PETSC_ERR_MEM, "another rank ran out of memory for the %" PetscInt_FMT " triangles of STL file %s",
            nt, path);
  }
  PetscCall(CollectiveBcastReal(comm, m->x, 3 * m->nv));
  PetscCall(CollectiveBcastInt(comm, m->tri, 3 * m->nt));
  PetscCall(StlWarnSpan(comm, path, m->lo, m->hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StlWarnSpan(MPI_Comm comm, const char *path, const PetscReal lo[3], const PetscReal hi[3])
{
  PetscReal span = 0;
  char      spans[32];

  PetscFunctionBeginUser;
  for (int j = 0; j < 3; j++) span = PetscMax(span, hi[j] - lo[j]);
  /* C's %g: PETSc's would print 25000 as "25000." */
  snprintf(spans, sizeof(spans), "%g", (double)span);
  if (span < STL_SPAN_SMALL)
    PetscCall(
      PetscPrintf(comm,
                  "Warning: STL file %s spans only %s m: is its scale right (file units times scale are metres)?\n",
                  path, spans));
  else if (span > STL_SPAN_LARGE)
    PetscCall(
      PetscPrintf(comm, "Warning: STL file %s spans %s m: a file in millimetres needs scale: 0.001\n", path, spans));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StlMeshDestroy(StlMesh *m)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(m->x));
  PetscCall(PetscFree(m->tri));
  PetscCall(PetscMemzero(m, sizeof(*m)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
