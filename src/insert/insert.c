#include "insert/insert.h"
#include "insert/insert_lammps.h"
#include "io/options.h"
#include <math.h>

const char *const InsertionModes[] = {"lattice", "random", "lammps", "hdf5", "InsertionMode", "INSERT_", NULL};

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
                        "an atom_style sphere data file; hdf5: a run's final.h5 or snapshot",
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
  PetscCall(
    OptionsPath("-insert_file",
                "LAMMPS atom_style sphere data file (lammps), a final.h5 or snapshot (hdf5); relative in a deck: "
                "to the deck's folder",
                ins->file, sizeof(ins->file), &ins->file_set));
  PetscCall(OptionsInt("-insert_frozen_type",
                       "particle type of a file (lammps, hdf5) that does not move (a chute's base)", PETSC_MIN_INT,
                       PETSC_MAX_INT, &ins->frozen_type, &set[7]));
  PetscCall(OptionsDefaultText("-insert_region_lo", "the domain's"));
  PetscCall(OptionsDefaultText("-insert_region_hi", "the domain's"));
  PetscCall(OptionsDefaultText("-insert_frozen_type", "none"));
  PetscCall(OptionsReal("-insert_overlap_max",
                        "largest overlap of the initial state (two particles, a particle and a wall or mesh), over the "
                        "smaller radius; more is refused",
                        "[-]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &ins->overlap_max, &set[8]));
  ins->overlap_set = set[8];
  PetscCall(BodyChoiceSetFromOptions(comm, "-insert", &ins->body));
  ins->given = ins->body.given || ins->count_set || ins->lo_set || ins->hi_set || ins->file_set ? PETSC_TRUE
                                                                                                : PETSC_FALSE;
  for (int k = 0; k < 9; k++) ins->given = ins->given || set[k] ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The spheres each body of bc makes when every choice makes as many (no
 * bodies: 1), else 0: then a site's first id needs every site before it. */
static PetscInt InsertSpheresEach(const BodyChoice *bc, const ClumpTemplates *ct)
{
  PetscInt n = 1;
  for (PetscInt k = 0; k < bc->n; k++) {
    PetscInt s = BodyChoiceSpheres(ct, bc->tmpl[k]);
    if (k == 0) n = s;
    else if (s != n) return 0;
  }
  return n;
}

/* The lattice's constants: its sites and their pitch, the jitter's amplitude. */
typedef struct {
  PetscInt64 ns[3], count, seed;
  PetscReal  lo[3], pitch, jit;
} InsertSites;

/* Site k (x-fastest) as particle k + 1, its first sphere id0, if its jittered position is this rank's. */
static PetscErrorCode InsertSite(const Insertion *ins, const ClumpTemplates *ct, const Grid *g, const InsertSites *ls,
                                 PetscInt64 k, PetscInt64 id0, PetscInt body, PetscReal density, Particles *p)
{
  PetscInt64  id = k + 1, c[3] = {k % ls->ns[0], (k / ls->ns[0]) % ls->ns[1], (k / ls->ns[0]) / ls->ns[1]};
  PetscReal   x[3], v[3], r;
  PetscMPIInt owner[3], me = 1;

  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++)
    x[a] = ls->lo[a] + (c[a] + 0.5) * ls->pitch + ls->jit * (2.0 * RandomUniform(ls->seed, id, 6, a) - 1.0);
  PetscCall(GridOwnerOf(g, x, owner));
  for (int a = 0; a < 3; a++) me = me && owner[a] == g->coords[a];
  if (!me) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RadiusDistributionDraw(&ins->rd, ls->seed, id, &r));
  for (int a = 0; a < 3; a++) v[a] = ins->v0[a] + ins->vrand * (2.0 * RandomUniform(ls->seed, id, 2, a) - 1.0);
  PetscCall(BodyAppend(p, ct, &ins->body, body, id0, ins->type, r, density, x, v, ls->seed, id));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lattice sites in x-fastest order; site k becomes particle k + 1 on the rank
 * that owns its position, and every random number is keyed by that id, so
 * the initial state does not depend on the rank count.  Where every body
 * makes as many spheres and the ranks are slabs, a rank visits only the
 * sites whose jittered position may be its own, in the same order: its share
 * of the fill, not the whole (a 10^9-site lattice in the time of its share). */
static PetscErrorCode InsertLattice(MPI_Comm comm, const Insertion *ins, const ClumpTemplates *ct, const Grid *g,
                                    const PetscReal rlo[3], const PetscReal rhi[3], PetscReal density, Particles *p,
                                    PetscReal *rmax_out)
{
  const RadiusDistribution *rd   = &ins->rd;
  PetscReal                 rmax = RadiusDistributionMax(rd), rbound, rmember, reach;
  PetscInt64                next = 1, lo[3], hi[3];
  PetscInt                  each = InsertSpheresEach(&ins->body, ct);
  InsertSites               ls;
  PetscReal                 cap; /* sites, in floating point: the product of three counts can pass 2^63 */

  PetscFunctionBeginUser;
  BodyChoiceSizesMax(&ins->body, ct, rmax, &rbound, &rmember, &reach);
  ls.pitch = 2.0 * rbound * ins->factor; /* a site holds the sphere around the largest body */
  ls.jit = 0.45 * (ls.pitch - 2.0 * rbound), ls.count = ins->count, ls.seed = ins->seed;
  for (int a = 0; a < 3; a++)
    ls.ns[a] = (PetscInt64)PetscMin(floor((rhi[a] - rlo[a]) / ls.pitch), 1e15), ls.lo[a] = rlo[a];
  cap = (PetscReal)ls.ns[0] * (PetscReal)ls.ns[1] * (PetscReal)ls.ns[2];
  /* site indices are 64-bit: a pitch so small that they cannot number the region is refused, not wrapped */
  PetscCheck(cap <= 9.2e18, comm, PETSC_ERR_USER_INPUT,
             "-insert_radius: a largest radius of %.17g m makes lattice sites of pitch %g m, %" PetscInt64_FMT
             " x %" PetscInt64_FMT " x %" PetscInt64_FMT " = %.3g of them over the region,"
             " more than the limit 9.2e18 of a 64-bit site index"
             " (a larger -insert_radius or -insert_spacing, or a smaller -insert_region_lo/_hi)",
             (double)rmax, (double)ls.pitch, ls.ns[0], ls.ns[1], ls.ns[2], (double)cap);
  PetscCheck((PetscReal)ls.count <= cap, comm, PETSC_ERR_USER_INPUT,
             "-insert_count %" PetscInt64_FMT " does not fit: the region holds %.0f lattice sites of pitch %g m "
             "(-insert_region_lo/_hi, -insert_spacing)",
             ls.count, (double)cap, (double)ls.pitch);
  *rmax_out = rmember;
  if (!each || g->tree) {
    for (PetscInt64 k = 0; k < ls.count; k++) {
      PetscInt body = BodyChoiceDraw(&ins->body, ls.seed, k + 1), id0 = next;
      next += BodyChoiceSpheres(ct, body);
      PetscCall(InsertSite(ins, ct, g, &ls, k, id0, body, density, p));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (int a = 0; a < 3; a++) { /* the sites within a jitter (and one more) of the subdomain */
    lo[a] = PetscMax(0, (PetscInt64)floor((g->sublo[a] - rlo[a] - ls.jit) / ls.pitch - 0.5) - 1);
    hi[a] = PetscMin(ls.ns[a] - 1, (PetscInt64)ceil((g->subhi[a] - rlo[a] + ls.jit) / ls.pitch - 0.5) + 1);
  }
  for (PetscInt64 cz = lo[2]; cz <= hi[2]; cz++)
    for (PetscInt64 cy = lo[1]; cy <= hi[1]; cy++)
      for (PetscInt64 cx = lo[0]; cx <= hi[0]; cx++) {
        PetscInt64 k = cx + ls.ns[0] * (cy + ls.ns[1] * cz);
        if (k >= ls.count) break;
        PetscCall(InsertSite(ins, ct, g, &ls, k, 1 + k * each, BodyChoiceDraw(&ins->body, ls.seed, k + 1), density, p));
      }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The random fill's cells: the region, its cells, each cell's first particle and the next in its cell, the
 * particles placed so far. */
typedef struct {
  PetscReal        lo[3], hi[3];
  PetscInt64       nc[3];
  const PetscInt  *head, *link;
  const PetscReal *pos, *rad;
} RandomCells;

/* Attempt t of particle id (radius r) at x: whether no particle placed overlaps it, and its cell. */
static PetscBool InsertRandomTry(const RandomCells *g, PetscReal r, PetscInt64 seed, PetscInt64 id, PetscInt t,
                                 PetscReal x[3], PetscInt64 *cell)
{
  PetscInt64 ci[3], lo[3], hi[3];
  PetscBool  ok = PETSC_TRUE;
  for (int a = 0; a < 3; a++) {
    x[a]  = g->lo[a] + r + (g->hi[a] - g->lo[a] - 2.0 * r) * RandomUniform(seed, id, 3 + a, t);
    ci[a] = PetscMin(g->nc[a] - 1, (PetscInt64)((x[a] - g->lo[a]) / (g->hi[a] - g->lo[a]) * g->nc[a]));
    lo[a] = PetscMax(0, ci[a] - 1);
    hi[a] = PetscMin(g->nc[a] - 1, ci[a] + 1);
  }
  for (PetscInt64 cz = lo[2]; cz <= hi[2] && ok; cz++)
    for (PetscInt64 cy = lo[1]; cy <= hi[1] && ok; cy++)
      for (PetscInt64 cx = lo[0]; cx <= hi[0] && ok; cx++)
        for (PetscInt m = g->head[(cz * g->nc[1] + cy) * g->nc[0] + cx]; m >= 0 && ok; m = g->link[m]) {
          PetscReal d2 = 0.0, s = r + g->rad[m];
          for (int a = 0; a < 3; a++) d2 += (x[a] - g->pos[3 * m + a]) * (x[a] - g->pos[3 * m + a]);
          if (d2 < s * s) ok = PETSC_FALSE;
        }
  *cell = (ci[2] * g->nc[1] + ci[1]) * g->nc[0] + ci[0];
  return ok;
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
  RandomCells               grid;

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
  grid = (RandomCells){{rlo[0], rlo[1], rlo[2]}, {rhi[0], rhi[1], rhi[2]}, {nc[0], nc[1], nc[2]}, head, link, pos, rad};
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
    for (PetscInt t = 0; t < maxtry && !ok; t++) ok = InsertRandomTry(&grid, r, seed, id, t, x, &cell);
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

PetscErrorCode InsertionApply(MPI_Comm comm, const Insertion *ins, const ClumpTemplates *ct, const Grid *g,
                              PetscReal density, LammpsData *cached, Particles *p, PetscReal *rmax)
{
  PetscReal rlo[3], rhi[3];

  PetscFunctionBeginUser;
  PetscCheck(ins->mode != INSERTION_HDF5, comm, PETSC_ERR_PLIB, "-insert_mode hdf5 is inserted by InsertH5");
  if (ins->mode == INSERTION_LAMMPS) {
    PetscCheck(ins->file_set, comm, PETSC_ERR_USER_INPUT, "-insert_mode lammps needs -insert_file");
    InsertLammpsKeys keys = {ins->file, &ins->body, ins->frozen_type};
    PetscCall(InsertLammps(comm, &keys, ct, g, cached, p, rmax));
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
