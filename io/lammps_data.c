#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/lammps_data.h"
#include "decomp/collective.h"

/* Ids travel to the other ranks as PetscReal (collective.h has no 64-bit
 * integer broadcast and PetscInt is 32-bit here): exact up to 2^53. */
#define LMP_ID_MAX     9007199254740992LL
#define LMP_MAX_TOKENS 32

/* "path:line: " prefix of every format error */
#define AT         "%s:%" PetscInt_FMT ": "
#define ATARGS(rd) (rd)->path, (rd)->lineno

typedef struct {
  PetscInt64 id;
  PetscInt   idx;
} IdIndex;

/* Rank 0's reading state; everything here is released by LammpsDataReadRoot. */
typedef struct {
  FILE       *fp;
  const char *path;
  char       *line;
  size_t      cap;
  PetscInt    lineno;
  char       *tok[LMP_MAX_TOKENS];
  int         ntok;    /* may exceed LMP_MAX_TOKENS: only the first ones are kept */
  const char *comment; /* text after '#', or NULL */
  IdIndex    *sorted;  /* atoms by id, for duplicates and Velocities */
  PetscInt   *atomline;
  PetscBool  *seen;
} Reader;

/* Header counts that size sections. */
typedef enum {
  C_ATOMS,
  C_ATOM_TYPES,
  C_BONDS,
  C_BOND_TYPES,
  C_ANGLES,
  C_ANGLE_TYPES,
  C_DIHEDRALS,
  C_DIHEDRAL_TYPES,
  C_IMPROPERS,
  C_IMPROPER_TYPES,
  C_ELLIPSOIDS,
  C_LINES,
  C_TRIANGLES,
  C_CROSSTERMS,
  C_NCOUNT,
  C_IGNORED, /* accepted in the header, sizes nothing hdem skips */
  C_PAIRIJ,  /* ntypes (ntypes + 1) / 2 lines */
  C_ATOMS_SECTION,
  C_VELOCITIES_SECTION
} CountSlot;

static const struct {
  const char *key;
  int         nnum;
  CountSlot   slot;
} header_keys[] = {
  {"atoms", 1, C_ATOMS},
  {"atom types", 1, C_ATOM_TYPES},
  {"bonds", 1, C_BONDS},
  {"bond types", 1, C_BOND_TYPES},
  {"angles", 1, C_ANGLES},
  {"angle types", 1, C_ANGLE_TYPES},
  {"dihedrals", 1, C_DIHEDRALS},
  {"dihedral types", 1, C_DIHEDRAL_TYPES},
  {"impropers", 1, C_IMPROPERS},
  {"improper types", 1, C_IMPROPER_TYPES},
  {"ellipsoids", 1, C_ELLIPSOIDS},
  {"lines", 1, C_LINES},
  {"triangles", 1, C_TRIANGLES},
  {"crossterms", 1, C_CROSSTERMS},
  {"bodies", 2, C_IGNORED},
  {"extra bond per atom", 1, C_IGNORED},
  {"extra angle per atom", 1, C_IGNORED},
  {"extra dihedral per atom", 1, C_IGNORED},
  {"extra improper per atom", 1, C_IGNORED},
  {"extra special per atom", 1, C_IGNORED},
};

static const struct {
  const char *name;
  CountSlot   slot;
} sections[] = {
  {"Atoms", C_ATOMS_SECTION},
  {"Velocities", C_VELOCITIES_SECTION},
  {"Masses", C_ATOM_TYPES},
  {"Pair Coeffs", C_ATOM_TYPES},
  {"Atom Type Labels", C_ATOM_TYPES},
  {"PairIJ Coeffs", C_PAIRIJ},
  {"Bonds", C_BONDS},
  {"Bond Coeffs", C_BOND_TYPES},
  {"Bond Type Labels", C_BOND_TYPES},
  {"Angles", C_ANGLES},
  {"Angle Coeffs", C_ANGLE_TYPES},
  {"Angle Type Labels", C_ANGLE_TYPES},
  {"BondBond Coeffs", C_ANGLE_TYPES},
  {"BondAngle Coeffs", C_ANGLE_TYPES},
  {"Dihedrals", C_DIHEDRALS},
  {"Dihedral Coeffs", C_DIHEDRAL_TYPES},
  {"Dihedral Type Labels", C_DIHEDRAL_TYPES},
  {"MiddleBondTorsion Coeffs", C_DIHEDRAL_TYPES},
  {"EndBondTorsion Coeffs", C_DIHEDRAL_TYPES},
  {"AngleTorsion Coeffs", C_DIHEDRAL_TYPES},
  {"AngleAngleTorsion Coeffs", C_DIHEDRAL_TYPES},
  {"BondBond13 Coeffs", C_DIHEDRAL_TYPES},
  {"Impropers", C_IMPROPERS},
  {"Improper Coeffs", C_IMPROPER_TYPES},
  {"Improper Type Labels", C_IMPROPER_TYPES},
  {"AngleAngle Coeffs", C_IMPROPER_TYPES},
  {"Ellipsoids", C_ELLIPSOIDS},
  {"Lines", C_LINES},
  {"Triangles", C_TRIANGLES},
  {"CMAP", C_CROSSTERMS},
};

/* Next line, comment cut off and split into blank-separated tokens. */
static PetscErrorCode ReaderNext(Reader *rd, PetscBool *eof)
{
  ssize_t len;
  char   *c, *hash;

  PetscFunctionBeginUser;
  rd->ntok    = 0;
  rd->comment = NULL;
  errno       = 0;
  len         = getline(&rd->line, &rd->cap, rd->fp);
  if (len < 0) {
    PetscCheck(!ferror(rd->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s:%" PetscInt_FMT ": read error: %s", rd->path, rd->lineno + 1, strerror(errno));
    *eof = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *eof = PETSC_FALSE;
  rd->lineno++;
  if ((hash = strchr(rd->line, '#'))) {
    *hash       = 0;
    rd->comment = hash + 1;
  }
  for (c = rd->line; *c;) {
    while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n') *c++ = 0;
    if (!*c) break;
    if (rd->ntok < LMP_MAX_TOKENS) rd->tok[rd->ntok] = c;
    rd->ntok++;
    while (*c && *c != ' ' && *c != '\t' && *c != '\r' && *c != '\n') c++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReaderNextNonBlank(Reader *rd, PetscBool *eof)
{
  PetscFunctionBeginUser;
  do PetscCall(ReaderNext(rd, eof));
  while (!*eof && rd->ntok == 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool IsNumber(const char *s)
{
  char *end;
  (void)strtod(s, &end);
  return end != s && *end == 0 ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode ParseInt64(const Reader *rd, const char *s, const char *what, PetscInt64 *v)
{
  char     *end;
  long long x;

  PetscFunctionBeginUser;
  errno = 0;
  x     = strtoll(s, &end, 10);
  PetscCheck(end != s && *end == 0 && errno == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "%s '%s' is not an integer", ATARGS(rd), what, s);
  *v = (PetscInt64)x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ParseReal(const Reader *rd, const char *s, const char *what, PetscReal *v)
{
  char  *end;
  double x;

  PetscFunctionBeginUser;
  x = strtod(s, &end);
  PetscCheck(end != s && *end == 0 && isfinite(x), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "%s '%s' is not a finite number", ATARGS(rd), what, s);
  *v = (PetscReal)x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Tokens from `first` on, joined by single blanks. */
static void JoinTokens(const Reader *rd, int first, char *buf, size_t len)
{
  buf[0] = 0;
  for (int i = first; i < rd->ntok && i < LMP_MAX_TOKENS; i++) {
    if (i > first) strncat(buf, " ", len - strlen(buf) - 1);
    strncat(buf, rd->tok[i], len - strlen(buf) - 1);
  }
}

static int CompareIdIndex(const void *a, const void *b)
{
  const IdIndex *p = (const IdIndex *)a, *q = (const IdIndex *)b;
  if (p->id != q->id) return p->id < q->id ? -1 : 1;
  return p->idx < q->idx ? -1 : (p->idx > q->idx ? 1 : 0);
}

static PetscErrorCode ReadAtomLine(Reader *rd, LammpsData *d, PetscInt i)
{
  static const char *axis[3] = {"x", "y", "z"};
  PetscInt64         id, t, img;

  PetscFunctionBeginUser;
  PetscCheck(rd->ntok == 7 || rd->ntok == 10, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "atom_style sphere Atoms lines have 7 columns (id type diameter density x y z) or 10 (then image flags ix iy iz); found %d", ATARGS(rd),
             rd->ntok);
  PetscCall(ParseInt64(rd, rd->tok[0], "atom id", &id));
  PetscCheck(id >= 1 && id <= LMP_ID_MAX, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "atom id %" PetscInt64_FMT " is outside [1, 2^53]", ATARGS(rd), id);
  PetscCall(ParseInt64(rd, rd->tok[1], "atom type", &t));
  PetscCheck(t >= 1 && t <= d->ntypes, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "atom %" PetscInt64_FMT " has type %" PetscInt64_FMT ", outside the header's 1..%" PetscInt_FMT " atom types", ATARGS(rd), id, t, d->ntypes);
  PetscCall(ParseReal(rd, rd->tok[2], "diameter", &d->diameter[i]));
  PetscCheck(d->diameter[i] > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "atom %" PetscInt64_FMT " has diameter %g: it must be positive (point particles are not supported)", ATARGS(rd), id, (double)d->diameter[i]);
  PetscCall(ParseReal(rd, rd->tok[3], "density", &d->density[i]));
  PetscCheck(d->density[i] > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "atom %" PetscInt64_FMT " has density %g: it must be positive", ATARGS(rd), id,
             (double)d->density[i]);
  for (int j = 0; j < 3; j++) {
    PetscReal xj;
    PetscCall(ParseReal(rd, rd->tok[4 + j], axis[j], &xj));
    PetscCheck(xj >= d->lo[j] && xj <= d->hi[j], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               AT "atom %" PetscInt64_FMT " at %s = %g is outside the box [%g, %g]", ATARGS(rd), id, axis[j], (double)xj, (double)d->lo[j], (double)d->hi[j]);
    d->x[3 * i + j] = xj;
  }
  for (int j = 7; j < rd->ntok; j++) PetscCall(ParseInt64(rd, rd->tok[j], "image flag", &img));
  d->id[i]        = id;
  d->type[i]      = (PetscInt)t;
  rd->atomline[i] = rd->lineno;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadVelocityLine(Reader *rd, LammpsData *d)
{
  IdIndex  key = {0, -1}, *hit = NULL;
  PetscInt lo = 0, hi = d->n;

  PetscFunctionBeginUser;
  PetscCheck(rd->ntok == 7, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "atom_style sphere Velocities lines have 7 columns (id vx vy vz wx wy wz); found %d",
             ATARGS(rd), rd->ntok);
  PetscCall(ParseInt64(rd, rd->tok[0], "atom id", &key.id));
  while (lo < hi) {
    PetscInt mid = lo + (hi - lo) / 2;
    if (rd->sorted[mid].id < key.id) lo = mid + 1;
    else hi = mid;
  }
  if (lo < d->n && rd->sorted[lo].id == key.id) hit = &rd->sorted[lo];
  PetscCheck(hit, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "Velocities for atom id %" PetscInt64_FMT ", which is not in the Atoms section", ATARGS(rd),
             key.id);
  PetscCheck(!rd->seen[hit->idx], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "second Velocities line for atom id %" PetscInt64_FMT, ATARGS(rd), key.id);
  rd->seen[hit->idx] = PETSC_TRUE;
  for (int j = 0; j < 3; j++) PetscCall(ParseReal(rd, rd->tok[1 + j], "velocity", &d->v[3 * hit->idx + j]));
  for (int j = 0; j < 3; j++) PetscCall(ParseReal(rd, rd->tok[4 + j], "angular velocity", &d->w[3 * hit->idx + j]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sorted ids: duplicates are neighbours, the earlier line first. */
static PetscErrorCode CheckDuplicateIds(Reader *rd, LammpsData *d)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(d->n, &rd->sorted));
  for (PetscInt i = 0; i < d->n; i++) rd->sorted[i].id = d->id[i], rd->sorted[i].idx = i;
  if (d->n) qsort(rd->sorted, (size_t)d->n, sizeof(IdIndex), CompareIdIndex);
  for (PetscInt i = 1; i < d->n; i++)
    PetscCheck(rd->sorted[i].id != rd->sorted[i - 1].id, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s:%" PetscInt_FMT ": duplicate atom id %" PetscInt64_FMT " (first at line %" PetscInt_FMT ")", rd->path, rd->atomline[rd->sorted[i].idx],
               rd->sorted[i].id, rd->atomline[rd->sorted[i - 1].idx]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The header: lines that start with a number (counts, the box), then the
 * checks that it holds what a sphere file needs; ends at the first section
 * name (or the end, eof). */
static PetscErrorCode LammpsDataParseHeader(Reader *rd, LammpsData *d, PetscInt64 count[], PetscBool *eof)
{
  PetscBool has_count[C_NCOUNT] = {PETSC_FALSE}, has_box[3] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};

  PetscFunctionBeginUser;
  for (int c = 0; c < C_NCOUNT; c++) count[c] = 0;
  /* the first line is a title, whatever it says */
  PetscCall(ReaderNext(rd, eof));
  PetscCheck(!*eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: empty file, not a LAMMPS data file", rd->path);
  while (PETSC_TRUE) {
    int  nnum = 0;
    char key[256];
    PetscCall(ReaderNextNonBlank(rd, eof));
    if (*eof || !IsNumber(rd->tok[0])) break;
    while (nnum < rd->ntok && nnum < LMP_MAX_TOKENS && IsNumber(rd->tok[nnum])) nnum++;
    JoinTokens(rd, nnum, key, sizeof(key));
    if (!strcmp(key, "xy xz yz")) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, AT "'xy xz yz': triclinic boxes are not supported", ATARGS(rd));
    if (!strcmp(key, "xlo xhi") || !strcmp(key, "ylo yhi") || !strcmp(key, "zlo zhi")) {
      int j = key[0] - 'x';
      PetscCheck(nnum == 2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "'%s' needs two numbers, found %d", ATARGS(rd), key, nnum);
      PetscCall(ParseReal(rd, rd->tok[0], "box bound", &d->lo[j]));
      PetscCall(ParseReal(rd, rd->tok[1], "box bound", &d->hi[j]));
      PetscCheck(d->lo[j] < d->hi[j], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "empty box: %s = %g %g", ATARGS(rd), key, (double)d->lo[j],
                 (double)d->hi[j]);
      has_box[j] = PETSC_TRUE;
      continue;
    }
    {
      size_t k, nk = sizeof(header_keys) / sizeof(header_keys[0]);
      for (k = 0; k < nk && strcmp(key, header_keys[k].key); k++) { }
      PetscCheck(k < nk, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "unknown header line '%s' (expected e.g. 'N atoms', 'N atom types', 'lo hi xlo xhi')",
                 ATARGS(rd), key);
      PetscCheck(nnum == header_keys[k].nnum, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "'%s' needs %d number(s), found %d", ATARGS(rd), key,
                 header_keys[k].nnum, nnum);
      if (header_keys[k].slot < C_NCOUNT) {
        PetscInt64 v;
        PetscCall(ParseInt64(rd, rd->tok[0], key, &v));
        PetscCheck(v >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "negative count %" PetscInt64_FMT " %s", ATARGS(rd), v, key);
        count[header_keys[k].slot]     = v;
        has_count[header_keys[k].slot] = PETSC_TRUE;
      }
    }
  }
  PetscCheck(has_count[C_ATOMS], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: the header has no 'N atoms' line", rd->path);
  PetscCheck(count[C_ATOMS] <= PETSC_MAX_INT / 3, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: %" PetscInt64_FMT " atoms is more than this PetscInt build handles",
             rd->path, count[C_ATOMS]);
  PetscCheck(has_count[C_ATOM_TYPES] && count[C_ATOM_TYPES] >= 1 && count[C_ATOM_TYPES] <= INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: the header needs an 'N atom types' line with 1 <= N <= %d (types are 32-bit)", rd->path, (int)INT32_MAX);
  for (int j = 0; j < 3; j++)
    PetscCheck(has_box[j], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: the header has no '%clo %chi' line", rd->path, 'x' + j, 'x' + j);
  d->n      = (PetscInt)count[C_ATOMS];
  d->ntypes = (PetscInt)count[C_ATOM_TYPES];

  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sections: a name line, then exactly as many data lines as the header says. */
static PetscErrorCode LammpsDataParseSections(Reader *rd, LammpsData *d, const PetscInt64 count[], PetscBool eof)
{
  PetscBool has_atoms = PETSC_FALSE;
  char      name[256];

  PetscFunctionBeginUser;
  while (!eof) {
    size_t     s, ns = sizeof(sections) / sizeof(sections[0]);
    PetscInt64 nlines;
    PetscInt   start = rd->lineno;
    JoinTokens(rd, 0, name, sizeof(name));
    for (s = 0; s < ns && strcmp(name, sections[s].name); s++) { }
    PetscCheck(s < ns, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               AT
               "unknown section '%s' (hdem reads Atoms and Velocities of atom_style sphere and skips Masses, Pair Coeffs and the other count-sized sections)",
               ATARGS(rd), name);
    switch (sections[s].slot) {
    case C_ATOMS_SECTION:
      PetscCheck(!has_atoms, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "second Atoms section", ATARGS(rd));
      if (rd->comment) {
        char hint[64] = "";
        if (sscanf(rd->comment, "%63s", hint) == 1)
          PetscCheck(!strcmp(hint, "sphere"), PETSC_COMM_SELF, PETSC_ERR_SUP,
                     AT "Atoms section is for atom_style %s: hdem reads atom_style sphere (id type diameter density x y z)", ATARGS(rd), hint);
      }
      nlines = d->n;
      PetscCall(PetscMalloc5(d->n, &d->id, d->n, &d->type, d->n, &d->diameter, d->n, &d->density, 3 * d->n, &d->x));
      PetscCall(PetscCalloc2(3 * d->n, &d->v, 3 * d->n, &d->w));
      PetscCall(PetscMalloc1(d->n, &rd->atomline));
      break;
    case C_VELOCITIES_SECTION:
      PetscCheck(has_atoms, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "Velocities section before the Atoms section", ATARGS(rd));
      PetscCheck(!d->has_velocities, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "second Velocities section", ATARGS(rd));
      nlines = d->n;
      PetscCall(PetscCalloc1(d->n, &rd->seen));
      break;
    case C_PAIRIJ:
      nlines = count[C_ATOM_TYPES] * (count[C_ATOM_TYPES] + 1) / 2;
      break;
    default:
      nlines = count[sections[s].slot];
    }
    for (PetscInt64 i = 0; i < nlines; i++) {
      PetscCall(ReaderNextNonBlank(rd, &eof));
      PetscCheck(!eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 "%s: end of file in section %s (line %" PetscInt_FMT ") after %" PetscInt64_FMT " lines, the header announces %" PetscInt64_FMT
                 " (count mismatch with the header)",
                 rd->path, name, start, i, nlines);
      PetscCheck(IsNumber(rd->tok[0]), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 AT "section %s (line %" PetscInt_FMT ") ends after %" PetscInt64_FMT " lines, the header announces %" PetscInt64_FMT
                    " (count mismatch with the header)",
                 ATARGS(rd), name, start, i, nlines);
      if (sections[s].slot == C_ATOMS_SECTION) PetscCall(ReadAtomLine(rd, d, (PetscInt)i));
      else if (sections[s].slot == C_VELOCITIES_SECTION) PetscCall(ReadVelocityLine(rd, d));
    }
    if (sections[s].slot == C_ATOMS_SECTION) {
      PetscCall(CheckDuplicateIds(rd, d));
      has_atoms = PETSC_TRUE;
    }
    if (sections[s].slot == C_VELOCITIES_SECTION) d->has_velocities = PETSC_TRUE;
    PetscCall(ReaderNextNonBlank(rd, &eof));
    PetscCheck(eof || !IsNumber(rd->tok[0]), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               AT "section %s (line %" PetscInt_FMT ") has more than the %" PetscInt64_FMT " lines the header announces (count mismatch with the header)",
               ATARGS(rd), name, start, nlines);
  }
  PetscCheck(has_atoms || d->n == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: no Atoms section, the header announces %" PetscInt_FMT " atoms", rd->path,
             d->n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LammpsDataParse(Reader *rd, LammpsData *d)
{
  PetscInt64 count[C_NCOUNT];
  PetscBool  eof;

  PetscFunctionBeginUser;
  PetscCall(LammpsDataParseHeader(rd, d, count, &eof));
  PetscCall(LammpsDataParseSections(rd, d, count, eof));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the error code comes back instead of returning, so that the other
 * ranks can be told rather than left waiting in the broadcast. */
static PetscErrorCode LammpsDataReadRoot(const char *path, LammpsData *d)
{
  Reader         rd = {0};
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  rd.path = path;
  rd.fp   = fopen(path, "r");
  PetscCheck(rd.fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open LAMMPS data file %s: %s", path, strerror(errno));
  ierr = LammpsDataParse(&rd, d);
  fclose(rd.fp);
  free(rd.line);
  PetscCall(PetscFree(rd.sorted));
  PetscCall(PetscFree(rd.atomline));
  PetscCall(PetscFree(rd.seen));
  if (ierr) PetscCall(LammpsDataDestroy(d));
  PetscFunctionReturn(ierr);
}

PetscErrorCode LammpsDataRead(MPI_Comm comm, const char *path, LammpsData *data)
{
  PetscMPIInt rank;
  PetscInt    status = 0, hdr[3];
  PetscReal   box[6], *idr;
  PetscInt    n;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(data, sizeof(*data)));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) status = (PetscInt)LammpsDataReadRoot(path, data);
  PetscCall(CollectiveBcastInt(comm, &status, 1));
  if (rank == 0) PetscCall((PetscErrorCode)status);
  /* rank 0 has printed the message; SETERRQ on comm prints only on its rank 0 */
  else PetscCheck(!status, comm, (PetscErrorCode)status, "rank 0 failed to read LAMMPS data file %s", path);

  hdr[0] = data->n, hdr[1] = data->ntypes, hdr[2] = data->has_velocities;
  for (int j = 0; j < 3; j++) box[j] = data->lo[j], box[3 + j] = data->hi[j];
  PetscCall(CollectiveBcastInt(comm, hdr, 3));
  PetscCall(CollectiveBcastReal(comm, box, 6));
  n = hdr[0];
  if (rank) {
    data->n = n, data->ntypes = hdr[1], data->has_velocities = hdr[2] ? PETSC_TRUE : PETSC_FALSE;
    for (int j = 0; j < 3; j++) data->lo[j] = box[j], data->hi[j] = box[3 + j];
    PetscCall(PetscMalloc5(n, &data->id, n, &data->type, n, &data->diameter, n, &data->density, 3 * n, &data->x));
    PetscCall(PetscCalloc2(3 * n, &data->v, 3 * n, &data->w));
  }
  /* ids <= 2^53 were checked while reading: exact as doubles */
  PetscCall(PetscMalloc1(n, &idr));
  if (rank == 0)
    for (PetscInt i = 0; i < n; i++) idr[i] = (PetscReal)data->id[i];
  PetscCall(CollectiveBcastReal(comm, idr, n));
  if (rank)
    for (PetscInt i = 0; i < n; i++) data->id[i] = (PetscInt64)idr[i];
  PetscCall(PetscFree(idr));
  PetscCall(CollectiveBcastInt(comm, data->type, n));
  PetscCall(CollectiveBcastReal(comm, data->diameter, n));
  PetscCall(CollectiveBcastReal(comm, data->density, n));
  PetscCall(CollectiveBcastReal(comm, data->x, 3 * n));
  if (data->has_velocities) {
    PetscCall(CollectiveBcastReal(comm, data->v, 3 * n));
    PetscCall(CollectiveBcastReal(comm, data->w, 3 * n));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LammpsDataDestroy(LammpsData *d)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree5(d->id, d->type, d->diameter, d->density, d->x));
  PetscCall(PetscFree2(d->v, d->w));
  PetscCall(PetscMemzero(d, sizeof(*d)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
