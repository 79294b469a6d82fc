/* A run's set-up from the options database (deck keys domain_*, wallN_*,
 * gravity, neighbor_*, insert_*, and the contact and timestep keys). */
#include "engine/setup.h"
#include "contact/contact_options.h"
#include "bodies/random.h"
#include "io/options.h"
#include "io/lammps_data.h"
#include "decomp/collective.h"

#define SETUP_GRAVITY_SHRINK 4.0 /* how much the grid avoids cutting across gravity */

/* The extent the particles will occupy, for the shape of the process grid:
 * the LAMMPS file's particles (read once, kept for the insertion) or the fill
 * region, and the whole length of periodic axes (a flow crosses them). */
static PetscErrorCode DomainOccupied(MPI_Comm comm, const PetscReal lo[3], const PetscReal hi[3], const PetscBool per[3], LammpsData *d, PetscBool *have, PetscReal len[3])
{
  PetscInt  mode = INSERTION_LATTICE, n = 3;
  PetscBool set;
  PetscReal olo[3], ohi[3];
  char      file[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++) olo[a] = lo[a], ohi[a] = hi[a];
  { /* a bad value is said, with its key, where the insertion keys are read */
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = PetscOptionsGetEList(NULL, NULL, "-insert_mode", InsertionModes, 3, &mode, &set);
    PetscCall(PetscPopErrorHandler());
    if (ierr) mode = INSERTION_LATTICE;
  }
  if (mode == INSERTION_LAMMPS) {
    PetscCall(PetscOptionsGetString(NULL, NULL, "-insert_file", file, sizeof(file), &set));
    if (set) {
      PetscCall(LammpsDataRead(comm, file, d));
      *have = PETSC_TRUE;
      for (int a = 0; a < 3; a++) olo[a] = PETSC_MAX_REAL, ohi[a] = -PETSC_MAX_REAL;
      for (PetscInt i = 0; i < d->n; i++)
        for (int a = 0; a < 3; a++) {
          olo[a] = PetscMin(olo[a], d->x[3 * i + a] - 0.5 * d->diameter[i]);
          ohi[a] = PetscMax(ohi[a], d->x[3 * i + a] + 0.5 * d->diameter[i]);
        }
    }
  } else {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    if (PetscOptionsGetRealArray(NULL, NULL, "-insert_region_lo", olo, &n, NULL) || n != 3)
      for (int a = 0; a < 3; a++) olo[a] = lo[a];
    n = 3;
    if (PetscOptionsGetRealArray(NULL, NULL, "-insert_region_hi", ohi, &n, NULL) || n != 3)
      for (int a = 0; a < 3; a++) ohi[a] = hi[a];
    PetscCall(PetscPopErrorHandler());
  }
  for (int a = 0; a < 3; a++) {
    PetscReal l = PetscMin(ohi[a], hi[a]) - PetscMax(olo[a], lo[a]);
    len[a]      = per[a] || !(l > 0.0) ? hi[a] - lo[a] : l;
  }
  { /* particles pile up along gravity: a cut across it leaves the upper ranks
       empty, so that axis counts as SETUP_GRAVITY_SHRINK times shorter */
    PetscReal g[3] = {0, 0, 0};
    PetscInt  ng = 3, ag = 0;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    if (PetscOptionsGetRealArray(NULL, NULL, "-gravity", g, &ng, NULL)) g[0] = g[1] = g[2] = 0.0;
    PetscCall(PetscPopErrorHandler());
    for (int a = 1; a < 3; a++)
      if (PetscAbsReal(g[a]) > PetscAbsReal(g[ag])) ag = a;
    if (g[ag] != 0.0 && !per[ag]) len[ag] /= SETUP_GRAVITY_SHRINK;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DomainSetFromOptions(MPI_Comm comm, Engine *e, PetscBool insert, LammpsData *d, PetscBool *have, PetscBool *walls_on_faces)
{
  PetscReal lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  PetscBool per[3] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE}, loset, hiset;
  PetscInt  n = 3, grid[3] = {0, 0, 0};

  PetscFunctionBeginUser;
  *walls_on_faces = PETSC_TRUE;
  PetscOptionsBegin(comm, NULL, "Domain", NULL);
  PetscCall(OptionsCheckList("-domain_lo", PETSC_FALSE, 3, 3));
  PetscCall(PetscOptionsRealArray("-domain_lo", "lower corner of the box [m]", NULL, lo, &n, &loset));
  PetscCheck(!loset || n == 3, comm, PETSC_ERR_USER_INPUT, "-domain_lo needs 3 values, got %" PetscInt_FMT, n);
  n = 3;
  PetscCall(OptionsCheckList("-domain_hi", PETSC_FALSE, 3, 3));
  PetscCall(PetscOptionsRealArray("-domain_hi", "upper corner of the box [m]", NULL, hi, &n, &hiset));
  PetscCheck(!hiset || n == 3, comm, PETSC_ERR_USER_INPUT, "-domain_hi needs 3 values, got %" PetscInt_FMT, n);
  n = 3;
  PetscCall(OptionsCheckCount("-domain_periodic", 3, 3));
  PetscCall(PetscOptionsBoolArray("-domain_periodic", "periodic along x, y, z", NULL, per, &n, NULL));
  n = 3;
  PetscCall(OptionsCheckList("-domain_grid", PETSC_TRUE, 3, 3));
  PetscCall(PetscOptionsIntArray("-domain_grid", "ranks along x, y, z (0: chosen from the box shape)", NULL, grid, &n, NULL));
  PetscCall(PetscOptionsBool("-domain_walls", "plane walls on the faces of the non-periodic axes", NULL, *walls_on_faces, walls_on_faces, NULL));
  PetscOptionsEnd();
  PetscCheck(loset && hiset, comm, PETSC_ERR_USER_INPUT, "the deck needs domain: {lo: [x, y, z], hi: [x, y, z]} (-domain_lo, -domain_hi) [m]");
  for (int a = 0; a < 3; a++) PetscCheck(hi[a] > lo[a], comm, PETSC_ERR_USER_INPUT, "-domain_hi must exceed -domain_lo on every axis (axis %d: %g <= %g)", a, (double)hi[a], (double)lo[a]);
  for (int a = 0; a < 3; a++) PetscCall(OptionsCheckInt("domain_grid", grid[a], 0, 1 << 20));
  if (insert && (!grid[0] || !grid[1] || !grid[2])) { /* shaped by where the particles are, not the box */
    PetscReal   len[3];
    PetscMPIInt size, dims[3];
    PetscCall(DomainOccupied(comm, lo, hi, per, d, have, len));
    PetscCall(CollectiveRank(comm, NULL, &size));
    PetscCall(GridChooseDims(size, len, grid, dims));
    for (int a = 0; a < 3; a++) grid[a] = dims[a];
  }
  PetscCall(GridCreate(comm, lo, hi, per, grid, &e->grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lattice sites in x-fastest order; site k becomes particle k + 1 on the rank
 * that owns its position, and every random number is keyed by that id, so
 * the initial state does not depend on the rank count. */
static PetscErrorCode InsertLattice(MPI_Comm comm, Engine *e, const RadiusDistribution *rd, PetscInt64 count, PetscInt64 seed, const PetscReal rlo[3], const PetscReal rhi[3], PetscReal factor, const PetscReal v0[3], PetscReal vrand, PetscReal density, PetscInt type)
{
  PetscReal  rmax = RadiusDistributionMax(rd), pitch = 2.0 * rmax * factor;
  PetscInt64 ns[3];
  PetscReal  cap; /* sites, in floating point: the product of three counts can pass 2^63 */

  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++) ns[a] = (PetscInt64)PetscMin(floor((rhi[a] - rlo[a]) / pitch), 1e15);
  cap = (PetscReal)ns[0] * (PetscReal)ns[1] * (PetscReal)ns[2];
  PetscCheck((PetscReal)count <= cap, comm, PETSC_ERR_USER_INPUT, "-insert_count %" PetscInt64_FMT " does not fit: the region holds %.0f lattice sites of pitch %g m (-insert_region_lo/_hi, -insert_spacing)", count, (double)cap, (double)pitch);
  for (PetscInt64 k = 0; k < count; k++) {
    PetscInt64  id = k + 1, c[3] = {k % ns[0], (k / ns[0]) % ns[1], k / (ns[0] * ns[1])};
    PetscReal   x[3], v[3], w[3] = {0, 0, 0}, r, jit = 0.45 * (pitch - 2.0 * rmax);
    PetscMPIInt owner[3], me = 1;
    for (int a = 0; a < 3; a++) x[a] = rlo[a] + (c[a] + 0.5) * pitch + jit * (2.0 * RandomUniform(seed, id, 6, a) - 1.0);
    PetscCall(GridOwnerOf(&e->grid, x, owner));
    for (int a = 0; a < 3; a++) me = me && owner[a] == e->grid.coords[a];
    if (!me) continue;
    PetscCall(RadiusDistributionDraw(rd, seed, id, &r));
    for (int a = 0; a < 3; a++) v[a] = v0[a] + vrand * (2.0 * RandomUniform(seed, id, 2, a) - 1.0);
    PetscCall(ParticlesAppend(&e->p, id, type, 0, r, density, x, v, w));
  }
  e->rmax = rmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Random sequential addition over the whole region, run identically on every
 * rank (positions keyed by id and attempt), each rank keeping what it owns:
 * the fill does not depend on the rank count.  Cells of one largest diameter
 * keep the overlap test local. */
static PetscErrorCode InsertRandom(MPI_Comm comm, Engine *e, const RadiusDistribution *rd, PetscInt64 count, PetscInt64 seed, const PetscReal rlo[3], const PetscReal rhi[3], const PetscReal v0[3], PetscReal vrand, PetscReal density, PetscInt type)
{
  const PetscInt maxtry = 2000;
  PetscReal      rmax = RadiusDistributionMax(rd), h = 2.0 * rmax, *pos, *rad;
  PetscInt64     nc[3], ncell;
  PetscInt      *head, *next;

  PetscFunctionBeginUser;
  /* its cells and links are PetscInt */
  PetscCheck(count < PETSC_MAX_INT / 8, comm, PETSC_ERR_USER_INPUT, "-insert_count %" PetscInt64_FMT ": the random fill takes at most %" PetscInt_FMT " particles (use -insert_mode lattice, or a LAMMPS data file)", count, PETSC_MAX_INT / 8);
  for (int a = 0; a < 3; a++) {
    PetscCheck(rhi[a] - rlo[a] > h, comm, PETSC_ERR_USER_INPUT, "-insert_region_lo/_hi is thinner than a largest diameter along axis %d", a);
    nc[a] = (PetscInt64)PetscMax(1.0, PetscMin(floor((rhi[a] - rlo[a]) / h), 1e15));
  }
  while ((PetscReal)nc[0] * (PetscReal)nc[1] * (PetscReal)nc[2] > 8.0 * (PetscReal)count + 64.0)
    for (int a = 0; a < 3; a++) nc[a] = PetscMax(1, nc[a] / 2);
  ncell = nc[0] * nc[1] * nc[2];
  PetscCall(PetscMalloc4(3 * count + 1, &pos, count + 1, &rad, ncell, &head, count + 1, &next));
  for (PetscInt64 c = 0; c < ncell; c++) head[c] = -1;
  for (PetscInt64 k = 0; k < count; k++) {
    PetscInt64 id = k + 1, cell = -1;
    PetscReal  r, *x = pos + 3 * k;
    PetscBool  ok = PETSC_FALSE;
    PetscCall(RadiusDistributionDraw(rd, seed, id, &r));
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
            for (PetscInt m = head[(cz * nc[1] + cy) * nc[0] + cx]; m >= 0 && ok; m = next[m]) {
              PetscReal d2 = 0.0, s = r + rad[m];
              for (int a = 0; a < 3; a++) d2 += (x[a] - pos[3 * m + a]) * (x[a] - pos[3 * m + a]);
              if (d2 < s * s) ok = PETSC_FALSE;
            }
      cell = (ci[2] * nc[1] + ci[1]) * nc[0] + ci[0];
    }
    PetscCheck(ok, comm, PETSC_ERR_USER_INPUT, "-insert_mode random: no room for particle %" PetscInt64_FMT " of %" PetscInt64_FMT " after %" PetscInt_FMT " tries; the region is too full for a random fill (use -insert_mode lattice, fewer particles or a larger region)", id, count, maxtry);
    rad[k]     = r;
    next[k]    = (PetscInt)head[cell];
    head[cell] = (PetscInt)k;
  }
  for (PetscInt64 k = 0; k < count; k++) {
    PetscInt64  id = k + 1;
    PetscMPIInt owner[3], me = 1;
    PetscReal   v[3], w[3] = {0, 0, 0};
    PetscCall(GridOwnerOf(&e->grid, pos + 3 * k, owner));
    for (int a = 0; a < 3; a++) me = me && owner[a] == e->grid.coords[a];
    if (!me) continue;
    for (int a = 0; a < 3; a++) v[a] = v0[a] + vrand * (2.0 * RandomUniform(seed, id, 2, a) - 1.0);
    PetscCall(ParticlesAppend(&e->p, id, type, 0, rad[k], density, pos + 3 * k, v, w));
  }
  e->rmax = rmax;
  PetscCall(PetscFree4(pos, rad, head, next));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InsertLammps(MPI_Comm comm, Engine *e, const char *file, PetscInt frozen_type, LammpsData *cached, PetscBool have)
{
  LammpsData d;
  PetscReal  rmax = 0.0;

  PetscFunctionBeginUser;
  if (have) { /* read already, to shape the grid */
    d = *cached;
    PetscCall(PetscMemzero(cached, sizeof(*cached)));
  } else PetscCall(LammpsDataRead(comm, file, &d));
  for (PetscInt i = 0; i < d.n; i++) {
    PetscMPIInt owner[3], me = 1;
    PetscReal   x[3];
    for (int a = 0; a < 3; a++) { /* periodic coordinates wrapped into the box */
      PetscReal L = e->grid.hi[a] - e->grid.lo[a];
      x[a]        = d.x[3 * i + a];
      if (e->grid.periodic[a]) {
        if (x[a] >= e->grid.hi[a]) x[a] -= L;
        if (x[a] < e->grid.lo[a]) x[a] += L;
      }
    }
    /* every rank holds every atom (broadcast), so these fail alike on all of them */
    for (int a = 0; a < 3; a++) {
      PetscCheck(x[a] >= e->grid.lo[a] && x[a] <= e->grid.hi[a], comm, PETSC_ERR_USER_INPUT, "atom %" PetscInt64_FMT " of %s at (%g, %g, %g) is outside the domain along %c, [%g, %g] (-domain_lo, -domain_hi)", d.id[i], file, (double)d.x[3 * i], (double)d.x[3 * i + 1], (double)d.x[3 * i + 2], "xyz"[a], (double)e->grid.lo[a], (double)e->grid.hi[a]);
      PetscCheck(d.diameter[i] < e->grid.hi[a] - e->grid.lo[a], comm, PETSC_ERR_USER_INPUT, "atom %" PetscInt64_FMT " of %s has diameter %g m, no smaller than the domain along %c (%g m)", d.id[i], file, (double)d.diameter[i], "xyz"[a], (double)(e->grid.hi[a] - e->grid.lo[a]));
    }
    rmax = PetscMax(rmax, 0.5 * d.diameter[i]);
    PetscCall(GridOwnerOf(&e->grid, x, owner));
    for (int a = 0; a < 3; a++) me = me && owner[a] == e->grid.coords[a];
    if (!me) continue;
    PetscCall(ParticlesAppend(&e->p, d.id[i], d.type[i], d.type[i] == frozen_type ? PARTICLE_FROZEN : 0, 0.5 * d.diameter[i], d.density[i], x, d.v + 3 * i, d.w + 3 * i));
  }
  e->rmax = rmax;
  PetscCall(LammpsDataDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *const InsertionModes[] = {"lattice", "random", "lammps", "InsertionMode", "INSERT_", NULL};

static PetscErrorCode InsertSetFromOptions(MPI_Comm comm, Engine *e, PetscBool insert, LammpsData *cached, PetscBool have)
{
  InsertionMode         mode = INSERTION_LATTICE;
  RadiusDistribution rd;
  PetscInt64         count = 0, seed = 1;
  PetscReal          rlo[3], rhi[3], factor = 1.1, v0[3] = {0, 0, 0}, vrand = 0.0;
  PetscInt           n, type = 1, frozen_type = -1, nval = 16, nwt = 16;
  PetscBool          cset, fset, vset, wset;
  char               file[PETSC_MAX_PATH_LEN] = "";
  const char        *dists[]                  = {"uniform", "normal", "lognormal", "discrete", "RadiusDistributionType", "RADIUS_", NULL};

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&rd, sizeof(rd)));
  rd.type = RADIUS_UNIFORM;
  rd.min = rd.max = rd.mean = 1e-3;
  rd.sigma                  = 0.0;
  for (int a = 0; a < 3; a++) {
    rlo[a] = e->grid.lo[a];
    rhi[a] = e->grid.hi[a];
  }
  PetscOptionsBegin(comm, NULL, "Insertion", NULL);
  PetscCall(PetscOptionsEnum("-insert_mode", "lattice: a jittered lattice fill of a region; random: a random non-overlapping fill; lammps: an atom_style sphere data file", NULL, InsertionModes, (PetscEnum)mode, (PetscEnum *)&mode, NULL));
  PetscCall(OptionsCheckSyntax("-insert_count", PETSC_TRUE));
  {
    PetscInt c = 0;
    PetscCall(PetscOptionsInt("-insert_count", "number of particles (lattice)", NULL, c, &c, &cset));
    count = c;
  }
  PetscCall(OptionsCheckSyntax("-insert_seed", PETSC_TRUE));
  {
    PetscInt sd = (PetscInt)seed;
    PetscCall(PetscOptionsInt("-insert_seed", "random seed", NULL, sd, &sd, NULL));
    seed = sd;
  }
  n = 3;
  PetscCall(OptionsCheckList("-insert_region_lo", PETSC_FALSE, 3, 3));
  PetscCall(PetscOptionsRealArray("-insert_region_lo", "lower corner of the fill region [m] (default the domain)", NULL, rlo, &n, NULL));
  n = 3;
  PetscCall(OptionsCheckList("-insert_region_hi", PETSC_FALSE, 3, 3));
  PetscCall(PetscOptionsRealArray("-insert_region_hi", "upper corner of the fill region [m]", NULL, rhi, &n, NULL));
  PetscCall(OptionsCheckSyntax("-insert_spacing", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-insert_spacing", "lattice pitch in largest diameters [-]", NULL, factor, &factor, NULL));
  n = 3;
  PetscCall(OptionsCheckList("-insert_velocity", PETSC_FALSE, 3, 3));
  PetscCall(PetscOptionsRealArray("-insert_velocity", "initial velocity [m/s]", NULL, v0, &n, NULL));
  PetscCall(OptionsCheckSyntax("-insert_velocity_random", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-insert_velocity_random", "amplitude of uniform random velocity components [m/s]", NULL, vrand, &vrand, NULL));
  PetscCall(PetscOptionsEnum("-insert_radius_distribution", "radius distribution", NULL, dists, (PetscEnum)rd.type, (PetscEnum *)&rd.type, NULL));
  PetscCall(OptionsCheckSyntax("-insert_radius_min", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-insert_radius_min", "smallest radius [m]", NULL, rd.min, &rd.min, NULL));
  PetscCall(OptionsCheckSyntax("-insert_radius_max", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-insert_radius_max", "largest radius [m]", NULL, rd.max, &rd.max, NULL));
  PetscCall(OptionsCheckSyntax("-insert_radius_mean", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-insert_radius_mean", "mean (normal) or median (lognormal) radius [m]", NULL, rd.mean, &rd.mean, NULL));
  PetscCall(OptionsCheckSyntax("-insert_radius_sigma", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-insert_radius_sigma", "standard deviation (normal: of r [m]; lognormal: of ln r)", NULL, rd.sigma, &rd.sigma, NULL));
  PetscCall(OptionsCheckList("-insert_radius_values", PETSC_FALSE, 1, 16));
  PetscCall(PetscOptionsRealArray("-insert_radius_values", "radii of the discrete distribution [m]", NULL, rd.values, &nval, &vset));
  PetscCall(OptionsCheckList("-insert_radius_weights", PETSC_FALSE, 1, 16));
  PetscCall(PetscOptionsRealArray("-insert_radius_weights", "their weights", NULL, rd.weights, &nwt, &wset));
  PetscCall(PetscOptionsInt("-insert_type", "particle type of inserted particles", NULL, type, &type, NULL));
  PetscCall(PetscOptionsString("-insert_file", "LAMMPS atom_style sphere data file (lammps)", NULL, file, file, sizeof(file), &fset));
  PetscCall(PetscOptionsInt("-insert_frozen_type", "LAMMPS atom type that does not move (a chute's base)", NULL, frozen_type, &frozen_type, NULL));
  PetscOptionsEnd();
  PetscCall(OptionsCheckInt("insert_type", type, 0, LOCAL_INT_MAX)); /* stored in 32 bits */
  if (!insert) PetscFunctionReturn(PETSC_SUCCESS); /* a restart: the particles come from the checkpoint */
  if (mode == INSERTION_LAMMPS) {
    PetscCheck(fset, comm, PETSC_ERR_USER_INPUT, "-insert_mode lammps needs -insert_file");
    PetscCall(InsertLammps(comm, e, file, frozen_type, cached, have));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(cset, comm, PETSC_ERR_USER_INPUT, "-insert_mode %s needs -insert_count", InsertionModes[mode]);
  PetscCheck(count >= 0, comm, PETSC_ERR_USER_INPUT, "-insert_count must be >= 0");
  PetscCall(OptionsCheckReal("insert_spacing", factor, 1.0, PETSC_MAX_REAL, RANGE_CLOSED, "[-]"));
  PetscCall(OptionsCheckReal("insert_velocity_random", vrand, 0.0, PETSC_MAX_REAL, RANGE_CLOSED, "[m/s]"));
  rd.ndiscrete = vset ? nval : 0;
  PetscCheck(!vset || !wset || nval == nwt, comm, PETSC_ERR_USER_INPUT, "-insert_radius_values has %" PetscInt_FMT " entries but -insert_radius_weights %" PetscInt_FMT, nval, nwt);
  if (vset && !wset)
    for (PetscInt k = 0; k < nval; k++) rd.weights[k] = 1.0;
  PetscCall(RadiusDistributionCheck(comm, &rd));
  for (int a = 0; a < 3; a++) PetscCheck(rhi[a] > rlo[a] && rlo[a] >= e->grid.lo[a] && rhi[a] <= e->grid.hi[a], comm, PETSC_ERR_USER_INPUT, "-insert_region_lo/_hi must be a box inside the domain (axis %d)", a);
  if (mode == INSERTION_RANDOM) PetscCall(InsertRandom(comm, e, &rd, count, seed, rlo, rhi, v0, vrand, e->model.material.density, type));
  else PetscCall(InsertLattice(comm, e, &rd, count, seed, rlo, rhi, factor, v0, vrand, e->model.material.density, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Load balance keys balance_*: results do not depend on them, only speed. */
static PetscErrorCode BalanceSetFromOptions(MPI_Comm comm, Engine *e)
{
  PetscFunctionBeginUser;
  e->balance_mode      = BALANCE_TIME;
  e->balance_interval  = 100;
  e->balance_threshold = 1.05;
  e->imbalance         = 1.0;
  PetscOptionsBegin(comm, NULL, "Load balance", NULL);
  PetscCall(PetscOptionsEnum("-balance_mode", "what the grid's cuts even out: none (equal slabs), count (owned particles), time (busy seconds)", NULL, BalanceModes, (PetscEnum)e->balance_mode, (PetscEnum *)&e->balance_mode, NULL));
  PetscCall(OptionsCheckSyntax("-balance_interval", PETSC_TRUE));
  PetscCall(PetscOptionsInt("-balance_interval", "steps between balances (each at the next list rebuild)", NULL, e->balance_interval, &e->balance_interval, NULL));
  PetscCall(OptionsCheckSyntax("-balance_threshold", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-balance_threshold", "largest rank cost over the mean that is left alone", NULL, e->balance_threshold, &e->balance_threshold, NULL));
  PetscOptionsEnd();
  PetscCall(OptionsCheckInt("balance_interval", e->balance_interval, 1, PETSC_MAX_INT));
  PetscCall(OptionsCheckReal("balance_threshold", e->balance_threshold, 1.0, PETSC_MAX_REAL, RANGE_CLOSED, "[-]"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineSetFromOptions(MPI_Comm comm, PetscBool insert, Engine *e)
{
  PetscBool  faces, have = PETSC_FALSE;
  PetscInt   n = 3;
  PetscReal  skin = -1.0;
  LammpsData data; /* a LAMMPS file read to shape the grid, then inserted */

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(e, sizeof(*e)));
  PetscCall(PetscMemzero(&data, sizeof(data)));
  PetscCall(HistoryStoreCreate(&e->hs));
  PetscCall(ContactModelSetFromOptions(comm, &e->model));
  PetscCall(StepControlSetFromOptions(comm, &e->ctl));
  PetscCall(DomainSetFromOptions(comm, e, insert, &data, &have, &faces));
  PetscCall(PlanesSetFromOptions(comm, &e->grid, faces, &e->planes));
  PetscCall(BalanceSetFromOptions(comm, e));
  PetscOptionsBegin(comm, NULL, "Forces and neighbours", NULL);
  PetscCall(OptionsCheckList("-gravity", PETSC_FALSE, 3, 3));
  PetscCall(PetscOptionsRealArray("-gravity", "gravitational acceleration [m/s^2]", NULL, e->gravity, &n, NULL));
  PetscCall(OptionsCheckSyntax("-neighbor_skin", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-neighbor_skin", "Verlet skin [m] (default 0.1 of the largest diameter)", NULL, skin, &skin, NULL));
  PetscOptionsEnd();
  PetscCall(ParticlesCreate(&e->p));
  PetscCall(InsertSetFromOptions(comm, e, insert, &data, have));
  if (have) PetscCall(LammpsDataDestroy(&data)); /* not inserted after all (another mode) */
  if (!insert) PetscFunctionReturn(PETSC_SUCCESS); /* rmax and the skin are the checkpoint's */
  {
    PetscReal r = e->rmax;
    PetscCall(CollectiveMaxAll(comm, &r, 1));
    e->rmax = r;
  }
  PetscCheck(e->rmax > 0.0, comm, PETSC_ERR_USER_INPUT, "no particles were inserted (insert_*)");
  e->skin = skin > 0.0 ? skin : 0.2 * e->rmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}
