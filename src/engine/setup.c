/* A run's engine from the options database: the model, the step control,
 * the domain and its process grid (shaped by where the particles will be),
 * the walls, the load balance, gravity, the lists' skin and the particles
 * (insert/insert.h).  EngineSetFromOptions reads (and checks) every key
 * but the walls', meshes' and templates' (which come with their files) and
 * builds nothing; EngineCreate builds.  Collecting (io/options.h), nothing
 * is built. */
#include "engine/setup.h"
#include "contact/contact_options.h"
#include "insert/insert.h"
#include "insert/insert_h5.h"
#include "engine/flow.h"
#include "engine/moisture.h"
#include "engine/health.h"
#include "geometry/mesh_bins.h"
#include "io/options.h"
#include "decomp/collective.h"

#define SETUP_GRAVITY_SHRINK 4.0 /* how much the grid avoids cutting across gravity */

static PetscErrorCode DomainSetFromOptions(MPI_Comm comm, DomainKeys *dk)
{
  PetscBool loset, hiset;
  PetscInt  n;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(dk, sizeof(*dk)));
  dk->faces = PETSC_TRUE;
  PetscCall(OptionsSection("Domain"));
  PetscCall(OptionsRealArray("-domain_lo", "lower corner of the box", "[m]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL,
                             RANGE_CLOSED, dk->lo, &n, &loset));
  PetscCall(OptionsRealArray("-domain_hi", "upper corner of the box", "[m]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL,
                             RANGE_CLOSED, dk->hi, &n, &hiset));
  PetscCall(OptionsBoolArray("-domain_periodic", "periodic along x, y, z", 3, 3, dk->periodic, &n, NULL));
  PetscCall(OptionsIntArray("-domain_grid", "ranks along x, y, z (0: chosen from where the particles are)", 3, 3, 0,
                            1 << 20, dk->grid, &n, NULL));
  PetscCall(OptionsBool("-domain_walls", "plane walls on the faces of the non-periodic axes", &dk->faces, NULL));
  PetscCall(OptionsDefaultText("-domain_lo", "required"));
  PetscCall(OptionsDefaultText("-domain_hi", "required"));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(loset && hiset, comm, PETSC_ERR_USER_INPUT,
             "the deck needs domain: {lo: [x, y, z], hi: [x, y, z]} (-domain_lo, -domain_hi) [m]");
  for (int a = 0; a < 3; a++)
    PetscCheck(dk->hi[a] > dk->lo[a], comm, PETSC_ERR_USER_INPUT,
               "-domain_hi must exceed -domain_lo on every axis (axis %d: %g <= %g)", a, (double)dk->hi[a],
               (double)dk->lo[a]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The extent the particles will occupy, for the shape of the process grid:
 * the LAMMPS file's particles (read once, kept for the insertion) or the fill
 * region, with the streams' boxes (alone when there is no fill), and the
 * whole length of periodic axes (a flow crosses them).  Particles pile up
 * along gravity: a cut across it leaves the upper ranks empty, so that axis
 * counts as SETUP_GRAVITY_SHRINK times shorter; streams' particles fall
 * the axis's whole length. */
static PetscErrorCode DomainOccupied(MPI_Comm comm, const DomainKeys *dk, const Insertion *ins, PetscBool fill,
                                     const Streams *ss, const PetscReal g[3], LammpsData *d, PetscReal len[3])
{
  PetscReal olo[3], ohi[3];
  PetscInt  ag = 0;

  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++)
    olo[a] = ins->lo_set ? ins->rlo[a] : dk->lo[a], ohi[a] = ins->hi_set ? ins->rhi[a] : dk->hi[a];
  if (ins->mode == INSERTION_LAMMPS && ins->file_set) {
    PetscCall(LammpsDataRead(comm, ins->file, d));
    PetscCall(LammpsDataExtent(comm, d, olo, ohi));
  } else if (ins->mode == INSERTION_HDF5 && ins->file_set) {
    for (int a = 0; a < 3; a++) olo[a] = dk->lo[a], ohi[a] = dk->hi[a];
    PetscCall(InsertH5Extent(comm, ins->file, olo, ohi));
  } else if (ins->mode == INSERTION_LAMMPS || ins->mode == INSERTION_HDF5) { /* no file: said where they are */
    for (int a = 0; a < 3; a++) olo[a] = dk->lo[a], ohi[a] = dk->hi[a];
  }
  for (int a = 1; a < 3; a++)
    if (PetscAbsReal(g[a]) > PetscAbsReal(g[ag])) ag = a;
  if (ss->n) {
    if (!fill)
      for (int a = 0; a < 3; a++) olo[a] = PETSC_MAX_REAL, ohi[a] = -PETSC_MAX_REAL;
    for (PetscInt k = 0; k < STREAMS_MAX; k++)
      for (int a = 0; a < 3 && ss->s[k].on; a++)
        olo[a] = PetscMin(olo[a], ss->s[k].lo[a]), ohi[a] = PetscMax(ohi[a], ss->s[k].hi[a]);
    if (g[ag] != 0.0) olo[ag] = dk->lo[ag], ohi[ag] = dk->hi[ag];
  }
  for (int a = 0; a < 3; a++) {
    PetscReal l = PetscMin(ohi[a], dk->hi[a]) - PetscMax(olo[a], dk->lo[a]);
    len[a]      = dk->periodic[a] || !(l > 0.0) ? dk->hi[a] - dk->lo[a] : l;
  }
  if (g[ag] != 0.0 && !dk->periodic[ag]) len[ag] /= SETUP_GRAVITY_SHRINK;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Load balance keys balance_*: results do not depend on them, only speed. */
static PetscErrorCode BalanceSetFromOptions(Engine *e)
{
  PetscFunctionBeginUser;
  BalancerDefaults(&e->balance);
  PetscCall(OptionsSection("Load balance"));
  PetscCall(
    OptionsEnum("-balance_mode",
                "what the grid's cuts even out: none (equal slabs), count (owned particles), time (busy seconds), "
                "rcb (a tree of bisections by balance_weight)",
                BalanceModes, (PetscEnum *)&e->balance.mode, NULL));
  PetscCall(OptionsEnum("-balance_weight",
                        "what a particle weighs in the rcb mode: time (its rank's busy seconds per "
                        "particle) or count (one)",
                        BalanceWeights, (PetscEnum *)&e->balance.weight, NULL));
  PetscCall(OptionsInt("-balance_interval", "steps between balances (each at the next list rebuild)", 1, PETSC_MAX_INT,
                       &e->balance.interval, NULL));
  PetscCall(OptionsReal("-balance_threshold", "largest rank cost over the mean that is left alone", "[-]", 1.0,
                        PETSC_MAX_REAL, RANGE_CLOSED, &e->balance.threshold, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the fill and the streams make: the templates they name exist; with
 * some body among them, the body fields, and how far bodies reach from
 * their centres (the ghost cutoff's, EngineGhostCutoff) and the sphere
 * around the largest (a stream's box must hold it). */
static PetscErrorCode EngineBodiesSetFromOptions(MPI_Comm comm, const Insertion *ins, Engine *e)
{
  PetscBool bodies = PETSC_FALSE;

  PetscFunctionBeginUser;
  e->body_reach = e->body_bound = 0.0, e->body_reach_template = -1;
  for (PetscInt k = -1; k < STREAMS_MAX; k++) {
    const BodyChoice *bc = k < 0 ? &ins->body : &e->flow.streams.s[k].body;
    PetscReal         rmax;
    char              pre[32];
    if (k >= 0 && !e->flow.streams.s[k].on) continue;
    if (k < 0) PetscCall(PetscStrncpy(pre, "-insert", sizeof(pre)));
    else PetscCall(PetscSNPrintf(pre, sizeof(pre), "-stream%" PetscInt_FMT, k));
    PetscCall(BodyChoiceCheck(comm, pre, bc, &e->clumps));
    rmax = k < 0 ? RadiusDistributionMax(&ins->rd) : e->flow.streams.s[k].rmax;
    for (PetscInt c = 0; c < bc->n; c++) {
      PetscReal b, m, q;
      if (bc->tmpl[c] < 0) continue;
      BodyChoiceSizes(&e->clumps, bc->tmpl[c], rmax, &b, &m, &q);
      if (q > e->body_reach) e->body_reach = q, e->body_reach_template = bc->tmpl[c];
      e->body_bound = PetscMax(e->body_bound, b);
      if (!BodyIsSphere(&e->clumps, bc->tmpl[c])) bodies = PETSC_TRUE;
      if (k >= 0)
        for (int a = 0; a < 3; a++)
          PetscCheck(e->flow.streams.s[k].hi[a] - e->flow.streams.s[k].lo[a] >= 2.0 * b, comm, PETSC_ERR_USER_INPUT,
                     "%s_region_lo/_hi: the box is %g m along %c, less than the %g m across a clump%" PetscInt_FMT
                     " body of the stream's largest radius",
                     pre, (double)(e->flow.streams.s[k].hi[a] - e->flow.streams.s[k].lo[a]), "xyz"[a],
                     (double)(2.0 * b), bc -> tmpl[c]);
    }
  }
  if (bodies) PetscCall(ParticlesAddBodies(&e->p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Health keys health_*: what the run does when energy grows without a source. */
static PetscErrorCode HealthSetFromOptions(Engine *e)
{
  PetscEnum act = (PetscEnum)0;

  PetscFunctionBeginUser;
  PetscCall(OptionsSection("Health"));
  e->health.energy_growth   = ENGINE_ENERGY_GROWTH;
  e->health.energy_interval = 1000;
  PetscCall(OptionsReal("-health_energy_growth",
                        "kinetic + elastic energy above its sources (start, gravity, moving walls, flow) by more "
                        "than this fraction of their magnitudes fails the run",
                        "[-]", 0.0, PETSC_MAX_REAL, RANGE_OPEN, &e->health.energy_growth, NULL));
  PetscCall(OptionsEnum("-health_energy_action", "energy grown without a source: fail (exit 3, failed.h5) or warn once",
                        EngineEnergyActions, &act, NULL));
  e->health.energy_warn = act ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(OptionsInt("-health_energy_interval",
                       "steps between energy checks where no output computes the energies (0: at outputs only)", 0,
                       1000000000, &e->health.energy_interval, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The particles of a state file (insert_mode hdf5), each of the mass its
 * type's material gives it (a file holds radii, not masses); *liquid: each
 * one's liquid is the file's. */
static PetscErrorCode EngineInsertH5(MPI_Comm comm, const Insertion *ins, Engine *e, PetscBool *liquid)
{
  PetscReal    density[MATERIAL_SLOTS];
  InsertH5Keys keys = {ins->file, ins->frozen_type, density, MATERIAL_SLOTS};

  PetscFunctionBeginUser;
  PetscCheck(ins->file_set, comm, PETSC_ERR_USER_INPUT,
             "-insert_mode hdf5 needs -insert_file (a final.h5 or a snapshot)");
  PetscCheck(!BodyChoiceHasBodies(&ins->body), comm, PETSC_ERR_USER_INPUT,
             "-insert_body with -insert_mode hdf5: a state file's particles are spheres, each as it was; bodies come "
             "from the fills or a data file, and a run with bodies goes on from its checkpoint (-restart)");
  for (PetscInt k = 0; k < MATERIAL_SLOTS; k++) density[k] = ContactMaterialOf(&e->model, k)->density;
  PetscCall(InsertH5(comm, &keys, &e->grid, &e->p, &e->rmax, liquid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* EngineCreate's grid, walls, meshes, templates and particles (the
 * fill from data, the data file read to shape the grid, taken on). */
static PetscErrorCode EngineCreateFromKeys(MPI_Comm comm, PetscBool insert, PetscBool fill, const DomainKeys *dk,
                                           const Insertion *ins, LammpsData *data, Engine *e)
{
  PetscBool wet = PETSC_FALSE; /* the liquid is a state file's */

  PetscFunctionBeginUser;
  PetscCall(GridCreate(comm, dk->lo, dk->hi, dk->periodic, dk->grid, &e->grid));
  PetscCall(FlowCheckDomain(comm, &e->flow, dk->lo, dk->hi));
  PetscCall(PlanesSetFromOptions(comm, &e->grid, dk->faces, &e->planes));
  PetscCall(MeshesSetFromOptions(comm, &e->meshes));
  PetscCall(MeshesBin(comm, &e->meshes));
  PetscCall(MeshesCheckDomain(comm, &e->meshes, dk->lo, dk->hi));
  e->meshes.wall0 = e->planes.n;
  PetscCall(ClumpTemplatesSetFromOptions(comm, &e->clumps));
  StreamsSetUpBodies(&e->flow.streams, &e->clumps); /* a sieve curve's bodies: their radii */
  PetscCall(ParticlesCreate(&e->p));
  PetscCall(EngineBodiesSetFromOptions(comm, ins, e));
  if (e->model.liquid.on) PetscCall(ParticlesAddLiquid(&e->p));
  e->flow.liquid = e->model.liquid.on;
  PetscCall(FlowAddFields(&e->flow, &e->p));
  {
    PetscBool moves = PETSC_FALSE;
    for (PetscInt k = 0; k < e->planes.n; k++) moves = moves || e->planes.w[k].moves ? PETSC_TRUE : PETSC_FALSE;
    for (PetscInt q = 0; q < e->meshes.n; q++) {
      const WallMotion *mo = &e->meshes.m[q].motion;
      if (WallMotionMoves(mo) || mo->surface_velocity[0] != 0.0 || mo->surface_velocity[1] != 0.0 ||
          mo->surface_velocity[2] != 0.0)
        moves = PETSC_TRUE;
    }
    /* without the ledger: the moving walls' work (dissipated counts it) in the ledger's way, or gravity's alone */
    if (e->model.ledger || moves)
      PetscCall(ParticlesAddLedger(&e->p, e->model.ledger, e->model.rolls, e->model.liquid.on, moves));
    else PetscCall(ParticlesAddGravityWork(&e->p));
  }
  /* a restart: the particles, rmax and the skin are the checkpoint's */
  if (insert && fill && ins->mode == INSERTION_HDF5) PetscCall(EngineInsertH5(comm, ins, e, &wet));
  else if (insert && fill)
    PetscCall(InsertionApply(comm, ins, &e->clumps, &e->grid, ContactMaterialOf(&e->model, ins->type)->density, data,
                             &e->p, &e->rmax));
  if (!wet) PetscCall(EngineLiquidFill(e, 0, e->p.n, NULL));
  PetscCall(EngineMoistureSetUp(comm, e, ins, fill, insert));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineSetFromOptions(MPI_Comm comm, Engine *e, EngineKeys *k)
{
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(e, sizeof(*e)));
  PetscCall(PetscMemzero(k, sizeof(*k)));
  e->health.liquid_start = -1.0;
  PetscCall(HistoryStoreCreate(&e->hs));
  PetscCall(ContactModelSetFromOptions(comm, &e->model));
  PetscCall(StepControlSetFromOptions(comm, &e->ctl));
  PetscCall(DomainSetFromOptions(comm, &k->dk));
  PetscCall(BalanceSetFromOptions(e));
  PetscCall(OptionsSection("Forces and neighbours"));
  PetscCall(OptionsRealArray("-gravity", "gravitational acceleration", "[m/s^2]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL,
                             RANGE_CLOSED, e->gravity, &n, NULL));
  PetscCall(OptionsReal("-neighbor_skin", "Verlet skin (default 0.1 of the largest diameter)", "[m]", 0.0,
                        PETSC_MAX_REAL, RANGE_OPEN, &k->skin, &k->skinset));
  PetscCall(OptionsDefaultText("-neighbor_skin", "0.1 of the largest diameter"));
  PetscCall(HealthSetFromOptions(e));
  PetscCall(OptionsSection("Energy ledger"));
  PetscCall(
    OptionsBool("-thermo_ledger",
                "thermo.csv's energy ledger: dissipation by channel, the works, the springs' energies, the residual",
                &e->model.ledger, NULL));
  PetscCall(InsertionSetFromOptions(comm, &k->ins));
  PetscCall(FlowSetFromOptions(comm, &e->flow));
  /* a deck may start empty and be filled by its streams */
  k->fill = k->ins.given || !e->flow.streams.n ? PETSC_TRUE : PETSC_FALSE;
  if (OptionsCollecting()) { /* the keys of what comes with files, read for the record */
    PetscCall(PlanesSetFromOptions(comm, NULL, k->dk.faces, &e->planes));
    PetscCall(MeshesSetFromOptions(comm, &e->meshes));
    PetscCall(ClumpTemplatesSetFromOptions(comm, &e->clumps));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The largest radius of the particles present and those a stream may make: the skin, ghost cutoff and bins hold
 * for every one. */
static PetscErrorCode EngineRadiusMax(MPI_Comm comm, Engine *e)
{
  PetscReal r = e->rmax;

  PetscFunctionBeginUser;
  PetscCall(CollectiveMaxAll(comm, &r, 1));
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    const Stream *st = &e->flow.streams.s[k];
    PetscReal     b, m, q;
    if (!st->on) continue;
    BodyChoiceSizesMax(&st->body, &e->clumps, st->rmax, &b, &m, &q);
    r = PetscMax(r, m);
  }
  e->rmax = r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineCreate(MPI_Comm comm, PetscBool insert, EngineKeys *k, Engine *e)
{
  LammpsData data; /* a LAMMPS file read to shape the grid, then inserted */

  PetscFunctionBeginUser;
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMemzero(&data, sizeof(data)));
  /* shaped by where the particles are, not the box */
  if (insert && (!k->dk.grid[0] || !k->dk.grid[1] || !k->dk.grid[2])) {
    PetscReal   len[3];
    PetscMPIInt size, dims[3];
    PetscCall(DomainOccupied(comm, &k->dk, &k->ins, k->fill, &e->flow.streams, e->gravity, &data, len));
    PetscCall(CollectiveRank(comm, NULL, &size));
    PetscCall(GridChooseDims(size, len, k->dk.grid, dims));
    for (int a = 0; a < 3; a++) k->dk.grid[a] = dims[a];
  }
  {
    PetscErrorCode ierr = EngineCreateFromKeys(comm, insert, k->fill, &k->dk, &k->ins, &data, e);
    PetscCall(LammpsDataDestroy(&data)); /* on an error too */
    PetscCall(ierr);
  }
  if (!insert) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(EngineRadiusMax(comm, e));
  PetscCheck(e->rmax > 0.0, comm, PETSC_ERR_USER_INPUT,
             "no particles were inserted (insert_*) and no stream makes any (stream0_*)");
  /* the fills do not overlap each other, but may a mesh through their region; a state file's overlaps are its
   * run's contacts: checked when asked */
  e->health.overlap_start_check = k->ins.mode != INSERTION_HDF5 || k->ins.overlap_set ? PETSC_TRUE : PETSC_FALSE;
  e->health.overlap_start_max   = k->ins.overlap_max;
  e->skin                       = k->skinset ? k->skin : 0.2 * e->rmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}
