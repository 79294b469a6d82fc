#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "io/lammps_data.h"
#include "io/lammps_share.h"
#include "io/inputfile.h"
#include "decomp/collective.h"

/* The shortest data line of a section: one character and its newline; an
 * Atoms or Velocities line has 7 numbers and 6 blanks.  The last line of a
 * file may lack its newline, so S bytes hold at most (S + 1) / min lines. */
#define LMP_MIN_LINE      2
#define LMP_MIN_ATOM_LINE 14
/* Far beyond any run, and far below where a count times a record's bytes
 * or a line number as a real could overflow: 2^36 atoms. */
#define LMP_ATOMS_MAX 68719476736LL

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
static PetscErrorCode LammpsDataParseHeader(LmpReader *rd, LmpHead *d, PetscInt64 count[], PetscBool *eof)
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
        /* atom types: PetscInt type numbers, and only Masses-like sections
         * (not checked against the size here: LAMMPS needs none of them) */
        if (slot == C_ATOMS) PetscCall(CheckCount(rd, v, key, LMP_ATOMS_MAX, LMP_MIN_ATOM_LINE));
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
  d->n      = count[C_ATOMS];
  d->ntypes = count[C_ATOM_TYPES];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Which sections the walk has met. */
typedef struct {
  PetscBool atoms, velocities, molecules;
} LmpSeen;

/* How many data lines section s (its name line in rd) has, and its checks
 * against the sections before it. */
static PetscErrorCode LmpSectionLines(LmpReader *rd, const LmpHead *h, const PetscInt64 count[], size_t s,
                                      LmpSeen *seen, PetscInt64 *nlines)
{
  PetscFunctionBeginUser;
  switch (sections[s].slot) {
  case C_ATOMS_SECTION:
    PetscCheck(!seen->atoms, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "second Atoms section", ATARGS(rd));
    if (rd->comment) {
      char hint[64] = "";
      if (sscanf(rd->comment, "%63s", hint) == 1)
        PetscCheck(!strcmp(hint, "sphere"), PETSC_COMM_SELF, PETSC_ERR_SUP,
                   AT "Atoms section is for atom_style %s: hdem reads atom_style sphere (id type diameter density x "
                      "y z)",
                   ATARGS(rd), LmpReaderQuote(rd, hint));
    }
    seen->atoms = PETSC_TRUE;
    *nlines     = h->n;
    break;
  case C_VELOCITIES_SECTION:
    PetscCheck(seen->atoms, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               AT "Velocities section before the Atoms section", ATARGS(rd));
    PetscCheck(!seen->velocities, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "second Velocities section",
               ATARGS(rd));
    seen->velocities = PETSC_TRUE;
    *nlines          = h->n;
    break;
  case C_MOLECULES_SECTION:
    PetscCheck(seen->atoms, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "Molecules section before the Atoms section",
               ATARGS(rd));
    PetscCheck(!seen->molecules, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, AT "second Molecules section", ATARGS(rd));
    seen->molecules = PETSC_TRUE;
    *nlines         = h->n;
    break;
  case C_PAIRIJ: /* types <= 2^31: no overflow */
    *nlines = count[C_ATOM_TYPES] * (count[C_ATOM_TYPES] + 1) / 2;
    break;
  default:
    *nlines = count[sections[s].slot];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The walk's state: the section the lines are in (ns: none yet), its
 * announced lines, its name's line and the lines met so far. */
typedef struct {
  size_t     s;
  PetscInt64 count, start, met;
  LmpSeen    seen;
} LmpWalkState;

static void LmpSetRun(LmpRun *run, const LmpWalkState *w)
{
  static const size_t ns = sizeof(sections) / sizeof(sections[0]);
  CountSlot           k  = w->s < ns ? sections[w->s].slot : C_NCOUNT;

  run->kind  = k == C_ATOMS_SECTION      ? LMP_ATOMS
             : k == C_VELOCITIES_SECTION ? LMP_VELOCITIES
             : k == C_MOLECULES_SECTION  ? LMP_MOLECULES
                                         : LMP_SKIP;
  run->name  = w->s < ns ? sections[w->s].name : "(none)";
  run->base  = w->met;
  run->count = w->s < ns ? w->count : 0;
  run->start = w->start;
}

/* Section name r (rd at its line): the section before it complete, and its own checks. */
static PetscErrorCode LmpWalkName(LmpReader *rd, const LmpHead *h, const PetscInt64 count[], const LmpName *r,
                                  LmpWalkState *w)
{
  const size_t ns = sizeof(sections) / sizeof(sections[0]);
  size_t       s;
  char         name[256];

  PetscFunctionBeginUser;
  PetscCheck(w->s == ns || w->met >= w->count, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "section %s (line %" PetscInt64_FMT ") ends after %" PetscInt64_FMT
                " lines at %s, the header announces %" PetscInt64_FMT " (count mismatch with the header)",
             ATARGS(rd), sections[w->s].name, w->start, w->met, LmpReaderQuote(rd, rd->text), w->count);
  LmpReaderJoin(rd, 0, name, sizeof(name));
  for (s = 0; s < ns && strcmp(name, sections[s].name); s++) { }
  PetscCheck(s < ns, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "unknown section %s (hdem reads Atoms and Velocities of atom_style sphere and skips Masses, Pair "
                "Coeffs and the other count-sized sections)",
             ATARGS(rd), LmpReaderQuote(rd, rd->text));
  PetscCall(LmpSectionLines(rd, h, count, s, &w->seen, &w->count));
  /* what is left of the file must be able to hold the lines announced */
  PetscCheck(rd->size < 0 || w->count <= (rd->size - r->end + 1) / LMP_MIN_LINE, PETSC_COMM_SELF,
             PETSC_ERR_FILE_UNEXPECTED,
             AT "section %s needs %" PetscInt64_FMT " lines by the header's counts; the %" PetscInt64_FMT
                " bytes left in the file cannot hold them (count mismatch with the header, or a truncated file?)",
             ATARGS(rd), name, w->count, rd->size - r->end);
  w->s = s, w->start = r->line, w->met = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every rank alike over every share's names (all, in file order): the runs
 * of this rank's share (me), the line before which its data lines may be
 * parsed (stop: a name in error, or the first unreadable line), and the
 * error's line (-1: none; eofline: the file's last line). */
static PetscErrorCode LmpWalk(LmpReader *rd, const LmpHead *h, const PetscInt64 count[], const LmpName *all,
                              PetscInt nall, PetscMPIInt me, PetscInt64 eofline, LmpShare *sh, LmpWalkState *w,
                              PetscInt64 *stop, PetscInt64 *errline)
{
  PetscInt64 badmin = INT64_MAX;
  PetscInt   mine   = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(w, sizeof(*w)));
  w->s = sizeof(sections) / sizeof(sections[0]);
  for (PetscInt k = 0; k < nall; k++)
    if (all[k].lead && all[k].bad >= 0) badmin = PetscMin(badmin, all[k].bad);
  *stop = badmin, *errline = -1;
  for (PetscInt k = 0; k < nall && all[k].line < badmin; k++) {
    const LmpName *r = &all[k];
    if (!r->lead) {
      *stop = *errline = rd->lineno = r->line;
      PetscCall(PetscStrncpy(rd->line, r->text, sizeof(rd->text)));
      LmpReaderSplit(rd);
      PetscCall(LmpWalkName(rd, h, count, r, w));
      *stop = badmin, *errline = -1;
    }
    if (r->rank == me) LmpSetRun(&sh->runs[mine++], w);
    w->met += r->ndata;
  }
  if (badmin < INT64_MAX) PetscFunctionReturn(PETSC_SUCCESS);
  *errline = rd->lineno = eofline;
  PetscCheck(w->s == sizeof(sections) / sizeof(sections[0]) || w->met >= w->count, PETSC_COMM_SELF,
             PETSC_ERR_FILE_UNEXPECTED,
             "%s:%" PetscInt64_FMT ": end of file in section %s (line %" PetscInt64_FMT ") after %" PetscInt64_FMT
             " lines, the header announces %" PetscInt64_FMT " (count mismatch with the header, or a truncated file)",
             rd->path, rd->lineno, sections[w->s].name, w->start, w->met, w->count);
  PetscCheck(w->seen.atoms || h->n == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "end of file without an Atoms section; the header announces %" PetscInt64_FMT " atoms", ATARGS(rd),
             h->n);
  *errline = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the header, and where the sections start. */
static PetscErrorCode LmpHeadRead(LmpReader *rd, LmpHead *h, PetscInt64 count[])
{
  PetscBool eof;

  PetscFunctionBeginUser;
  PetscCall(LammpsDataParseHeader(rd, h, count, &eof));
  h->start = eof ? rd->consumed : rd->linestart;
  h->line  = rd->lineno;
  PetscCheck(!eof || h->n == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "end of file without an Atoms section; the header announces %" PetscInt64_FMT " atoms", ATARGS(rd),
             h->n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0's header to every rank. */
static PetscErrorCode LmpHeadShare(MPI_Comm comm, LmpHead *h, PetscInt64 count[])
{
  PetscInt  v[5 + C_NCOUNT];
  PetscReal box[6];

  PetscFunctionBeginUser;
  v[0] = h->size, v[1] = h->start, v[2] = h->line, v[3] = h->n, v[4] = h->ntypes;
  for (int c = 0; c < C_NCOUNT; c++) v[5 + c] = count[c];
  for (int j = 0; j < 3; j++) box[j] = h->lo[j], box[3 + j] = h->hi[j];
  PetscCall(CollectiveBcastInt(comm, v, 5 + C_NCOUNT));
  PetscCall(CollectiveBcastReal(comm, box, 6));
  h->size = v[0], h->start = v[1], h->line = v[2], h->n = v[3], h->ntypes = v[4];
  for (int c = 0; c < C_NCOUNT; c++) count[c] = v[5 + c];
  for (int j = 0; j < 3; j++) h->lo[j] = box[j], h->hi[j] = box[3 + j];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every rank's share scanned, numbered and its names shared; the walk over
 * them (w); the share's lines parsed; the first error of scan, walk and
 * parse raised on every rank. */
static PetscErrorCode LmpReadShares(MPI_Comm comm, LmpReader *rd, const LmpHead *h, const PetscInt64 count[],
                                    LmpShare *sh, LmpWalkState *w)
{
  PetscMPIInt    rank, size;
  PetscInt64     span = (h->size < 0 ? INT64_MAX : h->size) - h->start, off, total, stop, errline, key = 0;
  PetscInt       nall;
  char          *all = NULL, msg[1024] = "";
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, &size));
  PetscCheck(h->size >= 0 || size == 1, comm, PETSC_ERR_ARG_WRONG, "%s: a stream of unknown size is read on one rank",
             rd->path);
  sh->b = h->start + span / size * rank + span % size * rank / size;
  sh->e = rank + 1 == size ? h->start + span : h->start + span / size * (rank + 1) + span % size * (rank + 1) / size;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = LmpShareScan(rd, h, sh);
  PetscCall(PetscPopErrorHandler());
  PetscCall(CollectiveFirstError(comm, ierr, 0, NULL));
  PetscCall(CollectiveOffset(comm, sh->nlines, &off, &total));
  sh->line0 = h->line + off;
  for (PetscInt j = 0; j < sh->nname; j++) {
    sh->names[j].rank = (int)rank;
    sh->names[j].line = j ? sh->line0 + sh->names[j].line : sh->line0;
  }
  sh->names[0].bad = sh->bad >= 0 ? sh->line0 + sh->bad : -1;
  PetscCall(CollectiveGatherAllBytes(comm, sh->names, sh->nname * (PetscInt)sizeof(LmpName), &nall, &all));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = LmpWalk(rd, h, count, (const LmpName *)all, nall / (PetscInt)sizeof(LmpName), rank, h->line - 1 + total, sh, w,
                 &stop, &errline);
  if (ierr) {
    char *specific = NULL;
    (void)PetscErrorMessage(ierr, NULL, &specific);
    (void)PetscStrncpy(msg, specific ? specific : "", sizeof(msg));
    if (errline < 0) errline = 0; /* not the file's: an error of the walk itself */
  }
  {
    /* the walk stops the parse at its error's line; a parse error is met before the walk's error on its line */
    PetscErrorCode perr = LmpShareParse(rd, h, sh, stop);
    PetscBool      own  = PETSC_FALSE;
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscFree(all));
    if (perr) key = 2 * sh->at;
    else if (ierr && rank == 0) key = 2 * errline + 1, perr = ierr, own = PETSC_TRUE;
    PetscCall(CollectiveFirstError(comm, perr, key, own ? msg : NULL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LmpReadSteps(MPI_Comm comm, LmpReader *rd, LmpShare *sh, LammpsData *d)
{
  PetscMPIInt    rank;
  PetscInt64     count[C_NCOUNT];
  LmpHead        h;
  LmpWalkState   w;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  PetscCall(PetscMemzero(&h, sizeof(h)));
  h.size = rd->size;
  if (rank == 0) {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = LmpHeadRead(rd, &h, count);
    PetscCall(PetscPopErrorHandler());
  }
  PetscCall(CollectiveFirstError(comm, ierr, 0, NULL));
  PetscCall(LmpHeadShare(comm, &h, count));
  rd->size = h.size;
  PetscCall(LmpReadShares(comm, rd, &h, count, sh, &w));
  d->ntotal = h.n, d->ntypes = (PetscInt)h.ntypes;
  for (int j = 0; j < 3; j++) d->lo[j] = h.lo[j], d->hi[j] = h.hi[j];
  d->has_velocities = w.seen.velocities, d->has_molecules = w.seen.molecules;
  PetscCall(LmpShareJoin(comm, rd->path, sh, d));
  d->read = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: each rank reads its share of the stream fp (its own). */
static PetscErrorCode LmpRead(MPI_Comm comm, FILE *fp, const char *path, PetscInt64 size, LammpsData *d)
{
  LmpReader     *rd;
  LmpShare      *sh;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(d, sizeof(*d)));
  PetscCall(PetscNew(&rd));
  PetscCall(PetscNew(&sh));
  rd->fp   = fp;
  rd->path = path;
  rd->size = size;
  ierr     = LmpReadSteps(comm, rd, sh, d);
  PetscCall(LmpShareFree(sh));
  PetscCall(PetscFree(sh));
  PetscCall(PetscFree(rd));
  if (ierr) PetscCall(LammpsDataDestroy(d));
  PetscFunctionReturn(ierr);
}

PetscErrorCode LammpsDataParseStream(FILE *fp, const char *name, PetscInt64 size, LammpsData *d)
{
  PetscFunctionBeginUser;
  PetscCall(LmpRead(PETSC_COMM_SELF, fp, name, size, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LammpsDataRead(MPI_Comm comm, const char *path, LammpsData *d)
{
  FILE          *fp;
  char           why[PETSC_MAX_PATH_LEN + 128] = "";
  struct stat    st;
  PetscInt       size = -1;
  PetscMPIInt    rank;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(d, sizeof(*d)));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  /* every rank opens the file: its share is read by it */
  fp = InputFileOpen(path, "r", "LAMMPS data file", why, sizeof(why));
  if (fp && rank == 0 && !fstat(fileno(fp), &st)) size = (PetscInt)st.st_size;
  ierr = CollectiveFirstError(comm, fp ? PETSC_SUCCESS : PETSC_ERR_FILE_OPEN, 0, why);
  if (ierr && fp) fclose(fp);
  PetscCall(ierr);
  PetscCall(CollectiveBcastInt(comm, &size, 1));
  ierr = LmpRead(comm, fp, path, size, d);
  fclose(fp);
  PetscFunctionReturn(ierr);
}

PetscErrorCode LammpsDataExtent(MPI_Comm comm, const LammpsData *d, PetscReal lo[3], PetscReal hi[3])
{
  PetscReal e[6]; /* -lo and hi: one maximum */

  PetscFunctionBeginUser;
  for (int a = 0; a < 6; a++) e[a] = -PETSC_MAX_REAL;
  for (PetscInt i = 0; i < d->n; i++)
    for (int a = 0; a < 3; a++) {
      e[a]     = PetscMax(e[a], -(d->x[3 * i + a] - 0.5 * d->diameter[i]));
      e[3 + a] = PetscMax(e[3 + a], d->x[3 * i + a] + 0.5 * d->diameter[i]);
    }
  PetscCall(CollectiveMaxAll(comm, e, 6));
  for (int a = 0; a < 3; a++) lo[a] = -e[a], hi[a] = e[3 + a];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LammpsDataDestroy(LammpsData *d)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree6(d->id, d->type, d->diameter, d->density, d->x, d->index));
  PetscCall(PetscFree2(d->v, d->w));
  PetscCall(PetscFree(d->mol));
  PetscCall(PetscMemzero(d, sizeof(*d)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
