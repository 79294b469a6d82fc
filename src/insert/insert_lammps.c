/* The initial state from a LAMMPS data file (insert_lammps.h).  Records
 * travel as reals (ids, indices and types exact below 2^53) and arrive by
 * source rank; each rank then appends in the order of one rank's reading
 * (bodies by molecule id, then spheres in file order). */
#include "insert/insert_lammps.h"
#include "decomp/collective.h"
#include "io/lammps_join.h"
#include <stdint.h>
#include <stdlib.h>

/* An atom: x as in the file (molecules) or wrapped (spheres). */
enum {
  S_ID,
  S_TYPE,
  S_DIAMETER,
  S_DENSITY,
  S_X,
  S_V     = S_X + 3,
  S_W     = S_V + 3,
  S_INDEX = S_W + 3,
  S_MOL,
  S_WIDTH
};
/* A body made of a molecule: X wrapped. */
enum {
  B_MOL,
  B_ID0,
  B_TYPE,
  B_L,
  B_DENSITY,
  B_X,
  B_V     = B_X + 3,
  B_Q     = B_V + 3,
  B_W     = B_Q + 4,
  B_WIDTH = B_W + 3
};

typedef struct {
  PetscInt64 key, id;
  PetscInt   i;
} KeyIndex;

static int KeyIndexCompare(const void *a, const void *b)
{
  const KeyIndex *x = (const KeyIndex *)a, *y = (const KeyIndex *)b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->id < y->id ? -1 : (x->id > y->id);
}

static PetscErrorCode OwnerRank(const Grid *g, const PetscReal x[3], PetscMPIInt *rank)
{
  PetscMPIInt c[3];

  PetscFunctionBeginUser;
  PetscCall(GridOwnerOf(g, x, c));
  PetscCall(GridRankOfCoords(g, c, rank));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void PackAtom(const LammpsData *d, PetscInt i, PetscBool wrap, const Grid *g, PetscReal *r)
{
  r[S_ID] = (PetscReal)d->id[i], r[S_TYPE] = (PetscReal)d->type[i];
  r[S_DIAMETER] = d->diameter[i], r[S_DENSITY] = d->density[i];
  for (int a = 0; a < 3; a++) r[S_X + a] = d->x[3 * i + a], r[S_V + a] = d->v[3 * i + a], r[S_W + a] = d->w[3 * i + a];
  if (wrap) GridWrapOnce(g, d->x + 3 * i, r + S_X);
  r[S_INDEX] = (PetscReal)d->index[i];
  r[S_MOL]   = d->mol ? (PetscReal)d->mol[i] : 0.0;
}

/* Records arrived (n of width w), in the order of key slot kslot (unique keys). */
static PetscErrorCode SortedBy(PetscInt n, PetscInt w, const PetscReal *rec, int kslot, KeyIndex **order)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, order));
  for (PetscInt i = 0; i < n; i++) (*order)[i].key = (PetscInt64)rec[(size_t)i * w + kslot], (*order)[i].id = 0;
  for (PetscInt i = 0; i < n; i++) (*order)[i].i = i;
  if (n) qsort(*order, (size_t)n, sizeof(KeyIndex), KeyIndexCompare);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Spheres sent in this many rounds, the last records first, what is sent
 * cut off the records: at the peak a rank holds its particles and one
 * round's arrivals, not every record as well. */
#define PLACE_ROUNDS 8

/* The records that arrived (m), appended in file order. */
static PetscErrorCode AppendSpheres(const InsertLammpsKeys *ins, PetscInt m, const PetscReal *in, Particles *p)
{
  KeyIndex *order;

  PetscFunctionBeginUser;
  PetscCall(SortedBy(m, S_WIDTH, in, S_INDEX, &order));
  for (PetscInt k = 0; k < m; k++) {
    const PetscReal *r = in + (size_t)order[k].i * S_WIDTH;
    PetscInt         t = (PetscInt)r[S_TYPE];
    PetscCall(ParticlesAppend(p, (PetscInt64)r[S_ID], t, t == ins->frozen_type ? PARTICLE_FROZEN : 0,
                              0.5 * r[S_DIAMETER], r[S_DENSITY], r + S_X, r + S_V, r + S_W));
  }
  PetscCall(PetscFree(order));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Spheres (n S_ records, x wrapped; *rec taken) to the owners of their
 * positions (the order of a rank's particles is not the file's: results
 * do not depend on it). */
/* A record's index, mixed (splitmix64's finaliser): a file lists atoms
 * by place, so its slices would each go to a few ranks; slices of records
 * in this order spread over all of them. */
static uint64_t MixedIndex(const PetscReal *r)
{
  uint64_t z = (uint64_t)r[S_INDEX] + 0x9e3779b97f4a7c15ULL;
  z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z          = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static PetscInt64 KeyMixed(const PetscReal *r)
{
  return (PetscInt64)(MixedIndex(r) >> 1);
}

static PetscErrorCode PlaceSpheres(const InsertLammpsKeys *ins, const Grid *g, PetscInt n, PetscReal **rec,
                                   Particles *p)
{
  PetscMPIInt *dest;
  PetscReal   *in;
  PetscInt     nin, filled = 0;

  PetscFunctionBeginUser;
  PetscCall(LammpsRecordsSort(*rec, n, S_WIDTH, KeyMixed));
  PetscCall(PetscMalloc1(n + 1, &dest));
  for (PetscInt i = 0; i < n; i++) PetscCall(OwnerRank(g, *rec + (size_t)i * S_WIDTH + S_X, &dest[i]));
  PetscCall(CollectiveRouteCount(g->comm, n, dest, &nin));
  PetscCall(ParticlesReserve(p, p->n + nin)); /* grown once, not by doubling */
  PetscCall(PetscMalloc1((size_t)nin * S_WIDTH + 1, &in));
  for (PetscInt k = 0; k < PLACE_ROUNDS; k++) { /* each part appended as it arrives: its records then reused */
    PetscCall(CollectiveRoutePart(g->comm, n, S_WIDTH, rec, dest, k, PLACE_ROUNDS, nin, in, &filled));
    PetscCall(AppendSpheres(ins, filled, in, p));
    filled = 0;
  }
  PetscCall(PetscFree(in));
  PetscCall(PetscFree(dest));
  PetscCall(PetscFree(*rec));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bodies (B_ records; *rec taken) to the owners of their centres, appended by molecule id. */
static PetscErrorCode PlaceBodies(const ClumpTemplates *ct, PetscInt c, const Grid *g, PetscInt n, PetscReal **rec,
                                  Particles *p)
{
  PetscMPIInt *dest;
  PetscReal   *in;
  PetscInt     m;
  KeyIndex    *order;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, &dest));
  for (PetscInt i = 0; i < n; i++) PetscCall(OwnerRank(g, *rec + (size_t)i * B_WIDTH + B_X, &dest[i]));
  PetscCall(CollectiveRouteTake(g->comm, n, B_WIDTH, rec, dest, &m, &in));
  PetscCall(PetscFree(dest));
  PetscCall(SortedBy(m, B_WIDTH, in, B_MOL, &order));
  for (PetscInt k = 0; k < m; k++) {
    const PetscReal *r = in + (size_t)order[k].i * B_WIDTH;
    PetscCall(BodyAppendAt(p, ct, c, (PetscInt64)r[B_ID0], (PetscInt)r[B_TYPE], r[B_L], r[B_DENSITY], r + B_X, r + B_V,
                           r + B_Q, r + B_W));
  }
  PetscCall(PetscFree(order));
  PetscCall(PetscFree(in));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Molecule ma[a .. b) (rows of R, S_ records as in the file) as a body of
 * template t: x and r scratch; its record into body.  A molecule of as
 * many atoms as t has spheres (consecutive ids, in the template's order)
 * is fitted to it (BodyFit); its velocity and spin are its atoms' means. */
static PetscErrorCode FitMolecule(const char *file, PetscInt c, const ClumpTemplate *t, const Grid *g,
                                  const PetscReal *R, const KeyIndex *ma, PetscInt a, PetscInt b, PetscReal *x,
                                  PetscReal *r, PetscReal *body)
{
  const PetscReal *r0 = R + (size_t)ma[a].i * S_WIDTH;
  PetscReal        l, X[3], q[4], res, V[3] = {0, 0, 0}, W[3] = {0, 0, 0};

  PetscFunctionBeginUser;
  PetscCheck(b - a == t->n, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
             "molecule %" PetscInt64_FMT " of %s has %" PetscInt_FMT " atoms; the body clump%" PetscInt_FMT
             " has %" PetscInt_FMT " spheres",
             ma[a].key, file, b - a, c, t->n);
  for (PetscInt k = 0; k < t->n; k++) {
    const PetscReal *ri = R + (size_t)ma[a + k].i * S_WIDTH;
    PetscCheck(ma[a + k].id == ma[a].id + k, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
               "molecule %" PetscInt64_FMT " of %s: its atoms' ids are not consecutive (%" PetscInt64_FMT
               " after %" PetscInt64_FMT "); a body's spheres are numbered from its first",
               ma[a].key, file, ma[a + k].id, ma[a + k - 1].id);
    for (int e = 0; e < 3; e++) { /* the nearest image of the first atom (image flags are not read) */
      PetscReal L = g->hi[e] - g->lo[e], y = ri[S_X + e], y0 = r0[S_X + e];
      if (g->periodic[e] && y - y0 > 0.5 * L) y -= L;
      if (g->periodic[e] && y0 - y > 0.5 * L) y += L;
      x[3 * k + e] = y;
      V[e] += ri[S_V + e] / (PetscReal)t->n, W[e] += ri[S_W + e] / (PetscReal)t->n;
    }
    r[k] = 0.5 * ri[S_DIAMETER];
  }
  BodyFit(t, x, r, &l, X, q, &res);
  PetscCheck(res <= 1e-3 * l * t->extent, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
             "molecule %" PetscInt64_FMT " of %s is not the body clump%" PetscInt_FMT
             ": its atoms lie up to %g m from the template's spheres scaled by %g (more than 1e-3 of its extent)",
             ma[a].key, file, c, (double)res, (double)l);
  body[B_MOL] = (PetscReal)ma[a].key, body[B_ID0] = (PetscReal)ma[a].id, body[B_TYPE] = r0[S_TYPE];
  body[B_L] = l, body[B_DENSITY] = r0[S_DENSITY];
  GridWrapOnce(g, X, body + B_X);
  for (int e = 0; e < 3; e++) body[B_V + e] = V[e], body[B_W + e] = W[e];
  for (int e = 0; e < 4; e++) body[B_Q + e] = q[e];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The molecules arrived (R, n atoms) in molecule order: bodies into *bodies,
 * molecules of one atom (spheres, x wrapped) into *spheres; *bad the
 * molecule of the first error. */
static PetscErrorCode FitMolecules(const char *file, PetscInt c, const ClumpTemplate *t, const Grid *g, PetscInt n,
                                   PetscReal *R, PetscInt *nb, PetscReal **bodies, PetscInt *ns, PetscReal **spheres,
                                   PetscInt64 *bad)
{
  KeyIndex      *ma;
  PetscReal     *x, *r;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(n + 1, &ma, 3 * t->n, &x, t->n, &r));
  for (PetscInt i = 0; i < n; i++)
    ma[i].key = (PetscInt64)R[(size_t)i * S_WIDTH + S_MOL], ma[i].id = (PetscInt64)R[(size_t)i * S_WIDTH], ma[i].i = i;
  if (n) qsort(ma, (size_t)n, sizeof(*ma), KeyIndexCompare);
  /* at most n / 2 bodies and n spheres */
  PetscCall(PetscMalloc1((size_t)(n / 2) * B_WIDTH + 1, bodies));
  PetscCall(PetscMalloc1((size_t)n * S_WIDTH + 1, spheres));
  *nb = *ns = 0;
  for (PetscInt a = 0, b; a < n; a = b) {
    for (b = a; b < n && ma[b].key == ma[a].key; b++) { }
    if (b - a == 1) { /* a sphere */
      PetscReal *s = *spheres + (size_t)(*ns)++ * S_WIDTH;
      PetscCall(PetscArraycpy(s, R + (size_t)ma[a].i * S_WIDTH, S_WIDTH));
      GridWrapOnce(g, s + S_X, s + S_X);
      continue;
    }
    *bad = ma[a].key;
    ierr = FitMolecule(file, c, t, g, R, ma, a, b, x, r, *bodies + (size_t)(*nb)++ * B_WIDTH);
    if (ierr) break; /* the scratch freed on an error too */
  }
  PetscCall(PetscFree3(ma, x, r));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The keys insert_body with a data file needs. */
static PetscErrorCode MoleculesCheck(MPI_Comm comm, const InsertLammpsKeys *ins, const LammpsData *d)
{
  PetscFunctionBeginUser;
  PetscCheck(d->has_molecules, comm, PETSC_ERR_USER_INPUT,
             "-insert_body with -insert_mode lammps: %s has no Molecules section to say which atoms make a body",
             ins->file);
  PetscCheck(ins->body->n == 1 && ins->body->tmpl[0] >= 0, comm, PETSC_ERR_USER_INPUT,
             "-insert_body with -insert_mode lammps names one template (clumpN), the body of every molecule of %s",
             ins->file);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The molecules of a data file (n atoms in *rec, taken) as bodies of the
 * one template of insert_body (FitMolecule): each molecule's atoms to the
 * rank mol % size, fitted there, the first error (by molecule id) every
 * rank's; the bodies and the molecules of one atom (spheres) to the owners
 * of their positions. */
static PetscErrorCode InsertMolecules(MPI_Comm comm, const InsertLammpsKeys *ins, const ClumpTemplates *ct,
                                      const Grid *g, PetscInt n, PetscReal **rec, Particles *p)
{
  PetscInt       c = ins->body->tmpl[0], m, nb = 0, ns = 0;
  PetscReal     *R, *bodies = NULL, *spheres = NULL;
  PetscMPIInt   *dest, size;
  PetscInt64     bad = 0;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(g->comm, NULL, &size));
  PetscCall(PetscMalloc1(n + 1, &dest));
  for (PetscInt i = 0; i < n; i++) dest[i] = (PetscMPIInt)((PetscInt64)(*rec)[(size_t)i * S_WIDTH + S_MOL] % size);
  PetscCall(CollectiveRouteTake(g->comm, n, S_WIDTH, rec, dest, &m, &R));
  PetscCall(PetscFree(dest));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = FitMolecules(ins->file, c, &ct->t[c], g, m, R, &nb, &bodies, &ns, &spheres, &bad);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscFree(R));
  if (ierr) PetscCall(PetscFree(bodies));
  if (ierr) PetscCall(PetscFree(spheres));
  PetscCall(CollectiveFirstError(comm, ierr, bad, NULL));
  PetscCall(PlaceBodies(ct, c, g, nb, &bodies, p));
  PetscCall(PlaceSpheres(ins, g, ns, &spheres, p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Atom i of d: inside the domain (periodic axes wrapped) and smaller than it. */
static PetscErrorCode CheckAtom(const char *file, const Grid *g, const LammpsData *d, PetscInt i)
{
  PetscReal x[3];

  PetscFunctionBeginUser;
  GridWrapOnce(g, d->x + 3 * i, x);
  for (int a = 0; a < 3; a++) {
    PetscCheck(x[a] >= g->lo[a] && x[a] <= g->hi[a], PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
               "atom %" PetscInt64_FMT
               " of %s at (%g, %g, %g) is outside the domain along %c, [%g, %g] (-domain_lo, -domain_hi)",
               d->id[i], file, (double)d->x[3 * i], (double)d->x[3 * i + 1], (double)d->x[3 * i + 2], "xyz"[a],
               (double)g -> lo[a], (double)g -> hi[a]);
    PetscCheck(d->diameter[i] < g->hi[a] - g->lo[a], PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
               "atom %" PetscInt64_FMT " of %s has diameter %g m, no smaller than the domain along %c (%g m)", d->id[i],
               file, (double)d->diameter[i], "xyz"[a], (double)(g->hi[a] - g->lo[a]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every atom checked (the first in file order that fails is every rank's
 * error); the largest radius of them all. */
static PetscErrorCode CheckAtoms(MPI_Comm comm, const char *file, const Grid *g, const LammpsData *d, PetscReal *rmax)
{
  PetscErrorCode ierr = PETSC_SUCCESS;
  PetscInt64     bad  = 0;
  PetscReal      r    = 0.0;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  for (PetscInt i = 0; i < d->n && !ierr; i++) {
    ierr = CheckAtom(file, g, d, i);
    bad  = d->index[i];
    r    = PetscMax(r, 0.5 * d->diameter[i]);
  }
  PetscCall(PetscPopErrorHandler());
  PetscCall(CollectiveFirstError(comm, ierr, bad, NULL));
  PetscCall(CollectiveMaxAll(comm, &r, 1));
  *rmax = r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every atom of d as a record (x wrapped for spheres, as in the file for molecules). */
static PetscErrorCode PackAtoms(const LammpsData *d, PetscBool wrap, const Grid *g, PetscReal **rec)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1((size_t)d->n * S_WIDTH + 1, rec));
  for (PetscInt i = 0; i < d->n; i++) PackAtom(d, i, wrap, g, *rec + (size_t)i * S_WIDTH);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode InsertLammps(MPI_Comm comm, const InsertLammpsKeys *ins, const ClumpTemplates *ct, const Grid *g,
                            LammpsData *cached, Particles *p, PetscReal *rmax)
{
  LammpsData     d;
  PetscBool      bodies = BodyChoiceHasBodies(ins->body);
  PetscReal     *rec    = NULL;
  PetscInt       n;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBeginUser;
  if (cached && cached->read) { /* read already, to shape the grid */
    d = *cached;
    PetscCall(PetscMemzero(cached, sizeof(*cached)));
  } else PetscCall(LammpsDataRead(comm, ins->file, &d));
  /* the atoms are freed on an error too, and once packed: one copy at a time */

  if (bodies) ierr = MoleculesCheck(comm, ins, &d);
  if (!ierr) ierr = CheckAtoms(comm, ins->file, g, &d, rmax);
  if (!ierr) ierr = PackAtoms(&d, bodies ? PETSC_FALSE : PETSC_TRUE, g, &rec);
  n = d.n;
  PetscCall(LammpsDataDestroy(&d));
  PetscCall(ierr);
  if (bodies) PetscCall(InsertMolecules(comm, ins, ct, g, n, &rec, p));
  else PetscCall(PlaceSpheres(ins, g, n, &rec, p));
  PetscFunctionReturn(PETSC_SUCCESS);
}
