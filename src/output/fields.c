/* The fields monitor: a sample's sums (particles here, contacts through the
 * engine's contact sink in the step's force pass), reduced exactly, added
 * to the window's time sums in sample order, a frame's fields derived from
 * their means (docs/deck/fields.md). */
#include "output/fields.h"
#include "io/fieldsfile.h"
#include "io/options.h"
#include <string.h>

/* The sums per cell: number, mass, particle volume, momentum (3), m v v
 * (xx, yy, zz, xy, xz, yz), then the contacts' F (x) branch (9, row-major). */
#define FIELDS_SUMS    21
#define FIELDS_CONTACT 12
/* a sample's exact sums beyond this many bytes per rank are refused */
#define FIELDS_SUM_BYTES_MAX ((size_t)1 << 28)

typedef struct {
  FieldsSettings s;
  CoarseGrid     g;
  char           dir[PETSC_MAX_PATH_LEN], restart[PETSC_MAX_PATH_LEN];
  ExactSum      *sums; /* this sample's, this rank's: ncell x FIELDS_SUMS */
  PetscReal     *acc;  /* the window's time sums, the same on every rank */
  PetscReal     *out;  /* a frame's fields */
  PetscInt64     nsamp, first, frames, samples;
  PetscMPIInt    rank;
  PetscLogDouble seconds; /* spent sampling */
  ContactSink    sink;
  FieldsFile     ff;
} Fields;

PetscErrorCode FieldsSetFromOptions(FieldsSettings *s)
{
  PetscInt n = 3;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  s->n[0] = s->n[1] = s->n[2] = 1;
  PetscCall(OptionsSection("Fields"));
  PetscCall(OptionsInt("-fields_interval", "steps between frames of fields.h5 (0: no fields)", 0, PETSC_MAX_INT,
                       &s->interval, NULL));
  PetscCall(OptionsInt("-fields_sample", "steps between the samples a frame averages, back from the frame's step", 1,
                       PETSC_MAX_INT, &s->sample, &s->sample_set));
  PetscCall(OptionsDefaultText("-fields_sample", "a tenth of fields_interval (at least 1)"));
  PetscCall(OptionsInt("-fields_window", "steps before a frame whose samples it averages (at most fields_interval)", 1,
                       PETSC_MAX_INT, &s->window, &s->window_set));
  PetscCall(OptionsDefaultText("-fields_window", "fields_interval"));
  PetscCall(OptionsIntArray("-fields_grid", "cells along x, y, z (1: averaged along that axis)", 3, 3, 1, 1 << 20, s->n,
                            &n, NULL));
  PetscCall(OptionsRealArray("-fields_lo", "the region's low corner", "[m]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL,
                             RANGE_CLOSED, s->lo, &n, &s->lo_set));
  PetscCall(OptionsDefaultText("-fields_lo", "the domain's low corner"));
  PetscCall(OptionsRealArray("-fields_hi", "the region's high corner", "[m]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL,
                             RANGE_CLOSED, s->hi, &n, &s->hi_set));
  PetscCall(OptionsDefaultText("-fields_hi", "the domain's high corner"));
  PetscCall(OptionsEnum("-fields_kernel", "coarse-graining kernel: lucy, gaussian or bins (the cells' own averages)",
                        CoarseKernels, (PetscEnum *)&s->kernel, NULL));
  PetscCall(OptionsReal("-fields_width", "the kernel's width: lucy's cutoff radius, gaussian's standard deviation",
                        "[m]", 0.0, PETSC_MAX_REAL, RANGE_OPEN_LO, &s->width, &s->width_set));
  PetscCall(OptionsDefaultText("-fields_width", "lucy: 4 x the largest radius; gaussian: the largest radius"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FieldsCheck(FieldsSettings *s, const Engine *e, CoarseGrid *g)
{
  const Grid *gr = &e->grid;
  PetscBool   wrap[3];
  size_t      bytes = sizeof(ExactSum) * FIELDS_SUMS;

  PetscFunctionBeginUser;
  if (!s->interval) PetscFunctionReturn(PETSC_SUCCESS);
  if (!s->sample_set) s->sample = PetscMax(1, s->interval / 10);
  if (!s->window_set) s->window = s->interval;
  PetscCall(OptionsCheckInt("-fields_window", s->window, 1, s->interval));
  if (!s->width_set) s->width = s->kernel == COARSE_GAUSSIAN ? e->rmax : 4.0 * e->rmax;
  PetscCall(OptionsCheckReal("-fields_width", s->width, 0.0, PETSC_MAX_REAL, RANGE_OPEN_LO, "[m]"));
  for (int a = 0; a < 3; a++) {
    char key[32];
    if (!s->lo_set) s->lo[a] = gr->lo[a];
    if (!s->hi_set) s->hi[a] = gr->hi[a];
    PetscCall(PetscSNPrintf(key, sizeof(key), "-fields_lo (%c)", "xyz"[a]));
    PetscCall(OptionsCheckReal(key, s->lo[a], gr->lo[a], gr->hi[a], RANGE_OPEN_HI, "[m]"));
    PetscCall(PetscSNPrintf(key, sizeof(key), "-fields_hi (%c)", "xyz"[a]));
    PetscCall(OptionsCheckReal(key, s->hi[a], s->lo[a], gr->hi[a], RANGE_OPEN_LO, "[m]"));
    wrap[a] = gr->periodic[a] && s->lo[a] == gr->lo[a] && s->hi[a] == gr->hi[a] ? PETSC_TRUE : PETSC_FALSE;
    bytes *= (size_t)s->n[a];
  }
  PetscCheck(bytes <= FIELDS_SUM_BYTES_MAX, gr->comm, PETSC_ERR_USER_INPUT,
             "-fields_grid %" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT
             ": a sample's exact sums would take %.0f MiB per rank, more than the %.0f MiB allowed: use fewer cells",
             s->n[0], s->n[1], s->n[2], (double)bytes / 1048576.0, (double)FIELDS_SUM_BYTES_MAX / 1048576.0);
  PetscCall(CoarseGridSetUp(g, s->n, s->lo, s->hi, wrap, s->kernel, s->width));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a sample is taken after step: back from the frame at or after it
 * by multiples of sample, within the window. */
static PetscBool FieldsSampleDue(const FieldsSettings *s, PetscInt64 step)
{
  PetscInt64 frame = ((step + s->interval - 1) / s->interval) * s->interval, back = frame - step;
  return step > 0 && back < s->window && back % s->sample == 0 ? PETSC_TRUE : PETSC_FALSE;
}

typedef struct {
  ExactSum *sums;
  PetscReal q[FIELDS_SUMS];
  PetscInt  off, nq;
} FieldsDeposit;

static void FieldsVisit(void *ctx, PetscInt cell, PetscReal w)
{
  FieldsDeposit *d = (FieldsDeposit *)ctx;
  ExactSum      *s = d->sums + (size_t)cell * FIELDS_SUMS + d->off;
  for (PetscInt k = 0; k < d->nq; k++)
    if (d->q[k] != 0.0) ExactSumAdd(&s[k], d->q[k] * w);
}

/* A contact into this sample's sums: F (x) (a - b) along the branch from a to b. */
static void FieldsContact(void *ctx, const PetscReal a[3], const PetscReal b[3], const PetscReal F[3])
{
  Fields       *fd = (Fields *)ctx;
  FieldsDeposit d;
  d.sums = fd->sums, d.off = FIELDS_CONTACT, d.nq = 9;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) d.q[3 * r + c] = F[r] * (a[c] - b[c]);
  CoarseSegment(&fd->g, a, b, FieldsVisit, &d);
}

/* The owned particles into this sample's sums. */
static void FieldsParticles(Fields *fd, const Particles *p)
{
  FieldsDeposit d;
  d.sums = fd->sums, d.off = 0, d.nq = FIELDS_CONTACT;
  for (PetscInt i = 0; i < p->n; i++) {
    const PetscReal *v = p->v + 3 * i, m = p->mass[i], r = p->radius[i];
    PetscReal        mv[3] = {m * v[0], m * v[1], m * v[2]};
    d.q[0] = 1.0, d.q[1] = m, d.q[2] = (4.0 / 3.0) * HDEM_PI * (r * r) * r;
    d.q[3] = mv[0], d.q[4] = mv[1], d.q[5] = mv[2];
    d.q[6] = mv[0] * v[0], d.q[7] = mv[1] * v[1], d.q[8] = mv[2] * v[2];
    d.q[9] = mv[0] * v[1], d.q[10] = mv[0] * v[2], d.q[11] = mv[1] * v[2];
    CoarsePoint(&fd->g, p->x + 3 * i, FieldsVisit, &d);
  }
}

/* The sets of a frame: offsets into out per cell, components. */
static const char *const FieldsSetName[8] = {"number_density",       "mass_density",   "solid_fraction", "velocity",
                                             "granular_temperature", "kinetic_stress", "contact_stress", "stress"};
static const PetscInt    FieldsSetComp[8] = {1, 1, 1, 3, 1, 9, 9, 9};
static const PetscInt    FieldsSetOff[8]  = {0, 1, 2, 3, 6, 7, 16, 25};
#define FIELDS_OUT 34

/* Cell c's fields from the window's means A (FIELDS_SUMS), into o (FIELDS_OUT, set by set). */
static void FieldsDerive(const PetscReal A[], PetscReal o[])
{
  static const int sym[3][3] = {{6, 9, 10}, {9, 7, 11}, {10, 11, 8}};
  PetscReal        rho = A[1], V[3], *sk = o + 7, *sc = o + 16, *st = o + 25;
  o[0] = A[0], o[1] = rho, o[2] = A[2];
  for (int a = 0; a < 3; a++) V[a] = rho > 0.0 ? A[3 + a] / rho : 0.0, o[3 + a] = V[a];
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      sk[3 * a + b] = rho > 0.0 ? A[sym[a][b]] - A[3 + a] * V[b] : 0.0;
      sc[3 * a + b] = A[FIELDS_CONTACT + 3 * a + b];
      st[3 * a + b] = sk[3 * a + b] + sc[3 * a + b];
    }
  o[6] = rho > 0.0 ? (sk[0] + sk[4] + sk[8]) / (3.0 * rho) : 0.0;
}

static PetscErrorCode FieldsFrame(Fields *fd, const Engine *e)
{
  PetscInt      nc = fd->g.ncell;
  FieldsFileSet sets[8];

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < nc; c++) {
    PetscReal A[FIELDS_SUMS], o[FIELDS_OUT];
    for (int k = 0; k < FIELDS_SUMS; k++) A[k] = fd->acc[(size_t)c * FIELDS_SUMS + k] / (PetscReal)fd->nsamp;
    FieldsDerive(A, o);
    for (int s = 0; s < 8; s++)
      for (PetscInt k = 0; k < FieldsSetComp[s]; k++)
        fd->out[(size_t)nc * FieldsSetOff[s] + (size_t)c * FieldsSetComp[s] + k] = o[FieldsSetOff[s] + k];
  }
  for (int s = 0; s < 8; s++) {
    sets[s].name  = FieldsSetName[s];
    sets[s].ncomp = FieldsSetComp[s];
    sets[s].v     = fd->out + (size_t)nc * FieldsSetOff[s];
  }
  PetscCall(FieldsFileWrite(e->grid.comm, &fd->ff, e->clock.step, e->clock.t, fd->nsamp, fd->first, 8, sets));
  PetscCall(PetscArrayzero(fd->acc, (size_t)nc * FIELDS_SUMS));
  fd->nsamp = 0, fd->frames++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool FieldsDue(Monitor m, const Engine *e, PetscInt64 step, PetscReal t_prev, PetscReal t, PetscInt req,
                           PetscLogDouble elapsed)
{
  (void)e, (void)t_prev, (void)t, (void)req, (void)elapsed;
  return FieldsSampleDue(&((Fields *)m->data)->s, step);
}

static PetscErrorCode FieldsWrite(Monitor m, Engine *e, PetscInt req, PetscLogDouble elapsed)
{
  Fields        *fd = (Fields *)m->data;
  size_t         n  = (size_t)fd->g.ncell * FIELDS_SUMS;
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  (void)req, (void)elapsed;
  EngineCheckWhole(e);
  PetscCheck(e->contact_sink_due, e->grid.comm, PETSC_ERR_PLIB,
             "fields are sampled at step %" PetscInt64_FMT " but the contacts were not", e->clock.step);
  PetscCall(PetscTime(&t0));
  FieldsParticles(fd, &e->p);
  PetscCall(ExactSumAllreduce(e->grid.comm, fd->sums, (PetscInt)n));
  for (size_t k = 0; k < n; k++) {
    fd->acc[k] += ExactSumValue(&fd->sums[k]);
    ExactSumZero(&fd->sums[k]);
  }
  if (!fd->nsamp) fd->first = e->clock.step;
  fd->nsamp++, fd->samples++;
  PetscCall(PetscTime(&t1));
  fd->seconds += t1 - t0;
  if (e->clock.step % fd->s.interval == 0) PetscCall(FieldsFrame(fd, e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What a checkpoint's time sums were taken under: they continue only under the same. */
static PetscErrorCode FieldsSignature(const Fields *fd, char *buf, size_t len)
{
  const FieldsSettings *s = &fd->s;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(buf, len,
                          "grid %" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT
                          " lo %.17g,%.17g,%.17g hi %.17g,%.17g,%.17g kernel %s width %.17g interval %" PetscInt_FMT
                          " sample %" PetscInt_FMT " window %" PetscInt_FMT,
                          s->n[0], s->n[1], s->n[2], (double)s->lo[0], (double)s->lo[1], (double)s->lo[2],
                          (double)s->hi[0], (double)s->hi[1], (double)s->hi[2], CoarseKernels[s->kernel],
                          (double)s->width, s->interval, s->sample, s->window));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Into a checkpoint (Engine checkpoint_extra): the window's time sums as rank 0's rows, their count, the settings. */
static PetscErrorCode FieldsCheckpointWrite(void *ctx, H5File f)
{
  Fields *fd = (Fields *)ctx;
  char    sig[512];

  PetscFunctionBeginUser;
  PetscCall(FieldsSignature(fd, sig, sizeof(sig)));
  PetscCall(H5FileWriteRows(f, "fields/time_sums", H5FILE_REAL, FIELDS_SUMS, fd->rank == 0 ? fd->g.ncell : 0, fd->acc));
  PetscCall(H5FileWriteAttrInt64(f, "fields_samples", fd->nsamp));
  PetscCall(H5FileWriteAttrInt64(f, "fields_first_sample", fd->first));
  PetscCall(H5FileWriteAttrString(f, "fields_settings", sig));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* From the checkpoint a restart continues from: the window's time sums, if it has them under these settings. */
static PetscErrorCode FieldsCheckpointRead(Fields *fd, const Engine *e)
{
  H5File     f;
  char      *had = NULL, sig[512];
  PetscBool  exists, same;
  PetscInt64 N;

  PetscFunctionBeginUser;
  PetscCall(FieldsSignature(fd, sig, sizeof(sig)));
  PetscCall(H5FileOpen(e->grid.comm, fd->restart, &f));
  PetscCall(H5FileReadAttrString(f, "fields_settings", &had, &exists));
  if (!exists) {
    PetscCall(H5FileClose(&f));
    if (e->clock.step % fd->s.interval != 0)
      PetscCall(PetscPrintf(e->grid.comm,
                            "hdem: %s keeps no fields' time sums: the frame after step %" PetscInt64_FMT
                            " averages the samples from there on\n",
                            fd->restart, e->clock.step));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrcmp(had, sig, &same));
  if (!same) PetscCall(H5FileClose(&f));
  PetscCheck(same, e->grid.comm, PETSC_ERR_USER_INPUT,
             "-fields_*: %s was written under the fields settings \"%s\", the run gives \"%s\": keep them across a "
             "restart",
             fd->restart, had, sig);
  PetscCall(PetscFree(had));
  PetscCall(H5FileRows(f, "fields/time_sums", H5FILE_REAL, FIELDS_SUMS, &N, NULL));
  PetscCheck(N == fd->g.ncell, e->grid.comm, PETSC_ERR_FILE_UNEXPECTED,
             "%s: fields/time_sums has %" PetscInt64_FMT " rows, the grid %" PetscInt_FMT " cells", fd->restart, N,
             fd->g.ncell);
  PetscCall(H5FileReadRows(f, "fields/time_sums", H5FILE_REAL, FIELDS_SUMS, 0, fd->g.ncell, fd->acc));
  PetscCall(H5FileReadAttrInt64(f, "fields_samples", &fd->nsamp, NULL));
  PetscCall(H5FileReadAttrInt64(f, "fields_first_sample", &fd->first, NULL));
  PetscCall(H5FileClose(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldsStart(Monitor m, Engine *e, PetscBool fresh)
{
  Fields           *fd      = (Fields *)m->data;
  const char *const attr[4] = {"kernel", CoarseKernels[fd->s.kernel], "sign", "compression positive"};
  size_t            n       = (size_t)fd->g.ncell * FIELDS_SUMS;

  PetscFunctionBeginUser;
  fd->rank = e->grid.rank;
  PetscCall(PetscMalloc1(n, &fd->sums));
  for (size_t k = 0; k < n; k++) ExactSumZero(&fd->sums[k]);
  PetscCall(PetscCalloc1(n, &fd->acc));
  PetscCall(PetscCalloc1((size_t)fd->g.ncell * FIELDS_OUT, &fd->out));
  if (!fresh && fd->restart[0]) PetscCall(FieldsCheckpointRead(fd, e));
  PetscCall(
    FieldsFileStart(e->grid.comm, fd->dir, fd->s.n, fd->s.lo, fd->s.hi, 2, attr, fresh, e->clock.step, &fd->ff));
  fd->sink.contact = FieldsContact, fd->sink.ctx = fd;
  e->contact_sink         = &fd->sink;
  e->checkpoint_extra     = FieldsCheckpointWrite;
  e->checkpoint_extra_ctx = fd;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldsFinish(Monitor m, Engine *e, const EngineRunEnd *end)
{
  Fields *fd = (Fields *)m->data;

  PetscFunctionBeginUser;
  (void)end;
  if (fd->samples)
    PetscCall(PetscPrintf(e->grid.comm,
                          "fields: %" PetscInt64_FMT " frames to %s, %" PetscInt64_FMT " samples of %" PetscInt_FMT
                          " cells, %.3g ms per sample on rank 0\n",
                          fd->frames, fd->ff.h5, fd->samples, fd->g.ncell, 1e3 * fd->seconds / (double)fd->samples));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldsDestroy(Monitor m)
{
  Fields *fd = (Fields *)m->data;

  PetscFunctionBeginUser;
  PetscCall(FieldsFileDestroy(&fd->ff));
  PetscCall(PetscFree(fd->sums));
  PetscCall(PetscFree(fd->acc));
  PetscCall(PetscFree(fd->out));
  PetscCall(PetscFree(fd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MonitorOps FieldsOps = {"fields",  PETSC_TRUE,  FieldsStart,  NULL,
                                     FieldsDue, FieldsWrite, FieldsFinish, FieldsDestroy};

PetscErrorCode FieldsMonitorCreate(Engine *e, const FieldsSettings *s, const char *dir, const char *restart, Monitor *m)
{
  Fields *fd;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&fd));
  fd->s = *s;
  PetscCall(FieldsCheck(&fd->s, e, &fd->g));
  PetscCall(PetscStrncpy(fd->dir, dir, sizeof(fd->dir)));
  PetscCall(PetscStrncpy(fd->restart, restart, sizeof(fd->restart)));
  PetscCall(MonitorCreate(&FieldsOps, fd, m));
  (*m)->wants_contacts = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
