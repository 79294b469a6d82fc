/* Rank 0's log of a run, as a batch job's output shows it: a banner before
 * the first step and a closing block after the last. */
#include "output/output.h"
#include "io/options.h"
#include "decomp/collective.h"
#include <string.h>

typedef struct {
  MPI_Comm     comm;
  const char  *plan; /* the driver's lines on the run's limits and outputs */
  OutputTally *tally;
} Report;

/* The contact model in one line: law, damping with its exact e and zeta,
 * separation, tangential spring. */
static PetscErrorCode ReportModel(const Report *rp, const ContactModel *md)
{
  const Damping    *d  = &md->damping;
  const Tangential *tg = &md->tangential;
  char              law[160], dmp[160], tan[240];

  PetscFunctionBeginUser;
  if (md->hertz_from_material)
    snprintf(law, sizeof(law), "hertz from E %g Pa, nu %g", (double)md->material.E, (double)md->material.nu);
  else snprintf(law, sizeof(law), "%s", NormalLawTypes[md->law.type]);
  if (d->type == DAMPING_HARMONIC && d->e > 0.0)
    snprintf(dmp, sizeof(dmp), "harmonic damping, e %g exactly (zeta %.4g)", (double)d->e, (double)d->zeta);
  else if (d->e > 0.0) snprintf(dmp, sizeof(dmp), "%s damping for e %g", DampingTypes[d->type], (double)d->e);
  else snprintf(dmp, sizeof(dmp), "%s damping", DampingTypes[d->type]);
  if (tg->mu > 0.0)
    snprintf(tan, sizeof(tan), "%s tangential spring, mu %g", TangentialStiffnessTypes[tg->stiffness], (double)tg->mu);
  else snprintf(tan, sizeof(tan), "no friction");
  if (md->rolling.mu > 0.0)
    snprintf(tan + strlen(tan), sizeof(tan) - strlen(tan), "; %s rolling resistance, mu_roll %g",
             RollingTypes[md->rolling.type], (double)md->rolling.mu);
  PetscCall(ReportPrintf(rp->comm, "  contact     %s; %s; %s at separation; %s\n", law, dmp,
                         d->separation == SEPARATION_FORCE ? "force clipped to zero" : "contact ends at zero overlap",
                         tan));
  if (md->liquid.on) {
    const Liquid *lq = &md->liquid;
    PetscCall(ReportPrintf(rp->comm,
                           "  liquid      %s bridges: gamma %g N/m, theta %g deg, viscosity %g Pa s; a bridge takes %g "
                           "of each particle's liquid, at most %g m^3, "
                           "and ruptures by %g m\n",
                           LiquidForceTypes[lq->force], (double)lq->gamma, (double)(lq->theta * 180.0 / HDEM_PI),
                           (double)lq->viscosity, (double)lq->fraction, (double)lq->vmax, (double)lq->reach));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReportStart(Monitor m, Engine *e, PetscBool fresh)
{
  Report *rp = (Report *)m->data;
  /* -min and max of radius, then of density */
  PetscReal   r[4] = {-PETSC_MAX_REAL, 0.0, -PETSC_MAX_REAL, 0.0};
  const Grid *g    = &e->grid;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < e->p.n; i++) {
    PetscReal rho = e->p.mass[i] / ((4.0 / 3.0) * HDEM_PI * e->p.radius[i] * e->p.radius[i] * e->p.radius[i]);

    r[0] = PetscMax(r[0], -e->p.radius[i]), r[1] = PetscMax(r[1], e->p.radius[i]);
    if (e->p.mass[i] > 0.0) r[2] = PetscMax(r[2], -rho), r[3] = PetscMax(r[3], rho);
  }
  PetscCall(CollectiveMaxAll(g->comm, r, 4));
  PetscCall(ReportPrintf(rp->comm, "hdem %s: %s%s on %d rank%s (grid %d x %d x %d)\n", HDEM_VERSION,
                         OptionsDeck()[0] ? "run " : "run", OptionsDeck(), g->size, g->size > 1 ? "s" : "", g->dims[0],
                         g->dims[1], g->dims[2]));
  if (!fresh)
    PetscCall(ReportPrintf(rp->comm, "  restart     from step %" PetscInt64_FMT ", t %g s\n", e->clock.step,
                           (double)e->clock.t));
  PetscCall(ReportPrintf(rp->comm, "  particles   %" PetscInt64_FMT, e->nglobal));
  if (-r[0] == r[1]) PetscCall(ReportPrintf(rp->comm, ", radius %g m", (double)r[1]));
  else if (e->nglobal > 0) PetscCall(ReportPrintf(rp->comm, ", radius %g to %g m", (double)-r[0], (double)r[1]));
  if (r[3] > 0.0 && r[3] + r[2] <= 1e-9 * r[3])
    PetscCall(ReportPrintf(rp->comm, ", density %g kg/m^3\n", (double)r[3]));
  else if (r[3] > 0.0) PetscCall(ReportPrintf(rp->comm, ", density %g to %g kg/m^3\n", (double)-r[2], (double)r[3]));
  else PetscCall(ReportPrintf(rp->comm, "\n"));
  PetscCall(ReportPrintf(rp->comm,
                         "  domain      [%g, %g] x [%g, %g] x [%g, %g] m, periodic %s%s%s%s, %" PetscInt_FMT
                         " plane wall%s\n",
                         (double)g->lo[0], (double)g->hi[0], (double)g->lo[1], (double)g->hi[1], (double)g->lo[2],
                         (double)g->hi[2], g->periodic[0] ? "x" : "", g->periodic[1] ? "y" : "",
                         g->periodic[2] ? "z" : "", g->periodic[0] || g->periodic[1] || g->periodic[2] ? "" : "none",
                         e->planes.n, e->planes.n == 1 ? "" : "s"));
  for (PetscInt k = 0; k < e->meshes.n; k++) {
    const Mesh *m        = &e->meshes.m[k];
    PetscReal   held     = (PetscReal)m->nt;
    char        dist[96] = "";
    if (!m->whole) {
      PetscCall(CollectiveMaxAll(rp->comm, &held, 1));
      PetscCall(PetscSNPrintf(dist, sizeof(dist), " (distributed: at most %.0f held by a rank)", (double)held));
    }
    PetscCall(ReportPrintf(rp->comm,
                           "  %-11s %s: %" PetscInt_FMT " triangles%s, %" PetscInt_FMT
                           " surfaces, [%g, %g] x [%g, %g] x [%g, %g] m%s%s\n",
                           m->name, m->file, m->nt_total, dist, m->nsurf, (double)m->lo[0], (double)m->hi[0],
                           (double)m->lo[1], (double)m->hi[1], (double)m->lo[2], (double)m->hi[2],
                           m->motion.kind != MOTION_NONE ? ", moving: " : "",
                           m->motion.kind != MOTION_NONE ? MotionKinds[m->motion.kind] : ""));
  }
  for (PetscInt k = 0; k < CLUMP_TEMPLATES_MAX; k++) {
    const ClumpTemplate *c = &e->clumps.t[k];
    if (c->on)
      PetscCall(ReportPrintf(rp->comm,
                             "  clump%-6" PetscInt_FMT "%d spheres, volume-equivalent radius %g m, sieve size %g m "
                             "(%.4g volume-equivalent diameters)\n",
                             k, (int)c->n, (double)c->r_equiv, (double)c->sieve,
                             (double)(c->sieve / (2.0 * c->r_equiv))));
  }
  PetscCall(ReportModel(rp, &e->model));
  if (e->model.several) PetscCall(OutputPairTable(e));
  if (e->ctl.mode == TIMESTEP_FIXED)
    PetscCall(ReportPrintf(rp->comm, "  time step   fixed %g s (contact bound now %g s)\n", (double)e->ctl.dt_fixed,
                           (double)e->clock.bound));
  else
    PetscCall(ReportPrintf(rp->comm,
                           "  time step   adaptive, %" PetscInt_FMT " steps per contact: next step %g s (bound %g s)\n",
                           e->ctl.steps_per_contact, (double)e->clock.dt, (double)e->clock.bound));
  PetscCall(ReportPrintf(rp->comm, "%s", rp->plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool ReportDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req,
                           PetscLogDouble elapsed)
{
  (void)m, (void)e, (void)step, (void)t_prev, (void)t, (void)req, (void)elapsed;
  return PETSC_FALSE;
}

/* n bytes in a few digits and a decimal unit. */
static void ReportBytes(char *buf, size_t len, PetscReal n)
{
  const char *unit[] = {"B", "kB", "MB", "GB", "TB"};
  int         u      = 0;
  while (n >= 1000.0 && u < 4) n /= 1000.0, u++;
  snprintf(buf, len, "%.3g %s", (double)n, unit[u]);
}

/* Where the time went (the ranks' mean share of each phase) and the most a rank sent per step. */
static PetscErrorCode ReportCounters(const Report *rp, Engine *e, const EngineRunEnd *end)
{
  const EngineCountersView *v         = &e->counted;
  char                      line[512] = "", b[32];
  size_t                    n;

  PetscFunctionBeginUser;
  if (!v->valid)
    PetscCall(EngineCountersGather(rp->comm, &e->counters, e->clock.rebuilds, end->steps_run, &e->counted));
  for (int p = 0; p < ENGINE_PHASES; p++) {
    PetscReal tot = v->time[ENGINE_PHASES].mean, f = tot > 0.0 ? 100.0 * v->time[p].mean / tot : 0.0;
    n = strlen(line);
    snprintf(line + n, sizeof(line) - n, "%s%s %.*f %%", p ? ", " : "", EnginePhaseNames[p], f < 9.95 ? 1 : 0,
             (double)f); /* a small share to a tenth: below 10 % a phase may still matter */
  }
  PetscCall(ReportPrintf(rp->comm, "  time          per rank, the mean of %d: %s of %.3g s\n", (int)v->ranks, line,
                         (double)v->time[ENGINE_PHASES].mean));
  line[0] = 0;
  for (int k = 0; k < EXCHANGE_KINDS; k++) {
    ReportBytes(b, sizeof(b), v->per_step[k][2].max);
    n = strlen(line);
    snprintf(line + n, sizeof(line) - n, "%s%s %s in %.3g messages", k ? ", " : "", ExchangeKindNames[k], b,
             (double)v->per_step[k][0].max);
  }
  PetscCall(ReportPrintf(rp->comm, "  sent          per rank per step, at most: %s; %" PetscInt64_FMT " rebuilds\n",
                         line, v->rebuilds));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Status, what was run, how fast, and where every output is. */
static PetscErrorCode ReportFinish(Monitor m, Engine *e, const EngineRunEnd *end)
{
  Report            *rp  = (Report *)m->data;
  const OutputTally *ty  = rp->tally;
  PetscReal          psr = end->wall > 0.0 ? end->particle_steps / end->wall : 0.0;

  PetscFunctionBeginUser;
  if (end->failed) PetscCall(ReportPrintf(rp->comm, "hdem: FAILED: %s\n", e->health.fault.reason));
  PetscCall(ReportPrintf(rp->comm,
                         "hdem: %s: %" PetscInt64_FMT " steps this run, at step %" PetscInt64_FMT
                         ", t %g s, in %.1f s wall (%.3g particle-steps/s, %.3g per rank)\n",
                         end->failed    ? "failed"
                         : end->stopped ? "stopped by a signal"
                                        : "completed",
                         end->steps_run, e->clock.step, (double)e->clock.t, (double)end->wall, (double)psr,
                         (double)(psr / e->grid.size)));
  PetscCall(ReportCounters(rp, e, end));
  if (ty->final && end->failed)
    PetscCall(ReportPrintf(rp->comm, "  failed state  %s/failed.h5, at the failing step (ParaView: %s/failed.xdmf)\n",
                           ty->dir, ty->dir));
  else if (ty->final)
    PetscCall(ReportPrintf(rp->comm, "  final state   %s/final.h5 (ParaView: %s/final.xdmf)\n", ty->dir, ty->dir));
  if (ty->snapshots > 0)
    PetscCall(ReportPrintf(rp->comm, "  snapshots     %s/snapshots.xdmf (%" PetscInt_FMT " frame%s)\n", ty->dir,
                           ty->snapshots, ty->snapshots > 1 ? "s" : ""));
  PetscCall(ReportPrintf(rp->comm, "  thermo        %s/thermo.csv\n", ty->dir));
  if (ty->checkpoints)
    PetscCall(ReportPrintf(rp->comm, "  checkpoint    %s/checkpoints/, the newest at step %" PetscInt64_FMT "%s\n",
                           ty->dir, ty->checkpoint_step, end->stopped ? "; continue with -restart latest" : ""));
  PetscCall(ReportPrintf(rp->comm, "  summary       %s/summary.json\n", ty->dir));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReportDestroy(Monitor m)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(m->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Two monitors: the banner starts first, the closing block finishes last. */
static const MonitorOps BannerOps = {"banner", PETSC_FALSE, ReportStart, NULL, ReportDue, NULL, NULL, ReportDestroy};
static const MonitorOps ReportOps = {"report", PETSC_FALSE, NULL, NULL, ReportDue, NULL, ReportFinish, ReportDestroy};

static PetscErrorCode ReportCreate(const MonitorOps *ops, MPI_Comm comm, const char *plan, OutputTally *tally,
                                   Monitor *m)
{
  Report *rp;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&rp));
  rp->comm = comm, rp->plan = plan, rp->tally = tally;
  PetscCall(MonitorCreate(ops, rp, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BannerMonitorCreate(MPI_Comm comm, const char *plan, Monitor *m)
{
  PetscFunctionBeginUser;
  PetscCall(ReportCreate(&BannerOps, comm, plan, NULL, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ReportMonitorCreate(MPI_Comm comm, OutputTally *tally, Monitor *m)
{
  PetscFunctionBeginUser;
  PetscCall(ReportCreate(&ReportOps, comm, NULL, tally, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
