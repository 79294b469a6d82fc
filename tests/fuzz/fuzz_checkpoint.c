/* libFuzzer harness: a checkpoint's contents against the reader's checks
 * (CheckpointRead, src/engine/checkpoint_check.c).  Raw bytes as an HDF5
 * file would fuzz HDF5's parser, not hdem; here the input is a list of edits
 * of a real checkpoint.
 *
 * Once: an engine set up from DECK (a periodic axis, four walls, contacts
 * with particles and walls), stepped, and its checkpoint written by
 * CheckpointWrite: the template.  Its datasets and attributes are listed
 * from the file, so what the writer adds later is fuzzed as it comes.
 * Each input: the edits applied to a copy of the template's contents; the
 * template's bytes written to a file of this process and what was edited
 * rewritten in it through HDF5 (the rest stays as hdem wrote it); then
 * CheckpointRead on one rank into an engine set up from DECK.  It must end
 * in success or a PETSc error, never a crash, a sanitizer report or a leak;
 * what it accepts must be what the checks promise (Sane), else abort(), and
 * must take two steps (a fault or an error is an outcome, a crash is not).
 *
 * The input: a byte of flags (low two bits 3: no checksum is recomputed),
 * then edits until it ends, each an opcode byte and operands read as
 * needed (zeros past the end): d, a dataset, and a, an attribute of /, one
 * byte each (modulo their counts); row, two bytes (modulo the rows); v, 8
 * bytes little-endian (a real's bits or an integer); k, one byte, picks from
 * Special's table for the element's type (NaN, infinities, 0, -1, rmax, the
 * box's faces and just past them, 2^53, the walls' count, another row's id,
 * ...).  The opcodes, modulo OP_COUNT:
 *   SET d row c v, SPECIAL d row c k, FILL d c k (every row), COPY d row row;
 *   DROP_PARTICLE row h, DUP_PARTICLE row: the row out of (or again at the
 *     end of) every /particles dataset, /particles and /particles_initial
 *     (h odd: /lost) following; DROP_RECORD row, DUP_RECORD row: /history's;
 *   RESIZE d k (rows + k % 16 - 8), RETYPE d h (int64, int32, float64, a
 *     column more or less), DELETE d;
 *   ATTR a h v (h % 4: raw v, Special k = v, a step up or down, zero),
 *     ATTR_RETYPE a h (real, integer, string, an array of two), ATTR_DELETE a;
 *   FORMAT k (the format's name), FORMAT1 (a proper format 1 file);
 *   SUM d h v: d's checksum recomputed, left, removed or v.
 * Edited datasets' checksums are recomputed unless said otherwise, so most
 * inputs reach the value checks and some the checksum check. */
#include <float.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <hdf5.h>
#include "fuzz_init.h"
#include "ckpt_model.h"
#include "ckpt_edit.h"
#include "engine/checkpoint.h"
#include "engine/setup.h"
#include "io/h5file.h"
#include "io/options.h"

/* 16 spheres dropped into a 3 x 3 x 6.5 mm box, periodic along x, walls on
 * the other faces; after TEMPLATE_STEPS some rest on the floor and on each
 * other: records of both kinds. */
static const char DECK[] = "-domain_lo 0,0,0 -domain_hi 0.003,0.003,0.0065 -domain_periodic true,false,false "
                           "-domain_walls true -gravity 0,0,-9.81 "
                           "-material_E 1e7 -material_nu 0.3 -contact_law hertz -contact_e 0.1 -contact_mu 0.5 "
                           "-insert_mode lattice -insert_count 16 "
                           "-insert_seed 7 -insert_spacing 1.05 -insert_velocity 0,0,-1 -insert_velocity_random 0.5 "
                           "-insert_radius_distribution uniform "
                           "-insert_radius_min 0.4e-3 -insert_radius_max 0.6e-3 -neighbor_skin 0.1e-3";
#define TEMPLATE_STEPS 8000

static Ckpt           tmpl;
static unsigned char *tmpl_bytes;
static size_t         tmpl_len;
static char           dir[64], path[128], hints[128];

/* ---- the template ------------------------------------------------------- */

static void LoadSet(hid_t f, const char *name, Ckpt *c)
{
  hid_t   d, t, sp;
  int     nd;
  hsize_t dims[2] = {0, 1};
  Set    *s;

  CHECK(c->ns < MAX_SETS);
  s = &c->s[c->ns++];
  memset(s, 0, sizeof(*s));
  snprintf(s->name, sizeof(s->name), "%.127s", name);
  CHECK((d = H5Dopen2(f, name, H5P_DEFAULT)) >= 0);
  CHECK((t = H5Dget_type(d)) >= 0);
  s->kind = H5Tget_class(t) == H5T_FLOAT ? K_REAL : H5Tget_size(t) == 4 ? K_I32 : K_I64;
  CHECK(H5Tget_class(t) == H5T_FLOAT || H5Tget_class(t) == H5T_INTEGER);
  H5Tclose(t);
  CHECK((sp = H5Dget_space(d)) >= 0);
  CHECK((nd = H5Sget_simple_extent_ndims(sp)) == 1 || nd == 2);
  H5Sget_simple_extent_dims(sp, dims, NULL);
  H5Sclose(sp);
  s->rows  = (PetscInt64)dims[0];
  s->ncomp = nd == 2 ? (int)dims[1] : 1;
  CHECK((s->data = calloc((size_t)s->rows * (size_t)s->ncomp * ESize(s->kind) + 8, 1)));
  if (s->rows) CHECK(H5Dread(d, MemType(s->kind), H5S_ALL, H5S_ALL, H5P_DEFAULT, s->data) >= 0);
  if (H5Aexists(d, "checksum") > 0) {
    hid_t a = H5Aopen(d, "checksum", H5P_DEFAULT);
    CHECK(a >= 0 && H5Aread(a, H5T_NATIVE_UINT64, &s->stored) >= 0);
    H5Aclose(a);
    s->has_sum = 1;
  }
  s->present = 1;
  H5Dclose(d);
}

/* Every dataset under group g (name), depth first, in name order. */
static void LoadGroup(hid_t f, const char *g, Ckpt *c)
{
  H5G_info_t gi;
  CHECK(H5Gget_info_by_name(f, g, &gi, H5P_DEFAULT) >= 0);
  for (hsize_t k = 0; k < gi.nlinks; k++) {
    char       leaf[64], name[128];
    hid_t      o;
    H5I_type_t type;
    CHECK(H5Lget_name_by_idx(f, g, H5_INDEX_NAME, H5_ITER_INC, k, leaf, sizeof(leaf), H5P_DEFAULT) > 0);
    snprintf(name, sizeof(name), "%.62s%s%.63s", strcmp(g, "/") ? g : "", strcmp(g, "/") ? "/" : "", leaf);
    CHECK((o = H5Oopen(f, name, H5P_DEFAULT)) >= 0);
    type = H5Iget_type(o);
    H5Oclose(o);
    if (type == H5I_GROUP) LoadGroup(f, name, c);
    else if (type == H5I_DATASET) LoadSet(f, name, c);
  }
}

static herr_t LoadAttr(hid_t loc, const char *name, const H5A_info_t *info, void *ctx)
{
  Ckpt *c = (Ckpt *)ctx;
  Attr *a;
  hid_t at, t;
  (void)info;
  CHECK(c->na < MAX_ATTRS);
  a = &c->a[c->na++];
  memset(a, 0, sizeof(*a));
  snprintf(a->name, sizeof(a->name), "%.63s", name);
  CHECK((at = H5Aopen(loc, name, H5P_DEFAULT)) >= 0);
  CHECK((t = H5Aget_type(at)) >= 0);
  a->npoints = 1;
  if (H5Tget_class(t) == H5T_FLOAT) {
    a->kind = A_REAL;
    CHECK(H5Aread(at, H5T_NATIVE_DOUBLE, &a->r) >= 0);
  } else if (H5Tget_class(t) == H5T_INTEGER) {
    a->kind = A_I64;
    CHECK(H5Aread(at, H5T_NATIVE_INT64, &a->i) >= 0);
  } else {
    hid_t m = H5Tcopy(H5T_C_S1);
    CHECK(H5Tget_class(t) == H5T_STRING && H5Tget_size(t) < sizeof(a->s));
    H5Tset_size(m, sizeof(a->s));
    H5Tset_strpad(m, H5T_STR_NULLTERM);
    a->kind = A_STR;
    CHECK(H5Aread(at, m, a->s) >= 0);
    H5Tclose(m);
  }
  H5Tclose(t);
  H5Aclose(at);
  a->present = 1;
  return 0;
}

static void MakeTemplate(void)
{
  char       tpath[160];
  Engine     e;
  EngineKeys keys;
  FILE      *fp;
  hid_t      f;
  long       n;

  CHECK(!PetscOptionsInsertString(NULL, DECK));
  CHECK(!EngineSetFromOptions(PETSC_COMM_WORLD, &e, &keys));
  CHECK(!EngineCreate(PETSC_COMM_WORLD, PETSC_TRUE, &keys, &e));
  CHECK(!EngineSetUp(&e));
  for (int k = 0; k < TEMPLATE_STEPS; k++) CHECK(!EngineStep(&e, PETSC_FALSE));
  snprintf(tpath, sizeof(tpath), "%s/template.h5", dir);
  CHECK(!CheckpointWrite(&e, tpath, DECK));
  CHECK(!EngineDestroy(&e));
  OptionsRecordsClear();
  CHECK((fp = fopen(tpath, "rb")));
  CHECK(!fseek(fp, 0, SEEK_END) && (n = ftell(fp)) > 0 && !fseek(fp, 0, SEEK_SET));
  tmpl_len = (size_t)n;
  CHECK((tmpl_bytes = malloc(tmpl_len)) && fread(tmpl_bytes, 1, tmpl_len, fp) == tmpl_len);
  fclose(fp);
  CHECK((f = H5Fopen(tpath, H5F_ACC_RDONLY, H5P_DEFAULT)) >= 0);
  LoadGroup(f, "/", &tmpl);
  CHECK(H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_INC, NULL, LoadAttr, &tmpl) >= 0);
  H5Fclose(f);
  (void)remove(tpath);
  for (int a = 0; a < 3; a++) {
    char  lo[32], hi[32];
    Attr *l, *h;
    snprintf(lo, sizeof(lo), "domain_lo_%c", "xyz"[a]);
    snprintf(hi, sizeof(hi), "domain_hi_%c", "xyz"[a]);
    CHECK((l = AttrFind(&tmpl, lo)) && (h = AttrFind(&tmpl, hi)));
    box_lo[a] = l->r, box_hi[a] = h->r;
  }
  CHECK(AttrFind(&tmpl, "rmax"));
  rmax = AttrFind(&tmpl, "rmax")->r;
  CHECK(SetFind(&tmpl, "particles/id") && SetFind(&tmpl, "history/owner") && SetFind(&tmpl, "history/kind") &&
        SetFind(&tmpl, "walls/normal"));
  CHECK(SetFind(&tmpl, "history/owner")->rows > 0); /* the deck must leave records */
  /* the numbering of d and a (checkpoint_seeds.py reads it) */
  if (getenv("HDEM_FUZZ_VERBOSE")) {
    for (int k = 0; k < tmpl.ns; k++) fprintf(stderr, "dataset %d %s\n", k, tmpl.s[k].name);
    for (int k = 0; k < tmpl.na; k++) fprintf(stderr, "attribute %d %s\n", k, tmpl.a[k].name);
  }
}

static void Cleanup(void)
{
  char tmp[160];
  (void)remove(path);
  (void)remove(hints);
  snprintf(tmp, sizeof(tmp), "%s/template.h5", dir);
  (void)remove(tmp);
  snprintf(tmp, sizeof(tmp), "%s/template.h5.tmp", dir);
  (void)remove(tmp);
  (void)rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  FILE *fp;

  (void)argc, (void)argv;
  snprintf(dir, sizeof(dir), "/tmp/hdem_fuzz_ckpt_%d_XXXXXX", (int)getpid());
  CHECK(mkdtemp(dir));
  snprintf(path, sizeof(path), "%s/ckpt.h5", dir);
  atexit(Cleanup);
  /* ROMIO's 16 MiB collective buffer, allocated and cleared at every file
   * open, was half of an input's time: the files here are small */
  snprintf(hints, sizeof(hints), "%s/romio_hints", dir);
  CHECK((fp = fopen(hints, "w")) && fputs("cb_buffer_size 65536\n", fp) >= 0 && !fclose(fp));
  setenv("ROMIO_HINTS", hints, 0);
  (void)HdemFuzzInit();
  (void)H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  MakeTemplate();
  return 0;
}

/* ---- the file ----------------------------------------------------------- */

static void WriteSum(hid_t d, uint64_t v)
{
  hid_t sp, at;
  if (H5Aexists(d, "checksum") > 0) CHECK(H5Adelete(d, "checksum") >= 0);
  CHECK((sp = H5Screate(H5S_SCALAR)) >= 0);
  CHECK((at = H5Acreate2(d, "checksum", H5T_STD_U64LE, sp, H5P_DEFAULT, H5P_DEFAULT)) >= 0);
  CHECK(H5Awrite(at, H5T_NATIVE_UINT64, &v) >= 0);
  H5Aclose(at);
  H5Sclose(sp);
}

static void WriteSet(hid_t f, Set *s, int stale_all)
{
  hid_t d;
  int   mode = s->sum;

  if (!s->present) {
    if (H5Lexists(f, s->name, H5P_DEFAULT) > 0) CHECK(H5Ldelete(f, s->name, H5P_DEFAULT) >= 0);
    return;
  }
  if (s->recreate) {
    hsize_t dims[2] = {(hsize_t)s->rows, (hsize_t)s->ncomp};
    hid_t   sp;
    CHECK(H5Ldelete(f, s->name, H5P_DEFAULT) >= 0);
    CHECK((sp = H5Screate_simple(s->ncomp > 1 ? 2 : 1, dims, NULL)) >= 0);
    CHECK((d = H5Dcreate2(f, s->name, DiskType(s->kind), sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) >= 0);
    H5Sclose(sp);
  } else CHECK((d = H5Dopen2(f, s->name, H5P_DEFAULT)) >= 0);
  if (s->dirty && s->rows) CHECK(H5Dwrite(d, MemType(s->kind), H5S_ALL, H5S_ALL, H5P_DEFAULT, s->data) >= 0);
  if (mode == SUM_AUTO) mode = stale_all || !s->dirty ? SUM_STALE : SUM_RECOMPUTE;
  if (mode == SUM_RECOMPUTE) {
    uint64_t   sum = 0;
    PetscInt64 N   = s->rows;
    H5FileType t   = s->kind == K_REAL ? H5FILE_REAL : s->kind == K_I64 ? H5FILE_INT64 : H5FILE_INT32;
    CHECK(!H5FileChecksumRows(t, s->ncomp, 0, (PetscInt)s->rows, s->data, &sum));
    CHECK(!H5FileChecksumCombine(PETSC_COMM_SELF, 1, &N, &sum));
    WriteSum(d, sum);
  } else if (mode == SUM_STALE) {
    if (s->recreate && s->has_sum) WriteSum(d, s->stored); /* a tool that kept the attribute */
  } else if (mode == SUM_DELETE) {
    if (H5Aexists(d, "checksum") > 0) CHECK(H5Adelete(d, "checksum") >= 0);
  } else WriteSum(d, s->value);
  H5Dclose(d);
}

static void WriteAttr(hid_t f, Attr *a)
{
  hid_t   sp, t, at;
  hsize_t two = 2;
  double  r[2];
  int64_t i[2];

  if (!a->dirty && a->present) return;
  if (H5Aexists(f, a->name) > 0) CHECK(H5Adelete(f, a->name) >= 0);
  if (!a->present) return;
  CHECK((sp = a->npoints == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &two, NULL)) >= 0);
  r[0] = r[1] = a->r, i[0] = i[1] = a->i;
  if (a->kind == A_STR) {
    char s2[2 * sizeof(a->s)];
    CHECK((t = H5Tcopy(H5T_C_S1)) >= 0);
    H5Tset_size(t, strlen(a->s) + 1);
    H5Tset_strpad(t, H5T_STR_NULLTERM);
    memcpy(s2, a->s, strlen(a->s) + 1);
    memcpy(s2 + strlen(a->s) + 1, a->s, strlen(a->s) + 1);
    CHECK((at = H5Acreate2(f, a->name, t, sp, H5P_DEFAULT, H5P_DEFAULT)) >= 0);
    CHECK(H5Awrite(at, t, s2) >= 0);
    H5Tclose(t);
  } else {
    CHECK((at = H5Acreate2(f, a->name, a->kind == A_REAL ? H5T_IEEE_F64LE : H5T_STD_I64LE, sp, H5P_DEFAULT,
                           H5P_DEFAULT)) >= 0);
    CHECK(H5Awrite(at, a->kind == A_REAL ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64,
                   a->kind == A_REAL ? (void *)r : (void *)i) >= 0);
  }
  H5Aclose(at);
  H5Sclose(sp);
}

static void WriteFile(Ckpt *c, int stale_all)
{
  FILE *fp = fopen(path, "wb");
  hid_t f;

  CHECK(fp && fwrite(tmpl_bytes, 1, tmpl_len, fp) == tmpl_len && !fclose(fp));
  CHECK((f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT)) >= 0);
  for (int k = 0; k < c->ns; k++) WriteSet(f, &c->s[k], stale_all);
  for (int k = 0; k < c->na; k++) WriteAttr(f, &c->a[k]);
  CHECK(H5Fclose(f) >= 0);
}

/* ---- what an accepted checkpoint promises ------------------------------- */

static int IdCompare(const void *a, const void *b)
{
  PetscInt64 x = *(const PetscInt64 *)a, y = *(const PetscInt64 *)b;
  return x < y ? -1 : x > y;
}

static void Sane(Engine *e, Ckpt *c)
{
  const Particles  *p  = &e->p;
  const FieldStore *st = &p->st;
  Set              *id = SetFind(c, "particles/id");
  PetscInt64       *ids;

  if (p->n != id->rows)
    Die("accepted: %" PetscInt_FMT " particles loaded, the file has %" PetscInt64_FMT, p->n, id->rows);
  if (!(isfinite(e->clock.t) && e->clock.t >= 0 && isfinite(e->clock.dt) && e->clock.dt > 0 && e->clock.step >= 0 &&
        isfinite(e->skin) && e->skin > 0 && isfinite(e->rmax) && e->rmax > 0))
    Die("accepted: time %g, dt %g, step %" PetscInt64_FMT ", skin %g, rmax %g", e->clock.t, e->clock.dt, e->clock.step,
        e->skin, e->rmax);
  if (e->nglobal != p->n + e->lost)
    Die("accepted: %" PetscInt64_FMT " particles initially, %" PetscInt_FMT " + %" PetscInt64_FMT " lost", e->nglobal,
        p->n, e->lost);
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *fd = &st->field[k];
    if (!(fd->flags & FIELD_CHECKPOINT) || fd->type != FIELD_REAL) continue;
    for (PetscInt i = 0; i < p->n * fd->ncomp; i++)
      if (!isfinite((*(PetscReal **)fd->data)[i]))
        Die("accepted: %s[%" PetscInt_FMT "] is %g", fd->name, i, (*(PetscReal **)fd->data)[i]);
  }
  CHECK((ids = malloc(sizeof(*ids) * (size_t)(p->n + 1))));
  for (PetscInt i = 0; i < p->n; i++) {
    if (!(p->radius[i] > 0 && p->radius[i] <= e->rmax && p->mass[i] > 0 && p->inertia[i] > 0))
      Die("accepted: particle %" PetscInt64_FMT ": radius %g (rmax %g), mass %g, inertia %g", p->id[i], p->radius[i],
          e->rmax, p->mass[i], p->inertia[i]);
    if (p->id[i] < 0 || p->id[i] > ((PetscInt64)1 << 53)) Die("accepted: id %" PetscInt64_FMT, p->id[i]);
    for (int a = 0; a < 3; a++)
      if (!(p->x0[3 * i + a] >= e->grid.lo[a] && p->x0[3 * i + a] <= e->grid.hi[a]))
        Die("accepted: particle %" PetscInt64_FMT " built outside the box", p->id[i]);
    ids[i] = p->id[i];
  }
  if (p->n > 1) qsort(ids, (size_t)p->n, sizeof(*ids), IdCompare);
  for (PetscInt i = 1; i < p->n; i++)
    if (ids[i] == ids[i - 1]) Die("accepted: id %" PetscInt64_FMT " twice", ids[i]);
  free(ids);
  for (PetscInt w = 0; w < e->planes.n; w++) {
    const PetscReal *n = e->planes.w[w].n;
    if (!(fabs(sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) - 1.0) <= 1e-9))
      Die("accepted: wall %" PetscInt_FMT "'s normal is not a unit vector", w);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static Ckpt    c; /* large: not on the stack */
  Bytes          b = {data, size};
  int            stale_all;
  Engine         e;
  EngineKeys     keys;
  PetscErrorCode ierr;

  Copy(&c, &tmpl);
  stale_all = (U8(&b) & 3) == 3;
  while (b.n) Edit(&c, &b);
  WriteFile(&c, stale_all);
  OptionsRecordsClear();
  CHECK(!EngineSetFromOptions(PETSC_COMM_WORLD, &e, &keys));
  CHECK(!EngineCreate(PETSC_COMM_WORLD, PETSC_FALSE, &keys, &e));
  ierr = CheckpointRead(&e, path);
  HdemFuzzReport(ierr);
  if (!ierr) {
    Sane(&e, &c);
    /* and runs: two steps end in a state, a fault or an error */
    for (int k = 0; k < 2 && !ierr && !e.health.fault.kind; k++) ierr = EngineStep(&e, PETSC_FALSE);
  }
  CHECK(!EngineDestroy(&e));
  OptionsRecordsClear();
  for (int k = 0; k < c.ns; k++) free(c.s[k].data);
  (void)remove(path);
  return 0;
}
