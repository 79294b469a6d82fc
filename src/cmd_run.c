/* hdem run DECK.yaml / hdem check DECK.yaml: a simulation from a deck. */
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <errno.h>
#include "commands.h"
#include "setup.h"
#include "../io/json.h"
#include "../io/options.h"
#include "../io/h5state.h"
#include "../decomp/collective.h"

typedef struct {
  PetscInt64 steps;
  PetscReal  end_time;
  char       dir[PETSC_MAX_PATH_LEN];
  PetscInt   thermo_interval;
  PetscReal  progress_seconds;
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
  PetscOptionsEnd();
  PetscCheck(sset || tset, comm, PETSC_ERR_USER_INPUT, "give -steps N or -end_time T (deck keys steps, end_time)");
  PetscCheck(rc->steps >= 0, comm, PETSC_ERR_USER_INPUT, "-steps must be >= 0");
  PetscCall(OptionsCheckReal("end_time", rc->end_time, 0.0, PETSC_MAX_REAL, RANGE_CLOSED, "[s]"));
  PetscCall(OptionsCheckInt("thermo_interval", rc->thermo_interval, 1, PETSC_MAX_INT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MakeDir(MPI_Comm comm, const char *dir)
{
  PetscMPIInt rank;
  PetscInt    err = 0;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) { /* mkdir -p */
    char path[PETSC_MAX_PATH_LEN];
    PetscCall(PetscStrncpy(path, dir, sizeof(path)));
    for (char *c = path + 1; *c && !err; c++)
      if (*c == '/') {
        *c = 0;
        if (mkdir(path, 0755) && errno != EEXIST) err = errno;
        *c = '/';
      }
    if (!err && mkdir(path, 0755) && errno != EEXIST) err = errno;
  }
  PetscCall(CollectiveBcastInt(comm, &err, 1));
  PetscCheck(!err, comm, PETSC_ERR_FILE_OPEN, "cannot create -output_dir %s: %s", dir, strerror((int)err));
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
    fflush(fp);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FinalWrite(Engine *e, const char *dir)
{
  char        path[PETSC_MAX_PATH_LEN];
  H5StateView view;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/final.h5", dir));
  view.n      = e->p.n;
  view.id     = e->p.id;
  view.type   = e->p.type;
  view.radius = e->p.radius;
  view.x      = e->p.x;
  view.v      = e->p.v;
  view.w      = e->p.w;
  view.f      = e->p.f;
  PetscCall(H5StateWrite(e->grid.comm, path, &view, e->t, e->step));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SummaryWrite(Engine *e, const RunControl *rc, PetscReal wall)
{
  PetscMPIInt   rank, size;
  PetscReal     lost = (PetscReal)e->lost, *mem = NULL, rss;
  struct rusage ru;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(e->grid.comm, &rank, &size));
  PetscCall(CollectiveSumAll(e->grid.comm, &lost, 1));
  getrusage(RUSAGE_SELF, &ru);
  rss = (PetscReal)ru.ru_maxrss * 1024.0;
  if (rank == 0) PetscCall(PetscMalloc1(size, &mem));
  PetscCall(CollectiveGatherReal(e->grid.comm, rss, mem));
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
    JsonInt(&w, "steps", e->step);
    JsonReal(&w, "simulated_time", e->t);
    JsonReal(&w, "wall_seconds", wall);
    JsonReal(&w, "particle_steps_per_second", wall > 0.0 ? (PetscReal)e->nglobal * (PetscReal)e->step / wall : 0.0);
    JsonReal(&w, "dt_min", e->step ? e->dt_min : 0.0);
    JsonReal(&w, "dt_max", e->dt_max);
    JsonReal(&w, "dt_mean", e->step ? e->dt_sum / (PetscReal)e->step : 0.0);
    JsonInt(&w, "rebuilds", e->rebuilds);
    JsonInt(&w, "lost_particles", (PetscInt64)lost);
    fprintf(fp, ",\n  \"peak_memory_bytes\": [");
    for (PetscMPIInt r = 0; r < size; r++) fprintf(fp, "%s%.0f", r ? ", " : "", (double)mem[r]);
    fprintf(fp, "]");
    JsonEnd(&w);
    fprintf(fp, "\n");
    fclose(fp);
    PetscCheck(!rename(tmp, path), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot rename %s to %s", tmp, path);
    PetscCall(PetscFree(mem));
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
  PetscCall(PetscPrintf(e->grid.comm, "box             [%g, %g] x [%g, %g] x [%g, %g] m, periodic %d %d %d, %" PetscInt_FMT " walls\n", (double)e->grid.lo[0], (double)e->grid.hi[0], (double)e->grid.lo[1], (double)e->grid.hi[1], (double)e->grid.lo[2], (double)e->grid.hi[2], e->grid.periodic[0], e->grid.periodic[1], e->grid.periodic[2], e->nwall));
  PetscCall(PetscPrintf(e->grid.comm, "contact         law %s, damping %s (e %g, zeta %g), separation %s, mu %g\n", NormalLawTypes[e->model.law.type], DampingTypes[d->type], (double)d->e, (double)d->zeta, SeparationTypes[d->separation], (double)e->model.tangential.mu));
  PetscCall(PetscPrintf(e->grid.comm, "timestep        %s, %" PetscInt_FMT " steps per contact; bound of a 1 m/s impact of two largest spheres %g s (contact %g s)\n", TimestepModes[e->ctl.mode], e->ctl.steps_per_contact, (double)bound, (double)NormalLawElasticDuration(&e->model.law, cp.s, cp.m, 0.5 * cp.m)));
  PetscCall(PetscPrintf(e->grid.comm, "neighbour skin  %g m\n", (double)e->skin));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CommandRun(MPI_Comm comm, const char *deck, PetscBool help, PetscBool check_only, int argc, char **argv)
{
  Engine         e;
  RunControl     rc;
  PetscMPIInt    rank;
  FILE          *thermo = NULL;
  PetscLogDouble t0, t1, tlast;

  PetscFunctionBeginUser;
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
  PetscCall(EngineSetFromOptions(comm, &e));
  PetscCall(RunControlSetFromOptions(comm, &rc));
  if (help) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OptionsCheckUnused(comm));
  if (check_only) {
    PetscCall(CheckPrint(&e));
    PetscCall(EngineDestroy(&e));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(EngineSetUp(&e));
  PetscCall(MakeDir(comm, rc.dir));
  if (rank == 0) {
    char path[PETSC_MAX_PATH_LEN];
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/thermo.csv", rc.dir));
    thermo = fopen(path, "w");
    PetscCheck(thermo, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", path);
    fprintf(thermo, "step,time,dt,ke_translational,ke_rotational,elastic,dissipated,contacts,max_overlap_ratio,rebuilds,wall_seconds\n");
  }
  PetscCall(PetscTime(&t0));
  tlast = t0;
  PetscCall(ThermoWrite(&e, thermo, 0.0));
  while (e.step < rc.steps && e.t < rc.end_time) {
    PetscCall(EngineStep(&e));
    PetscCall(PetscTime(&t1));
    if (e.step % rc.thermo_interval == 0) PetscCall(ThermoWrite(&e, thermo, t1 - t0));
    if (t1 - tlast >= rc.progress_seconds) {
      PetscReal frac = PetscMax(rc.steps < INT64_MAX ? (PetscReal)e.step / (PetscReal)rc.steps : 0.0, rc.end_time < PETSC_MAX_REAL ? e.t / rc.end_time : 0.0);
      PetscCall(PetscPrintf(comm, "step %" PetscInt64_FMT "  t %.6e s  dt %.3e s  %.1f%%  ETA %.0f s\n", e.step, (double)e.t, (double)e.dt, (double)(100.0 * frac), frac > 0.0 ? (double)((t1 - t0) * (1.0 - frac) / frac) : 0.0));
      tlast = t1;
    }
  }
  PetscCall(PetscTime(&t1));
  if (e.step % rc.thermo_interval) PetscCall(ThermoWrite(&e, thermo, t1 - t0));
  if (thermo) fclose(thermo);
  PetscCall(FinalWrite(&e, rc.dir));
  PetscCall(SummaryWrite(&e, &rc, t1 - t0));
  PetscCall(EngineDestroy(&e));
  PetscFunctionReturn(PETSC_SUCCESS);
}
