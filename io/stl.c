#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "io/stl.h"
#include "io/inputfile.h"
#include "decomp/collective.h"

#define STL_HEADER 84 /* binary: 80 bytes of header, the uint32 triangle count */
#define STL_RECORD 50 /* binary: normal, 3 corners (12 float32), attribute byte count (uint16) */
/* Longer lines are refused rather than buffered: no STL line comes near. */
#define STL_MAX_LINE 4096
/* Quoted file text longer than this is cut (PETSc keeps 1024 characters of a message). */
#define STL_MAX_QUOTE 64
/* The vertices (3 nv <= 9 nt reals) travel in one broadcast, an MPI int count. */
#define STL_MAX_TRIANGLES ((PetscInt64)PETSC_MPI_INT_MAX / 9)
/* Below this times the squared longest edge, |cross product| is rounding: a sliver of zero area. */
#define STL_MIN_AREA_RATIO 1e-14
/* Largest extents [m] beyond which StlRead suspects the scale. */
#define STL_SPAN_SMALL 1e-4
#define STL_SPAN_LARGE 1e4

_Static_assert(sizeof(float) == 4, "binary STL coordinates are float32");

typedef struct {
  PetscReal x[3]; /* file coordinates */
  PetscInt  k;    /* corner: 3 triangle + 0, 1, 2 */
} Corner;

typedef struct {
  PetscReal s, R[3][3], t[3];
  PetscBool rotate;
} Xform;

/* Rank 0's reading state; everything here is released by StlParseStream. */
typedef struct {
  FILE       *fp;
  const char *path;
  PetscInt64  size; /* the file's bytes, -1 when not known (a pipe) */
  /* the first bytes, read to tell the format; the ASCII reader starts on them */
  unsigned char head[STL_HEADER];
  size_t        nhead, ihead; /* how many there are, how many the ASCII reader took */
  PetscBool     binary;       /* the format decided */
  PetscBool     probing;      /* reading the first word: a NUL or a long line says "not an STL file" */
  PetscInt      line, col;    /* ASCII: where the next byte is */
  PetscInt      tokline;      /* the line of the last word read */
  int           last;         /* the byte that ended it (a blank or EOF) */
  char          tok[STL_MAX_LINE + 1];
  char          quote[STL_MAX_QUOTE + 48];
  char          where[PETSC_MAX_PATH_LEN + 96];
  PetscInt      nt, cap; /* triangles read, room for */
  PetscReal    *c;       /* 9 cap: file coordinates, corners in file order */
  PetscInt     *tline;   /* ASCII: cap lines of the triangles' 'facet' */
  Corner       *sorted;  /* 3 nt: the merge */
} Reader;

void StlTransformDefault(StlTransform *tr)
{
  tr->scale   = 1;
  tr->axis[0] = 0, tr->axis[1] = 0, tr->axis[2] = 1;
  tr->angle = 0;
  for (int j = 0; j < 3; j++) tr->translate[j] = 0;
}

/* R (scale x) + translate as a matrix; the fields are checked on the way,
 * an error naming the file and the field. */
static PetscErrorCode XformSet(const char *path, const StlTransform *in, Xform *xf)
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

static void XformApply(const Xform *xf, const PetscReal *x, PetscReal *y)
{
  PetscReal sx[3] = {xf->s * x[0], xf->s * x[1], xf->s * x[2]};
  for (int i = 0; i < 3; i++)
    y[i] = (xf->rotate ? xf->R[i][0] * sx[0] + xf->R[i][1] * sx[1] + xf->R[i][2] * sx[2] : sx[i]) + xf->t[i];
}

static PetscBool IsBlank(int c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' ? PETSC_TRUE : PETSC_FALSE;
}

static PetscBool KeyIs(const char *tok, const char *key)
{
  return strcasecmp(tok, key) ? PETSC_FALSE : PETSC_TRUE;
}

static uint32_t Le32(const unsigned char *b)
{
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static float LeFloat(const unsigned char *b)
{
  uint32_t u = Le32(b);
  float    f;
  memcpy(&f, &u, sizeof(f));
  return f;
}

/* s in quotes, or its start and its length when longer than STL_MAX_QUOTE. */
static const char *Quote(Reader *rd, const char *s)
{
  size_t len = strlen(s);

  if (len <= STL_MAX_QUOTE) snprintf(rd->quote, sizeof(rd->quote), "'%s'", s);
  else snprintf(rd->quote, sizeof(rd->quote), "'%.*s...' (%zu characters)", STL_MAX_QUOTE, s, len);
  return rd->quote;
}

/* "path:line: triangle N" (ASCII) or "path: triangle N (byte B)" (binary); t from 0. */
static const char *Where(Reader *rd, PetscInt t)
{
  if (rd->binary)
    snprintf(rd->where, sizeof(rd->where), "%s: triangle %" PetscInt_FMT " (byte %" PetscInt64_FMT ")", rd->path, t + 1,
             (PetscInt64)STL_HEADER + (PetscInt64)STL_RECORD * t);
  else
    snprintf(rd->where, sizeof(rd->where), "%s:%" PetscInt_FMT ": triangle %" PetscInt_FMT, rd->path, rd->tline[t],
             t + 1);
  return rd->where;
}

/* Why the file is not a binary STL, for the messages of ASCII reads that fail. */
static void NotBinaryWhy(const Reader *rd, char *buf, size_t len)
{
  PetscInt64 size = rd->size >= 0 ? rd->size : (PetscInt64)rd->nhead;

  if (size < STL_HEADER)
    snprintf(buf, len, "at %" PetscInt64_FMT " bytes it is shorter than a binary STL's %d-byte header", size,
             STL_HEADER);
  else if (rd->size < 0)
    snprintf(buf, len, "its size is not known and its first %d bytes start like an ASCII STL", STL_HEADER);
  else
    snprintf(buf, len,
             "its size, %" PetscInt64_FMT " bytes, is not %d + %d n for the n = %" PRIu32
             " triangles a binary STL counts at byte 80",
             size, STL_HEADER, STL_RECORD, Le32(rd->head + 80));
}

static PetscErrorCode NotStl(Reader *rd, const char *asciiwhy)
{
  char binwhy[160];

  PetscFunctionBeginUser;
  NotBinaryWhy(rd, binwhy, sizeof(binwhy));
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s is neither an ASCII nor a binary STL file (%s; %s)", rd->path,
          asciiwhy, binwhy);
}

/* The next byte of an ASCII file (the detection's bytes first), lines
 * counted; a NUL byte or a line longer than STL_MAX_LINE is an error: the
 * buffer never grows with what the file says. */
static PetscErrorCode Take(Reader *rd, int *ch)
{
  char why[200];

  PetscFunctionBeginUser;
  errno = 0;
  *ch   = rd->ihead < rd->nhead ? rd->head[rd->ihead++] : getc(rd->fp);
  if (*ch == EOF)
    PetscCheck(!ferror(rd->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s:%" PetscInt_FMT ": read error: %s", rd->path,
               rd->line, strerror(errno));
  else if (*ch == '\n') rd->line++, rd->col = 0;
  else if (*ch == 0) {
    if (rd->probing) PetscCall(NotStl(rd, "it has a NUL byte in or before its first word"));
    NotBinaryWhy(rd, why, sizeof(why));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
            "%s:%" PetscInt_FMT ": NUL byte in column %" PetscInt_FMT ": not an ASCII STL file, nor a binary one (%s)",
            rd->path, rd->line, rd->col + 1, why);
  } else if (*ch != '\r' && ++rd->col > STL_MAX_LINE) {
    if (rd->probing) PetscCall(NotStl(rd, "its first line is longer than 4096 characters"));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
            "%s:%" PetscInt_FMT ": line longer than %d characters (not an STL file?)", rd->path, rd->line,
            STL_MAX_LINE);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The next blank-separated word into rd->tok, "" at the end of the file. */
static PetscErrorCode NextWord(Reader *rd)
{
  size_t len = 0;
  int    ch;

  PetscFunctionBeginUser;
  do PetscCall(Take(rd, &ch));
  while (ch != EOF && IsBlank(ch));
  if (ch != EOF) rd->tokline = rd->line;
  /* a word is never longer than its line: Take refused that */
  while (ch != EOF && !IsBlank(ch)) {
    rd->tok[len++] = (char)ch;
    PetscCall(Take(rd, &ch));
  }
  rd->tok[len] = 0;
  rd->last     = ch;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The rest of the line of the last word: a solid's name. */
static PetscErrorCode SkipLine(Reader *rd)
{
  int ch = rd->last;

  PetscFunctionBeginUser;
  while (ch != '\n' && ch != EOF) PetscCall(Take(rd, &ch));
  rd->last = ch;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Room for want triangles, grown geometrically so that what is allocated
 * follows what was read, not what a count claims. */
static PetscErrorCode Reserve(Reader *rd, PetscInt64 want)
{
  PetscInt64     cap;
  PetscReal     *c     = NULL;
  PetscInt      *tline = NULL;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  if (want <= rd->cap) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(want <= STL_MAX_TRIANGLES, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "%s: more than %" PetscInt64_FMT " triangles, which is what hdem reads from one file", rd->path,
             STL_MAX_TRIANGLES);
  cap = PetscMin(PetscMax(want, PetscMax(2 * (PetscInt64)rd->cap, 256)), STL_MAX_TRIANGLES);
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PetscMalloc1(9 * cap, &c);
  if (!ierr && !rd->binary) ierr = PetscMalloc1(cap, &tline);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    PetscCall(PetscFree(c));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM,
            "%s: out of memory: %.3g GB for %" PetscInt64_FMT " triangles could not be allocated", rd->path,
            (double)cap * (double)(9 * sizeof(PetscReal) + sizeof(PetscInt)) / 1e9, cap);
  }
  if (rd->nt) PetscCall(PetscArraycpy(c, rd->c, 9 * rd->nt));
  if (rd->nt && tline) PetscCall(PetscArraycpy(tline, rd->tline, rd->nt));
  PetscCall(PetscFree(rd->c));
  PetscCall(PetscFree(rd->tline));
  rd->c = c, rd->tline = tline, rd->cap = (PetscInt)cap;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Inside triangle rd->nt: the end of the file there is a truncation. */
static PetscErrorCode NotEnd(Reader *rd)
{
  PetscFunctionBeginUser;
  PetscCheck(rd->tok[0], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%" PetscInt_FMT ": end of file in triangle %" PetscInt_FMT " (truncated file?)", rd->path, rd->tokline,
             rd->nt + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Expect(Reader *rd, const char *key, const char *hint)
{
  PetscFunctionBeginUser;
  PetscCall(NextWord(rd));
  PetscCall(NotEnd(rd));
  PetscCheck(KeyIs(rd->tok, key), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%" PetscInt_FMT ": triangle %" PetscInt_FMT ": expected '%s', found %s%s", rd->path, rd->tokline,
             rd->nt + 1, key, Quote(rd, rd->tok), hint);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadNumber(Reader *rd, const char *what, PetscReal *v)
{
  char  *end;
  double x;

  PetscFunctionBeginUser;
  PetscCall(NextWord(rd));
  PetscCall(NotEnd(rd));
  x = strtod(rd->tok, &end);
  PetscCheck(end != rd->tok && *end == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%" PetscInt_FMT ": triangle %" PetscInt_FMT ": %s %s is not a number", rd->path, rd->tokline,
             rd->nt + 1, what, Quote(rd, rd->tok));
  *v = (PetscReal)x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* facet normal nx ny nz / outer loop / vertex x y z (3) / endloop / endfacet, 'facet' read. */
static PetscErrorCode ReadFacet(Reader *rd)
{
  static const char *coord[3] = {"x", "y", "z"};
  PetscReal          normal, *c;

  PetscFunctionBeginUser;
  PetscCall(Reserve(rd, (PetscInt64)rd->nt + 1));
  c                 = rd->c + 9 * rd->nt;
  rd->tline[rd->nt] = rd->tokline;
  PetscCall(Expect(rd, "normal", ""));
  /* orientation is not used */
  for (int j = 0; j < 3; j++) PetscCall(ReadNumber(rd, "normal component", &normal));
  PetscCall(Expect(rd, "outer", ""));
  PetscCall(Expect(rd, "loop", ""));
  for (int v = 0; v < 3; v++) {
    PetscCall(Expect(rd, "vertex", " (a triangle has 3 corners)"));
    for (int j = 0; j < 3; j++) {
      char what[32];
      snprintf(what, sizeof(what), "corner %d %s", v + 1, coord[j]);
      PetscCall(ReadNumber(rd, what, &c[3 * v + j]));
      PetscCheck(isfinite(c[3 * v + j]), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 "%s:%" PetscInt_FMT ": triangle %" PetscInt_FMT ": %s %s is not finite", rd->path, rd->tokline,
                 rd->nt + 1, what, Quote(rd, rd->tok));
    }
  }
  PetscCall(NextWord(rd));
  PetscCall(NotEnd(rd));
  PetscCheck(!KeyIs(rd->tok, "vertex"), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "%s:%" PetscInt_FMT ": triangle %" PetscInt_FMT " has more than 3 corners (hdem reads triangles only)",
             rd->path, rd->tokline, rd->nt + 1);
  PetscCheck(KeyIs(rd->tok, "endloop"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%" PetscInt_FMT ": triangle %" PetscInt_FMT ": expected 'endloop', found %s", rd->path, rd->tokline,
             rd->nt + 1, Quote(rd, rd->tok));
  PetscCall(Expect(rd, "endfacet", ""));
  rd->nt++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* solid [name] facet... endsolid [name], as many solids as the file holds. */
static PetscErrorCode ReadAscii(Reader *rd)
{
  char why[STL_MAX_QUOTE + 96];

  PetscFunctionBeginUser;
  rd->probing = PETSC_TRUE;
  PetscCall(NextWord(rd));
  if (!KeyIs(rd->tok, "solid")) {
    if (rd->tok[0]) snprintf(why, sizeof(why), "its first word is %s, not 'solid'", Quote(rd, rd->tok));
    else snprintf(why, sizeof(why), "%s", rd->nhead ? "it holds nothing but blanks" : "it is empty");
    PetscCall(NotStl(rd, why));
  }
  rd->probing = PETSC_FALSE;
  while (rd->tok[0]) {
    PetscCall(SkipLine(rd));
    while (PETSC_TRUE) {
      PetscCall(NextWord(rd));
      PetscCheck(rd->tok[0], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 "%s:%" PetscInt_FMT ": end of file after triangle %" PetscInt_FMT
                 ", before 'endsolid' (truncated file?)",
                 rd->path, rd->tokline, rd->nt);
      if (KeyIs(rd->tok, "endsolid")) break;
      PetscCheck(KeyIs(rd->tok, "facet"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 "%s:%" PetscInt_FMT ": expected 'facet' (triangle %" PetscInt_FMT ") or 'endsolid', found %s",
                 rd->path, rd->tokline, rd->nt + 1, Quote(rd, rd->tok));
      PetscCall(ReadFacet(rd));
    }
    PetscCall(SkipLine(rd));
    PetscCall(NextWord(rd));
    PetscCheck(!rd->tok[0] || KeyIs(rd->tok, "solid"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s:%" PetscInt_FMT ": expected 'solid' or the end of the file after 'endsolid', found %s", rd->path,
               rd->tokline, Quote(rd, rd->tok));
  }
  PetscCheck(rd->nt, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s has no triangles", rd->path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The count was checked against the size when the size is known; else the
 * arrays grow with what arrives and the stream must end after n records. */
static PetscErrorCode ReadBinary(Reader *rd)
{
  uint32_t      n = Le32(rd->head + 80);
  unsigned char rec[STL_RECORD];

  PetscFunctionBeginUser;
  PetscCheck(n > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s has no triangles (binary STL, count 0 at byte 80)",
             rd->path);
  PetscCheck(n <= STL_MAX_TRIANGLES, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "%s: %" PRIu32
             " triangles (binary STL, the count at byte 80) is more than hdem reads from one file (%" PetscInt64_FMT
             ")",
             rd->path, n, STL_MAX_TRIANGLES);
  if (rd->size >= 0) PetscCall(Reserve(rd, n));
  for (PetscInt t = 0; t < (PetscInt)n; t++) {
    PetscCall(Reserve(rd, (PetscInt64)t + 1));
    errno = 0;
    if (fread(rec, 1, STL_RECORD, rd->fp) != STL_RECORD) {
      PetscCheck(!ferror(rd->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: read error: %s", Where(rd, t),
                 strerror(errno));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
              "%s: end of file in triangle %" PetscInt_FMT " (byte %" PetscInt64_FMT ") of the %" PRIu32
              " its binary count at byte 80 says (truncated file?)",
              rd->path, t + 1, (PetscInt64)STL_HEADER + (PetscInt64)STL_RECORD * t, n);
    }
    for (int k = 0; k < 9; k++) {
      float f = LeFloat(rec + 12 + 4 * k);
      PetscCheck(isfinite(f), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: corner %d %c is %g, not a finite number",
                 Where(rd, t), k / 3 + 1, "xyz"[k % 3], (double)f);
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
static PetscBool HeadStartsSolid(const Reader *rd)
{
  size_t i = 0;

  while (i < rd->nhead && IsBlank(rd->head[i])) i++;
  if (i + 5 > rd->nhead || strncasecmp((const char *)rd->head + i, "solid", 5)) return PETSC_FALSE;
  return i + 5 == rd->nhead || IsBlank(rd->head[i + 5]) ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode Detect(Reader *rd)
{
  PetscFunctionBeginUser;
  errno     = 0;
  rd->nhead = fread(rd->head, 1, STL_HEADER, rd->fp);
  PetscCheck(rd->nhead == STL_HEADER || !ferror(rd->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: read error: %s",
             rd->path, strerror(errno));
  if (rd->nhead < STL_HEADER) rd->binary = PETSC_FALSE;
  else if (rd->size >= 0)
    rd->binary = rd->size == STL_HEADER + (PetscInt64)STL_RECORD * Le32(rd->head + 80) ? PETSC_TRUE : PETSC_FALSE;
  else rd->binary = memchr(rd->head, 0, STL_HEADER) || !HeadStartsSolid(rd) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AllocFor(Reader *rd, size_t bytes, const char *what, void *p)
{
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PetscMalloc(bytes, p);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_MEM,
             "%s: out of memory: %.3g GB for %s of %" PetscInt_FMT " triangles could not be allocated", rd->path,
             (double)bytes / 1e9, what, rd->nt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CompareCorners(const void *a, const void *b)
{
  const Corner *p = (const Corner *)a, *q = (const Corner *)b;
  for (int j = 0; j < 3; j++)
    if (p->x[j] != q->x[j]) return p->x[j] < q->x[j] ? -1 : 1;
  return p->k < q->k ? -1 : (p->k > q->k ? 1 : 0);
}

/* Corners equal in file coordinates become one vertex, numbered in order
 * of first appearance: sorted by (coordinates, corner), each group's first
 * corner is its smallest, so the result depends on the file alone.  Then
 * the transform, and the triangles' checks on what the engine will see. */
static PetscErrorCode BuildMesh(Reader *rd, const Xform *xf, StlMesh *m)
{
  PetscInt nc = 3 * rd->nt, nv = 0, first = 0;

  PetscFunctionBeginUser;
  PetscCall(AllocFor(rd, (size_t)nc * sizeof(Corner), "merging the corners", &rd->sorted));
  PetscCall(AllocFor(rd, (size_t)nc * sizeof(PetscInt), "the mesh", &m->tri));
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
  PetscCall(AllocFor(rd, (size_t)(3 * nv) * sizeof(PetscReal), "the vertices", &m->x));
  m->nt = rd->nt;
  /* tri[k] is its group's first corner f <= k, whose tri[f] is a vertex number by now */
  nv = 0;
  for (PetscInt k = 0; k < nc; k++) {
    if (m->tri[k] == k) {
      PetscReal *y = m->x + 3 * nv;
      XformApply(xf, rd->c + 3 * k, y);
      PetscCheck(isfinite(y[0]) && isfinite(y[1]) && isfinite(y[2]), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 "%s: corner %d (%g %g %g in the file) is not finite after the transform (%g %g %g)", Where(rd, k / 3),
                 (int)(k % 3) + 1, (double)rd->c[3 * k], (double)rd->c[3 * k + 1], (double)rd->c[3 * k + 2],
                 (double)y[0], (double)y[1], (double)y[2]);
      m->tri[k] = nv++;
    } else m->tri[k] = m->tri[m->tri[k]];
  }
  m->nv = nv;
  for (PetscInt t = 0; t < m->nt; t++) {
    const PetscInt  *v = m->tri + 3 * t;
    const PetscReal *p = m->x + 3 * v[0], *q = m->x + 3 * v[1], *r = m->x + 3 * v[2];
    PetscReal        e[3][3], cr[3], len2                          = 0, cn;

    for (int a = 0; a < 3; a++)
      for (int b = a + 1; b < 3; b++)
        PetscCheck(v[a] != v[b], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                   "%s is degenerate: corners %d and %d are the same vertex (%g %g %g)", Where(rd, t), a + 1, b + 1,
                   (double)m->x[3 * v[a]], (double)m->x[3 * v[a] + 1], (double)m->x[3 * v[a] + 2]);
    for (int j = 0; j < 3; j++) e[0][j] = q[j] - p[j], e[1][j] = r[j] - p[j], e[2][j] = r[j] - q[j];
    for (int a = 0; a < 3; a++) len2 = PetscMax(len2, e[a][0] * e[a][0] + e[a][1] * e[a][1] + e[a][2] * e[a][2]);
    cr[0] = e[0][1] * e[1][2] - e[0][2] * e[1][1];
    cr[1] = e[0][2] * e[1][0] - e[0][0] * e[1][2];
    cr[2] = e[0][0] * e[1][1] - e[0][1] * e[1][0];
    cn    = PetscSqrtReal(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]);
    PetscCheck(isfinite(cn) && isfinite(len2), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s is too large for double precision: corners (%g %g %g) (%g %g %g) (%g %g %g)", Where(rd, t),
               (double)p[0], (double)p[1], (double)p[2], (double)q[0], (double)q[1], (double)q[2], (double)r[0],
               (double)r[1], (double)r[2]);
    PetscCheck(cn > 0 && cn >= STL_MIN_AREA_RATIO * len2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s is degenerate (zero area): corners (%g %g %g) (%g %g %g) (%g %g %g)", Where(rd, t), (double)p[0],
               (double)p[1], (double)p[2], (double)q[0], (double)q[1], (double)q[2], (double)r[0], (double)r[1],
               (double)r[2]);
  }
  for (int j = 0; j < 3; j++) m->lo[j] = PETSC_MAX_REAL, m->hi[j] = -PETSC_MAX_REAL;
  for (PetscInt i = 0; i < nv; i++)
    for (int j = 0; j < 3; j++)
      m->lo[j] = PetscMin(m->lo[j], m->x[3 * i + j]), m->hi[j] = PetscMax(m->hi[j], m->x[3 * i + j]);
  m->binary = rd->binary;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StlParse(Reader *rd, const Xform *xf, StlMesh *m)
{
  PetscFunctionBeginUser;
  PetscCall(Detect(rd));
  if (rd->binary) PetscCall(ReadBinary(rd));
  else PetscCall(ReadAscii(rd));
  PetscCall(BuildMesh(rd, xf, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StlParseStream(FILE *fp, const char *name, PetscInt64 size, const StlTransform *tr, StlMesh *m)
{
  Reader        *rd;
  Xform          xf;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(m, sizeof(*m)));
  PetscCall(XformSet(name, tr, &xf));
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
  PetscReal      box[6], failed, span = 0;
  char           spans[32];
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
  for (int j = 0; j < 3; j++) span = PetscMax(span, m->hi[j] - m->lo[j]);
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
