#include "insert/insert.h"
#include "io/options.h"
#include <math.h>

const char *const InsertionModes[] = {"lattice", "random", "lammps", "InsertionMode", "INSERT_", NULL};

PetscErrorCode RadiusDistributionSetFromOptions(MPI_Comm comm, const char *prefix, RadiusDistribution *rd,
                                                PetscBool *given)
{
  static const char *const suffix[] = {"_radius",      "_radius_distribution", "_radius_min",    "_radius_max",
                                       "_radius_mean", "_radius_sigma",        "_radius_values", "_radius_weights"};
  char                     key[8][80];
  PetscInt                 nval = 0, nwt = 0;
  PetscBool                set[8];
  PetscReal                r1 = rd->min;

  PetscFunctionBeginUser;
  for (int k = 0; k < 8; k++) PetscCall(PetscSNPrintf(key[k], sizeof(key[k]), "%s%s", prefix, suffix[k]));
  PetscCall(OptionsReal(key[0], "one radius for every particle (instead of the radius_* keys)", "[m]", HDEM_RADIUS_MIN,
                        HDEM_RADIUS_MAX, RANGE_CLOSED, &r1, &set[0]));
  PetscCall(OptionsDefaultText(key[0], "none: the radius_* keys"));
  PetscCall(OptionsEnum(key[1], "radius distribution", RadiusDistributionTypes, (PetscEnum *)&rd->type, &set[1]));
  PetscCall(
    OptionsReal(key[2], "smallest radius", "[m]", HDEM_RADIUS_MIN, HDEM_RADIUS_MAX, RANGE_CLOSED, &rd->min, &set[2]));
  PetscCall(
    OptionsReal(key[3], "largest radius", "[m]", HDEM_RADIUS_MIN, HDEM_RADIUS_MAX, RANGE_CLOSED, &rd->max, &set[3]));
  PetscCall(OptionsReal(key[4], "mean (normal) or median (lognormal) radius", "[m]", HDEM_RADIUS_MIN, HDEM_RADIUS_MAX,
                        RANGE_CLOSED, &rd->mean, &set[4]));
  PetscCall(OptionsReal(key[5], "standard deviation (normal: of r [m]; lognormal: of ln r)", "", 0.0, PETSC_MAX_REAL,
                        RANGE_CLOSED, &rd->sigma, &set[5]));
  PetscCall(OptionsRealArray(key[6], "radii of the discrete distribution", "[m]", 1, 16, HDEM_RADIUS_MIN,
                             HDEM_RADIUS_MAX, RANGE_CLOSED, rd->values, &nval, &set[6]));
  PetscCall(OptionsRealArray(key[7], "their weights", "[-]", 1, 16, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED,
                             rd->weights, &nwt, &set[7]));
  PetscCall(OptionsDefaultText(key[6], "none"));
  PetscCall(OptionsDefaultText(key[7], "all 1"));
  *given = PETSC_FALSE;
  for (int k = 0; k < 8; k++) *given = *given || set[k] ? PETSC_TRUE : PETSC_FALSE;
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  if (set[0]) {
    PetscCheck(!(set[1] || set[2] || set[3] || set[4] || set[5] || set[6] || set[7]), comm, PETSC_ERR_USER_INPUT,
               "give either %s (one size) or the %s_* keys (a distribution), not both", key[0], key[0]);
    rd->type = RADIUS_UNIFORM;
    rd->min = rd->max = rd->mean = r1;
  }
  rd->ndiscrete = set[6] ? nval : 0;
  PetscCheck(!set[6] || !set[7] || nval == nwt, comm, PETSC_ERR_USER_INPUT,
             "%s has %" PetscInt_FMT " entries but %s %" PetscInt_FMT, key[6], nval, key[7], nwt);
  if (set[6] && !set[7])
    for (PetscInt k = 0; k < nval; k++) rd->weights[k] = 1.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal RadiusDistributionMin(const RadiusDistribution *d)
{
  PetscReal m = PETSC_MAX_REAL;
  if (d->type != RADIUS_DISCRETE) return d->min;
  for (PetscInt i = 0; i < d->ndiscrete; i++)
    if (d->weights[i] > 0 && d->values[i] < m) m = d->values[i];
  return m;
}

PetscErrorCode InsertionSetFromOptions(MPI_Comm comm, Insertion *ins)
{
  PetscInt  n;
  PetscBool set[9];

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(ins, sizeof(*ins)));
  ins->mode    = INSERTION_LATTICE;
  ins->rd.type = RADIUS_UNIFORM;
  ins->rd.min = ins->rd.max = ins->rd.mean = 1e-3;
  ins->seed = 1, ins->factor = 1.1, ins->type = 1, ins->frozen_type = -1, ins->overlap_max = 0.01;
  PetscCall(OptionsSection("Insertion"));
  PetscCall(OptionsEnum("-insert_mode",
                        "lattice: a jittered lattice fill of a region; random: a random non-overlapping fill; lammps: "
                        "an atom_style sphere data file",
                        InsertionModes, (PetscEnum *)&ins->mode, &set[0]));
  PetscCall(OptionsInt64("-insert_count", "number of particles (lattice, random)", 0, PETSC_MAX_INT, &ins->count,
                         &ins->count_set));
  PetscCall(OptionsDefaultText("-insert_count", "required with mode lattice or random"));
  PetscCall(OptionsInt64("-insert_seed", "random seed", PETSC_MIN_INT, PETSC_MAX_INT, &ins->seed, &set[1]));
  PetscCall(OptionsRealArray("-insert_region_lo", "lower corner of the fill region (default the domain)", "[m]", 3, 3,
                             PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, ins->rlo, &n, &ins->lo_set));
  PetscCall(OptionsRealArray("-insert_region_hi", "upper corner of the fill region (default the domain)", "[m]", 3, 3,
                             PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, ins->rhi, &n, &ins->hi_set));
  PetscCall(OptionsReal("-insert_spacing", "lattice pitch in largest diameters", "[-]", 1.0, PETSC_MAX_REAL,
                        RANGE_CLOSED, &ins->factor, &set[2]));
  PetscCall(OptionsRealArray("-insert_velocity", "initial velocity", "[m/s]", 3, 3, -HDEM_SPEED_MAX, HDEM_SPEED_MAX,
                             RANGE_CLOSED, ins->v0, &n, &set[3]));
  PetscCall(OptionsReal("-insert_velocity_random", "amplitude of uniform random velocity components", "[m/s]", 0.0,
                        HDEM_SPEED_MAX, RANGE_CLOSED, &ins->vrand, &set[4]));
  PetscCall(RadiusDistributionSetFromOptions(comm, "-insert", &ins->rd, &set[5]));
  /* stored in 32 bits */
  PetscCall(
    OptionsInt("-insert_type", "particle type of the lattice and random fills", 0, LOCAL_INT_MAX, &ins->type, &set[6]));
  PetscCall(OptionsPath("-insert_file",
                        "LAMMPS atom_style sphere data file (lammps); relative in a deck: to the deck's folder",
                        ins->file, sizeof(ins->file), &ins->file_set));
  PetscCall(OptionsInt("-insert_frozen_type", "LAMMPS atom type that does not move (a chute's base)", PETSC_MIN_INT,
                       PETSC_MAX_INT, &ins->frozen_type, &set[7]));
  PetscCall(OptionsDefaultText("-insert_region_lo", "the domain's"));
  PetscCall(OptionsDefaultText("-insert_region_hi", "the domain's"));
  PetscCall(OptionsDefaultText("-insert_frozen_type", "none"));
  PetscCall(OptionsReal("-insert_overlap_max",
                        "largest overlap of the initial state (two particles, a particle and a wall or mesh), over the "
                        "smaller radius; more is refused",
                        "[-]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &ins->overlap_max, &set[8]));
  PetscCall(BodyChoiceSetFromOptions(comm, "-insert", &ins->body));
  ins->given = ins->body.given || ins->count_set || ins->lo_set || ins->hi_set || ins->file_set ? PETSC_TRUE
                                                                                                : PETSC_FALSE;
  for (int k = 0; k < 9; k++) ins->given = ins->given || set[k] ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lattice sites in x-fastest order; site k becomes particle k + 1 on the rank
 * that owns its position, and every random number is keyed by that id, so
 * the initial state does not depend on the rank count. */
static PetscErrorCode InsertLattice(MPI_Comm comm, const Insertion *ins, const ClumpTemplates *ct, const Grid *g,
                                    const PetscReal rlo[3], const PetscReal rhi[3], PetscReal density, Particles *p,
                                    PetscReal *rmax_out)
{
  const RadiusDistribution *rd    = &ins->rd;
  const PetscInt64          count = ins->count, seed = ins->seed;
  PetscReal                 rmax = RadiusDistributionMax(rd), rbound, rmember, reach, pitch;
  PetscInt64                ns[3], next = 1;
  PetscReal                 cap; /* sites, in floating point: the product of three counts can pass 2^63 */

  PetscFunctionBeginUser;
  BodyChoiceSizesMax(&ins->body, ct, rmax, &rbound, &rmember, &reach);
  pitch = 2.0 * rbound * ins->factor; /* a site holds the sphere around the largest body */
  for (int a = 0; a < 3; a++) ns[a] = (PetscInt64)PetscMin(floor((rhi[a] - rlo[a]) / pitch), 1e15);
  cap = (PetscReal)ns[0] * (PetscReal)ns[1] * (PetscReal)ns[2];
  /* site indices are 64-bit: a pitch so small that they cannot number the region is refused, not wrapped */
  PetscCheck(cap <= 9.2e18, comm, PETSC_ERR_USER_INPUT,
             "-insert_radius: a largest radius of %.17g m makes lattice sites of pitch %g m, %" PetscInt64_FMT
             " x %" PetscInt64_FMT " x %" PetscInt64_FMT " = %.3g of them over the region,"
             " more than the limit 9.2e18 of a 64-bit site index"
             " (a larger -insert_radius or -insert_spacing, or a smaller -insert_region_lo/_hi)",
             (double)rmax, (double)pitch, ns[0], ns[1], ns[2], (double)cap);
  PetscCheck((PetscReal)count <= cap, comm, PETSC_ERR_USER_INPUT,
             "-insert_count %" PetscInt64_FMT " does not fit: the region holds %.0f lattice sites of pitch %g m "
             "(-insert_region_lo/_hi, -insert_spacing)",
             count, (double)cap, (double)pitch);
  for (PetscInt64 k = 0; k < count; k++) {
    PetscInt64  id = k + 1, c[3] = {k % ns[0], (k / ns[0]) % ns[1], (k / ns[0]) / ns[1]}, id0 = next;
    PetscReal   x[3], v[3], r, jit = 0.45 * (pitch - 2.0 * rbound);
    PetscMPIInt owner[3], me = 1;
    PetscInt    body = BodyChoiceDraw(&ins->body, seed, id);
    next += BodyChoiceSpheres(ct, body);
    for (int a = 0; a < 3; a++)
      x[a] = rlo[a] + (c[a] + 0.5) * pitch + jit * (2.0 * RandomUniform(seed, id, 6, a) - 1.0);
    PetscCall(GridOwnerOf(g, x, owner));
    for (int a = 0; a < 3; a++) me = me && owner[a] == g->coords[a];
    if (!me) continue;
    PetscCall(RadiusDistributionDraw(rd, seed, id, &r));
    for (int a = 0; a < 3; a++) v[a] = ins->v0[a] + ins->vrand * (2.0 * RandomUniform(seed, id, 2, a) - 1.0);
    PetscCall(BodyAppend(p, ct, &ins->body, body, id0, ins->type, r, density, x, v, seed, id));
  }
  *rmax_out = rmember;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Random sequential addition over the whole region, run identically on every
 * rank (positions keyed by id and attempt), each rank keeping what it owns:
 * the fill does not depend on the rank count.  Cells of one largest diameter
 * keep the overlap test local. */
static PetscErrorCode InsertRandom(MPI_Comm comm, const Insertion *ins, const ClumpTemplates *ct, const Grid *g,
                                   const PetscReal rlo[3], const PetscReal rhi[3], PetscReal density, Particles *p,
                                   PetscReal *rmax_out)
{
  const PetscInt            maxtry = 2000;
  const RadiusDistribution *rd     = &ins->rd;
  const PetscInt64          count = ins->count, seed = ins->seed;
  PetscReal                 rmax = RadiusDistributionMax(rd), h, *pos, *rad, *req, rbound, rmember, reach;
  PetscInt64                nc[3], ncell, next = 1;
  PetscInt                 *choice;
  PetscInt                 *head, *link;

  PetscFunctionBeginUser;
  BodyChoiceSizesMax(&ins->body, ct, rmax, &rbound, &rmember, &reach);
  h = 2.0 * rbound; /* the spheres around the bodies do not overlap */
  /* its cells and links are PetscInt */
  PetscCheck(count < PETSC_MAX_INT / 8, comm, PETSC_ERR_USER_INPUT,
             "-insert_count %" PetscInt64_FMT ": the random fill takes at most %" PetscInt_FMT
             " particles (use -insert_mode lattice, or a LAMMPS data file)",
             count, PETSC_MAX_INT / 8);
  for (int a = 0; a < 3; a++) {
    PetscCheck(rhi[a] - rlo[a] > h, comm, PETSC_ERR_USER_INPUT,
               "-insert_region_lo/_hi is thinner than a largest diameter along axis %d", a);
    nc[a] = (PetscInt64)PetscMax(1.0, PetscMin(floor((rhi[a] - rlo[a]) / h), 1e15));
  }
  while ((PetscReal)nc[0] * (PetscReal)nc[1] * (PetscReal)nc[2] > 8.0 * (PetscReal)count + 64.0)
    for (int a = 0; a < 3; a++) nc[a] = PetscMax(1, nc[a] / 2);
  ncell = nc[0] * nc[1] * nc[2];
  PetscCall(PetscMalloc4(3 * count + 1, &pos, count + 1, &rad, ncell, &head, count + 1, &link));
  PetscCall(PetscMalloc2(count + 1, &req, count + 1, &choice));
  for (PetscInt64 c = 0; c < ncell; c++) head[c] = -1;
  for (PetscInt64 k = 0; k < count; k++) {
    PetscInt64 id = k + 1, cell = -1;
    PetscReal  r, *x            = pos + 3 * k;
    PetscBool  ok = PETSC_FALSE;
    PetscCall(RadiusDistributionDraw(rd, seed, id, &r));
    choice[k] = BodyChoiceDraw(&ins->body, seed, id);
    req[k]    = r;
    {
      PetscReal m_, q_;
      BodyChoiceSizes(ct, choice[k], req[k], &r, &m_, &q_); /* placed as the sphere around the body */
    }
    for (PetscInt t = 0; t < maxtry && !ok; t++) {
      PetscInt64 ci[3], lo[3], hi[3];
      for (int a = 0; a < 3; a++) {
        x[a]  = rlo[a] + r + (rhi[a] - rlo[a] - 2.0 * r) * RandomUniform(seed, id, 3 + a, t);
        ci[a] = PetscMin(nc[a] - 1, (PetscInt64)((x[a] - rlo[a]) / (rhi[a] - rlo[a]) * nc[a]));
        lo[a] = PetscMax(0, ci[a] - 1);
        hi[a] = PetscMin(nc[a] - 1, ci[a] + 1);
      }
      ok = PETSC_TRUE;
      for (PetscInt64 cz = lo[2]; cz <= hi[2] && ok; cz++)
        for (PetscInt64 cy = lo[1]; cy <= hi[1] && ok; cy++)
          for (PetscInt64 cx = lo[0]; cx <= hi[0] && ok; cx++)
            for (PetscInt m = head[(cz * nc[1] + cy) * nc[0] + cx]; m >= 0 && ok; m = link[m]) {
              PetscReal d2 = 0.0, s = r + rad[m];
              for (int a = 0; a < 3; a++) d2 += (x[a] - pos[3 * m + a]) * (x[a] - pos[3 * m + a]);
              if (d2 < s * s) ok = PETSC_FALSE;
            }
      cell = (ci[2] * nc[1] + ci[1]) * nc[0] + ci[0];
    }
    PetscCheck(ok, comm, PETSC_ERR_USER_INPUT,
               "-insert_mode random: no room for particle %" PetscInt64_FMT " of %" PetscInt64_FMT
               " after %" PetscInt_FMT " tries; the region is too full for a random fill (use -insert_mode lattice, "
               "fewer particles or a larger region)",
               id, count, maxtry);
    rad[k]     = r;
    link[k]    = (PetscInt)head[cell];
    head[cell] = (PetscInt)k;
  }
  for (PetscInt64 k = 0; k < count; k++) {
    PetscInt64  id = k + 1, id0 = next;
    PetscMPIInt owner[3], me    = 1;
    PetscReal   v[3];
    next += BodyChoiceSpheres(ct, choice[k]);
    PetscCall(GridOwnerOf(g, pos + 3 * k, owner));
    for (int a = 0; a < 3; a++) me = me && owner[a] == g->coords[a];
    if (!me) continue;
    for (int a = 0; a < 3; a++) v[a] = ins->v0[a] + ins->vrand * (2.0 * RandomUniform(seed, id, 2, a) - 1.0);
    PetscCall(BodyAppend(p, ct, &ins->body, choice[k], id0, ins->type, req[k], density, pos + 3 * k, v, seed, id));
  }
  *rmax_out = rmember;
  PetscCall(PetscFree4(pos, rad, head, link));
  PetscCall(PetscFree2(req, choice));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt64 mol, id;
  PetscInt   i;
} MoleculeAtom;

static int MoleculeAtomCompare(const void *a, const void *b)
{
  const MoleculeAtom *x = (const MoleculeAtom *)a, *y = (const MoleculeAtom *)b;
  if (x->mol != y->mol) return x->mol < y->mol ? -1 : 1;
  return x->id < y->id ? -1 : (x->id > y->id);
}

static PetscErrorCode InsertMoleculesFit(MPI_Comm, const char *, PetscInt, const ClumpTemplate *,
                                         const ClumpTemplates *, const Grid *, const LammpsData *, const MoleculeAtom *,
                                         PetscReal *, PetscReal *, Particles *, PetscBool *);

/* The molecules of a data file as bodies of the one template of
 * insert_body: each molecule of as many atoms as the template has spheres
 * (consecutive ids, in the template's order) is fitted to it (BodyFit);
 * the body's velocity and spin are its atoms' means.  A molecule of one
 * atom is a sphere.  done[i]: atom i is placed (or a body's and not
 * this rank's). */
static PetscErrorCode InsertMolecules(MPI_Comm comm, const Insertion *ins, const ClumpTemplates *ct, const Grid *g,
                                      const LammpsData *d, Particles *p, PetscBool *done)
{
  const char          *file = ins->file;
  PetscInt             c    = ins->body.tmpl[0];
  const ClumpTemplate *t;
  MoleculeAtom        *ma;
  PetscReal           *x, *r;

  PetscFunctionBeginUser;
  PetscCheck(d->mol, comm, PETSC_ERR_USER_INPUT,
             "-insert_body with -insert_mode lammps: %s has no Molecules section to say which atoms make a body", file);
  PetscCheck(ins->body.n == 1 && c >= 0, comm, PETSC_ERR_USER_INPUT,
             "-insert_body with -insert_mode lammps names one template (clumpN), the body of every molecule of %s",
             file);
  t = &ct->t[c];
  PetscCall(PetscMalloc3(d->n + 1, &ma, 3 * t->n, &x, t->n, &r));
  for (PetscInt i = 0; i < d->n; i++) ma[i].mol = d->mol[i], ma[i].id = d->id[i], ma[i].i = i;
  qsort(ma, (size_t)d->n, sizeof(*ma), MoleculeAtomCompare);
  {
    /* the scratch is freed on an error too */
    PetscErrorCode ierr = InsertMoleculesFit(comm, file, c, t, ct, g, d, ma, x, r, p, done);
    PetscCall(PetscFree3(ma, x, r));
    PetscCall(ierr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* InsertMolecules' fit of each molecule in ma (sorted), x and r its scratch. */
static PetscErrorCode InsertMoleculesFit(MPI_Comm comm, const char *file, PetscInt c, const ClumpTemplate *t,
                                         const ClumpTemplates *ct, const Grid *g, const LammpsData *d,
                                         const MoleculeAtom *ma, PetscReal *x, PetscReal *r, Particles *p,
                                         PetscBool *done)
{
  PetscFunctionBeginUser;
  for (PetscInt a = 0, b; a < d->n; a = b) {
    PetscReal   l, X[3], q[4], res, V[3] = {0, 0, 0}, W[3] = {0, 0, 0};
    PetscMPIInt owner[3], me = 1;
    for (b = a; b < d->n && ma[b].mol == ma[a].mol; b++) { }
    if (b - a == 1) continue; /* a sphere */
    PetscCheck(b - a == t->n, comm, PETSC_ERR_USER_INPUT,
               "molecule %" PetscInt64_FMT " of %s has %" PetscInt_FMT " atoms; the body clump%" PetscInt_FMT
               " has %" PetscInt_FMT " spheres",
               ma[a].mol, file, b - a, c, t->n);
    for (PetscInt k = 0; k < t->n; k++) {
      PetscInt i = ma[a + k].i;
      PetscCheck(ma[a + k].id == ma[a].id + k, comm, PETSC_ERR_USER_INPUT,
                 "molecule %" PetscInt64_FMT " of %s: its atoms' ids are not consecutive (%" PetscInt64_FMT
                 " after %" PetscInt64_FMT "); a body's spheres are numbered from its first",
                 ma[a].mol, file, ma[a + k].id, ma[a + k - 1].id);
      for (int e = 0; e < 3; e++) { /* the nearest image of the first atom (image flags are not read) */
        PetscReal L = g->hi[e] - g->lo[e], y = d->x[3 * i + e], y0 = d->x[3 * ma[a].i + e];
        if (g->periodic[e] && y - y0 > 0.5 * L) y -= L;
        if (g->periodic[e] && y0 - y > 0.5 * L) y += L;
        x[3 * k + e] = y;
        V[e] += d->v[3 * i + e] / (PetscReal)t->n, W[e] += d->w[3 * i + e] / (PetscReal)t->n;
      }
      r[k] = 0.5 * d->diameter[i];
    }
    BodyFit(t, x, r, &l, X, q, &res);
    PetscCheck(res <= 1e-3 * l * t->extent, comm, PETSC_ERR_USER_INPUT,
               "molecule %" PetscInt64_FMT " of %s is not the body clump%" PetscInt_FMT
               ": its atoms lie up to %g m from the template's spheres scaled by %g (more than 1e-3 of its extent)",
               ma[a].mol, file, c, (double)res, (double)l);
    for (int e = 0; e < 3; e++) {
      PetscReal L = g->hi[e] - g->lo[e];
      if (g->periodic[e] && X[e] >= g->hi[e]) X[e] -= L;
      if (g->periodic[e] && X[e] < g->lo[e]) X[e] += L;
    }
    for (PetscInt k = 0; k < t->n; k++) done[ma[a + k].i] = PETSC_TRUE;
    PetscCall(GridOwnerOf(g, X, owner));
    for (int e = 0; e < 3; e++) me = me && owner[e] == g->coords[e];
    if (me) PetscCall(BodyAppendAt(p, ct, c, ma[a].id, d->type[ma[a].i], l, d->density[ma[a].i], X, V, q, W));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InsertLammpsAtoms(MPI_Comm, const Insertion *, const Grid *, const LammpsData *,
                                        const PetscBool *, Particles *, PetscReal *);

static PetscErrorCode InsertLammps(MPI_Comm comm, const Insertion *ins, const ClumpTemplates *ct, const Grid *g,
                                   LammpsData *cached, Particles *p, PetscReal *rmax_out)
{
  LammpsData  d;
  const char *file = ins->file;
  PetscBool  *done = NULL;

  PetscFunctionBeginUser;
  if (cached && cached->n) { /* read already, to shape the grid */
    d = *cached;
    PetscCall(PetscMemzero(cached, sizeof(*cached)));
  } else PetscCall(LammpsDataRead(comm, file, &d));
  {
    PetscErrorCode ierr = PetscCalloc1(d.n + 1, &done);
    if (!ierr && BodyChoiceHasBodies(&ins->body)) ierr = InsertMolecules(comm, ins, ct, g, &d, p, done);
    if (!ierr) ierr = InsertLammpsAtoms(comm, ins, g, &d, done, p, rmax_out);
    PetscCall(PetscFree(done)); /* the atoms are freed on an error too */
    PetscCall(LammpsDataDestroy(&d));
    PetscCall(ierr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* InsertLammps' atoms that are not a body's into this rank's particles, and the largest radius. */
static PetscErrorCode InsertLammpsAtoms(MPI_Comm comm, const Insertion *ins, const Grid *g, const LammpsData *dp,
                                        const PetscBool *done, Particles *p, PetscReal *rmax_out)
{
  const LammpsData d    = *dp;
  const char      *file = ins->file;
  PetscReal        rmax = 0.0;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < d.n; i++) {
    PetscMPIInt owner[3], me = 1;
    PetscReal   x[3];
    for (int a = 0; a < 3; a++) { /* periodic coordinates wrapped into the box */
      PetscReal L = g->hi[a] - g->lo[a];
      x[a]        = d.x[3 * i + a];
      if (g->periodic[a]) {
        if (x[a] >= g->hi[a]) x[a] -= L;
        if (x[a] < g->lo[a]) x[a] += L;
      }
    }
    /* every rank holds every atom (broadcast), so these fail alike on all of them */
    for (int a = 0; a < 3; a++) {
      PetscCheck(x[a] >= g->lo[a] && x[a] <= g->hi[a], comm, PETSC_ERR_USER_INPUT,
                 "atom %" PetscInt64_FMT
                 " of %s at (%g, %g, %g) is outside the domain along %c, [%g, %g] (-domain_lo, -domain_hi)",
                 d.id[i], file, (double)d.x[3 * i], (double)d.x[3 * i + 1], (double)d.x[3 * i + 2], "xyz"[a],
                 (double)g -> lo[a], (double)g -> hi[a]);
      PetscCheck(d.diameter[i] < g->hi[a] - g->lo[a], comm, PETSC_ERR_USER_INPUT,
                 "atom %" PetscInt64_FMT " of %s has diameter %g m, no smaller than the domain along %c (%g m)",
                 d.id[i], file, (double)d.diameter[i], "xyz"[a], (double)(g->hi[a] - g->lo[a]));
    }
    rmax = PetscMax(rmax, 0.5 * d.diameter[i]);
    if (done[i]) continue; /* a body's sphere */
    PetscCall(GridOwnerOf(g, x, owner));
    for (int a = 0; a < 3; a++) me = me && owner[a] == g->coords[a];
    if (!me) continue;
    PetscCall(ParticlesAppend(p, d.id[i], d.type[i], d.type[i] == ins->frozen_type ? PARTICLE_FROZEN : 0,
                              0.5 * d.diameter[i], d.density[i], x, d.v + 3 * i, d.w + 3 * i));
  }
  *rmax_out = rmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode InsertionApply(MPI_Comm comm, const Insertion *ins, const ClumpTemplates *ct, const Grid *g,
                              PetscReal density, LammpsData *cached, Particles *p, PetscReal *rmax)
{
  PetscReal rlo[3], rhi[3];

  PetscFunctionBeginUser;
  if (ins->mode == INSERTION_LAMMPS) {
    PetscCheck(ins->file_set, comm, PETSC_ERR_USER_INPUT, "-insert_mode lammps needs -insert_file");
    PetscCall(InsertLammps(comm, ins, ct, g, cached, p, rmax));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(ins->count_set, comm, PETSC_ERR_USER_INPUT, "-insert_mode %s needs -insert_count",
             InsertionModes[ins->mode]);
  PetscCall(RadiusDistributionCheck(comm, "-insert", &ins->rd));
  for (int a = 0; a < 3; a++) {
    rlo[a] = ins->lo_set ? ins->rlo[a] : g->lo[a];
    rhi[a] = ins->hi_set ? ins->rhi[a] : g->hi[a];
    PetscCheck(rhi[a] > rlo[a] && rlo[a] >= g->lo[a] && rhi[a] <= g->hi[a], comm, PETSC_ERR_USER_INPUT,
               "-insert_region_lo/_hi must be a box inside the domain (axis %d)", a);
  }
  if (ins->mode == INSERTION_RANDOM) PetscCall(InsertRandom(comm, ins, ct, g, rlo, rhi, density, p, rmax));
  else PetscCall(InsertLattice(comm, ins, ct, g, rlo, rhi, density, p, rmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}
