#include "output/flow_bins.h"
#include "engine/flow.h"
#include "io/atomicfile.h"
#include "io/csvlog.h"
#include "decomp/collective.h"
#include <errno.h>
#include <math.h>
#include <string.h>

struct FlowStatsLog {
  char      path[2][PETSC_MAX_PATH_LEN + 16]; /* DIR/flow_bins.csv, DIR/residence.csv */
  FILE     *fp[2];                            /* rank 0's, NULL where the deck has no such file */
  FlowStats tot;
};

static const char *const FlowStatsFile[2]   = {"flow_bins.csv", "residence.csv"};
static const char *const FlowStatsHeader[2] = {"time,outflow,class,axis,bin,lo,hi,count,mass\n",
                                               "time,outflow,class,count,mean,q10,q50,q90\n"};

/* The file started whole: the header and, on a restart, the rows whose time
 * (the first column) is at most the checkpoint's, as printed. */
static PetscErrorCode FlowStatsFileStart(const char *path, const char *header, PetscBool fresh, PetscReal t, FILE **fp)
{
  AtomicFile af;
  FILE      *in;
  char      *line, now[64];
  size_t     cap = 1 << 16;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(now, sizeof(now), "%.10e", (double)t));
  PetscCall(AtomicFileOpen(path, &af));
  fputs(header, af.fp);
  if (!fresh && (in = fopen(path, "r"))) {
    PetscCall(PetscMalloc1(cap, &line));
    while (fgets(line, (int)cap, in)) {
      char  *end;
      double v = strtod(line, &end);
      if (end != line && *end == ',' && v <= strtod(now, NULL) && strchr(line, '\n')) fputs(line, af.fp);
    }
    fclose(in);
    PetscCall(PetscFree(line));
  }
  PetscCall(AtomicFileCommit(&af, PETSC_FALSE));
  *fp = fopen(path, "a");
  PetscCheck(*fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot append to %s: %s", path, strerror(errno));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowStatsLogStart(Engine *e, const char *dir, PetscBool fresh, FlowStatsLog *out)
{
  const FlowStats *s = &e->flow.stats;
  FlowStatsLog     l;

  PetscFunctionBeginUser;
  *out = NULL;
  if (!(s->nbins + s->nres)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscNew(&l));
  PetscCall(FlowStatsAlloc(&e->flow, &l->tot));
  for (int q = 0; q < 2; q++) {
    PetscCall(PetscSNPrintf(l->path[q], sizeof(l->path[q]), "%s/%s", dir, FlowStatsFile[q]));
    CollectiveShared(e->grid.comm, e->grid.rank == 0 && (q ? s->nres : s->nbins)
                                     ? FlowStatsFileStart(l->path[q], FlowStatsHeader[q], fresh, e->clock.t, &l->fp[q])
                                     : PETSC_SUCCESS);
  }
  *out = l;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal FlowResidenceEdge(PetscInt j)
{
  return pow(10.0, (PetscReal)FLOW_RES_DECADE_LO + (PetscReal)j / (PetscReal)FLOW_RES_PER_DECADE);
}

PetscReal FlowResidenceQuantile(const PetscInt64 *h, PetscInt64 n, PetscReal tmin, PetscReal tmax, PetscReal q)
{
  PetscReal  target = q * (PetscReal)n;
  PetscInt64 cum    = 0;

  if (n <= 0) return NAN;
  for (PetscInt j = 0; j < FLOW_RES_BINS; j++) {
    PetscReal a, b, f;
    if (!h[j]) continue;
    if ((PetscReal)(cum + h[j]) < target) {
      cum += h[j];
      continue;
    }
    /* the first and last bins take what lies beyond the range */
    a = j == 0 ? tmin : PetscMax(FlowResidenceEdge(j), tmin);
    b = j == FLOW_RES_BINS - 1 ? tmax : PetscMin(FlowResidenceEdge(j + 1), tmax);
    b = PetscMax(a, b);
    f = PetscMax(0.0, PetscMin(1.0, (target - (PetscReal)cum) / (PetscReal)h[j]));
    return a > 0.0 ? a * pow(b / a, f) : a + f * (b - a);
  }
  return tmax;
}

static void FlowStatsBinRows(FILE *fp, const Flow *f, const FlowStats *s, PetscReal t)
{
  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++) {
    const Outflow *o = &f->outflow[k];
    if (!o->on || !o->nbin) continue;
    for (PetscInt c = 0; c < s->nclass; c++)
      for (PetscInt b = 0; b < o->nbin; b++) {
        PetscInt  r  = s->bin0[k] + c * o->nbin + b;
        PetscReal w  = o->bin_hi - o->bin_lo;
        PetscReal lo = o->bin_lo + w * (PetscReal)b / (PetscReal)o->nbin;
        PetscReal hi = b == o->nbin - 1 ? o->bin_hi : o->bin_lo + w * (PetscReal)(b + 1) / (PetscReal)o->nbin;
        fprintf(fp, "%.10e,%d,%d,%c,%d,%.17g,%.17g,%lld,%.17g\n", (double)t, (int)k, (int)c, "xyz"[o->bin_axis], (int)b,
                (double)lo, (double)hi, (long long)s -> count[r], (double)ExactSumValue(&s->mass[r]));
      }
  }
}

static void FlowStatsResidenceRows(FILE *fp, const FlowStats *s, PetscReal t)
{
  static const PetscReal q[3] = {0.1, 0.5, 0.9};

  for (PetscInt k = 0; k < OUTFLOWS_MAX; k++) {
    if (s->slot[k] < 0) continue;
    for (PetscInt c = 0; c < s->nclass; c++) {
      PetscInt          r = s->slot[k] + c;
      const PetscInt64 *h = s->hist + (size_t)r * FLOW_RES_BINS;
      PetscInt64        n = 0;
      for (PetscInt j = 0; j < FLOW_RES_BINS; j++) n += h[j];
      fprintf(fp, "%.10e,%d,%d,%lld,%.17g", (double)t, (int)k, (int)c, (long long)n,
              n ? (double)(ExactSumValue(&s->tsum[r]) / (PetscReal)n) : (double)NAN);
      for (int m = 0; m < 3; m++)
        fprintf(fp, ",%.17g", (double)FlowResidenceQuantile(h, n, s->tmin[r], s->tmax[r], q[m]));
      fputc('\n', fp);
    }
  }
}

PetscErrorCode FlowStatsLogRow(FlowStatsLog l, Engine *e)
{
  PetscFunctionBeginUser;
  if (!l) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(FlowStatsTotals(e->grid.comm, &e->flow.stats, &l->tot));
  if (l->fp[0]) FlowStatsBinRows(l->fp[0], &e->flow, &l->tot, e->clock.t);
  if (l->fp[1]) FlowStatsResidenceRows(l->fp[1], &l->tot, e->clock.t);
  for (int q = 0; q < 2; q++)
    CollectiveShared(e->grid.comm, l->fp[q] ? CsvLogFlush(l->fp[q], l->path[q], e->clock.step) : PETSC_SUCCESS);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowStatsLogClose(MPI_Comm comm, FlowStatsLog l)
{
  PetscFunctionBeginUser;
  for (int q = 0; l && q < 2; q++) CollectiveShared(comm, CsvLogClose(&l->fp[q], l->path[q]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowStatsLogDestroy(FlowStatsLog *l)
{
  PetscFunctionBeginUser;
  if (!*l) PetscFunctionReturn(PETSC_SUCCESS);
  for (int q = 0; q < 2; q++)
    if ((*l)->fp[q]) fclose((*l)->fp[q]);
  PetscCall(FlowStatsFree(&(*l)->tot));
  PetscCall(PetscFree(*l));
  PetscFunctionReturn(PETSC_SUCCESS);
}
