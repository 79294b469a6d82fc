/* The parallel reading of a LAMMPS data file (io/lammps_data.c): the file's
 * bytes after the header split among the ranks at line boundaries, each
 * rank's share scanned (io/lammps_scan.c: its lines classed as blank, data
 * or a section's name), the names gathered so that every rank knows which
 * section each of its data lines is in, the share's Atoms, Velocities and
 * Molecules lines parsed into records, then joined by atom id on the rank
 * id % size (io/lammps_join.c).  Internal to io/. */
#ifndef HDEM_LAMMPS_SHARE_H
#define HDEM_LAMMPS_SHARE_H

#include "io/lammps_atoms.h"
#include "io/lammps_reader.h"

/* Ids, line numbers and places travel as reals: exact up to 2^53. */
#define LMP_ID_MAX 9007199254740992LL
/* Text kept of a section's name line, and how many names one share may have:
 * a data file has a few dozen sections, and every rank holds every name. */
#define LMP_NAME_TEXT 256
#define LMP_NAMES_MAX 64

/* Records of the parsed lines, in reals. */
enum {
  LMP_A_ID,
  LMP_A_TYPE,
  LMP_A_DIAMETER,
  LMP_A_DENSITY,
  LMP_A_X, /* 3 */
  LMP_A_LINE = LMP_A_X + 3,
  LMP_A_INDEX,
  LMP_A_W
};
enum {
  LMP_V_ID,
  LMP_V_V, /* 3, then w 3 */
  LMP_V_LINE = LMP_V_V + 6,
  LMP_V_W
};
enum {
  LMP_M_ID,
  LMP_M_MOL,
  LMP_M_LINE,
  LMP_M_W
};

/* What a data line is for. */
typedef enum {
  LMP_SKIP,
  LMP_ATOMS,
  LMP_VELOCITIES,
  LMP_MOLECULES
} LmpKind;

/* Rank 0's header, on every rank. */
typedef struct {
  PetscInt64 size;  /* the file's bytes (-1: unknown, one rank) */
  PetscInt64 start; /* offset of the first section's name line (size: none) */
  PetscInt64 line;  /* its line number (at none: the number of lines) */
  PetscInt64 n, ntypes;
  PetscReal  lo[3], hi[3];
} LmpHead;

/* A section's name line of some share (or, lead, the share's start). */
typedef struct {
  PetscInt64 line;       /* its line number */
  PetscInt64 end;        /* offset after it */
  PetscInt64 ndata;      /* data lines after it in the share (lead: before the first name) */
  PetscInt64 bad;        /* lead: the line the share cannot read (NUL, too long, too many names), or -1 */
  int        rank, lead; /* the share's rank; whether the lead */
  int        len;        /* the text's whole length */
  char       text[LMP_NAME_TEXT];
} LmpName;

typedef struct {
  PetscInt64 id, line;
  PetscInt   idx;
} IdLine;

/* A run of data lines of one section in the share. */
typedef struct {
  LmpKind     kind;
  const char *name;  /* the section's */
  PetscInt64  base;  /* the section's data lines before the run */
  PetscInt64  count; /* lines the header announces */
  PetscInt64  start; /* the name's line */
} LmpRun;

/* One rank's share and what it read. */
typedef struct {
  PetscInt64 b, e;   /* lines that start in [b, e) are the share's */
  PetscInt64 first;  /* offset of its first line */
  PetscInt64 nlines; /* lines read (up to a bad one) */
  PetscInt64 line0;  /* number of the first */
  PetscInt64 bad;    /* index of the line that cannot be read, or -1 */
  PetscInt64 at;     /* the line being parsed (an error's) */
  PetscInt   nname;  /* names[0] is the lead */
  LmpName    names[LMP_NAMES_MAX + 1];
  LmpRun     runs[LMP_NAMES_MAX + 1];
  PetscInt   nrec[4]; /* records parsed, by LmpKind */
  PetscReal *rec[4];
  PetscInt   nin[4]; /* records joined here */
  PetscReal *in[4];
  IdLine    *ids; /* the joined atoms by id */
  PetscBool *seen;
} LmpShare;

/* Scan: the share's lines classed and its names kept; an unreadable line
 * ends it (its error comes with LmpShareParse, which knows line numbers). */
PETSC_INTERN PetscErrorCode LmpShareScan(LmpReader *, const LmpHead *, LmpShare *);
/* Parse the data lines of the runs (set by the walk) before line stop. */
PETSC_INTERN PetscErrorCode LmpShareParse(LmpReader *, const LmpHead *, LmpShare *, PetscInt64 stop);
PETSC_INTERN PetscErrorCode LmpShareFree(LmpShare *);
/* The records joined by id into this rank's atoms of d (collective): ids
 * unique, every Velocities and Molecules line an atom's, at most one each. */
PETSC_INTERN PetscErrorCode LmpShareJoin(MPI_Comm, const char *path, LmpShare *, LammpsData *d);

#endif
