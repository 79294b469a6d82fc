/* hdem run DECK.yaml / hdem check DECK.yaml: a simulation from a deck. */
#include <string.h>
#include "app/commands.h"
#include "app/signals.h"
#include "engine/setup.h"
#include "engine/checkpoint.h"
#include "output/output.h"
#include "io/options.h"
#include "io/snapshot.h"
#include "io/ckptdir.h"
#include "io/outdir.h"
#include "decomp/collective.h"

typedef struct {
  EngineRunLimits lim;
  char            dir[PETSC_MAX_PATH_LEN];
  PetscInt        thermo_interval;
  PetscReal       progress_seconds;
  char            restart[PETSC_MAX_PATH_LEN]; /* FILE, latest or auto; empty: a fresh start */
  PetscInt        ckpt_steps, ckpt_keep;       /* 0: no step cadence */
  PetscReal       ckpt_wall;                   /* [s] of wall clock, 0: none */
  PetscInt        snap_steps, snap_fields;     /* 0: no step cadence; fields: a mask over the particle store's table */
  PetscReal       snap_time;                   /* [s] of simulated time, 0: none */
  char            snap_list[512];              /* -snapshot_fields, parsed once the store exists */
} RunControl;

static PetscErrorCode RunControlSetFromOptions(MPI_Comm comm, RunControl *rc)
{
  PetscBool sset, tset;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(rc, sizeof(*rc)));
  rc->lim.steps        = INT64_MAX;
  rc->lim.end_time     = PETSC_MAX_REAL;
  rc->thermo_interval  = 100;
  rc->progress_seconds = 10.0;
  rc->ckpt_keep        = 2;
  PetscCall(PetscStrncpy(rc->dir, "output", sizeof(rc->dir)));
  PetscCall(PetscStrncpy(rc->snap_list, "all", sizeof(rc->snap_list)));
  PetscCall(OptionsSection("Run"));
  PetscCall(OptionsInt64("-steps", "stop after this many steps from the start of the simulation", 0, INT64_MAX, &rc->lim.steps, &sset));
  PetscCall(OptionsReal("-end_time", "stop at this simulated time", "[s]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &rc->lim.end_time, &tset));
  PetscCall(OptionsString("-output_dir", "where thermo.csv, final.h5 and summary.json go", rc->dir, sizeof(rc->dir), NULL));
  PetscCall(OptionsInt("-thermo_interval", "steps between thermo lines", 1, PETSC_MAX_INT, &rc->thermo_interval, NULL));
  PetscCall(OptionsReal("-progress_interval", "seconds between progress lines", "[s]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &rc->progress_seconds, NULL));
  PetscCall(OptionsString("-restart",
                          "continue from a checkpoint: FILE, latest (the newest in DIR/checkpoints) or auto (latest if there is one, else a fresh start)",
                          rc->restart, sizeof(rc->restart), NULL));
  PetscCall(OptionsSection("Checkpoints"));
  PetscCall(OptionsInt("-checkpoint_interval_steps", "steps between checkpoints (0: none)", 0, PETSC_MAX_INT, &rc->ckpt_steps, NULL));
  PetscCall(OptionsReal("-checkpoint_interval_walltime", "wall-clock seconds between checkpoints (0: none)", "[s]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED,
                        &rc->ckpt_wall, NULL));
  PetscCall(OptionsInt("-checkpoint_keep", "how many of the newest checkpoints are kept", 1, PETSC_MAX_INT, &rc->ckpt_keep, NULL));
  PetscCall(OptionsSection("Snapshots"));
  PetscCall(OptionsInt("-snapshot_interval_steps", "steps between snapshots (0: none)", 0, PETSC_MAX_INT, &rc->snap_steps, NULL));
  PetscCall(
    OptionsReal("-snapshot_interval_time", "simulated seconds between snapshots (0: none)", "[s]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &rc->snap_time, NULL));
  PetscCall(OptionsString("-snapshot_fields", "comma list of snapshot fields: all, id, type, radius, velocity, angular_velocity, force (position always)",
                          rc->snap_list, sizeof(rc->snap_list), NULL));
  PetscCheck(sset || tset, comm, PETSC_ERR_USER_INPUT, "give -steps N or -end_time T (deck keys steps, end_time)");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckPrint(Engine *e)
{
  PetscReal   cnt = (PetscReal)e->p.n, mrep, bound;
  ContactPair cp;
  Damping    *d = &e->model.damping;

  PetscFunctionBeginUser;
  PetscCall(CollectiveSumAll(e->grid.comm, &cnt, 1));
  mrep = (4.0 / 3.0) * HDEM_PI * pow(e->rmax, 3) * e->model.material.density;
  ContactPairSetUp(&e->model, e->rmax, mrep, 0.4 * mrep * e->rmax * e->rmax, e->rmax, mrep, 0.4 * mrep * e->rmax * e->rmax, PETSC_FALSE, &cp);
  bound = ContactStepBound(&e->model, &cp, &e->ctl, 0.5 * cp.m * 1.0, 1.0);
  PetscCall(PetscPrintf(e->grid.comm, "deck            %s\n", OptionsDeck()));
  PetscCall(PetscPrintf(e->grid.comm, "particles       %.0f (largest radius %g m)\n", (double)cnt, (double)e->rmax));
  PetscCall(PetscPrintf(e->grid.comm, "ranks           %d as %d x %d x %d\n", e->grid.size, e->grid.dims[0], e->grid.dims[1], e->grid.dims[2]));
  PetscCall(PetscPrintf(e->grid.comm, "box             [%g, %g] x [%g, %g] x [%g, %g] m, periodic %d %d %d, %" PetscInt_FMT " walls\n", (double)e->grid.lo[0],
                        (double)e->grid.hi[0], (double)e->grid.lo[1], (double)e->grid.hi[1], (double)e->grid.lo[2], (double)e->grid.hi[2], e->grid.periodic[0],
                        e->grid.periodic[1], e->grid.periodic[2], e->planes.n));
  PetscCall(PetscPrintf(e->grid.comm, "contact         law %s, damping %s (e %g, zeta %g), separation %s, mu %g\n", NormalLawTypes[e->model.law.type],
                        DampingTypes[d->type], (double)d->e, (double)d->zeta, SeparationTypes[d->separation], (double)e->model.tangential.mu));
  PetscCall(
    PetscPrintf(e->grid.comm, "timestep        %s, %" PetscInt_FMT " steps per contact; bound of a 1 m/s impact of two largest spheres %g s (contact %g s)\n",
                TimestepModes[e->ctl.mode], e->ctl.steps_per_contact, (double)bound, (double)NormalLawElasticDuration(&e->model.law, cp.s, cp.m, 0.5 * cp.m)));
  PetscCall(PetscPrintf(e->grid.comm, "neighbour skin  %g m\n", (double)e->skin));
  if (e->balance_mode == BALANCE_NONE) PetscCall(PetscPrintf(e->grid.comm, "load balance    none (equal slabs)\n"));
  else
    PetscCall(PetscPrintf(e->grid.comm,
                          "load balance    %s, every %" PetscInt_FMT
                          " steps at the next rebuild, above %g x the mean rank cost; slabs at least %g m (the ghost cutoff)\n",
                          BalanceModes[e->balance_mode], e->balance_interval, (double)e->balance_threshold, (double)EngineGhostCutoff(e)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -restart FILE|latest|auto to a file name, or "" for a fresh start. */
static PetscErrorCode RestartResolve(MPI_Comm comm, const RunControl *rc, char *path, size_t len)
{
  PetscBool found = PETSC_FALSE, latest, aut;

  PetscFunctionBeginUser;
  path[0] = 0;
  if (!rc->restart[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscStrcmp(rc->restart, "latest", &latest));
  PetscCall(PetscStrcmp(rc->restart, "auto", &aut));
  if (!latest && !aut) {
    PetscCall(PetscStrncpy(path, rc->restart, len));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(CheckpointDirLatest(comm, rc->dir, path, len, &found));
  PetscCheck(found || aut, comm, PETSC_ERR_FILE_OPEN, "-restart latest: no checkpoint in %s/checkpoints", rc->dir);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The deck into the options database, the command line over it. */
static PetscErrorCode RunReadDeck(MPI_Comm comm, const char *deck, int argc, char **argv)
{
  FILE          *fp = fopen(deck, "r");
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCheck(fp, comm, PETSC_ERR_FILE_OPEN, "cannot open deck %s", deck);
  fclose(fp);
  PetscCall(OptionsSetDeck(deck));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PetscOptionsInsertFileYAML(comm, NULL, deck, PETSC_TRUE);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(!ierr, comm, PETSC_ERR_USER_INPUT, "deck %s is not valid YAML (or not a mapping of keys)", deck);
  PetscCall(PetscOptionsInsert(NULL, &argc, &argv, NULL)); /* the command line overrides the deck */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The outputs, in the order they write and finish. */
static PetscErrorCode RunMonitors(MPI_Comm comm, const RunControl *rc, const char *options, PetscInt *n, Monitor mons[])
{
  PetscFunctionBeginUser;
  *n = 0;
  PetscCall(SignalsMonitorCreate(&mons[(*n)++]));
  PetscCall(ThermoMonitorCreate(comm, rc->dir, rc->thermo_interval, &mons[(*n)++]));
  if (rc->snap_steps > 0 || rc->snap_time > 0.0)
    PetscCall(SnapshotMonitorCreate(comm, rc->dir, rc->snap_steps, rc->snap_time, rc->snap_fields, options, &mons[(*n)++]));
  PetscCall(
    CheckpointMonitorCreate(comm, rc->dir, rc->ckpt_steps, rc->ckpt_wall, rc->ckpt_keep, options, &mons[(*n)++])); /* signals checkpoint even with no cadence */
  PetscCall(ProgressMonitorCreate(comm, rc->progress_seconds, &rc->lim, &mons[(*n)++]));
  PetscCall(FinalMonitorCreate(comm, rc->dir, options, &mons[(*n)++]));
  PetscCall(SummaryMonitorCreate(comm, rc->dir, &mons[(*n)++]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CommandRun(MPI_Comm comm, const char *deck, PetscBool help, PetscBool check_only, int argc, char **argv, int *status)
{
  Engine       e;
  RunControl   rc;
  char         restart[PETSC_MAX_PATH_LEN];
  char        *options = NULL;
  Monitor      mons[8];
  PetscInt     nmon;
  EngineRunEnd end;

  PetscFunctionBeginUser;
  *status = 0;
  if (deck) PetscCall(RunReadDeck(comm, deck, argc, argv));
  else PetscCheck(help, comm, PETSC_ERR_USER_INPUT, "usage: hdem %s DECK.yaml [-key value ...]", check_only ? "check" : "run");
  PetscCall(RunControlSetFromOptions(comm, &rc));
  if (!check_only && !help) PetscCall(SignalsInstall()); /* before the set-up: a signal then stops at the first step */
  PetscCall(RestartResolve(comm, &rc, restart, sizeof(restart)));
  PetscCall(EngineSetFromOptions(comm, restart[0] ? PETSC_FALSE : PETSC_TRUE, &e));
  if (help) {
    PetscCall(OptionsPrintHelp(comm));
    PetscCall(EngineDestroy(&e));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SnapshotFieldsParse(&e.p.st, rc.snap_list, &rc.snap_fields));
  PetscCall(OptionsCheckUnused(comm));
  if (check_only) {
    if (restart[0]) PetscCall(PetscPrintf(comm, "restart from    %s (particles, skin and state from there)\n", restart));
    else PetscCall(CheckPrint(&e));
    PetscCall(EngineDestroy(&e));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscOptionsGetAll(NULL, &options));
  if (restart[0]) {
    PetscCall(CheckpointRead(&e, restart));
    PetscCall(PetscPrintf(comm, "hdem: continuing from %s at step %" PetscInt64_FMT ", t = %g s\n", restart, e.step, (double)e.t));
  } else PetscCall(EngineSetUp(&e));
  PetscCall(OutputDirCreate(comm, "-output_dir ", rc.dir));
  PetscCall(RunMonitors(comm, &rc, options, &nmon, mons));
  PetscCall(EngineRun(&e, &rc.lim, restart[0] ? PETSC_FALSE : PETSC_TRUE, nmon, mons, &end));
  for (PetscInt k = 0; k < nmon; k++) PetscCall(MonitorDestroy(&mons[k]));
  PetscCall(PetscFree(options));
  PetscCall(EngineDestroy(&e));
  if (end.stopped) *status = HDEM_EXIT_CHECKPOINTED;
  PetscFunctionReturn(PETSC_SUCCESS);
}
