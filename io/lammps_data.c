#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "io/lammps_data.h"
#include "io/lammps_reader.h"
#include "io/inputfile.h"
#include "decomp/collective.h"

/* Ids travel to the other ranks as PetscReal (collective.h has no 64-bit
 * integer broadcast): exact up to 2^53. */
#define LMP_ID_MAX 9007199254740992LL
/* The shortest data line of a section: one character and its newline; an
 * Atoms or Velocities line has 7 numbers and 6 blanks.  The last line of a
 * file may lack its newline, so S bytes hold at most (S + 1) / min lines. */
#define LMP_MIN_LINE      2
#define LMP_MIN_ATOM_LINE 14
/* What one atom costs rank 0 while reading: LammpsData's arrays, the line
 * numbers, the sorted ids and the Velocities flags. */
#define LMP_ATOM_BYTES \
  (sizeof(PetscInt64) + sizeof(PetscInt) + 11 * sizeof(PetscReal) + sizeof(PetscInt) + sizeof(IdIndex) + \
   sizeof(PetscBool))

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
  C_VELOCITIES_SECTION,
  C_MOLECULES_SECTION
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
  {"Molecules", C_MOLECULES_SECTION},
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

static int CompareIdIndex(const void *a, const void *b)
{
  const IdIndex *p = (const IdIndex *)a, *q = (const IdIndex *)b;
  if (p->id != q->id) return p->id < q->id ? -1 : 1;
  return p->idx < q->idx ? -1 : (p->idx > q->idx ? 1 : 0);
}

static PetscErrorCode ReadAtomLine(LmpReader *rd, LammpsData *d, PetscInt i)
{
  static const char *axis[3] = {"x", "y", "z"};
  PetscInt64         id, t, img;

  PetscFunctionBeginUser;
  PetscCheck(rd->ntok == 7 || rd->ntok == 10, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "atom_style sphere Atoms lines have 7 columns (id type diameter density x y z) or 10 (then image flags "
                "ix iy iz); found %d in %s",
             ATARGS(rd), rd->ntok, LmpReaderQuote(rd, rd->text));
  PetscCall(LmpReaderInt64(rd, rd->tok[0], "atom id", &id));
  PetscCheck(id >= 1 && id <= LMP_ID_MAX, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "atom id %s is outside [1, 2^53]", ATARGS(rd), LmpReaderQuote(rd, rd->tok[0]));
  PetscCall(LmpReaderInt64(rd, rd->tok[1], "atom type", &t));
  PetscCheck(t >= 1 && t <= d->ntypes, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "atom %" PetscInt64_FMT " has type %s, outside the header's 1..%" PetscInt_FMT " atom types",
             ATARGS(rd), id, LmpReaderQuote(rd, rd->tok[1]), d->ntypes);
  PetscCall(LmpReaderReal(rd, rd->tok[2], "diameter", &d->diameter[i]));
  PetscCheck(d->diameter[i] >= 2 * HDEM_RADIUS_MIN && d->diameter[i] <= 2 * HDEM_RADIUS_MAX, PETSC_COMM_SELF,
             PETSC_ERR_FILE_UNEXPECTED,
             AT "atom %" PetscInt64_FMT " has diameter %s: allowed [%g, %d] m (as the radii of -insert_radius)",
             ATARGS(rd), id, LmpReaderQuote(rd, rd->tok[2]), 2 * HDEM_RADIUS_MIN, (int)(2 * HDEM_RADIUS_MAX));
  PetscCall(LmpReaderReal(rd, rd->tok[3], "density", &d->density[i]));
  PetscCheck(d->density[i] >= HDEM_DENSITY_MIN && d->density[i] <= HDEM_DENSITY_MAX, PETSC_COMM_SELF,
             PETSC_ERR_FILE_UNEXPECTED,
             AT "atom %" PetscInt64_FMT " has density %s: allowed [%g, %g] kg/m^3 (as -particle_density)", ATARGS(rd),
             id, LmpReaderQuote(rd, rd->tok[3]), HDEM_DENSITY_MIN, HDEM_DENSITY_MAX);
  for (int j = 0; j < 3; j++) {
    PetscReal xj;
    PetscCall(LmpReaderReal(rd, rd->tok[4 + j], axis[j], &xj));
    PetscCheck(xj >= d->lo[j] && xj <= d->hi[j], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               AT "atom %" PetscInt64_FMT " at %s = %s is outside the box [%g, %g]", ATARGS(rd), id, axis[j],
               LmpReaderQuote(rd, rd->tok[4 + j]), (double)d->lo[j], (double)d->hi[j]);
    d->x[3 * i + j] = xj;
  }
  for (int j = 7; j < rd->ntok; j++) PetscCall(LmpReaderInt64(rd, rd->tok[j], "image flag", &img));
  d->id[i]        = id;
  d->type[i]      = (PetscInt)t;
  rd->atomline[i] = rd->lineno;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The atom of id (a checked number in the text), from the sorted ids; section names the line's section for messages. */
static PetscErrorCode FindAtom(LmpReader *rd, const LammpsData *d, const char *section, IdIndex **hit)
{
  IdIndex  key = {0, -1};
  PetscInt lo = 0, hi = d->n;

  PetscFunctionBeginUser;
  PetscCall(LmpReaderInt64(rd, rd->tok[0], "atom id", &key.id));
  *hit = NULL;
  while (lo < hi) {
    PetscInt mid = lo + (hi - lo) / 2;
    if (rd->sorted[mid].id < key.id) lo = mid + 1;
    else hi = mid;
  }
  if (lo < d->n && rd->sorted[lo].id == key.id) *hit = &rd->sorted[lo];
  PetscCheck(*hit, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "%s for atom id %s, which is not in the Atoms section", ATARGS(rd), section,
             LmpReaderQuote(rd, rd->tok[0]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadVelocityLine(LmpReader *rd, LammpsData *d)
{
  IdIndex *hit;

  PetscFunctionBeginUser;
  PetscCheck(rd->ntok == 7, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "atom_style sphere Velocities lines have 7 columns (id vx vy vz wx wy wz); found %d in %s", ATARGS(rd),
             rd->ntok, LmpReaderQuote(rd, rd->text));
  PetscCall(FindAtom(rd, d, "Velocities", &hit));
  PetscCheck(!rd->seen[hit->idx], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "second Velocities line for atom id %" PetscInt64_FMT, ATARGS(rd), hit->id);
  rd->seen[hit->idx] = PETSC_TRUE;
  for (int j = 0; j < 3; j++) PetscCall(LmpReaderReal(rd, rd->tok[1 + j], "velocity", &d->v[3 * hit->idx + j]));
  for (int j = 0; j < 3; j++) PetscCall(LmpReaderReal(rd, rd->tok[4 + j], "angular velocity", &d->w[3 * hit->idx + j]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadMoleculeLine(LmpReader *rd, LammpsData *d)
{
  IdIndex   *hit;
  PetscInt64 m;

  PetscFunctionBeginUser;
  PetscCheck(rd->ntok == 2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "Molecules lines have 2 columns (atom id, molecule id); found %d in %s", ATARGS(rd), rd->ntok,
             LmpReaderQuote(rd, rd->text));
  PetscCall(FindAtom(rd, d, "Molecules line", &hit));
  PetscCall(LmpReaderInt64(rd, rd->tok[1], "molecule id", &m));
  PetscCheck(d->mol[hit->idx] == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "second Molecules line for atom id %" PetscInt64_FMT, ATARGS(rd), hit->id);
  PetscCheck(m >= 1 && m <= LMP_ID_MAX, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "molecule id %s of atom %" PetscInt64_FMT " is outside [1, 2^53]", ATARGS(rd),
             LmpReaderQuote(rd, rd->tok[1]), hit->id);
  d->mol[hit->idx] = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sorted ids: duplicates are neighbours, the earlier line first. */
static PetscErrorCode CheckDuplicateIds(LmpReader *rd, LammpsData *d)
{
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < d->n; i++) rd->sorted[i].id = d->id[i], rd->sorted[i].idx = i;
  if (d->n) qsort(rd->sorted, (size_t)d->n, sizeof(IdIndex), CompareIdIndex);
  for (PetscInt i = 1; i < d->n; i++)
    PetscCheck(rd->sorted[i].id != rd->sorted[i - 1].id, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s:%" PetscInt_FMT ": duplicate atom id %" PetscInt64_FMT " (first at line %" PetscInt_FMT ")",
               rd->path, rd->atomline[rd->sorted[i].idx], rd->sorted[i].id, rd->atomline[rd->sorted[i - 1].idx]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every array of n atoms, rank 0's reading ones too, at once: n was checked
 * against the file's size and the integer ranges, so what fails here is the
 * memory, and the message says how much for how many atoms. */
static PetscErrorCode LmpReaderAllocAtoms(LmpReader *rd, LammpsData *d)
{
  PetscInt       n = d->n;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PetscMalloc5(n, &d->id, n, &d->type, n, &d->diameter, n, &d->density, 3 * n, &d->x);
  if (!ierr) ierr = PetscCalloc2(3 * n, &d->v, 3 * n, &d->w);
  if (!ierr) ierr = PetscMalloc3(n, &rd->atomline, n, &rd->sorted, n, &rd->seen);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_MEM,
             AT "out of memory: %.3g GB for the %" PetscInt_FMT " atoms the header announces could not be allocated",
             ATARGS(rd), (double)n * (double)LMP_ATOM_BYTES / 1e9, n);
  PetscCall(PetscArrayzero(rd->seen, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A count from the header line in rd: it cannot overflow what it sizes
 * (max), and the file (size bytes, when known) must be able to hold that
 * many lines of at least minline bytes (0: not checked). */
static PetscErrorCode CheckCount(LmpReader *rd, PetscInt64 v, const char *key, PetscInt64 max, PetscInt64 minline)
{
  PetscFunctionBeginUser;
  PetscCheck(v >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "negative count in %s", ATARGS(rd),
             LmpReaderQuote(rd, rd->text));
  PetscCheck(v <= max, PETSC_COMM_SELF, PETSC_ERR_SUP,
             AT "%s: %" PetscInt64_FMT " %s is more than hdem reads from one file (%" PetscInt64_FMT ")", ATARGS(rd),
             LmpReaderQuote(rd, rd->text), v, key, max);
  PetscCheck(!minline || rd->size < 0 || v <= (rd->size + 1) / minline, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "%s: %" PetscInt64_FMT " %s cannot be in a file of %" PetscInt64_FMT " bytes (at most %" PetscInt64_FMT
                " lines of %" PetscInt64_FMT " or more bytes; count mismatch, or a truncated file?)",
             ATARGS(rd), LmpReaderQuote(rd, rd->text), v, key, rd->size, (rd->size + 1) / minline, minline);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The header: lines that start with a number (counts, the box), then the
 * checks that it holds what a sphere file needs; ends at the first section
 * name (or the end, eof).  Every count is checked on its own line, before
 * anything is allocated for it. */
static PetscErrorCode LammpsDataParseHeader(LmpReader *rd, LammpsData *d, PetscInt64 count[], PetscBool *eof)
{
  PetscBool has_count[C_NCOUNT] = {PETSC_FALSE}, has_box[3] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};

  PetscFunctionBeginUser;
  for (int c = 0; c < C_NCOUNT; c++) count[c] = 0;
  /* the first line is a title, whatever it says */
  PetscCall(LmpReaderNext(rd, eof));
  PetscCheck(!*eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: empty file, not a LAMMPS data file", rd->path);
  while (PETSC_TRUE) {
    int  nnum = 0;
    char key[256];
    PetscCall(LmpReaderNextNonBlank(rd, eof));
    if (*eof || !LmpReaderIsNumber(rd->tok[0])) break;
    while (nnum < rd->ntok && nnum < LMP_MAX_TOKENS && LmpReaderIsNumber(rd->tok[nnum])) nnum++;
    LmpReaderJoin(rd, nnum, key, sizeof(key));
    if (!strcmp(key, "xy xz yz"))
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, AT "'xy xz yz': triclinic boxes are not supported", ATARGS(rd));
    if (!strcmp(key, "xlo xhi") || !strcmp(key, "ylo yhi") || !strcmp(key, "zlo zhi")) {
      int j = key[0] - 'x';
      PetscCheck(nnum == 2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "'%s' needs two numbers, found %d in %s",
                 ATARGS(rd), key, nnum, LmpReaderQuote(rd, rd->text));
      PetscCall(LmpReaderReal(rd, rd->tok[0], "box bound", &d->lo[j]));
      PetscCall(LmpReaderReal(rd, rd->tok[1], "box bound", &d->hi[j]));
      PetscCheck(d->lo[j] < d->hi[j], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "empty box: %s", ATARGS(rd),
                 LmpReaderQuote(rd, rd->text));
      has_box[j] = PETSC_TRUE;
      continue;
    }
    {
      size_t k, nk = sizeof(header_keys) / sizeof(header_keys[0]);
      for (k = 0; k < nk && strcmp(key, header_keys[k].key); k++) { }
      PetscCheck(k < nk, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 AT "unknown header line %s (expected e.g. 'N atoms', 'N atom types', 'lo hi xlo xhi')", ATARGS(rd),
                 LmpReaderQuote(rd, rd->text));
      PetscCheck(nnum == header_keys[k].nnum, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 AT "'%s' needs %d number(s), found %d in %s", ATARGS(rd), key, header_keys[k].nnum, nnum,
                 LmpReaderQuote(rd, rd->text));
      if (header_keys[k].slot < C_NCOUNT) {
        CountSlot  slot = header_keys[k].slot;
        PetscInt64 v;
        PetscCall(LmpReaderInt64(rd, rd->tok[0], key, &v));
        /* atoms: 3 n reals travel in one broadcast (an MPI int count) and
         * rank 0 allocates LMP_ATOM_BYTES for each; atom types: PetscInt
         * type numbers, and only Masses-like sections (not checked against
         * the size here: LAMMPS needs none of them) */
        if (slot == C_ATOMS)
          PetscCall(CheckCount(rd, v, key,
                               PetscMin((PetscInt64)PETSC_MPI_INT_MAX / 3, (PetscInt64)(SIZE_MAX / LMP_ATOM_BYTES)),
                               LMP_MIN_ATOM_LINE));
        else if (slot == C_ATOM_TYPES) {
          PetscCall(CheckCount(rd, v, key, INT32_MAX, 0));
          PetscCheck(v >= 1, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "%s: a file needs at least one atom type",
                     ATARGS(rd), LmpReaderQuote(rd, rd->text));
        } else PetscCall(CheckCount(rd, v, key, INT64_MAX, LMP_MIN_LINE));
        count[slot]     = v;
        has_count[slot] = PETSC_TRUE;
      }
    }
  }
  PetscCheck(has_count[C_ATOMS], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: the header (to line %" PetscInt_FMT ") has no 'N atoms' line", rd->path, rd->lineno);
  PetscCheck(has_count[C_ATOM_TYPES], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: the header (to line %" PetscInt_FMT ") has no 'N atom types' line", rd->path, rd->lineno);
  for (int j = 0; j < 3; j++)
    PetscCheck(has_box[j], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s: the header (to line %" PetscInt_FMT ") has no '%clo %chi' line", rd->path, rd->lineno, 'x' + j,
               'x' + j);
  d->n      = (PetscInt)count[C_ATOMS];
  d->ntypes = (PetscInt)count[C_ATOM_TYPES];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* How many data lines section s (its name line in rd) has, and its checks
 * against the sections before it. */
static PetscErrorCode LammpsDataSectionLines(LmpReader *rd, LammpsData *d, const PetscInt64 count[], size_t s,
                                             PetscBool has_atoms, PetscInt64 *nlines)
{
  PetscFunctionBeginUser;
  switch (sections[s].slot) {
  case C_ATOMS_SECTION:
    PetscCheck(!has_atoms, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "second Atoms section", ATARGS(rd));
    if (rd->comment) {
      char hint[64] = "";
      if (sscanf(rd->comment, "%63s", hint) == 1)
        PetscCheck(!strcmp(hint, "sphere"), PETSC_COMM_SELF, PETSC_ERR_SUP,
                   AT "Atoms section is for atom_style %s: hdem reads atom_style sphere (id type diameter density x "
                      "y z)",
                   ATARGS(rd), LmpReaderQuote(rd, hint));
    }
    *nlines = d->n;
    break;
  case C_VELOCITIES_SECTION:
    PetscCheck(has_atoms, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "Velocities section before the Atoms section",
               ATARGS(rd));
    PetscCheck(!d->has_velocities, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "second Velocities section",
               ATARGS(rd));
    *nlines = d->n;
    break;
  case C_MOLECULES_SECTION:
    PetscCheck(has_atoms, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "Molecules section before the Atoms section",
               ATARGS(rd));
    PetscCheck(!d->mol, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "second Molecules section", ATARGS(rd));
    *nlines = d->n;
    PetscCall(PetscCalloc1(d->n + 1, &d->mol));
    break;
  case C_PAIRIJ: /* types <= 2^31: no overflow */
    *nlines = count[C_ATOM_TYPES] * (count[C_ATOM_TYPES] + 1) / 2;
    break;
  default:
    *nlines = count[sections[s].slot];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sections: a name line, then exactly as many data lines as the header says. */
static PetscErrorCode LammpsDataParseSections(LmpReader *rd, LammpsData *d, const PetscInt64 count[], PetscBool eof)
{
  PetscBool has_atoms = PETSC_FALSE;
  char      name[256];

  PetscFunctionBeginUser;
  while (!eof) {
    size_t     s, ns = sizeof(sections) / sizeof(sections[0]);
    PetscInt64 nlines;
    PetscInt   start = rd->lineno;
    LmpReaderJoin(rd, 0, name, sizeof(name));
    for (s = 0; s < ns && strcmp(name, sections[s].name); s++) { }
    PetscCheck(s < ns, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               AT "unknown section %s (hdem reads Atoms and Velocities of atom_style sphere and skips Masses, Pair "
                  "Coeffs and the other count-sized sections)",
               ATARGS(rd), LmpReaderQuote(rd, rd->text));
    PetscCall(LammpsDataSectionLines(rd, d, count, s, has_atoms, &nlines));
    /* what is left of the file must be able to hold the lines announced */
    PetscCheck(rd->size < 0 || nlines <= (rd->size - rd->consumed + 1) / LMP_MIN_LINE, PETSC_COMM_SELF,
               PETSC_ERR_FILE_UNEXPECTED,
               AT "section %s needs %" PetscInt64_FMT " lines by the header's counts; the %" PetscInt64_FMT
                  " bytes left in the file cannot hold them (count mismatch with the header, or a truncated file?)",
               ATARGS(rd), name, nlines, rd->size - rd->consumed);
    if (sections[s].slot == C_ATOMS_SECTION) PetscCall(LmpReaderAllocAtoms(rd, d));
    for (PetscInt64 i = 0; i < nlines; i++) {
      PetscCall(LmpReaderNextNonBlank(rd, &eof));
      PetscCheck(!eof, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 "%s:%" PetscInt_FMT ": end of file in section %s (line %" PetscInt_FMT ") after %" PetscInt64_FMT
                 " lines, the header announces %" PetscInt64_FMT
                 " (count mismatch with the header, or a truncated file)",
                 rd->path, rd->lineno, name, start, i, nlines);
      PetscCheck(LmpReaderIsNumber(rd->tok[0]), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 AT "section %s (line %" PetscInt_FMT ") ends after %" PetscInt64_FMT
                    " lines at %s, the header announces %" PetscInt64_FMT " (count mismatch with the header)",
                 ATARGS(rd), name, start, i, LmpReaderQuote(rd, rd->text), nlines);
      if (sections[s].slot == C_ATOMS_SECTION) PetscCall(ReadAtomLine(rd, d, (PetscInt)i));
      else if (sections[s].slot == C_VELOCITIES_SECTION) PetscCall(ReadVelocityLine(rd, d));
      else if (sections[s].slot == C_MOLECULES_SECTION) PetscCall(ReadMoleculeLine(rd, d));
    }
    if (sections[s].slot == C_ATOMS_SECTION) {
      PetscCall(CheckDuplicateIds(rd, d));
      has_atoms = PETSC_TRUE;
    }
    if (sections[s].slot == C_VELOCITIES_SECTION) d->has_velocities = PETSC_TRUE;
    PetscCall(LmpReaderNextNonBlank(rd, &eof));
    PetscCheck(eof || !LmpReaderIsNumber(rd->tok[0]), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               AT "section %s (line %" PetscInt_FMT ") has more than the %" PetscInt64_FMT
                  " lines the header announces: %s (count mismatch with the header)",
               ATARGS(rd), name, start, nlines, LmpReaderQuote(rd, rd->text));
  }
  PetscCheck(has_atoms || d->n == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "end of file without an Atoms section; the header announces %" PetscInt_FMT " atoms", ATARGS(rd), d->n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LammpsDataParse(LmpReader *rd, LammpsData *d)
{
  PetscInt64 count[C_NCOUNT];
  PetscBool  eof;

  PetscFunctionBeginUser;
  PetscCall(LammpsDataParseHeader(rd, d, count, &eof));
  PetscCall(LammpsDataParseSections(rd, d, count, eof));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LammpsDataParseStream(FILE *fp, const char *name, PetscInt64 size, LammpsData *d)
{
  LmpReader     *rd;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(d, sizeof(*d)));
  PetscCall(PetscNew(&rd));
  rd->fp   = fp;
  rd->path = name;
  rd->size = size;
  ierr     = LammpsDataParse(rd, d);
  PetscCall(PetscFree3(rd->atomline, rd->sorted, rd->seen));
  PetscCall(PetscFree(rd));
  if (ierr) PetscCall(LammpsDataDestroy(d));
  PetscFunctionReturn(ierr);
}

/* Rank 0: the error code comes back instead of returning, so that the other
 * ranks can be told rather than left waiting in the broadcast. */
static PetscErrorCode LammpsDataReadRoot(const char *path, LammpsData *d)
{
  FILE          *fp;
  char           why[PETSC_MAX_PATH_LEN + 128];
  struct stat    st;
  PetscInt64     size = -1;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  fp = InputFileOpen(path, "r", "LAMMPS data file", why, sizeof(why));
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "%s", why);
  if (!fstat(fileno(fp), &st)) size = (PetscInt64)st.st_size;
  ierr = LammpsDataParseStream(fp, path, size, d);
  fclose(fp);
  PetscFunctionReturn(ierr);
}

PetscErrorCode LammpsDataRead(MPI_Comm comm, const char *path, LammpsData *data)
{
  PetscMPIInt    rank;
  PetscInt       status = 0, hdr[4];
  PetscReal      box[6], *idr = NULL, failed;
  PetscInt       n;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(data, sizeof(*data)));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    status = (PetscInt)LammpsDataReadRoot(path, data);
    PetscCall(PetscPopErrorHandler());
  }
  PetscCall(InputRootStatus(comm, (PetscErrorCode)status));

  hdr[0] = data->n, hdr[1] = data->ntypes, hdr[2] = data->has_velocities, hdr[3] = data->mol ? 1 : 0;
  for (int j = 0; j < 3; j++) box[j] = data->lo[j], box[3 + j] = data->hi[j];
  PetscCall(CollectiveBcastInt(comm, hdr, 4));
  PetscCall(CollectiveBcastReal(comm, box, 6));
  n = hdr[0];
  /* every rank allocates, and all agree whether that worked before the
   * broadcasts: a rank that failed alone would leave the others waiting */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PetscMalloc1(n, &idr);
  if (rank && !ierr) {
    data->n = n, data->ntypes = hdr[1], data->has_velocities = hdr[2] ? PETSC_TRUE : PETSC_FALSE;
    for (int j = 0; j < 3; j++) data->lo[j] = box[j], data->hi[j] = box[3 + j];
    ierr = PetscMalloc5(n, &data->id, n, &data->type, n, &data->diameter, n, &data->density, 3 * n, &data->x);
    if (!ierr) ierr = PetscCalloc2(3 * n, &data->v, 3 * n, &data->w);
    if (!ierr && hdr[3]) ierr = PetscCalloc1(n + 1, &data->mol);
  }
  PetscCall(PetscPopErrorHandler());
  failed = ierr ? 1.0 : 0.0;
  PetscCall(CollectiveMaxAll(comm, &failed, 1));
  if (failed) {
    PetscCall(PetscFree(idr));
    PetscCall(LammpsDataDestroy(data));
    PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_MEM,
               "rank %d: out of memory for the %" PetscInt_FMT " atoms of LAMMPS data file %s (%.3g GB)", (int)rank, n,
               path, (double)n * 11 * sizeof(PetscReal) / 1e9);
    SETERRQ(comm, PETSC_ERR_MEM,
            "another rank ran out of memory for the %" PetscInt_FMT " atoms of LAMMPS data file %s", n, path);
  }
  /* ids <= 2^53 were checked while reading: exact as doubles */
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
  if (data->mol) { /* molecule ids of a checked file: below 2^53, exact as doubles */
    PetscCall(PetscMalloc1(n + 1, &idr));
    for (PetscInt i = 0; rank == 0 && i < n; i++) idr[i] = (PetscReal)data->mol[i];
    PetscCall(CollectiveBcastReal(comm, idr, n));
    for (PetscInt i = 0; i < n; i++) data->mol[i] = (PetscInt64)idr[i];
    PetscCall(PetscFree(idr));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LammpsDataDestroy(LammpsData *d)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree5(d->id, d->type, d->diameter, d->density, d->x));
  PetscCall(PetscFree2(d->v, d->w));
  PetscCall(PetscFree(d->mol));
  PetscCall(PetscMemzero(d, sizeof(*d)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
