/* One rank's share of a LAMMPS data file (io/lammps_share.h): scanned for
 * its section names, then its data lines parsed into records. */
#include <errno.h>
#include <string.h>
#include "io/lammps_share.h"

/* To the share's first line: the first that starts at or after b (the
 * header's end starts one). */
static PetscErrorCode LmpShareSeek(LmpReader *rd, const LmpHead *h, LmpShare *sh, PetscInt64 at)
{
  PetscFunctionBeginUser;
  if (at < 0) at = sh->b > h->start ? sh->b - 1 : sh->b;
  PetscCall(LmpReaderSeek(rd, at));
  if (at == sh->b - 1) {
    int ch;
    do ch = LmpReaderGetc(rd);
    while (ch != EOF && ch != '\n');
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Called under PetscReturnErrorHandler (LmpReadShares). */
PetscErrorCode LmpShareScan(LmpReader *rd, const LmpHead *h, LmpShare *sh)
{
  LmpName  *cur = &sh->names[0];
  PetscBool eof = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(cur, sizeof(*cur)));
  cur->lead = 1, cur->bad = -1;
  sh->bad = -1, sh->nlines = 0, sh->nname = 1;
  PetscCall(LmpShareSeek(rd, h, sh, -1));
  sh->first = rd->consumed;
  while (rd->consumed < sh->e) {
    /* a line that cannot be read ends the share; LmpShareParse says why, with its number (the caller's error
     * handler keeps the error quiet here) */
    PetscBool      number, blank;
    PetscErrorCode ierr = LmpReaderNextRaw(rd, &eof, &number, &blank);
    if (ierr || (!eof && !blank && !number && sh->nname > LMP_NAMES_MAX)) {
      sh->bad = sh->nlines;
      break;
    }
    if (eof) break;
    if (number) cur->ndata++;
    else if (!blank) {
      LmpReaderSplit(rd); /* a section name: its text */
      cur = &sh->names[sh->nname++];
      PetscCall(PetscMemzero(cur, sizeof(*cur)));
      cur->line = sh->nlines, cur->end = rd->consumed, cur->bad = -1, cur->len = (int)strlen(rd->text);
      PetscCall(PetscStrncpy(cur->text, rd->text, sizeof(cur->text)));
    }
    sh->nlines++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadAtomLine(LmpReader *rd, const LmpHead *h, PetscReal *rec, PetscInt64 k)
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
  PetscCheck(t >= 1 && t <= h->ntypes, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "atom %" PetscInt64_FMT " has type %s, outside the header's 1..%" PetscInt64_FMT " atom types",
             ATARGS(rd), id, LmpReaderQuote(rd, rd->tok[1]), h->ntypes);
  PetscCall(LmpReaderReal(rd, rd->tok[2], "diameter", &rec[LMP_A_DIAMETER]));
  PetscCheck(rec[LMP_A_DIAMETER] >= 2 * HDEM_RADIUS_MIN && rec[LMP_A_DIAMETER] <= 2 * HDEM_RADIUS_MAX, PETSC_COMM_SELF,
             PETSC_ERR_FILE_UNEXPECTED,
             AT "atom %" PetscInt64_FMT " has diameter %s: allowed [%g, %d] m (as the radii of -insert_radius)",
             ATARGS(rd), id, LmpReaderQuote(rd, rd->tok[2]), 2 * HDEM_RADIUS_MIN, (int)(2 * HDEM_RADIUS_MAX));
  PetscCall(LmpReaderReal(rd, rd->tok[3], "density", &rec[LMP_A_DENSITY]));
  PetscCheck(rec[LMP_A_DENSITY] >= HDEM_DENSITY_MIN && rec[LMP_A_DENSITY] <= HDEM_DENSITY_MAX, PETSC_COMM_SELF,
             PETSC_ERR_FILE_UNEXPECTED,
             AT "atom %" PetscInt64_FMT " has density %s: allowed [%g, %g] kg/m^3 (as -particle_density)", ATARGS(rd),
             id, LmpReaderQuote(rd, rd->tok[3]), HDEM_DENSITY_MIN, HDEM_DENSITY_MAX);
  for (int j = 0; j < 3; j++) {
    PetscReal xj;
    PetscCall(LmpReaderReal(rd, rd->tok[4 + j], axis[j], &xj));
    PetscCheck(xj >= h->lo[j] && xj <= h->hi[j], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               AT "atom %" PetscInt64_FMT " at %s = %s is outside the box [%g, %g]", ATARGS(rd), id, axis[j],
               LmpReaderQuote(rd, rd->tok[4 + j]), (double)h->lo[j], (double)h->hi[j]);
    rec[LMP_A_X + j] = xj;
  }
  for (int j = 7; j < rd->ntok; j++) PetscCall(LmpReaderInt64(rd, rd->tok[j], "image flag", &img));
  rec[LMP_A_ID]    = (PetscReal)id;
  rec[LMP_A_TYPE]  = (PetscReal)t;
  rec[LMP_A_LINE]  = (PetscReal)rd->lineno;
  rec[LMP_A_INDEX] = (PetscReal)k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The atom id of a Velocities or Molecules line: one that no atom can have
 * is refused here, the others where the atoms are (LmpShareJoin). */
static PetscErrorCode ReadLineId(LmpReader *rd, const char *section, PetscReal *id)
{
  PetscInt64 v;

  PetscFunctionBeginUser;
  PetscCall(LmpReaderInt64(rd, rd->tok[0], "atom id", &v));
  PetscCheck(v >= 1 && v <= LMP_ID_MAX, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "%s for atom id %s, which is not in the Atoms section", ATARGS(rd), section,
             LmpReaderQuote(rd, rd->tok[0]));
  *id = (PetscReal)v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadVelocityLine(LmpReader *rd, PetscReal *rec)
{
  PetscFunctionBeginUser;
  PetscCheck(rd->ntok == 7, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "atom_style sphere Velocities lines have 7 columns (id vx vy vz wx wy wz); found %d in %s", ATARGS(rd),
             rd->ntok, LmpReaderQuote(rd, rd->text));
  PetscCall(ReadLineId(rd, "Velocities", &rec[LMP_V_ID]));
  for (int j = 0; j < 3; j++) PetscCall(LmpReaderReal(rd, rd->tok[1 + j], "velocity", &rec[LMP_V_V + j]));
  for (int j = 0; j < 3; j++) PetscCall(LmpReaderReal(rd, rd->tok[4 + j], "angular velocity", &rec[LMP_V_V + 3 + j]));
  rec[LMP_V_LINE] = (PetscReal)rd->lineno;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadMoleculeLine(LmpReader *rd, PetscReal *rec)
{
  PetscInt64 m;

  PetscFunctionBeginUser;
  PetscCheck(rd->ntok == 2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "Molecules lines have 2 columns (atom id, molecule id); found %d in %s", ATARGS(rd), rd->ntok,
             LmpReaderQuote(rd, rd->text));
  PetscCall(ReadLineId(rd, "Molecules line", &rec[LMP_M_ID]));
  PetscCall(LmpReaderInt64(rd, rd->tok[1], "molecule id", &m));
  PetscCheck(m >= 1 && m <= LMP_ID_MAX, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "molecule id %s of atom %" PetscInt64_FMT " is outside [1, 2^53]", ATARGS(rd),
             LmpReaderQuote(rd, rd->tok[1]), (PetscInt64)rec[LMP_M_ID]);
  rec[LMP_M_MOL]  = (PetscReal)m;
  rec[LMP_M_LINE] = (PetscReal)rd->lineno;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The share's data line in rd, the cnt-th of run r. */
static PetscErrorCode ReadDataLine(LmpReader *rd, const LmpHead *h, LmpShare *sh, const LmpRun *run, PetscInt64 cnt)
{
  static const PetscInt width[4] = {0, LMP_A_W, LMP_V_W, LMP_M_W};
  PetscInt64            k        = run->base + cnt;
  PetscReal            *rec;

  PetscFunctionBeginUser;
  PetscCheck(k < run->count, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             AT "section %s (line %" PetscInt64_FMT ") has more than the %" PetscInt64_FMT
                " lines the header announces: %s (count mismatch with the header)",
             ATARGS(rd), run->name, run->start, run->count, LmpReaderQuote(rd, rd->text));
  if (run->kind == LMP_SKIP) PetscFunctionReturn(PETSC_SUCCESS);
  rec = sh->rec[run->kind] + (size_t)sh->nrec[run->kind] * width[run->kind];
  if (run->kind == LMP_ATOMS) PetscCall(ReadAtomLine(rd, h, rec, k));
  else if (run->kind == LMP_VELOCITIES) PetscCall(ReadVelocityLine(rd, rec));
  else PetscCall(ReadMoleculeLine(rd, rec));
  sh->nrec[run->kind]++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LmpShareParse(LmpReader *rd, const LmpHead *h, LmpShare *sh, PetscInt64 stop)
{
  static const PetscInt width[4] = {0, LMP_A_W, LMP_V_W, LMP_M_W};
  PetscInt64            max[4] = {0, 0, 0, 0}, cnt = 0;
  PetscInt              r   = 0;
  PetscBool             eof = PETSC_FALSE;

  PetscFunctionBeginUser;
  /* the runs the walk reached; the others lie beyond stop */
  for (PetscInt j = 0; j < sh->nname; j++)
    if (sh->names[j].line < stop) max[sh->runs[j].kind] += sh->names[j].ndata;
  for (int k = 1; k < 4; k++) {
    sh->nrec[k] = 0;
    PetscCall(PetscMalloc1((size_t)max[k] * width[k] + 1, &sh->rec[k]));
  }
  PetscCall(LmpShareSeek(rd, h, sh, sh->first));
  rd->lineno = sh->line0 - 1;
  while (rd->consumed < sh->e && rd->lineno + 1 < stop) {
    sh->at = rd->lineno + 1;
    PetscCall(LmpReaderNext(rd, &eof));
    if (eof) break;
    if (!rd->ntok) continue;
    if (!LmpReaderIsNumber(rd->tok[0])) r++, cnt = 0;
    else PetscCall(ReadDataLine(rd, h, sh, &sh->runs[r], cnt++));
  }
  if (sh->bad >= 0 && sh->line0 + sh->bad == stop) { /* the unreadable line: its error, now with its number */
    sh->at = stop;
    PetscCall(LmpReaderNext(rd, &eof));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
            AT "section name %s: more than %d section names in %" PetscInt64_FMT " bytes (not a LAMMPS data file?)",
            ATARGS(rd), LmpReaderQuote(rd, rd->text), LMP_NAMES_MAX, sh->e - sh->b);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LmpShareFree(LmpShare *sh)
{
  PetscFunctionBeginUser;
  for (int k = 1; k < 4; k++) PetscCall(PetscFree(sh->rec[k]));
  for (int k = 1; k < 4; k++) PetscCall(PetscFree(sh->in[k]));
  PetscCall(PetscFree2(sh->ids, sh->seen));
  PetscFunctionReturn(PETSC_SUCCESS);
}
