#include "insert/insert.h"
#include "insert/insert_lammps.h"
#include "insert/insert_random.h"
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
  PetscInt                  each = BodyChoiceSpheresEach(&ins->body, ct);
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
  if (ins->mode == INSERTION_RANDOM) {
    InsertRandomKeys keys = {&ins->rd,   &ins->body, ins->count, ins->seed, {ins->v0[0], ins->v0[1], ins->v0[2]},
                             ins->vrand, ins->type};
    PetscCall(InsertRandom(comm, &keys, ct, g, rlo, rhi, density, p, rmax));
  } else PetscCall(InsertLattice(comm, ins, ct, g, rlo, rhi, density, p, rmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}
