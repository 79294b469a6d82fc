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
#define MAX_SETS       64
#define MAX_ATTRS      64
#define MAX_ROWS       4096 /* what duplications may grow a dataset to */

typedef enum {
  K_REAL,
  K_I64,
  K_I32
} Kind;

enum {
  SUM_AUTO, /* recomputed if edited (or left, by the flags) */
  SUM_RECOMPUTE,
  SUM_STALE,
  SUM_DELETE,
  SUM_SET
};

typedef struct {
  char           name[128];
  Kind           kind;
  int            ncomp;
  PetscInt64     rows;
  unsigned char *data;
  int            present, dirty, recreate; /* recreate: its shape or class changed */
  int            has_sum, sum;
  uint64_t       stored, value; /* the template's checksum; SUM_SET's */
} Set;

typedef enum {
  A_REAL,
  A_I64,
  A_STR
} AKind;

typedef struct {
  char    name[64];
  AKind   kind;
  int     npoints; /* 1; 2 after ATTR_RETYPE made it an array */
  double  r;
  int64_t i;
  char    s[2048];
  int     present, dirty;
} Attr;

typedef struct {
  Set  s[MAX_SETS];
  int  ns;
  Attr a[MAX_ATTRS];
  int  na;
} Ckpt;

static Ckpt           tmpl;
static unsigned char *tmpl_bytes;
static size_t         tmpl_len;
static char           dir[64], path[128], hints[128];
static double         box_lo[3], box_hi[3], rmax;

#define CHECK(c) \
  do { \
    if (!(c)) Die("harness: %s failed (%s:%d)", #c, __FILE__, __LINE__); \
  } while (0)

static void Die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void Die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

static size_t ESize(Kind k)
{
  return k == K_I32 ? 4 : 8;
}

static hid_t MemType(Kind k)
{
  return k == K_REAL ? H5T_NATIVE_DOUBLE : k == K_I64 ? H5T_NATIVE_INT64 : H5T_NATIVE_INT32;
}

static hid_t DiskType(Kind k)
{
  return k == K_REAL ? H5T_IEEE_F64LE : k == K_I64 ? H5T_STD_I64LE : H5T_STD_I32LE;
}

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

static Attr *AttrFind(Ckpt *c, const char *name)
{
  for (int k = 0; k < c->na; k++)
    if (!strcmp(c->a[k].name, name)) return &c->a[k];
  return NULL;
}

static Set *SetFind(Ckpt *c, const char *name)
{
  for (int k = 0; k < c->ns; k++)
    if (!strcmp(c->s[k].name, name)) return &c->s[k];
  return NULL;
}

static void MakeTemplate(void)
{
  char   tpath[160];
  Engine e;
  FILE  *fp;
  hid_t  f;
  long   n;

  CHECK(!PetscOptionsInsertString(NULL, DECK));
  CHECK(!EngineSetFromOptions(PETSC_COMM_WORLD, PETSC_TRUE, &e));
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

/* ---- the input ---------------------------------------------------------- */

typedef struct {
  const uint8_t *p;
  size_t         n;
} Bytes;

static unsigned U8(Bytes *b)
{
  if (!b->n) return 0;
  b->n--;
  return *b->p++;
}

static uint64_t U64(Bytes *b)
{
  uint64_t v = 0;
  for (int k = 0; k < 8; k++) v |= (uint64_t)U8(b) << (8 * k);
  return v;
}

static PetscInt64 Row(Bytes *b, PetscInt64 rows)
{
  unsigned v = U8(b);
  v |= U8(b) << 8;
  return rows > 0 ? (PetscInt64)(v % (uint64_t)rows) : 0;
}

static void *Elem(Set *s, PetscInt64 row, int c)
{
  return s->data + ((size_t)row * (size_t)s->ncomp + (size_t)c) * ESize(s->kind);
}

static double GetReal(Set *s, PetscInt64 row, int c)
{
  void *e = Elem(s, row, c);
  return s->kind == K_REAL ? *(double *)e : s->kind == K_I64 ? (double)*(int64_t *)e : (double)*(int32_t *)e;
}

static int64_t GetInt(Set *s, PetscInt64 row, int c)
{
  void  *e = Elem(s, row, c);
  double x;
  if (s->kind == K_I64) return *(int64_t *)e;
  if (s->kind == K_I32) return *(int32_t *)e;
  x = *(double *)e;
  return isfinite(x) && fabs(x) < 9.2e18 ? (int64_t)x : 0;
}

static void PutRaw(Set *s, PetscInt64 row, int c, uint64_t v)
{
  void *e = Elem(s, row, c);
  if (s->kind == K_I32) {
    int32_t x = (int32_t)(uint32_t)v;
    memcpy(e, &x, 4);
  } else memcpy(e, &v, 8);
  s->dirty = 1;
}

static void PutReal(Set *s, PetscInt64 row, int c, double x)
{
  uint64_t v;
  memcpy(&v, &x, 8);
  PutRaw(s, row, c, v);
}

static void PutInt(Set *s, PetscInt64 row, int c, int64_t x)
{
  PutRaw(s, row, c, (uint64_t)x);
}

/* Element c's specials: the box's faces are axis c % 3's. */
static double SpecialReal(unsigned k, int c)
{
  double lo = box_lo[c % 3], hi = box_hi[c % 3], tiny = nextafter(0.0, 1.0), over = nextafter(rmax, INFINITY),
         below = nextafter(lo, -INFINITY), above = nextafter(hi, INFINITY), under = nextafter(hi, -INFINITY);
  const double t[] = {0.0,  -0.0, 1.0, -1.0, NAN,   INFINITY, -INFINITY, DBL_MAX, -DBL_MAX, DBL_MIN,        tiny,
                      rmax, over, lo,  hi,   below, above,    under,     1e300,   -1e-300,  0.5 * (lo + hi)};
  return t[k % (sizeof(t) / sizeof(*t))];
}

/* An integer element's specials; row: the element's own (a record's owner).
 * Another particle's id takes a row from the input. */
static int64_t SpecialInt(Ckpt *c, Bytes *b, unsigned k, PetscInt64 row)
{
  Set    *walls = SetFind(c, "walls/normal"), *id = SetFind(c, "particles/id"), *owner = SetFind(c, "history/owner");
  int64_t nw = walls->present ? walls->rows : 0, n = id->present ? id->rows : 0;
  const int64_t t[] =
    {0,  1,      -1, 2, (int64_t)1 << 53, ((int64_t)1 << 53) + 1, INT64_MAX, INT64_MIN, INT32_MAX, INT32_MIN,
     nw, nw - 1, n,  -2};
  const size_t nt = sizeof(t) / sizeof(*t);

  k %= nt + 2;
  if (k == nt) return id->present && id->rows ? GetInt(id, Row(b, id->rows), 0) : 0;
  if (k == nt + 1) return owner->present && row < owner->rows ? GetInt(owner, row, 0) : 0;
  return t[k];
}

static void Special(Ckpt *c, Bytes *b, Set *s, PetscInt64 row, int comp, unsigned k)
{
  if (s->kind == K_REAL) PutReal(s, row, comp, SpecialReal(k, comp));
  else PutInt(s, row, comp, SpecialInt(c, b, k, row));
}

static void Resize(Set *s, PetscInt64 rows)
{
  size_t         w = (size_t)s->ncomp * ESize(s->kind), keep = (size_t)PetscMin(rows, s->rows) * w;
  unsigned char *d;
  CHECK((d = calloc((size_t)rows * w + 8, 1)));
  memcpy(d, s->data, keep);
  free(s->data);
  s->data = d, s->rows = rows;
  s->dirty = s->recreate = 1;
}

static void DropRow(Set *s, PetscInt64 row)
{
  size_t w = (size_t)s->ncomp * ESize(s->kind);
  if (row >= s->rows) return;
  memmove(s->data + (size_t)row * w, s->data + (size_t)(row + 1) * w, (size_t)(s->rows - row - 1) * w);
  Resize(s, s->rows - 1);
}

static void DupRow(Set *s, PetscInt64 row)
{
  size_t w = (size_t)s->ncomp * ESize(s->kind);
  if (row >= s->rows || s->rows >= MAX_ROWS) return;
  Resize(s, s->rows + 1);
  memcpy(s->data + (size_t)(s->rows - 1) * w, s->data + (size_t)row * w, w);
}

static void AttrAdd(Ckpt *c, const char *name, int64_t d)
{
  Attr *a = AttrFind(c, name);
  if (!a || !a->present || a->kind != A_I64) return;
  a->i     = (int64_t)((uint64_t)a->i + (uint64_t)d);
  a->dirty = 1;
}

/* The rows of every dataset of group g ("particles/"), one dropped or
 * repeated at the end. */
static void GroupRows(Ckpt *c, const char *g, PetscInt64 row, int dup)
{
  for (int k = 0; k < c->ns; k++)
    if (c->s[k].present && !strncmp(c->s[k].name, g, strlen(g))) {
      if (dup) DupRow(&c->s[k], row);
      else DropRow(&c->s[k], row);
    }
}

/* Another class (values converted) or one column more or less. */
static void Retype(Set *s, unsigned h)
{
  Set            t = *s;
  unsigned char *d;
  int            nc = s->ncomp;

  switch (h % 5) {
  case 0:
    t.kind = K_I64;
    break;
  case 1:
    t.kind = K_I32;
    break;
  case 2:
    t.kind = K_REAL;
    break;
  case 3:
    nc++;
    break;
  default:
    nc = nc > 1 ? nc - 1 : 2;
  }
  t.ncomp = nc;
  CHECK((d = calloc((size_t)s->rows * (size_t)nc * ESize(t.kind) + 8, 1)));
  t.data = d;
  for (PetscInt64 r = 0; r < s->rows; r++)
    for (int q = 0; q < PetscMin(nc, s->ncomp); q++) {
      if (t.kind == K_REAL) PutReal(&t, r, q, GetReal(s, r, q));
      else PutInt(&t, r, q, GetInt(s, r, q));
    }
  free(s->data);
  *s          = t;
  s->dirty    = 1;
  s->recreate = 1;
}

/* A proper format 1 file: no kinds, a wall's partner -1 - w. */
static void ToFormat1(Ckpt *c)
{
  Attr *f    = AttrFind(c, "format");
  Set  *kind = SetFind(c, "history/kind"), *partner = SetFind(c, "history/partner");
  if (f) snprintf(f->s, sizeof(f->s), "hdem checkpoint 1"), f->kind = A_STR, f->npoints = 1, f->present = f->dirty = 1;
  if (kind->present && partner->present && kind->kind != K_REAL && partner->kind != K_REAL)
    for (PetscInt64 r = 0; r < PetscMin(kind->rows, partner->rows); r++)
      if (GetInt(kind, r, 0) == 1) PutInt(partner, r, 0, -1 - GetInt(partner, r, 0));
  kind->present = 0;
}

static const char *const Formats[] = {"hdem checkpoint 2", "hdem checkpoint 1", "hdem checkpoint 3", "",
                                      "hdem checkpoint",   "hdem checkpoint 2 "};

static void EditAttr(Ckpt *c, Bytes *b)
{
  Attr    *a = &c->a[U8(b) % (unsigned)c->na];
  unsigned h = U8(b);
  uint64_t v = U64(b);

  a->present = a->dirty = 1;
  switch (h % 4) {
  case 0:
    if (a->kind == A_REAL) memcpy(&a->r, &v, 8);
    else if (a->kind == A_I64) a->i = (int64_t)v;
    else {
      memcpy(a->s, &v, 8);
      a->s[8] = 0;
    }
    break;
  case 1:
    if (a->kind == A_REAL) a->r = SpecialReal((unsigned)v, (int)((v >> 8) % 3));
    else if (a->kind == A_I64) {
      Bytes none = {NULL, 0};
      a->i       = SpecialInt(c, &none, (unsigned)v, 0);
    } else snprintf(a->s, sizeof(a->s), "%s", Formats[v % (sizeof(Formats) / sizeof(*Formats))]);
    break;
  case 2:
    if (a->kind == A_REAL) a->r = nextafter(a->r, (v & 1) ? INFINITY : -INFINITY);
    else if (a->kind == A_I64) a->i = (int64_t)((uint64_t)a->i + ((v & 1) ? 1 : (uint64_t)-1));
    else a->s[0] = a->s[0] ? 0 : 'x';
    break;
  default:
    a->r = 0, a->i = 0, a->s[0] = 0;
  }
}

static void AttrRetype(Attr *a, unsigned h)
{
  a->present = a->dirty = 1;
  switch (h % 4) {
  case 0:
    a->r    = a->kind == A_I64 ? (double)a->i : a->r;
    a->kind = A_REAL;
    break;
  case 1:
    a->i    = a->kind == A_REAL && isfinite(a->r) && fabs(a->r) < 9.2e18 ? (int64_t)a->r : 0;
    a->kind = A_I64;
    break;
  case 2:
    if (a->kind != A_STR) snprintf(a->s, sizeof(a->s), "%g", a->kind == A_REAL ? a->r : (double)a->i);
    a->kind = A_STR;
    break;
  default:
    a->npoints = 2;
  }
}

enum {
  OP_SET,
  OP_SPECIAL,
  OP_FILL,
  OP_COPY,
  OP_DROP_PARTICLE,
  OP_DUP_PARTICLE,
  OP_DROP_RECORD,
  OP_DUP_RECORD,
  OP_RESIZE,
  OP_RETYPE,
  OP_DELETE,
  OP_ATTR,
  OP_ATTR_RETYPE,
  OP_ATTR_DELETE,
  OP_FORMAT,
  OP_FORMAT1,
  OP_SUM,
  OP_COUNT
};

static void Edit(Ckpt *c, Bytes *b)
{
  unsigned op = U8(b) % OP_COUNT;
  Set     *s  = NULL;

  if (op <= OP_COPY || (op >= OP_RESIZE && op <= OP_DELETE) || op == OP_SUM) {
    s = &c->s[U8(b) % (unsigned)c->ns];
    if (!s->present && op != OP_SUM) return;
  }
  switch (op) {
  case OP_SET: {
    PetscInt64 row = Row(b, s->rows);
    int        q   = (int)(U8(b) % (unsigned)s->ncomp);
    uint64_t   v   = U64(b);
    if (s->rows) PutRaw(s, row, q, v);
  } break;
  case OP_SPECIAL: {
    PetscInt64 row = Row(b, s->rows);
    int        q   = (int)(U8(b) % (unsigned)s->ncomp);
    unsigned   k   = U8(b);
    if (s->rows) Special(c, b, s, row, q, k);
  } break;
  case OP_FILL: {
    int      q = (int)(U8(b) % (unsigned)s->ncomp);
    unsigned k = U8(b);
    for (PetscInt64 r = 0; r < s->rows; r++) Special(c, b, s, r, q, k);
  } break;
  case OP_COPY: {
    PetscInt64 from = Row(b, s->rows), to = Row(b, s->rows);
    size_t     w = (size_t)s->ncomp * ESize(s->kind);
    if (s->rows) memcpy(s->data + (size_t)to * w, s->data + (size_t)from * w, w), s->dirty = 1;
  } break;
  case OP_DROP_PARTICLE:
  case OP_DUP_PARTICLE: {
    Set       *id  = SetFind(c, "particles/id");
    PetscInt64 row = Row(b, id->rows);
    unsigned   h   = op == OP_DROP_PARTICLE ? U8(b) : 0;
    if (!id->present || !id->rows) return;
    GroupRows(c, "particles/", row, op == OP_DUP_PARTICLE);
    AttrAdd(c, "particles", op == OP_DUP_PARTICLE ? 1 : -1);
    if (h & 1) AttrAdd(c, "lost", 1);
    else AttrAdd(c, "particles_initial", op == OP_DUP_PARTICLE ? 1 : -1);
  } break;
  case OP_DROP_RECORD:
  case OP_DUP_RECORD: {
    Set       *owner = SetFind(c, "history/owner");
    PetscInt64 row   = Row(b, owner->rows);
    if (owner->present && owner->rows) GroupRows(c, "history/", row, op == OP_DUP_RECORD);
  } break;
  case OP_RESIZE: {
    PetscInt64 rows = s->rows + (PetscInt64)(U8(b) % 16) - 8;
    Resize(s, PetscMax(rows, 0));
  } break;
  case OP_RETYPE:
    Retype(s, U8(b));
    break;
  case OP_DELETE:
    s->present = 0;
    break;
  case OP_ATTR:
    EditAttr(c, b);
    break;
  case OP_ATTR_RETYPE: {
    Attr    *a = &c->a[U8(b) % (unsigned)c->na];
    unsigned h = U8(b);
    AttrRetype(a, h);
  } break;
  case OP_ATTR_DELETE:
    c->a[U8(b) % (unsigned)c->na].present = 0;
    break;
  case OP_FORMAT: {
    Attr *f = AttrFind(c, "format");
    if (!f) return;
    snprintf(f->s, sizeof(f->s), "%s", Formats[U8(b) % (sizeof(Formats) / sizeof(*Formats))]);
    f->kind = A_STR, f->npoints = 1, f->present = f->dirty = 1;
  } break;
  case OP_FORMAT1:
    ToFormat1(c);
    break;
  case OP_SUM: {
    unsigned h = U8(b);
    s->value   = U64(b);
    s->sum     = h % 4 == 0 ? SUM_RECOMPUTE : h % 4 == 1 ? SUM_STALE : h % 4 == 2 ? SUM_DELETE : SUM_SET;
  } break;
  }
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
  if (!(isfinite(e->t) && e->t >= 0 && isfinite(e->dt) && e->dt > 0 && e->step >= 0 && isfinite(e->skin) &&
        e->skin > 0 && isfinite(e->rmax) && e->rmax > 0))
    Die("accepted: time %g, dt %g, step %" PetscInt64_FMT ", skin %g, rmax %g", e->t, e->dt, e->step, e->skin, e->rmax);
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

static void Copy(Ckpt *to, const Ckpt *from)
{
  memcpy(to, from, sizeof(*to));
  for (int k = 0; k < to->ns; k++) {
    size_t len = (size_t)from->s[k].rows * (size_t)from->s[k].ncomp * ESize(from->s[k].kind) + 8;
    CHECK((to->s[k].data = malloc(len)));
    memcpy(to->s[k].data, from->s[k].data, len);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static Ckpt    c; /* large: not on the stack */
  Bytes          b = {data, size};
  int            stale_all;
  Engine         e;
  PetscErrorCode ierr;

  Copy(&c, &tmpl);
  stale_all = (U8(&b) & 3) == 3;
  while (b.n) Edit(&c, &b);
  WriteFile(&c, stale_all);
  OptionsRecordsClear();
  CHECK(!EngineSetFromOptions(PETSC_COMM_WORLD, PETSC_FALSE, &e));
  ierr = CheckpointRead(&e, path);
  HdemFuzzReport(ierr);
  if (!ierr) {
    Sane(&e, &c);
    /* and runs: two steps end in a state, a fault or an error */
    for (int k = 0; k < 2 && !ierr && !e.fault.kind; k++) ierr = EngineStep(&e, PETSC_FALSE);
  }
  CHECK(!EngineDestroy(&e));
  OptionsRecordsClear();
  for (int k = 0; k < c.ns; k++) free(c.s[k].data);
  (void)remove(path);
  return 0;
}
