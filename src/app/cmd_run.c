/* hdem run DECK.yaml / hdem check DECK.yaml: a simulation from a deck. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include "app/commands.h"
#include "engine/setup.h"
#include "io/json.h"
#include "io/options.h"
#include "io/snapshot.h"
#include "io/ckptdir.h"
#include "io/outdir.h"
#include "decomp/collective.h"
#include "engine/checkpoint.h"
#include "app/signals.h"

typedef struct {
  PetscInt64 steps;
  PetscReal  end_time;
  char       dir[PETSC_MAX_PATH_LEN];
  PetscInt   thermo_interval;
  PetscReal  progress_seconds;
  char       restart[PETSC_MAX_PATH_LEN]; /* FILE, latest or auto; empty: a fresh start */
  PetscInt   ckpt_steps, ckpt_keep;       /* 0: no step cadence */
  PetscReal  ckpt_wall;                   /* [s] of wall clock, 0: none */
  PetscInt   snap_steps, snap_fields;     /* 0: no step cadence; fields: a mask over the particle store's table */
  char       snap_list[512];              /* -snapshot_fields, parsed once the store exists */
  PetscReal  snap_time;                   /* [s] of simulated time, 0: none */
} RunControl;

static PetscErrorCode RunControlSetFromOptions(MPI_Comm comm, RunControl *rc)
{
  PetscBool sset, tset;

  PetscFunctionBeginUser;
  rc->steps            = INT64_MAX;
  rc->end_time         = PETSC_MAX_REAL;
  rc->thermo_interval  = 100;
  rc->progress_seconds = 10.0;
  PetscCall(PetscStrncpy(rc->dir, "output", sizeof(rc->dir)));
  PetscOptionsBegin(comm, NULL, "Run", NULL);
  PetscCall(OptionsCheckSyntax("-steps", PETSC_TRUE));
  {
    PetscInt steps = 0;
    PetscCall(PetscOptionsInt("-steps", "stop after this many steps from the start of the simulation", NULL, steps, &steps, &sset));
    if (sset) rc->steps = steps;
  }
  PetscCall(OptionsCheckSyntax("-end_time", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-end_time", "stop at this simulated time [s]", NULL, rc->end_time, &rc->end_time, &tset));
  PetscCall(PetscOptionsString("-output_dir", "where thermo.csv, final.h5 and summary.json go", NULL, rc->dir, rc->dir, sizeof(rc->dir), NULL));
  PetscCall(OptionsCheckSyntax("-thermo_interval", PETSC_TRUE));
  PetscCall(PetscOptionsInt("-thermo_interval", "steps between thermo lines", NULL, rc->thermo_interval, &rc->thermo_interval, NULL));
  PetscCall(OptionsCheckSyntax("-progress_interval", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-progress_interval", "seconds between progress lines", NULL, rc->progress_seconds, &rc->progress_seconds, NULL));
  rc->restart[0] = 0;
  PetscCall(PetscOptionsString("-restart", "continue from a checkpoint: FILE, latest (the newest in DIR/checkpoints) or auto (latest if there is one, else a fresh start)", NULL, rc->restart, rc->restart, sizeof(rc->restart), NULL));
  rc->ckpt_steps = 0, rc->ckpt_keep = 2, rc->ckpt_wall = 0.0;
  PetscCall(OptionsCheckSyntax("-checkpoint_interval_steps", PETSC_TRUE));
  PetscCall(PetscOptionsInt("-checkpoint_interval_steps", "steps between checkpoints (0: none)", NULL, rc->ckpt_steps, &rc->ckpt_steps, NULL));
  PetscCall(OptionsCheckSyntax("-checkpoint_interval_walltime", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-checkpoint_interval_walltime", "wall-clock seconds between checkpoints (0: none)", NULL, rc->ckpt_wall, &rc->ckpt_wall, NULL));
  PetscCall(OptionsCheckSyntax("-checkpoint_keep", PETSC_TRUE));
  PetscCall(PetscOptionsInt("-checkpoint_keep", "how many of the newest checkpoints are kept", NULL, rc->ckpt_keep, &rc->ckpt_keep, NULL));
  rc->snap_steps = 0, rc->snap_time = 0.0, rc->snap_fields = 0;
  PetscCall(OptionsCheckSyntax("-snapshot_interval_steps", PETSC_TRUE));
  PetscCall(PetscOptionsInt("-snapshot_interval_steps", "steps between snapshots (0: none)", NULL, rc->snap_steps, &rc->snap_steps, NULL));
  PetscCall(OptionsCheckSyntax("-snapshot_interval_time", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-snapshot_interval_time", "simulated seconds between snapshots (0: none)", NULL, rc->snap_time, &rc->snap_time, NULL));
  PetscCall(PetscStrncpy(rc->snap_list, "all", sizeof(rc->snap_list)));
  PetscCall(PetscOptionsString("-snapshot_fields", "comma list of snapshot fields: all, id, type, radius, velocity, angular_velocity, force (position always)", NULL, rc->snap_list, rc->snap_list, sizeof(rc->snap_list), NULL));
  PetscOptionsEnd();
  PetscCheck(sset || tset, comm, PETSC_ERR_USER_INPUT, "give -steps N or -end_time T (deck keys steps, end_time)");
  PetscCall(OptionsCheckInt("checkpoint_interval_steps", rc->ckpt_steps, 0, PETSC_MAX_INT));
  PetscCall(OptionsCheckReal("checkpoint_interval_walltime", rc->ckpt_wall, 0.0, PETSC_MAX_REAL, RANGE_CLOSED, "[s]"));
  PetscCall(OptionsCheckInt("checkpoint_keep", rc->ckpt_keep, 1, PETSC_MAX_INT));
  PetscCall(OptionsCheckInt("snapshot_interval_steps", rc->snap_steps, 0, PETSC_MAX_INT));
  PetscCall(OptionsCheckReal("snapshot_interval_time", rc->snap_time, 0.0, PETSC_MAX_REAL, RANGE_CLOSED, "[s]"));
  PetscCheck(rc->steps >= 0, comm, PETSC_ERR_USER_INPUT, "-steps must be >= 0");
  PetscCall(OptionsCheckReal("end_time", rc->end_time, 0.0, PETSC_MAX_REAL, RANGE_CLOSED, "[s]"));
  PetscCall(OptionsCheckInt("thermo_interval", rc->thermo_interval, 1, PETSC_MAX_INT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ThermoWrite(Engine *e, FILE *fp, PetscReal wall)
{
  EngineStats s;

  PetscFunctionBeginUser;
  PetscCall(EngineGetStats(e, &s));
  if (fp) {
    PetscReal diss = e->e_initial + s.gravity - (s.ke + s.kr + s.elastic);
    fprintf(fp, "%lld,%.10e,%.6e,%.10e,%.10e,%.10e,%.10e,%.0f,%.6e,%d,%.3f\n", (long long)e->step, (double)e->t, (double)e->dt, (double)s.ke, (double)s.kr, (double)s.elastic, (double)diss, (double)s.contacts, (double)s.max_overlap_ratio, (int)e->rebuilds, (double)wall);
    PetscCheck(fflush(fp) == 0 && !ferror(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write thermo.csv (step %" PetscInt64_FMT "): %s", e->step, strerror(errno));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The view of the state that snapshots and the final state write. */
static void StateView(const Engine *e, const char *options, PetscReal wn[], PetscReal wp[], SnapshotView *v)
{
  for (PetscInt w = 0; w < e->planes.n; w++)
    for (int a = 0; a < 3; a++) wn[3 * w + a] = e->planes.w[w].n[a], wp[3 * w + a] = e->planes.w[w].p[a];
  v->st    = &e->p.st;
  v->nwall = e->grid.rank == 0 ? e->planes.n : 0, v->wall_normal = wn, v->wall_point = wp; /* replicated: rank 0's rows */
  v->time = e->t, v->dt = e->dt, v->step = e->step, v->options = options;
}

static PetscErrorCode FinalWrite(Engine *e, const char *dir, const char *options)
{
  SnapshotView v;
  PetscReal    wn[3 * PLANES_MAX], wp[3 * PLANES_MAX];

  PetscFunctionBeginUser;
  StateView(e, options, wn, wp, &v);
  PetscCall(SnapshotWriteFinal(e->grid.comm, dir, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SummaryWrite(Engine *e, const RunControl *rc, PetscReal wall, PetscInt64 steps_run, PetscBool stopped)
{
  PetscMPIInt   rank, size;
  PetscReal     lost = (PetscReal)e->lost, *mem = NULL, *owned = NULL, *busy = NULL, rss;
  struct rusage ru;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(e->grid.comm, &rank, &size));
  PetscCall(CollectiveSumAll(e->grid.comm, &lost, 1));
  getrusage(RUSAGE_SELF, &ru);
  rss = (PetscReal)ru.ru_maxrss * 1024.0;
  if (rank == 0) PetscCall(PetscMalloc3(size, &mem, size, &owned, size, &busy));
  PetscCall(CollectiveGatherReal(e->grid.comm, rss, mem));
  PetscCall(CollectiveGatherReal(e->grid.comm, (PetscReal)e->p.n, owned));
  PetscCall(CollectiveGatherReal(e->grid.comm, wall - e->wait_seconds, busy));
  if (rank == 0) {
    char       path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 8];
    FILE      *fp;
    JsonWriter w;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/summary.json", rc->dir));
    PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", path));
    fp = fopen(tmp, "w");
    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", tmp);
    JsonBegin(&w, fp);
    JsonString(&w, "hdem_version", HDEM_VERSION);
    JsonString(&w, "deck", OptionsDeck());
    JsonInt(&w, "particles", e->nglobal - (PetscInt64)lost);
    JsonInt(&w, "ranks", size);
    JsonString(&w, "status", stopped ? "stopped_by_signal" : "completed");
    JsonInt(&w, "steps", e->step);
    JsonInt(&w, "steps_this_run", steps_run);
    JsonReal(&w, "simulated_time", e->t);
    JsonReal(&w, "wall_seconds", wall);
    JsonReal(&w, "particle_steps_per_second", wall > 0.0 ? (PetscReal)(e->nglobal - (PetscInt64)lost) * (PetscReal)steps_run / wall : 0.0);
    JsonReal(&w, "dt_min", e->step ? e->dt_min : 0.0);
    JsonReal(&w, "dt_max", e->dt_max);
    JsonReal(&w, "dt_mean", e->step ? e->dt_sum / (PetscReal)e->step : 0.0);
    JsonInt(&w, "rebuilds", e->rebuilds);
    JsonInt(&w, "lost_particles", (PetscInt64)lost);
    JsonString(&w, "balance_mode", BalanceModes[e->balance_mode]);
    JsonInt(&w, "balance_moves", e->balance_moves);
    JsonReal(&w, "imbalance", e->imbalance);
    fprintf(fp, ",\n  \"peak_memory_bytes\": [");
    for (PetscMPIInt r = 0; r < size; r++) fprintf(fp, "%s%.0f", r ? ", " : "", (double)mem[r]);
    fprintf(fp, "],\n  \"owned_particles\": [");
    for (PetscMPIInt r = 0; r < size; r++) fprintf(fp, "%s%.0f", r ? ", " : "", (double)owned[r]);
    fprintf(fp, "],\n  \"busy_seconds\": [");
    for (PetscMPIInt r = 0; r < size; r++) fprintf(fp, "%s%.6f", r ? ", " : "", (double)busy[r]);
    fprintf(fp, "]");
    JsonEnd(&w);
    fprintf(fp, "\n");
    {
      /* a full disk shows in the stream's error flag or at the close: then the
       * temporary goes, and no truncated summary takes the final name */
      PetscBool bad = ferror(fp) ? PETSC_TRUE : PETSC_FALSE;
      if (fclose(fp)) bad = PETSC_TRUE;
      if (bad) (void)remove(tmp);
      PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write %s", tmp);
    }
    PetscCheck(!rename(tmp, path), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot rename %s to %s", tmp, path);
    PetscCall(PetscFree3(mem, owned, busy));
  }
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
  PetscCall(PetscPrintf(e->grid.comm, "box             [%g, %g] x [%g, %g] x [%g, %g] m, periodic %d %d %d, %" PetscInt_FMT " walls\n", (double)e->grid.lo[0], (double)e->grid.hi[0], (double)e->grid.lo[1], (double)e->grid.hi[1], (double)e->grid.lo[2], (double)e->grid.hi[2], e->grid.periodic[0], e->grid.periodic[1], e->grid.periodic[2], e->planes.n));
  PetscCall(PetscPrintf(e->grid.comm, "contact         law %s, damping %s (e %g, zeta %g), separation %s, mu %g\n", NormalLawTypes[e->model.law.type], DampingTypes[d->type], (double)d->e, (double)d->zeta, SeparationTypes[d->separation], (double)e->model.tangential.mu));
  PetscCall(PetscPrintf(e->grid.comm, "timestep        %s, %" PetscInt_FMT " steps per contact; bound of a 1 m/s impact of two largest spheres %g s (contact %g s)\n", TimestepModes[e->ctl.mode], e->ctl.steps_per_contact, (double)bound, (double)NormalLawElasticDuration(&e->model.law, cp.s, cp.m, 0.5 * cp.m)));
  PetscCall(PetscPrintf(e->grid.comm, "neighbour skin  %g m\n", (double)e->skin));
  if (e->balance_mode == BALANCE_NONE) PetscCall(PetscPrintf(e->grid.comm, "load balance    none (equal slabs)\n"));
  else PetscCall(PetscPrintf(e->grid.comm, "load balance    %s, every %" PetscInt_FMT " steps at the next rebuild, above %g x the mean rank cost; slabs at least %g m (the ghost cutoff)\n", BalanceModes[e->balance_mode], e->balance_interval, (double)e->balance_threshold, (double)EngineGhostCutoff(e)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: thermo.csv, new, or on a restart cut back to the checkpoint's
 * step (an interrupted run may have written past it) and appended to. */
static PetscErrorCode ThermoOpen(const char *dir, PetscBool resume, PetscInt64 step, FILE **fp)
{
  static const char header[] = "step,time,dt,ke_translational,ke_rotational,elastic,dissipated,contacts,max_overlap_ratio,rebuilds,wall_seconds\n";
  char              path[PETSC_MAX_PATH_LEN + 16], tmp[PETSC_MAX_PATH_LEN + 24], line[1024];
  FILE             *in;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/thermo.csv", dir));
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", path));
  *fp = fopen(tmp, "w");
  PetscCheck(*fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", tmp);
  fputs(header, *fp);
  if (resume && (in = fopen(path, "r"))) {
    while (fgets(line, sizeof(line), in)) {
      long long st;
      if (sscanf(line, "%lld,", &st) == 1 && st <= step && strchr(line, '\n')) fputs(line, *fp);
    }
    fclose(in);
  }
  PetscCheck(!fflush(*fp), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write %s", tmp);
  PetscCheck(!rename(tmp, path), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot rename %s to %s", tmp, path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SnapshotOut(Engine *e, const RunControl *rc, SnapshotSeries *series, const char *options)
{
  SnapshotView v;
  PetscReal    wn[3 * PLANES_MAX], wp[3 * PLANES_MAX];

  PetscFunctionBeginUser;
  EngineCheckWhole(e);
  StateView(e, options, wn, wp, &v);
  PetscCall(SnapshotWrite(e->grid.comm, series, rc->snap_fields, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the step just taken crossed a multiple of the snapshot period:
 * decided from (t_prev, t], so a restart continues the same cadence. */
static PetscBool SnapshotDue(const RunControl *rc, PetscInt64 step, PetscReal t_prev, PetscReal t)
{
  if (rc->snap_steps > 0 && step % rc->snap_steps == 0) return PETSC_TRUE;
  if (rc->snap_time > 0.0 && floor(t / rc->snap_time) > floor(t_prev / rc->snap_time)) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Whether anything reads the state after the coming step (a thermo line, a
 * snapshot, a checkpoint, the end of the run), from what every rank holds
 * alike; if nothing does, the step may be taken ahead (EngineStep).  The
 * step's time is e->t + e->dt, as EngineStep adds it. */
static PetscBool StateDue(const RunControl *rc, const Engine *e)
{
  PetscInt64 step = e->step + 1;
  PetscReal  t    = e->t + e->dt;
  if (step >= rc->steps || !(t < rc->end_time) || step % rc->thermo_interval == 0) return PETSC_TRUE;
  if (rc->ckpt_steps > 0 && step % rc->ckpt_steps == 0) return PETSC_TRUE;
  return SnapshotDue(rc, step, e->t, t);
}

static PetscErrorCode CheckpointOut(Engine *e, const RunControl *rc, const char *options)
{
  char path[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(CheckpointDirPath(rc->dir, e->step, path, sizeof(path)));
  PetscCall(CheckpointWrite(e, path, options));
  PetscCall(CheckpointDirPrune(e->grid.comm, rc->dir, rc->ckpt_keep));
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

PetscErrorCode CommandRun(MPI_Comm comm, const char *deck, PetscBool help, PetscBool check_only, int argc, char **argv, int *status)
{
  Engine         e;
  RunControl     rc;
  PetscMPIInt    rank;
  FILE          *thermo = NULL;
  PetscLogDouble t0, t1, tlast, tckpt;
  char           restart[PETSC_MAX_PATH_LEN];
  char          *options = NULL;
  PetscInt64     step0;
  PetscBool      ckpt_on, snap_on, stopped = PETSC_FALSE;
  PetscInt       pending = ENGINE_REQUEST_NONE; /* a request still to meet (the step that reported it was taken ahead) */
  SnapshotSeries series;

  PetscFunctionBeginUser;
  *status = 0;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (deck) {
    FILE *fp = fopen(deck, "r");
    PetscCheck(fp, comm, PETSC_ERR_FILE_OPEN, "cannot open deck %s", deck);
    fclose(fp);
    PetscCall(OptionsSetDeck(deck));
    {
      PetscErrorCode ierr;
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = PetscOptionsInsertFileYAML(comm, NULL, deck, PETSC_TRUE);
      PetscCall(PetscPopErrorHandler());
      PetscCheck(!ierr, comm, PETSC_ERR_USER_INPUT, "deck %s is not valid YAML (or not a mapping of keys)", deck);
    }
    PetscCall(PetscOptionsInsert(NULL, &argc, &argv, NULL)); /* the command line overrides the deck */
  } else PetscCheck(help, comm, PETSC_ERR_USER_INPUT, "usage: hdem %s DECK.yaml [-key value ...]", check_only ? "check" : "run");
  PetscCall(RunControlSetFromOptions(comm, &rc));
  if (!check_only && !help) PetscCall(SignalsInstall()); /* before the set-up: a signal then stops at the first step */
  PetscCall(RestartResolve(comm, &rc, restart, sizeof(restart)));
  PetscCall(EngineSetFromOptions(comm, restart[0] ? PETSC_FALSE : PETSC_TRUE, &e));
  if (help) PetscFunctionReturn(PETSC_SUCCESS);
  {
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SnapshotFieldsParse(&e.p.st, rc.snap_list, &rc.snap_fields);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(!ierr, comm, PETSC_ERR_USER_INPUT, "-snapshot_fields %s: allowed fields are all, position, id, type, radius, velocity, angular_velocity, force (comma-separated)", rc.snap_list);
  }
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
  step0   = e.step;
  ckpt_on = rc.ckpt_steps > 0 || rc.ckpt_wall > 0.0 ? PETSC_TRUE : PETSC_FALSE;
  snap_on = rc.snap_steps > 0 || rc.snap_time > 0.0 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(OutputDirCreate(comm, "-output_dir ", rc.dir));
  PetscCall(CheckpointDirCreate(comm, rc.dir)); /* signals checkpoint even with no cadence */
  if (!restart[0]) { /* a fresh start replaces the directory's run, checkpoints too */
    PetscInt nold;
    PetscCall(CheckpointDirClear(comm, rc.dir, &nold));
    if (nold) PetscCall(PetscPrintf(comm, "hdem: fresh start: removed %" PetscInt_FMT " checkpoint(s) of an earlier run from %s/checkpoints (continue a run with -restart latest)\n", nold, rc.dir));
  }
  PetscCall(PetscMemzero(&series, sizeof(series)));
  if (snap_on) PetscCall(SnapshotSeriesCreate(comm, rc.dir, restart[0] ? e.step : -1, &e.p.st, &series));
  if (rank == 0) PetscCall(ThermoOpen(rc.dir, restart[0] ? PETSC_TRUE : PETSC_FALSE, e.step, &thermo));
  PetscCall(PetscTime(&t0));
  tlast = tckpt = t1 = t0;
  if (!restart[0]) {
    PetscCall(ThermoWrite(&e, thermo, 0.0));
    if (snap_on) PetscCall(SnapshotOut(&e, &rc, &series, options));
  }
  while (e.step < rc.steps && e.t < rc.end_time) {
    PetscReal t_prev = e.t;
    PetscInt  req;
    if (SignalsCaught()) e.request = ENGINE_REQUEST_STOP;
    else if (rc.ckpt_wall > 0.0 && t1 - tckpt >= rc.ckpt_wall) e.request = ENGINE_REQUEST_CHECKPOINT;
    PetscCall(EngineStep(&e, pending == ENGINE_REQUEST_NONE && !StateDue(&rc, &e) ? PETSC_TRUE : PETSC_FALSE));
    PetscCall(PetscTime(&t1));
    /* a request met in a step taken ahead waits for the next, which is not */
    req     = PetscMax(pending, e.request_all);
    pending = e.opened ? req : ENGINE_REQUEST_NONE;
    if (e.opened) req = ENGINE_REQUEST_NONE;
    if (e.step % rc.thermo_interval == 0) PetscCall(ThermoWrite(&e, thermo, t1 - t0));
    if (snap_on && SnapshotDue(&rc, e.step, t_prev, e.t)) PetscCall(SnapshotOut(&e, &rc, &series, options));
    if (req >= ENGINE_REQUEST_CHECKPOINT || (rc.ckpt_steps > 0 && e.step % rc.ckpt_steps == 0)) {
      PetscCall(CheckpointOut(&e, &rc, options));
      tckpt = t1;
    }
    if (req == ENGINE_REQUEST_STOP) {
      PetscCall(PetscPrintf(comm, "hdem: signal received: checkpoint written at step %" PetscInt64_FMT "; continue with -restart latest (exit code %d)\n", e.step, HDEM_EXIT_CHECKPOINTED));
      stopped = PETSC_TRUE;
      break;
    }
    if (t1 - tlast >= rc.progress_seconds) {
      PetscReal frac = PetscMax(rc.steps < INT64_MAX ? (PetscReal)e.step / (PetscReal)rc.steps : 0.0, rc.end_time < PETSC_MAX_REAL ? e.t / rc.end_time : 0.0);
      PetscCall(PetscPrintf(comm, "step %" PetscInt64_FMT "  t %.6e s  dt %.3e s  %.1f%%  ETA %.0f s\n", e.step, (double)e.t, (double)e.dt, (double)(100.0 * frac), frac > 0.0 ? (double)((t1 - t0) * (1.0 - frac) / frac) : 0.0));
      tlast = t1;
    }
  }
  PetscCall(PetscTime(&t1));
  if (e.step % rc.thermo_interval && !stopped) PetscCall(ThermoWrite(&e, thermo, t1 - t0));
  if (thermo) fclose(thermo);
  if (!stopped) {
    if (ckpt_on && !(rc.ckpt_steps > 0 && e.step % rc.ckpt_steps == 0)) PetscCall(CheckpointOut(&e, &rc, options)); /* the end, to extend the run */
    PetscCall(EngineFinish(&e));
    PetscCall(FinalWrite(&e, rc.dir, options));
  }
  PetscCall(SummaryWrite(&e, &rc, t1 - t0, e.step - step0, stopped));
  PetscCall(SnapshotSeriesDestroy(&series));
  PetscCall(PetscFree(options));
  PetscCall(EngineDestroy(&e));
  if (stopped) *status = HDEM_EXIT_CHECKPOINTED;
  PetscFunctionReturn(PETSC_SUCCESS);
}
