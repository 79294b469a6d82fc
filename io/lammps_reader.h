/* The reading of a LAMMPS data file (io/lammps_data.c), line by line: each
 * line cut into tokens, its comment apart, numbers parsed with the file and
 * line in every error.  Internal to io/. */
#ifndef HDEM_LAMMPS_READER_H
#define HDEM_LAMMPS_READER_H

#include <stdio.h>
#include "hdem.h"

#define LMP_MAX_TOKENS 32
/* Longer lines are refused rather than read into an ever larger buffer: no
 * LAMMPS data line comes near (write_data's Atoms lines are < 200). */
#define LMP_MAX_LINE 4096
/* Quoted text longer than this is cut (PETSc keeps 1024 characters of a message). */
#define LMP_MAX_QUOTE 240
/* Bytes read from the stream at a time. */
#define LMP_BUF 65536

/* "path:line: " prefix of every format error */
#define AT         "%s:%" PetscInt_FMT ": "
#define ATARGS(rd) (rd)->path, (rd)->lineno

/* One rank's reading state. */
typedef struct {
  FILE       *fp;
  const char *path;
  PetscInt64  size;                   /* the file's bytes, -1 when not known (a pipe) */
  PetscInt64  consumed;               /* the offset of the next byte */
  PetscInt64  linestart;              /* ... and of the current line */
  char        line[LMP_MAX_LINE + 1]; /* the current line, cut into tokens */
  char        text[LMP_MAX_LINE + 1]; /* ... and as read, without its line end, for messages */
  char        quote[2][LMP_MAX_QUOTE + 64];
  int         nquote;
  PetscInt    lineno;
  char       *tok[LMP_MAX_TOKENS];
  int         ntok;         /* may exceed LMP_MAX_TOKENS: only the first ones are kept */
  const char *comment;      /* text after '#', or NULL */
  char        buf[LMP_BUF]; /* the stream's bytes ahead of consumed: lines are found with memchr */
  size_t      bpos, blen;   /* the next byte in buf, and the bytes in it */
} LmpReader;

/* s in quotes, whole, or its start and its length when longer than
 * LMP_MAX_QUOTE; two quotes may be live in one message. */
PETSC_INTERN const char *LmpReaderQuote(LmpReader *, const char *s);
/* Next line, comment cut off and split into blank-separated tokens; the line
 * as read is kept in rd->text; *eof at the end of the file. */
PETSC_INTERN PetscErrorCode LmpReaderNext(LmpReader *, PetscBool *eof);
/* rd->line (a line as read, without its newline) into text, comment and tokens. */
PETSC_INTERN void LmpReaderSplit(LmpReader *);
/* Next line as LmpReaderNext reads it, not yet split: rd->line holds it; *number says its first token is a
 * number (LmpReaderIsNumber), *blank that it has none.  LmpReaderSplit makes the tokens when they are needed. */
PETSC_INTERN PetscErrorCode LmpReaderNextRaw(LmpReader *, PetscBool *eof, PetscBool *number, PetscBool *blank);
/* The stream at byte at, what was read ahead dropped. */
PETSC_INTERN PetscErrorCode LmpReaderSeek(LmpReader *, PetscInt64 at);
/* The next byte (EOF at the end), counted in consumed. */
PETSC_INTERN int LmpReaderGetc(LmpReader *);
/* The next line that has a token. */
PETSC_INTERN PetscErrorCode LmpReaderNextNonBlank(LmpReader *, PetscBool *eof);
/* Whether s is a whole number (strtod reads all of it). */
PETSC_INTERN PetscBool LmpReaderIsNumber(const char *s);
/* s as an integer, what naming it in the error. */
PETSC_INTERN PetscErrorCode LmpReaderInt64(LmpReader *, const char *s, const char *what, PetscInt64 *v);
/* s as a finite number: nan, inf and what overflows to inf are refused. */
PETSC_INTERN PetscErrorCode LmpReaderReal(LmpReader *, const char *s, const char *what, PetscReal *v);
/* Tokens from `first` on, joined by single blanks. */
PETSC_INTERN void LmpReaderJoin(const LmpReader *, int first, char *buf, size_t len);

#endif
