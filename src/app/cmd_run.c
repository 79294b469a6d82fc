/* hdem run DECK.yaml / hdem check DECK.yaml: a simulation from a deck. */
#include <string.h>
#include "app/commands.h"
#include "app/signals.h"
#include "engine/setup.h"
#include "engine/checkpoint.h"
#include "output/output.h"
#include "output/flow.h"
#include "output/fields.h"
#include "io/options.h"
#include "io/snapshot.h"
#include "io/ckptdir.h"
#include "io/outdir.h"
#include "decomp/collective.h"

typedef struct {
  EngineRunLimits lim;
  PetscBool       steps_set, time_set;
  char            dir[PETSC_MAX_PATH_LEN];
  PetscInt        thermo_interval;
  PetscReal       thermo_period; /* [s] of simulated time, 0: none */
  PetscBool       thermo_screen;
  PetscReal       progress_seconds;
  char            restart[PETSC_MAX_PATH_LEN]; /* FILE, latest or auto; empty: a fresh start */
  PetscInt        ckpt_steps, ckpt_keep;       /* 0: no step cadence */
  PetscReal       ckpt_wall;                   /* [s] of wall clock, 0: none */
  /* 0: no step cadence; fields: a mask over the particle store's table */
  PetscInt          snap_steps, snap_fields;
  PetscReal         snap_time;      /* [s] of simulated time, 0: none */
  PetscInt          snap_frames;    /* without a cadence: about this many over the run */
  char              snap_list[512]; /* -snapshot_fields, parsed once the store exists */
  OptionsViewFormat format;         /* hdem check's */
  FieldsSettings    fields;
} RunControl;

static PetscErrorCode RunControlDefaults(RunControl *rc)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(rc, sizeof(*rc)));
  rc->lim.steps        = INT64_MAX;
  rc->lim.end_time     = PETSC_MAX_REAL;
  rc->thermo_interval  = 100;
  rc->thermo_screen    = PETSC_TRUE;
  rc->progress_seconds = 10.0;
  rc->ckpt_keep        = 2;
  rc->snap_frames      = 20;
  PetscCall(PetscStrncpy(rc->dir, "output", sizeof(rc->dir)));
  PetscCall(PetscStrncpy(rc->snap_list, "all", sizeof(rc->snap_list)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunOutputsSetFromOptions(RunControl *rc, PetscBool *tiset, PetscBool *ssset, PetscBool *stset)
{
  PetscFunctionBeginUser;
  PetscCall(OptionsSection("Thermo and progress"));
  PetscCall(OptionsInt("-thermo_interval",
                       "steps between thermo rows (0: none; by default 0 when thermo_interval_time is given)", 0,
                       PETSC_MAX_INT, &rc->thermo_interval, tiset));
  PetscCall(OptionsReal("-thermo_interval_time", "simulated seconds between thermo rows (0: none)", "[s]", 0.0,
                        PETSC_MAX_REAL, RANGE_CLOSED, &rc->thermo_period, NULL));
  PetscCall(
    OptionsBool("-thermo_screen", "print the thermo rows as a table on standard output too", &rc->thermo_screen, NULL));
  PetscCall(OptionsReal("-progress_interval", "wall-clock seconds between progress lines (0: none)", "[s]", 0.0,
                        PETSC_MAX_REAL, RANGE_CLOSED, &rc->progress_seconds, NULL));
  PetscCall(OptionsSection("Checkpoints"));
  PetscCall(OptionsInt("-checkpoint_interval_steps", "steps between checkpoints (0: none)", 0, PETSC_MAX_INT,
                       &rc->ckpt_steps, NULL));
  PetscCall(OptionsReal("-checkpoint_interval_walltime", "wall-clock seconds between checkpoints (0: none)", "[s]", 0.0,
                        PETSC_MAX_REAL, RANGE_CLOSED, &rc->ckpt_wall, NULL));
  PetscCall(OptionsInt("-checkpoint_keep", "how many of the newest checkpoints are kept", 1, PETSC_MAX_INT,
                       &rc->ckpt_keep, NULL));
  PetscCall(OptionsSection("Snapshots"));
  PetscCall(OptionsInt("-snapshot_interval_steps", "steps between snapshots (0: none)", 0, PETSC_MAX_INT,
                       &rc->snap_steps, ssset));
  PetscCall(OptionsReal("-snapshot_interval_time", "simulated seconds between snapshots (0: none)", "[s]", 0.0,
                        PETSC_MAX_REAL, RANGE_CLOSED, &rc->snap_time, stset));
  PetscCall(OptionsInt("-snapshot_frames",
                       "without an interval: snapshots at an even cadence, about this many over the run (0: none)", 0,
                       100000, &rc->snap_frames, NULL));
  PetscCall(OptionsString("-snapshot_fields",
                          "comma list of snapshot fields: all, id, type, radius, velocity, angular_velocity, force "
                          "(position always)",
                          rc->snap_list, sizeof(rc->snap_list), NULL));
  PetscCall(FieldsSetFromOptions(&rc->fields));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunControlSetFromOptions(MPI_Comm comm, RunControl *rc, PetscBool check_only)
{
  PetscBool tiset, ssset, stset;

  PetscFunctionBeginUser;
  PetscCall(RunControlDefaults(rc));
  PetscCall(OptionsSection("Run"));
  PetscCall(OptionsInt64("-steps", "stop after this many steps from the start of the simulation", 0, INT64_MAX,
                         &rc->lim.steps, &rc->steps_set));
  PetscCall(OptionsDefaultText("-steps", "none"));
  PetscCall(OptionsReal("-end_time", "stop at this simulated time", "[s]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED,
                        &rc->lim.end_time, &rc->time_set));
  PetscCall(OptionsDefaultText("-end_time", "none"));
  PetscCall(OptionsString("-output_dir", "where every output goes (relative: to the working directory)", rc->dir,
                          sizeof(rc->dir), NULL));
  PetscCall(OptionsPath("-restart",
                        "continue from a checkpoint: FILE, latest (the newest in DIR/checkpoints) or auto (latest if "
                        "there is one, else a fresh start)",
                        rc->restart, sizeof(rc->restart), NULL));
  PetscCall(RunOutputsSetFromOptions(rc, &tiset, &ssset, &stset));
  if (check_only) {
    PetscCall(OptionsSection("Check"));
    PetscCall(
      OptionsEnum("-format",
                  "hdem check's output: text (every key, its value and source), yaml (a deck that reproduces the run)",
                  OptionsViewFormats, (PetscEnum *)&rc->format, NULL));
  }
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(rc->steps_set || rc->time_set, comm, PETSC_ERR_USER_INPUT,
             "give -steps N or -end_time T (deck keys steps, end_time)");
  if (rc->thermo_period > 0.0 && !tiset) rc->thermo_interval = 0;
  /* an even cadence over the run's limit, whichever of the two ends it */
  if (!ssset && !stset && rc->snap_frames > 0) {
    if (rc->time_set) rc->snap_time = rc->lim.end_time / (PetscReal)rc->snap_frames;
    if (rc->steps_set) rc->snap_steps = (PetscInt)PetscMax(1, rc->lim.steps / rc->snap_frames);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The banner's lines on the run's limits and outputs. */
static PetscErrorCode RunPlan(const RunControl *rc, char *buf, size_t len)
{
  char lim[128] = "", thermo[128] = "", snap[128] = "none", ckpt[160] = "";

  PetscFunctionBeginUser;
  if (rc->steps_set) snprintf(lim, sizeof(lim), "%" PetscInt64_FMT " steps", rc->lim.steps);
  if (rc->time_set)
    snprintf(lim + strlen(lim), sizeof(lim) - strlen(lim), "%st = %g s", rc->steps_set ? " or " : "",
             (double)rc->lim.end_time);
  if (rc->thermo_interval > 0) snprintf(thermo, sizeof(thermo), "every %" PetscInt_FMT " steps", rc->thermo_interval);
  if (rc->thermo_period > 0.0)
    snprintf(thermo + strlen(thermo), sizeof(thermo) - strlen(thermo), "%severy %g s", thermo[0] ? " and " : "",
             (double)rc->thermo_period);
  if (!thermo[0]) PetscCall(PetscStrncpy(thermo, "at the start and the end", sizeof(thermo)));
  if (rc->snap_steps > 0) snprintf(snap, sizeof(snap), "every %" PetscInt_FMT " steps", rc->snap_steps);
  if (rc->snap_time > 0.0) {
    size_t at = rc->snap_steps > 0 ? strlen(snap) : 0;
    snprintf(snap + at, sizeof(snap) - at, "%severy %g s", at ? " and " : "", (double)rc->snap_time);
  }
  if (rc->ckpt_steps > 0) snprintf(ckpt, sizeof(ckpt), "every %" PetscInt_FMT " steps, ", rc->ckpt_steps);
  if (rc->ckpt_wall > 0.0)
    snprintf(ckpt + strlen(ckpt), sizeof(ckpt) - strlen(ckpt), "every %.0f s of wall clock, ", (double)rc->ckpt_wall);
  PetscCall(PetscStrlcat(ckpt, ckpt[0] ? "at the end and on a signal" : "on a signal", sizeof(ckpt)));
  PetscCall(PetscSNPrintf(buf, len,
                          "  run to      %s\n  output      %s: thermo %s; snapshots %s; checkpoints %s; final state at "
                          "the end\n",
                          lim, rc->dir, thermo, snap, ckpt));
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
  ContactPairSetUp(&e->model, MATERIAL_TYPES, MATERIAL_TYPES, e->rmax, mrep, 0.4 * mrep * e->rmax * e->rmax, e->rmax,
                   mrep, 0.4 * mrep * e->rmax * e->rmax, PETSC_FALSE, &cp);
  bound = ContactStepBound(&e->model, &cp, &e->ctl, 0.5 * cp.m * 1.0, 1.0);
  PetscCall(ReportPrintf(e->grid.comm, "deck            %s\n", OptionsDeck()));
  PetscCall(ReportPrintf(e->grid.comm, "particles       %.0f (largest radius %g m)\n", (double)cnt, (double)e->rmax));
  PetscCall(ReportPrintf(e->grid.comm, "ranks           %d as %d x %d x %d\n", e->grid.size, e->grid.dims[0],
                         e->grid.dims[1], e->grid.dims[2]));
  PetscCall(ReportPrintf(e->grid.comm,
                         "box             [%g, %g] x [%g, %g] x [%g, %g] m, periodic %d %d %d, %" PetscInt_FMT
                         " walls\n",
                         (double)e->grid.lo[0], (double)e->grid.hi[0], (double)e->grid.lo[1], (double)e->grid.hi[1],
                         (double)e->grid.lo[2], (double)e->grid.hi[2], e->grid.periodic[0], e->grid.periodic[1],
                         e->grid.periodic[2], e->planes.n));
  PetscCall(ReportPrintf(e->grid.comm, "contact         law %s, damping %s (e %g, zeta %g), separation %s, mu %g\n",
                         NormalLawTypes[e->model.law.type], DampingTypes[d->type], (double)d->e, (double)d->zeta,
                         SeparationTypes[d->separation], (double)e->model.tangential.mu));
  PetscCall(ReportPrintf(e->grid.comm,
                         "timestep        %s, %" PetscInt_FMT
                         " steps per contact; bound of a 1 m/s impact of two largest spheres %g s (contact %g s)\n",
                         TimestepModes[e->ctl.mode], e->ctl.steps_per_contact, (double)bound,
                         (double)NormalLawElasticDuration(&e->model.law, cp.s, cp.m, 0.5 * cp.m)));
  PetscCall(OutputPairTable(e));
  if (e->model.liquid.on) {
    const Liquid *lq = &e->model.liquid;
    PetscCall(ReportPrintf(e->grid.comm,
                           "liquid bridges  %s, gamma %g N/m, theta %g deg, viscosity %g Pa s; each takes %g of each "
                           "particle's liquid, at most %g m^3, "
                           "rupture at most %g m (the lists' reach beyond contact)\n",
                           LiquidForceTypes[lq->force], (double)lq->gamma, (double)(lq->theta * 180.0 / HDEM_PI),
                           (double)lq->viscosity, (double)lq->fraction, (double)lq->vmax, (double)lq->reach));
  }
  for (PetscInt k = 0; k < CLUMP_TEMPLATES_MAX; k++) {
    char line[512];
    if (!e->clumps.t[k].on) continue;
    ClumpTemplateDescribe(&e->clumps.t[k], e->model.material.density, line, sizeof(line));
    PetscCall(ReportPrintf(e->grid.comm, "clump%-11" PetscInt_FMT "%s\n", k, line));
  }
  PetscCall(ReportPrintf(e->grid.comm, "neighbour skin  %g m\n", (double)e->skin));
  if (e->balance.mode == BALANCE_NONE) PetscCall(ReportPrintf(e->grid.comm, "load balance    none (equal slabs)\n"));
  else
    PetscCall(ReportPrintf(e->grid.comm,
                           "load balance    %s, every %" PetscInt_FMT
                           " steps at the next rebuild, above %g x the mean rank cost; slabs at least %g m (the ghost "
                           "cutoff%s)\n",
                           BalanceModes[e->balance.mode], e->balance.interval, (double)e->balance.threshold,
                           (double)(EngineGhostCutoff(e) + e->body_reach),
                           e->body_reach > 0.0 ? " and the bodies' reach" : ""));
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

/* The outputs, in the order they start, write and finish: the banner
 * first, the closing report last. */
static PetscErrorCode RunMonitors(MPI_Comm comm, const RunControl *rc, Engine *e, const char *restart,
                                  const char *options, const char *plan, OutputTally *tally, PetscInt *n,
                                  Monitor mons[])
{
  PetscFunctionBeginUser;
  *n = 0;
  PetscCall(PetscMemzero(tally, sizeof(*tally)));
  PetscCall(PetscStrncpy(tally->dir, rc->dir, sizeof(tally->dir)));
  PetscCall(BannerMonitorCreate(comm, plan, &mons[(*n)++]));
  PetscCall(SignalsMonitorCreate(&mons[(*n)++]));
  /* a sample goes into the time sums before a checkpoint of its step keeps them */
  if (rc->fields.interval > 0) PetscCall(FieldsMonitorCreate(e, &rc->fields, rc->dir, restart, &mons[(*n)++]));
  /* checkpoints start before the thermo table: what they say of an earlier run's comes before it */
  PetscCall(CheckpointMonitorCreate(comm, rc->dir, rc->ckpt_steps, rc->ckpt_wall, rc->ckpt_keep, options, tally,
                                    &mons[(*n)++])); /* signals checkpoint even with no cadence */
  PetscCall(
    ThermoMonitorCreate(comm, rc->dir, rc->thermo_interval, rc->thermo_period, rc->thermo_screen, &mons[(*n)++]));
  PetscCall(WallsMonitorCreate(rc->dir, rc->thermo_interval, rc->thermo_period, &mons[(*n)++]));
  PetscCall(FlowMonitorCreate(rc->dir, rc->thermo_interval, rc->thermo_period, &mons[(*n)++]));
  if (rc->snap_steps > 0 || rc->snap_time > 0.0)
    PetscCall(SnapshotMonitorCreate(comm, rc->dir, rc->snap_steps, rc->snap_time, rc->snap_fields, options, tally,
                                    &mons[(*n)++]));
  PetscCall(ProgressMonitorCreate(comm, rc->progress_seconds, &rc->lim, &mons[(*n)++]));
  PetscCall(FinalMonitorCreate(comm, rc->dir, options, tally, &mons[(*n)++]));
  PetscCall(SummaryMonitorCreate(comm, rc->dir, &mons[(*n)++]));
  PetscCall(ReportMonitorCreate(comm, tally, &mons[(*n)++]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every key of the command read once without values: what -help lists,
 * and what the check for unknown keys knows, before any value is used. */
static PetscErrorCode RunCollect(MPI_Comm comm, PetscBool check_only)
{
  RunControl rc;
  Engine     e;
  EngineKeys keys;

  PetscFunctionBeginUser;
  OptionsSetCollect(PETSC_TRUE);
  PetscCall(RunControlSetFromOptions(comm, &rc, check_only));
  PetscCall(EngineSetFromOptions(comm, &e, &keys));
  PetscCall(EngineDestroy(&e));
  OptionsSetCollect(PETSC_FALSE);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunHelp(MPI_Comm comm, PetscBool check_only)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm,
                        "usage: hdem %s DECK.yaml [-key value ...]\n"
                        "%s\n"
                        "Keys, as a deck writes them (YAML, nested at underscores: contact: {e: 0.5} is contact_e) or "
                        "on the command line\n"
                        "(-contact_e 0.5, over the deck's). Relative paths in a deck are taken from the deck's folder. "
                        "Units are SI.\n",
                        check_only ? "check" : "run",
                        check_only ? "Checks the deck as hdem run would, writes nothing, and prints the effective "
                                     "configuration (-format text|yaml)."
                                   : "Runs a simulation; under MPI: mpirun -np N hdem run DECK.yaml."));
  PetscCall(OptionsPrintHelp(comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The folders run would create, checked as it creates them: the output
 * folder, its checkpoints/ and, with snapshots, its snapshots/. */
static PetscErrorCode RunOutputCheck(MPI_Comm comm, const RunControl *rc)
{
  char sub[PETSC_MAX_PATH_LEN + 16];

  PetscFunctionBeginUser;
  PetscCall(OutputDirCheck(comm, "-output_dir ", rc->dir));
  PetscCall(PetscSNPrintf(sub, sizeof(sub), "%s/checkpoints", rc->dir));
  PetscCall(OutputDirCheck(comm, "", sub));
  if (rc->snap_steps > 0 || rc->snap_time > 0.0) {
    PetscCall(PetscSNPrintf(sub, sizeof(sub), "%s/snapshots", rc->dir));
    PetscCall(OutputDirCheck(comm, "", sub));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* hdem check: the effective configuration and, as text, what follows from it. */
static PetscErrorCode RunCheck(MPI_Comm comm, const RunControl *rc, const char *restart, Engine *e)
{
  PetscFunctionBeginUser;
  PetscCall(OptionsView(comm, rc->format, PETSC_STDOUT));
  if (rc->format == OPTIONS_VIEW_YAML) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscPrintf(comm, "Derived:\n"));
  if (restart[0]) PetscCall(PetscPrintf(comm, "restart from    %s (particles, skin and state from there)\n", restart));
  else PetscCall(CheckPrint(e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The run in its time loop, for CommandRunFailed. */
static struct {
  const Engine *e;
  const char   *dir;
} run_now;

void CommandRunFailed(const char *reason, PetscBool collective)
{
  PetscMPIInt rank = 0, size = 1;
  if (!run_now.e) return;
  (void)CollectiveRank(run_now.e->grid.comm, &rank, &size);
  if (!collective || rank == 0) SummaryWriteFailed(run_now.dir, run_now.e, reason, rank, size);
  run_now.e = NULL; /* the first error is the cause */
}

PetscErrorCode CommandRun(MPI_Comm comm, const char *deck, PetscBool help, PetscBool check_only, int argc, char **argv,
                          int *status)
{
  Engine       e;
  RunControl   rc;
  OutputTally  tally;
  char         restart[PETSC_MAX_PATH_LEN], plan[1024];
  char        *options = NULL;
  Monitor      mons[16];
  PetscInt     nmon;
  EngineRunEnd end;
  EngineKeys   keys;

  PetscFunctionBeginUser;
  *status = 0;
  if (deck) PetscCall(OptionsReadDeck(comm, deck, argc, argv));
  else
    PetscCheck(help, comm, PETSC_ERR_USER_INPUT,
               "usage: hdem %s DECK.yaml [-key value ...] (hdem %s -help lists the keys)", check_only ? "check" : "run",
               check_only ? "check" : "run");
  PetscCall(RunCollect(comm, check_only));
  if (help) PetscCall(RunHelp(comm, check_only));
  if (help) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OptionsCheckUnused(comm)); /* an unknown key is usually the cause of what follows: said first */
  PetscCall(RunControlSetFromOptions(comm, &rc, check_only));
  if (!check_only) PetscCall(SignalsInstall()); /* before the set-up: a signal then stops at the first step */
  PetscCall(RestartResolve(comm, &rc, restart, sizeof(restart)));
  PetscCall(EngineSetFromOptions(comm, &e, &keys));
  PetscCall(EngineCreate(comm, restart[0] ? PETSC_FALSE : PETSC_TRUE, &keys, &e));
  PetscCall(SnapshotFieldsParse(&e.p.st, rc.snap_list, &rc.snap_fields));
  if (check_only) { /* every validation of a run before its first step, writing nothing */
    PetscCall(RunOutputCheck(comm, &rc));
    if (restart[0]) PetscCall(CheckpointRead(&e, restart));
    else PetscCall(EngineSetUp(&e));
    PetscCheck(!e.health.fault.kind, comm, PETSC_ERR_USER_INPUT, "the initial state: %s", e.health.fault.reason);
    if (rc.fields.interval > 0) {
      CoarseGrid g;
      PetscCall(FieldsCheck(&rc.fields, &e, &g));
    }
    PetscCall(RunCheck(comm, &rc, restart, &e));
    PetscCall(EngineDestroy(&e));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscOptionsGetAll(NULL, &options));
  if (restart[0]) PetscCall(CheckpointRead(&e, restart));
  else PetscCall(EngineSetUp(&e));
  PetscCheck(!e.health.fault.kind, comm, PETSC_ERR_USER_INPUT, "the initial state: %s", e.health.fault.reason);
  PetscCall(RunOutputCheck(comm, &rc)); /* its subfolders too, before the banner */
  PetscCall(OutputDirCreate(comm, "-output_dir ", rc.dir));
  PetscCall(RunPlan(&rc, plan, sizeof(plan)));
  if (restart[0])
    PetscCall(PetscSNPrintf(plan + strlen(plan), sizeof(plan) - strlen(plan), "  continued   from %s\n", restart));
  PetscCall(RunMonitors(comm, &rc, &e, restart, options, plan, &tally, &nmon, mons));
  run_now.e   = &e;
  run_now.dir = rc.dir;
  PetscCall(EngineRun(&e, &rc.lim, restart[0] ? PETSC_FALSE : PETSC_TRUE, nmon, mons, &end));
  run_now.e = NULL;
  for (PetscInt k = 0; k < nmon; k++) PetscCall(MonitorDestroy(&mons[k]));
  PetscCall(PetscFree(options));
  PetscCall(EngineDestroy(&e));
  if (end.stopped) *status = HDEM_EXIT_CHECKPOINTED;
  if (end.failed) *status = HDEM_EXIT_FAILED;
  PetscFunctionReturn(PETSC_SUCCESS);
}
