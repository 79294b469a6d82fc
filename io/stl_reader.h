/* Rank 0's reading of an STL file (io/stl.c): the reading state, the bytes
 * and words of the file, the messages that say where in it.  Internal to io/. */
#ifndef HDEM_STL_READER_H
#define HDEM_STL_READER_H

#include <stdint.h>
#include <stdio.h>
#include "hdem.h"

#define STL_HEADER 84 /* binary: 80 bytes of header, the uint32 triangle count */
#define STL_RECORD 50 /* binary: normal, 3 corners (12 float32), attribute byte count (uint16) */
/* Longer lines are refused rather than buffered: no STL line comes near. */
#define STL_MAX_LINE 4096
/* Quoted file text longer than this is cut (PETSc keeps 1024 characters of a message). */
#define STL_MAX_QUOTE 64
/* The vertices (3 nv <= 9 nt reals) travel in one broadcast, an MPI int count. */
#define STL_MAX_TRIANGLES ((PetscInt64)PETSC_MPI_INT_MAX / 9)

typedef struct {
  PetscReal x[3]; /* file coordinates */
  PetscInt  k;    /* corner: 3 triangle + 0, 1, 2 */
} Corner;

/* A reading state; everything here is released by whoever made it
 * (StlParseStream, io/stl_share.c). */
typedef struct StlReader_ {
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
  /* Triangle numbers start at base (c and tline hold triangles base ..
   * nt - 1); nostore: the triangles are checked and counted, not kept;
   * flush (when set) is called after each triangle, and may move the kept
   * ones out and raise base. */
  PetscInt  base;
  PetscBool nostore;
  /* ASCII by ranges: pos the bytes taken, tokpos where the last word
   * starts; stop (0: none) the offset of the next range, whose first
   * 'facet' ends this one (stopped); mid: the range starts among facets */
  PetscInt64 pos, tokpos, stop;
  PetscBool  stopped, mid;
  PetscErrorCode (*flush)(struct StlReader_ *);
  void *ctx;
} StlReader;

PETSC_INTERN PetscBool StlIsBlank(int c);
PETSC_INTERN PetscBool StlKeyIs(const char *tok, const char *key);
PETSC_INTERN uint32_t  StlLe32(const unsigned char *b);
PETSC_INTERN float     StlLeFloat(const unsigned char *b);
/* s in quotes, or its start and its length when longer than STL_MAX_QUOTE. */
PETSC_INTERN const char *StlQuote(StlReader *rd, const char *s);
/* "path:line: triangle N" (ASCII) or "path: triangle N (byte B)" (binary); t from 0. */
PETSC_INTERN const char    *StlWhere(StlReader *rd, PetscInt t);
PETSC_INTERN PetscErrorCode StlNotStl(StlReader *rd, const char *asciiwhy);
/* The next blank-separated word into rd->tok, "" at the end of the file. */
PETSC_INTERN PetscErrorCode StlNextWord(StlReader *rd);
/* The rest of the line of the last word: a solid's name. */
PETSC_INTERN PetscErrorCode StlSkipLine(StlReader *rd);
/* Room for want triangles (from base), grown geometrically so that what is allocated
 * follows what was read, not what a count claims. */
PETSC_INTERN PetscErrorCode StlReserve(StlReader *rd, PetscInt64 want);
/* Inside triangle rd->nt: the end of the file there is a truncation. */
PETSC_INTERN PetscErrorCode StlNotEnd(StlReader *rd);
PETSC_INTERN PetscErrorCode StlExpect(StlReader *rd, const char *key, const char *hint);
PETSC_INTERN PetscErrorCode StlReadNumber(StlReader *rd, const char *what, PetscReal *v);
PETSC_INTERN PetscErrorCode StlAllocFor(StlReader *rd, size_t bytes, const char *what, void *p);

#endif
