/* A LAMMPS data file read line by line (io/lammps_reader.h). */
#include "io/lammps_reader.h"
#include "io/decimal.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static PetscBool IsBlank(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' ? PETSC_TRUE : PETSC_FALSE;
}

/* s in quotes, whole, or its start and its length when longer than
 * LMP_MAX_QUOTE; two quotes may be live in one message. */
const char *LmpReaderQuote(LmpReader *rd, const char *s)
{
  char  *q   = rd->quote[rd->nquote++ % 2];
  size_t len = strlen(s);

  if (len <= LMP_MAX_QUOTE) snprintf(q, sizeof(rd->quote[0]), "'%s'", s);
  else snprintf(q, sizeof(rd->quote[0]), "'%.*s...' (%zu characters)", LMP_MAX_QUOTE, s, len);
  return q;
}

/* More bytes into buf; blen 0 at the end of the stream (or an error: ferror says which). */
static void LmpReaderFill(LmpReader *rd)
{
  rd->bpos = 0;
  rd->blen = fread(rd->buf, 1, sizeof(rd->buf), rd->fp);
}

PetscErrorCode LmpReaderSeek(LmpReader *rd, PetscInt64 at)
{
  PetscFunctionBeginUser;
  PetscCheck(!fseeko(rd->fp, (off_t)at, SEEK_SET), PETSC_COMM_SELF, PETSC_ERR_FILE_READ,
             "%s: cannot go to byte %" PetscInt64_FMT ": %s", rd->path, at, strerror(errno));
  rd->consumed = at;
  rd->bpos = rd->blen = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

int LmpReaderGetc(LmpReader *rd)
{
  if (rd->bpos == rd->blen) LmpReaderFill(rd);
  if (rd->bpos == rd->blen) return EOF;
  rd->consumed++;
  return (unsigned char)rd->buf[rd->bpos++];
}

/* The next line into rd->line, without its newline: what a byte-by-byte read would
 * give, its errors included (a NUL before the line is too long is the NUL's error). */
static PetscErrorCode LmpReaderLine(LmpReader *rd, PetscBool *eof)
{
  size_t    len = 0;
  PetscBool nl  = PETSC_FALSE;

  PetscFunctionBeginUser;
  rd->ntok      = 0;
  rd->comment   = NULL;
  rd->nquote    = 0;
  rd->text[0]   = 0;
  rd->linestart = rd->consumed;
  errno         = 0;
  while (!nl) {
    const char *p, *at, *nul;
    size_t      n, room = LMP_MAX_LINE - len;
    if (rd->bpos == rd->blen) LmpReaderFill(rd);
    if (rd->bpos == rd->blen) break;
    p   = rd->buf + rd->bpos;
    at  = memchr(p, '\n', rd->blen - rd->bpos);
    n   = at ? (size_t)(at - p) : rd->blen - rd->bpos;
    nul = memchr(p, 0, PetscMin(n, room));
    if (nul) n = (size_t)(nul - p);
    else if (n > room) { /* a character beyond the longest line, before any NUL */ memcpy(rd->line + len, p, room);
      rd->line[LMP_MAX_LINE] = 0;
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
              "%s:%" PetscInt_FMT ": line longer than %d characters (not a LAMMPS data file?); it starts '%.64s...'",
              rd->path, rd->lineno + 1, LMP_MAX_LINE, rd->line);
    }
    memcpy(rd->line + len, p, n);
    len += n;
    rd->bpos += n;
    rd->line[len] = 0;
    PetscCheck(!nul, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s:%" PetscInt_FMT ": NUL byte in column %zu: not a text file", rd->path, rd->lineno + 1, len + 1);
    if (at) rd->bpos++, nl = PETSC_TRUE;
  }
  if (!nl) {
    PetscCheck(!ferror(rd->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s:%" PetscInt_FMT ": read error: %s", rd->path,
               rd->lineno + 1, strerror(errno));
    if (!len) {
      *eof = PETSC_TRUE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  *eof          = PETSC_FALSE;
  rd->line[len] = 0;
  rd->consumed += (PetscInt64)len + (nl ? 1 : 0);
  rd->lineno++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Next line, comment cut off and split into blank-separated tokens; the line
 * as read is kept in rd->text.  A line longer than LMP_MAX_LINE or holding a
 * NUL byte is an error: the buffer never grows with what the file says. */
PetscErrorCode LmpReaderNext(LmpReader *rd, PetscBool *eof)
{
  PetscFunctionBeginUser;
  PetscCall(LmpReaderLine(rd, eof));
  if (!*eof) LmpReaderSplit(rd);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LmpReaderNextRaw(LmpReader *rd, PetscBool *eof, PetscBool *number, PetscBool *blank)
{
  char *c, *e, save;

  PetscFunctionBeginUser;
  *number = *blank = PETSC_FALSE;
  PetscCall(LmpReaderLine(rd, eof));
  if (*eof) PetscFunctionReturn(PETSC_SUCCESS);
  for (c = rd->line; IsBlank(*c);) c++;
  if (!*c || *c == '#') {
    *blank = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (e = c; *e && *e != '#' && !IsBlank(*e);) e++;
  save = *e, *e = 0;
  *number = LmpReaderIsNumber(c);
  *e      = save;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bytes that end a token: 1 a blank, 2 the end of the line or a comment's '#'. */
static const unsigned char LmpStop[256] =
  {[0] = 2, ['#'] = 2, [' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 1, ['\f'] = 1, ['\v'] = 1};

void LmpReaderSplit(LmpReader *rd)
{
  size_t len = strlen(rd->line);
  char  *c   = rd->line;

  rd->ntok    = 0;
  rd->comment = NULL;
  while (len && rd->line[len - 1] == '\r') len--; /* CRLF */
  memcpy(rd->text, rd->line, len);
  rd->text[len] = 0;
  while (PETSC_TRUE) {
    while (LmpStop[(unsigned char)*c] == 1) *c++ = 0;
    if (*c == '#') *c = 0, rd->comment = c + 1;
    if (!*c) break;
    if (rd->ntok < LMP_MAX_TOKENS) rd->tok[rd->ntok] = c;
    rd->ntok++;
    while (!LmpStop[(unsigned char)*c]) c++;
  }
}

PetscErrorCode LmpReaderNextNonBlank(LmpReader *rd, PetscBool *eof)
{
  PetscFunctionBeginUser;
  do PetscCall(LmpReaderNext(rd, eof));
  while (!*eof && rd->ntok == 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool LmpReaderIsNumber(const char *s)
{
  char       *end;
  const char *c = s;
  double      x;
  while (*c >= '0' && *c <= '9') c++; /* digits alone (ids, counts): a number without strtod */
  if ((c != s && !*c) || DecimalFast(s, &x)) return PETSC_TRUE;
  (void)strtod(s, &end);
  return end != s && *end == 0 ? PETSC_TRUE : PETSC_FALSE;
}

PetscErrorCode LmpReaderInt64(LmpReader *rd, const char *s, const char *what, PetscInt64 *v)
{
  char     *end;
  long long x;
  int       err;

  PetscFunctionBeginUser;
  errno = 0;
  x     = strtoll(s, &end, 10);
  err   = errno;
  PetscCheck(end != s && *end == 0 && err == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "%s %s is not an integer%s", ATARGS(rd), what, LmpReaderQuote(rd, s),
             err == ERANGE ? " (beyond 64 bits)" : "");
  *v = (PetscInt64)x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* nan, inf and what overflows to inf are refused. */
PetscErrorCode LmpReaderReal(LmpReader *rd, const char *s, const char *what, PetscReal *v)
{
  char  *end;
  double x;

  PetscFunctionBeginUser;
  if (!DecimalFast(s, &x)) {
    x = strtod(s, &end);
    PetscCheck(end != s && *end == 0 && isfinite(x), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               AT "%s %s is not a finite number", ATARGS(rd), what, LmpReaderQuote(rd, s));
  }
  *v = (PetscReal)x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Tokens from `first` on, joined by single blanks. */
void LmpReaderJoin(const LmpReader *rd, int first, char *buf, size_t len)
{
  buf[0] = 0;
  for (int i = first; i < rd->ntok && i < LMP_MAX_TOKENS; i++) {
    if (i > first) strncat(buf, " ", len - strlen(buf) - 1);
    strncat(buf, rd->tok[i], len - strlen(buf) - 1);
  }
}
