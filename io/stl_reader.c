/* The bytes and words of an STL file (io/stl_reader.h). */
#include "io/stl_reader.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

_Static_assert(sizeof(float) == 4, "binary STL coordinates are float32");

PetscBool StlIsBlank(int c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' ? PETSC_TRUE : PETSC_FALSE;
}

PetscBool StlKeyIs(const char *tok, const char *key)
{
  return strcasecmp(tok, key) ? PETSC_FALSE : PETSC_TRUE;
}

uint32_t StlLe32(const unsigned char *b)
{
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

float StlLeFloat(const unsigned char *b)
{
  uint32_t u = StlLe32(b);
  float    f;
  memcpy(&f, &u, sizeof(f));
  return f;
}

/* s in quotes, or its start and its length when longer than STL_MAX_QUOTE. */
const char *StlQuote(StlReader *rd, const char *s)
{
  size_t len = strlen(s);

  if (len <= STL_MAX_QUOTE) snprintf(rd->quote, sizeof(rd->quote), "'%s'", s);
  else snprintf(rd->quote, sizeof(rd->quote), "'%.*s...' (%zu characters)", STL_MAX_QUOTE, s, len);
  return rd->quote;
}

/* "path:line: triangle N" (ASCII) or "path: triangle N (byte B)" (binary); t from 0. */
const char *StlWhere(StlReader *rd, PetscInt t)
{
  if (rd->binary)
    snprintf(rd->where, sizeof(rd->where), "%s: triangle %" PetscInt_FMT " (byte %" PetscInt64_FMT ")", rd->path, t + 1,
             (PetscInt64)STL_HEADER + (PetscInt64)STL_RECORD * t);
  else
    snprintf(rd->where, sizeof(rd->where), "%s:%" PetscInt_FMT ": triangle %" PetscInt_FMT, rd->path,
             rd->tline[t - rd->base], t + 1);
  return rd->where;
}

/* Why the file is not a binary STL, for the messages of ASCII reads that fail. */
static void NotBinaryWhy(const StlReader *rd, char *buf, size_t len)
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
             size, STL_HEADER, STL_RECORD, StlLe32(rd->head + 80));
}

PetscErrorCode StlNotStl(StlReader *rd, const char *asciiwhy)
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
static PetscErrorCode Take(StlReader *rd, int *ch)
{
  char why[200];

  PetscFunctionBeginUser;
  errno = 0;
  *ch   = rd->ihead < rd->nhead ? rd->head[rd->ihead++] : getc(rd->fp);
  if (*ch != EOF) rd->pos++;
  if (*ch == EOF)
    PetscCheck(!ferror(rd->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s:%" PetscInt_FMT ": read error: %s", rd->path,
               rd->line, strerror(errno));
  else if (*ch == '\n') rd->line++, rd->col = 0;
  else if (*ch == 0) {
    if (rd->probing) PetscCall(StlNotStl(rd, "it has a NUL byte in or before its first word"));
    NotBinaryWhy(rd, why, sizeof(why));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
            "%s:%" PetscInt_FMT ": NUL byte in column %" PetscInt_FMT ": not an ASCII STL file, nor a binary one (%s)",
            rd->path, rd->line, rd->col + 1, why);
  } else if (*ch != '\r' && ++rd->col > STL_MAX_LINE) {
    if (rd->probing) PetscCall(StlNotStl(rd, "its first line is longer than 4096 characters"));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
            "%s:%" PetscInt_FMT ": line longer than %d characters (not an STL file?)", rd->path, rd->line,
            STL_MAX_LINE);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The next blank-separated word into rd->tok, "" at the end of the file. */
PetscErrorCode StlNextWord(StlReader *rd)
{
  size_t len = 0;
  int    ch;

  PetscFunctionBeginUser;
  do PetscCall(Take(rd, &ch));
  while (ch != EOF && StlIsBlank(ch));
  if (ch != EOF) rd->tokline = rd->line, rd->tokpos = rd->pos - 1;
  /* a word is never longer than its line: Take refused that */
  while (ch != EOF && !StlIsBlank(ch)) {
    rd->tok[len++] = (char)ch;
    PetscCall(Take(rd, &ch));
  }
  rd->tok[len] = 0;
  rd->last     = ch;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The rest of the line of the last word: a solid's name. */
PetscErrorCode StlSkipLine(StlReader *rd)
{
  int ch = rd->last;

  PetscFunctionBeginUser;
  while (ch != '\n' && ch != EOF) PetscCall(Take(rd, &ch));
  rd->last = ch;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Room for want triangles (from base), grown geometrically so that what is allocated
 * follows what was read, not what a count claims. */
PetscErrorCode StlReserve(StlReader *rd, PetscInt64 want)
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
  if (rd->nt > rd->base) PetscCall(PetscArraycpy(c, rd->c, 9 * (rd->nt - rd->base)));
  if (rd->nt > rd->base && tline) PetscCall(PetscArraycpy(tline, rd->tline, rd->nt - rd->base));
  PetscCall(PetscFree(rd->c));
  PetscCall(PetscFree(rd->tline));
  rd->c = c, rd->tline = tline, rd->cap = (PetscInt)cap;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Inside triangle rd->nt: the end of the file there is a truncation. */
PetscErrorCode StlNotEnd(StlReader *rd)
{
  PetscFunctionBeginUser;
  PetscCheck(rd->tok[0], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%" PetscInt_FMT ": end of file in triangle %" PetscInt_FMT " (truncated file?)", rd->path, rd->tokline,
             rd->nt + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StlExpect(StlReader *rd, const char *key, const char *hint)
{
  PetscFunctionBeginUser;
  PetscCall(StlNextWord(rd));
  PetscCall(StlNotEnd(rd));
  PetscCheck(StlKeyIs(rd->tok, key), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%" PetscInt_FMT ": triangle %" PetscInt_FMT ": expected '%s', found %s%s", rd->path, rd->tokline,
             rd->nt + 1, key, StlQuote(rd, rd->tok), hint);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StlReadNumber(StlReader *rd, const char *what, PetscReal *v)
{
  char  *end;
  double x;

  PetscFunctionBeginUser;
  PetscCall(StlNextWord(rd));
  PetscCall(StlNotEnd(rd));
  x = strtod(rd->tok, &end);
  PetscCheck(end != rd->tok && *end == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%" PetscInt_FMT ": triangle %" PetscInt_FMT ": %s %s is not a number", rd->path, rd->tokline,
             rd->nt + 1, what, StlQuote(rd, rd->tok));
  *v = (PetscReal)x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StlAllocFor(StlReader *rd, size_t bytes, const char *what, void *p)
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
