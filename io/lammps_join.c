/* The parsed lines of every share joined by atom id (io/lammps_share.h):
 * each record goes to the rank id % size, so that no rank holds more than
 * its share of the ids while they are checked unique and the Velocities
 * and Molecules lines find their atoms.  Records arrive by source rank,
 * each rank's in its order: in file order. */
#include <stdlib.h>
#include "io/lammps_join.h"
#include "io/lammps_share.h"
#include "decomp/collective.h"
#include "decomp/keysort.h"

static int CompareIdLine(const void *a, const void *b)
{
  const IdLine *p = (const IdLine *)a, *q = (const IdLine *)b;
  if (p->id != q->id) return p->id < q->id ? -1 : 1;
  return p->line < q->line ? -1 : (p->line > q->line ? 1 : 0);
}

/* The records go in parts: a rank's share may hold twice the atoms of
 * its share (or the velocities) and then receives as many again; in parts
 * what it sent is gone before all has arrived. */
#define LMP_ROUTE_PARTS 16

static const PetscInt lmp_width[4] = {0, LMP_A_W, LMP_V_W, LMP_M_W};

/* The records' order by key, then each cycle of the permutation followed:
 * no copy of the records (a sort of them would make one). */
PetscErrorCode LammpsRecordsSort(PetscReal *rec, PetscInt n, PetscInt w, PetscInt64 (*key)(const PetscReal *))
{
  KeySortItem *o;
  PetscReal   *tmp;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &o, w, &tmp));
  for (PetscInt i = 0; i < n; i++) o[i].key = key(rec + (size_t)i * w), o[i].val = i;
  PetscCall(KeySortStable(n, o));
  /* o[k].val: the record that goes to k; -1 once placed */
  for (PetscInt s = 0; s < n; s++) {
    PetscInt k = s;
    if (o[s].val < 0) continue;
    PetscCall(PetscArraycpy(tmp, rec + (size_t)s * w, w));
    while (o[k].val != s) {
      PetscInt j = (PetscInt)o[k].val;
      PetscCall(PetscArraycpy(rec + (size_t)k * w, rec + (size_t)j * w, w));
      o[k].val = -1, k = j;
    }
    PetscCall(PetscArraycpy(rec + (size_t)k * w, tmp, w));
    o[k].val = -1;
  }
  PetscCall(PetscFree2(o, tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* File order: the atoms' index, the lines' line. */
static PetscInt64 KeyAtoms(const PetscReal *r)
{
  return (PetscInt64)r[LMP_A_INDEX];
}
static PetscInt64 KeyVelocities(const PetscReal *r)
{
  return (PetscInt64)r[LMP_V_LINE];
}
static PetscInt64 KeyMolecules(const PetscReal *r)
{
  return (PetscInt64)r[LMP_M_LINE];
}

/* Every kind's records to the ranks id % size (the id in slot 0 of each),
 * into sh->in in file order. */
static PetscErrorCode RouteShare(MPI_Comm comm, LmpShare *sh)
{
  PetscInt64 (*key[4])(const PetscReal *) = {NULL, KeyAtoms, KeyVelocities, KeyMolecules};
  PetscMPIInt size, *dest[4] = {NULL, NULL, NULL, NULL};
  PetscInt    filled[4] = {0, 0, 0, 0};

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, NULL, &size));
  for (int k = LMP_ATOMS; k <= LMP_MOLECULES; k++) {
    PetscCall(PetscMalloc1(sh->nrec[k] + 1, &dest[k]));
    for (PetscInt i = 0; i < sh->nrec[k]; i++)
      dest[k][i] = (PetscMPIInt)((PetscInt64)sh->rec[k][(size_t)i * lmp_width[k]] % size);
    PetscCall(CollectiveRouteCount(comm, sh->nrec[k], dest[k], &sh->nin[k]));
    PetscCall(PetscMalloc1((size_t)sh->nin[k] * lmp_width[k] + 1, &sh->in[k]));
  }
  for (PetscInt part = 0; part < LMP_ROUTE_PARTS; part++)
    for (int k = LMP_ATOMS; k <= LMP_MOLECULES; k++)
      PetscCall(CollectiveRoutePart(comm, sh->nrec[k], lmp_width[k], &sh->rec[k], dest[k], part, LMP_ROUTE_PARTS,
                                    sh->nin[k], sh->in[k], &filled[k]));
  for (int k = LMP_ATOMS; k <= LMP_MOLECULES; k++) {
    PetscCall(PetscFree(dest[k]));
    sh->nrec[k] = 0;
    PetscCall(LammpsRecordsSort(sh->in[k], sh->nin[k], lmp_width[k], key[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The atoms that arrived, into d (in file order) and s (by id); a
 * duplicate id is an error at its later line. */
static PetscErrorCode JoinAtoms(const char *path, PetscInt n, const PetscReal *a, LammpsData *d, IdLine *s,
                                PetscInt64 *line)
{
  PetscInt bad = -1;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal *r = a + (size_t)i * LMP_A_W;
    d->id[i]           = (PetscInt64)r[LMP_A_ID];
    d->type[i]         = (PetscInt)r[LMP_A_TYPE];
    d->diameter[i]     = r[LMP_A_DIAMETER];
    d->density[i]      = r[LMP_A_DENSITY];
    d->index[i]        = (PetscInt64)r[LMP_A_INDEX];
    for (int j = 0; j < 3; j++) d->x[3 * i + j] = r[LMP_A_X + j];
    s[i].id = d->id[i], s[i].line = (PetscInt64)r[LMP_A_LINE], s[i].idx = i;
  }
  if (n) qsort(s, (size_t)n, sizeof(*s), CompareIdLine);
  for (PetscInt i = 1; i < n; i++)
    if (s[i].id == s[i - 1].id && (bad < 0 || s[i].line < s[bad].line)) bad = i;
  if (bad >= 0) *line = s[bad].line;
  PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%" PetscInt64_FMT ": duplicate atom id %" PetscInt64_FMT " (first at line %" PetscInt64_FMT ")", path,
             s[bad].line, s[bad].id, s[bad - 1].line);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Velocities (kind LMP_VELOCITIES) or Molecules lines that arrived, into d;
 * *line: that of the first one refused. */
static PetscErrorCode JoinLines(const char *path, LmpKind kind, PetscInt n, const PetscReal *rec, LammpsData *d,
                                const IdLine *s, PetscBool *seen, PetscInt64 *line)
{
  const char *section = kind == LMP_VELOCITIES ? "Velocities" : "Molecules line";
  PetscInt    w       = kind == LMP_VELOCITIES ? LMP_V_W : LMP_M_W;

  PetscFunctionBeginUser;
  PetscCall(PetscArrayzero(seen, d->n));
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal *r  = rec + (size_t)i * w;
    PetscInt64       id = (PetscInt64)r[0];
    PetscInt         lo = 0, hi = d->n, k;
    *line = (PetscInt64)r[w - 1];
    while (lo < hi) {
      PetscInt mid = lo + (hi - lo) / 2;
      if (s[mid].id < id) lo = mid + 1;
      else hi = mid;
    }
    PetscCheck(lo < d->n && s[lo].id == id, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s:%" PetscInt64_FMT ": %s for atom id '%" PetscInt64_FMT "', which is not in the Atoms section", path,
               *line, section, id);
    k = s[lo].idx;
    PetscCheck(!seen[k], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s:%" PetscInt64_FMT ": second %s line for atom id %" PetscInt64_FMT, path, *line,
               kind == LMP_VELOCITIES ? "Velocities" : "Molecules", id);
    seen[k] = PETSC_TRUE;
    if (kind == LMP_VELOCITIES)
      for (int j = 0; j < 3; j++) d->v[3 * k + j] = r[LMP_V_V + j], d->w[3 * k + j] = r[LMP_V_V + 3 + j];
    else d->mol[k] = (PetscInt64)r[LMP_M_MOL];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode JoinAlloc(LammpsData *d, PetscInt n)
{
  PetscFunctionBeginUser;
  d->n = n;
  PetscCall(PetscMalloc6(n + 1, &d->id, n + 1, &d->type, n + 1, &d->diameter, n + 1, &d->density, 3 * n + 1, &d->x,
                         n + 1, &d->index));

  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LmpShareJoin(MPI_Comm comm, const char *path, LmpShare *sh, LammpsData *d)
{
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCall(RouteShare(comm, sh));
  n = sh->nin[LMP_ATOMS];
  PetscCall(JoinAlloc(d, n));
  /* freed with the share, on an error too */
  PetscCall(PetscMalloc2(n + 1, &sh->ids, n + 1, &sh->seen));
  for (int k = LMP_ATOMS; k <= LMP_MOLECULES; k++) {
    PetscErrorCode ierr;
    PetscInt64     line = 0;
    /* the velocities and molecule ids once the atoms' records are gone */
    if (k == LMP_VELOCITIES) PetscCall(PetscCalloc2(3 * n + 1, &d->v, 3 * n + 1, &d->w));
    if (k == LMP_MOLECULES && d->has_molecules) PetscCall(PetscCalloc1(n + 1, &d->mol));
    /* each rank's first error by line (the records are in file order), then the first of all */
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    if (k == LMP_ATOMS) ierr = JoinAtoms(path, n, sh->in[k], d, sh->ids, &line);
    else ierr = JoinLines(path, (LmpKind)k, sh->nin[k], sh->in[k], d, sh->ids, sh->seen, &line);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscFree(sh->in[k]));
    PetscCall(CollectiveFirstError(comm, ierr, line, NULL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
