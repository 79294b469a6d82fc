/* The checkpoint fuzzer's edits (ckpt_edit.h). */
#include "ckpt_edit.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double box_lo[3], box_hi[3], rmax;

unsigned U8(Bytes *b)
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

/* A particle's rows (and the counts) or a record's rows dropped or doubled. */
static void EditGroupRows(Ckpt *c, Bytes *b, unsigned op)
{
  switch (op) {
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
  }
}

void Edit(Ckpt *c, Bytes *b)
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
  case OP_DUP_PARTICLE:
  case OP_DROP_RECORD:
  case OP_DUP_RECORD:
    EditGroupRows(c, b, op);
    break;
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
