/* A LAMMPS data file read line by line (io/lammps_reader.h). */
#include "io/lammps_reader.h"
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

/* Next line, comment cut off and split into blank-separated tokens; the line
 * as read is kept in rd->text.  A line longer than LMP_MAX_LINE or holding a
 * NUL byte is an error: the buffer never grows with what the file says. */
PetscErrorCode LmpReaderNext(LmpReader *rd, PetscBool *eof)
{
  size_t len = 0;
  int    ch;

  PetscFunctionBeginUser;
  rd->ntok      = 0;
  rd->comment   = NULL;
  rd->nquote    = 0;
  rd->text[0]   = 0;
  rd->linestart = rd->consumed;
  errno         = 0;
  while ((ch = getc_unlocked(rd->fp)) != EOF && ch != '\n') { /* one thread reads each stream */
    if (len == LMP_MAX_LINE) {
      rd->line[len] = 0;
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
              "%s:%" PetscInt_FMT ": line longer than %d characters (not a LAMMPS data file?); it starts '%.64s...'",
              rd->path, rd->lineno + 1, LMP_MAX_LINE, rd->line);
    }
    PetscCheck(ch, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s:%" PetscInt_FMT ": NUL byte in column %zu: not a text file", rd->path, rd->lineno + 1, len + 1);
    rd->line[len++] = (char)ch;
  }
  if (ch == EOF) {
    PetscCheck(!ferror(rd->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s:%" PetscInt_FMT ": read error: %s", rd->path,
               rd->lineno + 1, strerror(errno));
    if (!len) {
      *eof = PETSC_TRUE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  *eof          = PETSC_FALSE;
  rd->line[len] = 0;
  rd->consumed += (PetscInt64)len + (ch == '\n');
  rd->lineno++;
  LmpReaderSplit(rd);
  PetscFunctionReturn(PETSC_SUCCESS);
}

void LmpReaderSplit(LmpReader *rd)
{
  size_t len = strlen(rd->line);
  char  *c, *hash;

  rd->ntok    = 0;
  rd->comment = NULL;
  while (len && rd->line[len - 1] == '\r') len--; /* CRLF */
  memcpy(rd->text, rd->line, len);
  rd->text[len] = 0;
  if ((hash = strchr(rd->line, '#'))) {
    *hash       = 0;
    rd->comment = hash + 1;
  }
  for (c = rd->line; *c;) {
    while (IsBlank(*c)) *c++ = 0;
    if (!*c) break;
    if (rd->ntok < LMP_MAX_TOKENS) rd->tok[rd->ntok] = c;
    rd->ntok++;
    while (*c && !IsBlank(*c)) c++;
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
  while (*c >= '0' && *c <= '9') c++; /* digits alone (ids, counts): a number without strtod */
  if (c != s && !*c) return PETSC_TRUE;
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
  x = strtod(s, &end);
  PetscCheck(end != s && *end == 0 && isfinite(x), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "%s %s is not a finite number", ATARGS(rd), what, LmpReaderQuote(rd, s));
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
