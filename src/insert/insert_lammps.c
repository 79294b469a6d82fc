/* The initial state from a LAMMPS data file (insert_lammps.h).  Records
 * travel as reals (ids, indices and types exact below 2^53) and arrive by
 * source rank; each rank then appends in the order of one rank's reading
 * (bodies by molecule id, then spheres in file order). */
#include "insert/insert_lammps.h"
#include "decomp/collective.h"
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

/* Periodic coordinates into the box. */
static void Wrap(const Grid *g, const PetscReal *x0, PetscReal x[3])
{
  for (int a = 0; a < 3; a++) {
    PetscReal L = g->hi[a] - g->lo[a];
    x[a]        = x0[a];
    if (g->periodic[a]) {
      if (x[a] >= g->hi[a]) x[a] -= L;
      if (x[a] < g->lo[a]) x[a] += L;
    }
  }
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
  if (wrap) Wrap(g, d->x + 3 * i, r + S_X);
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

/* Spheres (S_ records, x wrapped) to the owners of their positions, appended in file order. */
static PetscErrorCode PlaceSpheres(const Insertion *ins, const Grid *g, PetscInt n, const PetscReal *rec, Particles *p)
{
  PetscMPIInt *dest;
  PetscReal   *in;
  PetscInt     m;
  KeyIndex    *order;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, &dest));
  for (PetscInt i = 0; i < n; i++) PetscCall(OwnerRank(g, rec + (size_t)i * S_WIDTH + S_X, &dest[i]));
  PetscCall(CollectiveRoute(g->comm, n, S_WIDTH, rec, dest, &m, &in));
  PetscCall(PetscFree(dest));
  PetscCall(SortedBy(m, S_WIDTH, in, S_INDEX, &order));
  for (PetscInt k = 0; k < m; k++) {
    const PetscReal *r = in + (size_t)order[k].i * S_WIDTH;
    PetscInt         t = (PetscInt)r[S_TYPE];
    PetscCall(ParticlesAppend(p, (PetscInt64)r[S_ID], t, t == ins->frozen_type ? PARTICLE_FROZEN : 0,
                              0.5 * r[S_DIAMETER], r[S_DENSITY], r + S_X, r + S_V, r + S_W));
  }
  PetscCall(PetscFree(order));
  PetscCall(PetscFree(in));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bodies (B_ records) to the owners of their centres, appended by molecule id. */
static PetscErrorCode PlaceBodies(const ClumpTemplates *ct, PetscInt c, const Grid *g, PetscInt n, const PetscReal *rec,
                                  Particles *p)
{
  PetscMPIInt *dest;
  PetscReal   *in;
  PetscInt     m;
  KeyIndex    *order;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, &dest));
  for (PetscInt i = 0; i < n; i++) PetscCall(OwnerRank(g, rec + (size_t)i * B_WIDTH + B_X, &dest[i]));
  PetscCall(CollectiveRoute(g->comm, n, B_WIDTH, rec, dest, &m, &in));
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
  Wrap(g, X, body + B_X);
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
  KeyIndex  *ma;
  PetscReal *x, *r;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(n + 1, &ma, 3 * t->n, &x, t->n, &r));
  for (PetscInt i = 0; i < n; i++)
    ma[i].key = (PetscInt64)R[(size_t)i * S_WIDTH + S_MOL], ma[i].id = (PetscInt64)R[(size_t)i * S_WIDTH], ma[i].i = i;
  if (n) qsort(ma, (size_t)n, sizeof(*ma), KeyIndexCompare);
  /* at most n / 2 bodies and n spheres */
  PetscCall(PetscMalloc2((size_t)(n / 2) * B_WIDTH + 1, bodies, (size_t)n * S_WIDTH + 1, spheres));
  *nb = *ns = 0;
  for (PetscInt a = 0, b; a < n; a = b) {
    for (b = a; b < n && ma[b].key == ma[a].key; b++) { }
    if (b - a == 1) { /* a sphere */
      PetscReal *s = *spheres + (size_t)(*ns)++ * S_WIDTH;
      PetscCall(PetscArraycpy(s, R + (size_t)ma[a].i * S_WIDTH, S_WIDTH));
      Wrap(g, s + S_X, s + S_X);
      continue;
    }
    *bad = ma[a].key;
    PetscCall(FitMolecule(file, c, t, g, R, ma, a, b, x, r, *bodies + (size_t)(*nb)++ * B_WIDTH));
  }
  PetscCall(PetscFree3(ma, x, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The molecules of a data file as bodies of the one template of insert_body
 * (FitMolecule): each molecule's atoms to the rank mol % size, fitted
 * there, the first error (by molecule id) every rank's; the bodies and the
 * molecules of one atom (spheres) to the owners of their positions. */
static PetscErrorCode InsertMolecules(MPI_Comm comm, const Insertion *ins, const ClumpTemplates *ct, const Grid *g,
                                      const LammpsData *d, Particles *p)
{
  const char    *file = ins->file;
  PetscInt       c = ins->body.tmpl[0], n, nb = 0, ns = 0;
  PetscReal     *out, *R, *bodies = NULL, *spheres = NULL;
  PetscMPIInt   *dest, size;
  PetscInt64     bad = 0;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCheck(d->has_molecules, comm, PETSC_ERR_USER_INPUT,
             "-insert_body with -insert_mode lammps: %s has no Molecules section to say which atoms make a body", file);
  PetscCheck(ins->body.n == 1 && c >= 0, comm, PETSC_ERR_USER_INPUT,
             "-insert_body with -insert_mode lammps names one template (clumpN), the body of every molecule of %s",
             file);
  PetscCall(CollectiveRank(g->comm, NULL, &size));
  PetscCall(PetscMalloc2((size_t)d->n * S_WIDTH + 1, &out, d->n + 1, &dest));
  for (PetscInt i = 0; i < d->n; i++) {
    PackAtom(d, i, PETSC_FALSE, g, out + (size_t)i * S_WIDTH);
    dest[i] = (PetscMPIInt)(d->mol[i] % size);
  }
  PetscCall(CollectiveRoute(g->comm, d->n, S_WIDTH, out, dest, &n, &R));
  PetscCall(PetscFree2(out, dest));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = FitMolecules(file, c, &ct->t[c], g, n, R, &nb, &bodies, &ns, &spheres, &bad);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscFree(R));
  if (ierr) PetscCall(PetscFree2(bodies, spheres));
  PetscCall(CollectiveFirstError(comm, ierr, bad, NULL));
  PetscCall(PlaceBodies(ct, c, g, nb, bodies, p));
  PetscCall(PlaceSpheres(ins, g, ns, spheres, p));
  PetscCall(PetscFree2(bodies, spheres));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Atom i of d: inside the domain (periodic axes wrapped) and smaller than it. */
static PetscErrorCode CheckAtom(const char *file, const Grid *g, const LammpsData *d, PetscInt i)
{
  PetscReal x[3];

  PetscFunctionBeginUser;
  Wrap(g, d->x + 3 * i, x);
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

/* The atoms that are no body's: each to the owner of its position. */
static PetscErrorCode InsertSpheres(const Insertion *ins, const Grid *g, const LammpsData *d, Particles *p)
{
  PetscReal *rec;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1((size_t)d->n * S_WIDTH + 1, &rec));
  for (PetscInt i = 0; i < d->n; i++) PackAtom(d, i, PETSC_TRUE, g, rec + (size_t)i * S_WIDTH);
  PetscCall(PlaceSpheres(ins, g, d->n, rec, p));
  PetscCall(PetscFree(rec));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode InsertLammps(MPI_Comm comm, const Insertion *ins, const ClumpTemplates *ct, const Grid *g,
                            LammpsData *cached, Particles *p, PetscReal *rmax)
{
  LammpsData     d;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  if (cached && cached->read) { /* read already, to shape the grid */
    d = *cached;
    PetscCall(PetscMemzero(cached, sizeof(*cached)));
  } else PetscCall(LammpsDataRead(comm, ins->file, &d));
  /* the atoms are freed on an error too */
  if (BodyChoiceHasBodies(&ins->body)) ierr = InsertMolecules(comm, ins, ct, g, &d, p);
  else ierr = PETSC_SUCCESS;
  if (!ierr) ierr = CheckAtoms(comm, ins->file, g, &d, rmax);
  if (!ierr && !BodyChoiceHasBodies(&ins->body)) ierr = InsertSpheres(ins, g, &d, p);
  PetscCall(LammpsDataDestroy(&d));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
