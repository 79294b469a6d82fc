#include "decomp/fields.h"
#include <string.h>

static size_t FieldTypeSize(FieldType t)
{
  return t == FIELD_INT64 ? sizeof(PetscInt64)
       : t == FIELD_INT32 ? sizeof(int32_t)
       : t == FIELD_INT8  ? sizeof(signed char)
                          : sizeof(PetscReal);
}

size_t FieldStoreElementSize(const Field *f)
{
  return FieldTypeSize(f->type) * (size_t)f->ncomp;
}

PetscErrorCode FieldStoreCreate(FieldStore *st, PetscInt *n, PetscInt *nghost, PetscInt64 **id, PetscReal **x,
                                signed char **image, LocalInt **owner, LocalInt **origin, LocalInt **flags)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(st, sizeof(*st)));
  st->n = n, st->nghost = nghost;
  st->id = id, st->x = x, st->image = image, st->owner = owner, st->origin = origin, st->flags = flags;
  PetscCall(FieldStoreAdd(st, "id", FIELD_INT64, 1, FIELD_GHOST | FIELD_CHECKPOINT | FIELD_SNAPSHOT, (void **)id));
  PetscCall(FieldStoreAdd(st, "flags", FIELD_INT32, 1, FIELD_GHOST | FIELD_CHECKPOINT, (void **)flags));
  PetscCall(FieldStoreAdd(st, "owner", FIELD_INT32, 1, FIELD_GHOST, (void **)owner));
  PetscCall(FieldStoreAdd(st, "origin", FIELD_INT32, 1, FIELD_GHOST, (void **)origin));
  PetscCall(FieldStoreAdd(st, "image", FIELD_INT8, 3, FIELD_GHOST, (void **)image));
  PetscCall(FieldStoreAdd(st, "position", FIELD_REAL, 3,
                          FIELD_GHOST | FIELD_FORWARD | FIELD_CHECKPOINT | FIELD_SNAPSHOT, (void **)x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void FieldStoreSetHome(FieldStore *st, PetscReal **home, LocalInt flag)
{
  st->home = home, st->home_flag = flag;
}

/* Allocates field f for the rows the store holds room for. */
static PetscErrorCode FieldAllocate(FieldStore *st, Field *f)
{
  PetscInt rows = (f->flags & FIELD_OWNED) ? st->ocap : st->cap;
  size_t   es = FieldStoreElementSize(f), pad = (f->flags & FIELD_PAD) ? FieldTypeSize(f->type) : 0;

  PetscFunctionBeginUser;
  PetscCall(PetscRealloc((size_t)rows * es + pad + 1, f->data));
  if (rows) PetscCall(PetscMemzero(*f->data, (size_t)rows * es + pad));
  else if (pad) PetscCall(PetscMemzero(*f->data, pad));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FieldStoreAdd(FieldStore *st, const char *name, FieldType type, PetscInt ncomp, unsigned flags,
                             void **data)
{
  Field *f;

  PetscFunctionBeginUser;
  PetscCheck(st->nfield < FIELD_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "field %s: a store holds at most %d fields", name,
             FIELD_MAX);
  PetscCheck(FieldStoreFind(st, name) < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "field %s is registered twice", name);
  PetscCheck(!(flags & FIELD_FORWARD) || type == FIELD_REAL, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "field %s: only reals are forwarded", name);
  PetscCheck(!((flags & FIELD_OWNED) && (flags & (FIELD_GHOST | FIELD_FORWARD))), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "field %s: an owned-only field does not travel to ghosts", name);
  f = &st->field[st->nfield++];
  PetscCall(PetscStrncpy(f->name, name, sizeof(f->name)));
  f->type = type, f->ncomp = ncomp, f->flags = flags, f->data = data;
  *data = NULL;
  PetscCall(FieldAllocate(st, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt FieldStoreFind(const FieldStore *st, const char *name)
{
  for (PetscInt k = 0; k < st->nfield; k++)
    if (!strcmp(st->field[k].name, name)) return k;
  return -1;
}

PetscErrorCode FieldStoreDestroy(FieldStore *st)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < st->nfield; k++) PetscCall(PetscFree(*st->field[k].data));
  PetscCall(PetscMemzero(st, sizeof(*st)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FieldStoreRelease(FieldStore *st, unsigned flags)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < st->nfield; k++)
    if (st->field[k].flags & flags) PetscCall(PetscFree(*st->field[k].data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Grows the fields of one kind (owned-only or not) from old to cap rows.
 * Each array is reallocated on its own (large ones are remapped, not
 * copied, so growing never holds two copies of the store); the new rows
 * are not initialised (every row is written before it is read), a PAD
 * field's element after the last row is zero. */
static PetscErrorCode FieldStoreGrow(FieldStore *st, PetscBool owned, PetscInt cap)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < st->nfield; k++) {
    Field *f = &st->field[k];
    size_t es, pad;
    if (((f->flags & FIELD_OWNED) != 0) != owned || !*f->data) continue; /* a released field stays released */
    es  = FieldStoreElementSize(f);
    pad = (f->flags & FIELD_PAD) ? FieldTypeSize(f->type) : 0;
    PetscCall(PetscRealloc((size_t)cap * es + pad + 1, f->data));
    if (pad) PetscCall(PetscMemzero((char *)*f->data + (size_t)cap * es, pad));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* By a quarter at least: the store is the largest part of memory after the
 * libraries, and grows in a migration by a few rows at a time. */
PetscErrorCode FieldStoreReserveGhosts(FieldStore *st, PetscInt cap)
{
  PetscFunctionBeginUser;
  if (cap <= st->cap) PetscFunctionReturn(PETSC_SUCCESS);
  /* local indices are 32-bit, and so are the sieve's gather offsets 3 i */
  PetscCheck(cap <= LOCAL_INT_MAX / 3, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "a rank holds %" PetscInt_FMT
             " particles with its ghosts, more than its 32-bit local indices allow (%d): run on more ranks",
             cap, (int)(LOCAL_INT_MAX / 3));
  cap = PetscMin(LOCAL_INT_MAX / 3, PetscMax(cap, st->cap + st->cap / 4));
  PetscCall(FieldStoreGrow(st, PETSC_FALSE, cap));
  st->cap = cap;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The owned-only fields too: ghosts (most of a small subdomain's rows) do
 * not need them. */
PetscErrorCode FieldStoreReserve(FieldStore *st, PetscInt cap)
{
  PetscFunctionBeginUser;
  PetscCall(FieldStoreReserveGhosts(st, cap));
  if (cap <= st->ocap) PetscFunctionReturn(PETSC_SUCCESS);
  cap = PetscMax(cap, st->ocap + st->ocap / 4);
  PetscCall(FieldStoreGrow(st, PETSC_TRUE, cap));
  st->ocap = cap;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FieldStoreAppend(FieldStore *st, PetscInt *row)
{
  PetscInt i = *st->n;

  PetscFunctionBeginUser;
  PetscCheck(*st->nghost == 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "append owned rows before ghosts exist");
  PetscCall(FieldStoreReserve(st, i + 1));
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *f  = &st->field[k];
    size_t       es = FieldStoreElementSize(f);
    if (*f->data) PetscCall(PetscMemzero((char *)*f->data + (size_t)i * es, es));
  }
  (*st->owner)[i] = -1, (*st->origin)[i] = -1;
  (*st->n)++;
  *row = i;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void FieldStoreCopyRow(FieldStore *st, PetscInt to, PetscInt from)
{
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *f  = &st->field[k];
    size_t       es = FieldStoreElementSize(f);
    if (!*f->data || ((f->flags & FIELD_OWNED) && (to >= st->ocap || from >= st->ocap))) continue;
    memcpy((char *)*f->data + (size_t)to * es, (char *)*f->data + (size_t)from * es, es);
  }
}

void FieldStoreZero(FieldStore *st, unsigned mask, PetscInt start, PetscInt nrows)
{
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *f  = &st->field[k];
    size_t       es = FieldStoreElementSize(f);
    if ((f->flags & mask) && *f->data) memset((char *)*f->data + (size_t)start * es, 0, (size_t)nrows * es);
  }
}

/* dst[k] = src[from[k]] for n elements of es bytes: the common sizes as
 * constant-size copies (moves, not calls). */
static void FieldGather(char *dst, const char *src, size_t es, PetscInt n, const LocalInt *from)
{
#define FIELD_GATHER(ES) \
  for (PetscInt k = 0; k < n; k++) memcpy(dst + (size_t)k * (ES), src + (size_t)from[k] * (ES), ES)
  switch (es) {
  case 3:
    FIELD_GATHER(3);
    break;
  case 4:
    FIELD_GATHER(4);
    break;
  case 8:
    FIELD_GATHER(8);
    break;
  case 24:
    FIELD_GATHER(24);
    break;
  default:
    FIELD_GATHER(es);
  }
#undef FIELD_GATHER
}

void FieldStoreGatherRows(FieldStore *st, unsigned mask, PetscInt to, PetscInt nrows, const LocalInt *from)
{
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *f  = &st->field[k];
    size_t       es = FieldStoreElementSize(f);
    if (!(f->flags & mask) || !*f->data) continue;
    FieldGather((char *)*f->data + (size_t)to * es, (const char *)*f->data, es, nrows, from);
  }
}

/* Field by field, the kept rows' indices listed once. */
PetscErrorCode FieldStoreCompactOwned(FieldStore *st, const PetscInt *drop)
{
  PetscInt  n = *st->n, keep = 0, first;
  LocalInt *from;

  PetscFunctionBeginUser;
  for (first = 0; first < n && !drop[first]; first++) { }
  if (first == n) PetscFunctionReturn(PETSC_SUCCESS); /* nobody leaves */
  PetscCall(PetscMalloc1(n - first, &from));
  for (PetscInt i = first; i < n; i++)
    if (!drop[i]) from[keep++] = (LocalInt)i;
  /* row first + k takes row from[k] > first + k: moving down in order, a gather in place reads nothing it wrote */
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *f  = &st->field[k];
    size_t       es = FieldStoreElementSize(f);
    if (!*f->data) continue;
    FieldGather((char *)*f->data + (size_t)first * es, (const char *)*f->data, es, keep, from);
  }
  *st->n = first + keep;
  PetscCall(PetscFree(from));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void FieldStoreCopyFields(FieldStore *st, unsigned mask, PetscInt to, PetscInt from)
{
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *f  = &st->field[k];
    size_t       es = FieldStoreElementSize(f);
    if (!(f->flags & mask)) continue;
    memcpy((char *)*f->data + (size_t)to * es, (char *)*f->data + (size_t)from * es, es);
  }
}

/* One component at a time through buf (n elements): a small transient. */
void FieldStorePermuteOwned(FieldStore *st, const LocalInt *perm, void *buf)
{
  PetscInt n = *st->n;
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *f  = &st->field[k];
    size_t       sz = FieldTypeSize(f->type);
    PetscInt     bs = f->ncomp;
    char        *c = (char *)*f->data, *b = (char *)buf;
    if (!c) continue;
    for (PetscInt q = 0; q < bs; q++) {
#define FIELD_PERMUTE(SZ) \
  do { \
    for (PetscInt r = 0; r < n; r++) memcpy(b + (size_t)r * (SZ), c + ((size_t)perm[r] * bs + q) * (SZ), SZ); \
    for (PetscInt r = 0; r < n; r++) memcpy(c + ((size_t)r * bs + q) * (SZ), b + (size_t)r * (SZ), SZ); \
  } while (0)
      if (sz == 8) FIELD_PERMUTE(8);
      else if (sz == 4) FIELD_PERMUTE(4);
      else FIELD_PERMUTE(sz);
#undef FIELD_PERMUTE
    }
  }
}

PetscInt FieldStorePackWidth(const FieldStore *st, unsigned mask)
{
  PetscInt w = 0;
  for (PetscInt k = 0; k < st->nfield; k++)
    if (st->field[k].flags & mask) w += st->field[k].ncomp;
  return w;
}

PetscInt FieldStorePackOffset(const FieldStore *st, unsigned mask, PetscInt f)
{
  PetscInt w = 0;
  for (PetscInt k = 0; k < st->nfield; k++) {
    if (!(st->field[k].flags & mask)) continue;
    if (k == f) return w;
    w += st->field[k].ncomp;
  }
  return -1;
}

/* A message holds rows of the packed fields' values, each row together.
 * Mixed fields are packed and unpacked field by field over the rows, so the
 * element type and component count are fixed in each inner loop
 * (specialised for the store's shapes): twice as fast as a dispatch per
 * field in each row. */
#define FIELD_PACK(T, NC) \
  for (PetscInt r = 0; r < nrows; r++) { \
    const T   *a = (const T *)data + (size_t)rows[r] * (NC); \
    PetscReal *o = buf + (size_t)r * w + off; \
    for (PetscInt c = 0; c < (NC); c++) o[c] = (PetscReal)a[c]; \
  }
#define FIELD_UNPACK(T, NC) \
  for (PetscInt r = 0; r < nrows; r++) { \
    T               *a = (T *)data + (size_t)(start + r) * (NC); \
    const PetscReal *o = buf + (size_t)r * w + off; \
    for (PetscInt c = 0; c < (NC); c++) a[c] = (T)o[c]; \
  }
/* Instantiates OP(T, NC) for field f's type and component count. */
#define FIELD_DISPATCH(OP) \
  switch (f->type) { \
  case FIELD_INT64: \
    if (f->ncomp == 1) OP(PetscInt64, 1) else OP(PetscInt64, f->ncomp) break; \
  case FIELD_INT32: \
    if (f->ncomp == 1) OP(int32_t, 1) else OP(int32_t, f->ncomp) break; \
  case FIELD_INT8: \
    if (f->ncomp == 3) OP(signed char, 3) else OP(signed char, f->ncomp) break; \
  case FIELD_REAL: \
    if (f->ncomp == 1) OP(PetscReal, 1) else if (f->ncomp == 3) OP(PetscReal, 3) else OP(PetscReal, f->ncomp) break; \
  }

/* The halo's every-step fields are reals of three components (positions,
 * velocities, spins and their predictions) and, with multi-sphere bodies,
 * of four (the orientation): row by row, each field's values together, is
 * faster there than field by field.  Their data and component counts, or 0
 * if some field is not such. */
static PetscInt FieldStoreRealRows(const FieldStore *st, unsigned mask, PetscReal *data[FIELD_MAX],
                                   PetscInt nc[FIELD_MAX])
{
  PetscInt np = 0;
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *f = &st->field[k];
    if (!(f->flags & mask)) continue;
    if (f->type != FIELD_REAL || (f->ncomp != 3 && f->ncomp != 4)) return 0;
    nc[np] = f->ncomp, data[np++] = (PetscReal *)*f->data;
  }
  return np;
}

void FieldStorePack(const FieldStore *st, unsigned mask, PetscInt nrows, const LocalInt *rows, PetscReal *buf)
{
  const PetscInt w = FieldStorePackWidth(st, mask);
  PetscReal     *d3[FIELD_MAX];
  PetscInt       nc[FIELD_MAX];
  const PetscInt n3 = FieldStoreRealRows(st, mask, d3, nc);

  if (n3) {
    for (PetscInt r = 0; r < nrows; r++) {
      PetscReal *b = buf + (size_t)r * w;
      for (PetscInt q = 0; q < n3; b += nc[q], q++) {
        const PetscReal *a = d3[q] + nc[q] * (size_t)rows[r];
        b[0] = a[0], b[1] = a[1], b[2] = a[2];
        if (nc[q] == 4) b[3] = a[3];
      }
    }
    return;
  }
  for (PetscInt k = 0, off = 0; k < st->nfield; k++) {
    const Field *f    = &st->field[k];
    const void  *data = *f->data;
    if (!(f->flags & mask)) continue;
    FIELD_DISPATCH(FIELD_PACK)
    off += f->ncomp;
  }
}

void FieldStoreUnpack(FieldStore *st, unsigned mask, PetscInt start, PetscInt nrows, const PetscReal *buf)
{
  const PetscInt w = FieldStorePackWidth(st, mask);
  PetscReal     *d3[FIELD_MAX];
  PetscInt       nc[FIELD_MAX];
  const PetscInt n3 = FieldStoreRealRows(st, mask, d3, nc);

  if (n3) {
    for (PetscInt r = 0; r < nrows; r++) {
      const PetscReal *b = buf + (size_t)r * w;
      for (PetscInt q = 0; q < n3; b += nc[q], q++) {
        PetscReal *a = d3[q] + nc[q] * (size_t)(start + r);
        a[0] = b[0], a[1] = b[1], a[2] = b[2];
        if (nc[q] == 4) a[3] = b[3];
      }
    }
    return;
  }
  for (PetscInt k = 0, off = 0; k < st->nfield; k++) {
    const Field *f    = &st->field[k];
    void        *data = *f->data;
    if (!(f->flags & mask)) continue;
    FIELD_DISPATCH(FIELD_UNPACK)
    off += f->ncomp;
  }
}

#define FIELD_PACK_COLUMN(T, NC) \
  for (PetscInt r = 0; r < nrows; r++) \
    for (PetscInt c = 0; c < (NC); c++) \
      buf[(size_t)r * (NC) + c] = (PetscReal)((const T *)data)[(size_t)rows[r] * (NC) + c];
#define FIELD_UNPACK_COLUMN(T, NC) \
  for (size_t e = 0; e < (size_t)nrows * (NC); e++) ((T *)data + (size_t)start * (NC))[e] = (T)buf[e];

void FieldStorePackColumns(const FieldStore *st, unsigned mask, PetscInt nrows, const LocalInt *rows, PetscReal *buf)
{
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *f    = &st->field[k];
    const void  *data = *f->data;
    if (!(f->flags & mask)) continue;
    if (f->type == FIELD_REAL && f->ncomp == 3) FIELD_PACK_COLUMN(PetscReal, 3)
    else if (f->type == FIELD_REAL && f->ncomp == 4) FIELD_PACK_COLUMN(PetscReal, 4)
    else FIELD_DISPATCH(FIELD_PACK_COLUMN)
    buf += (size_t)nrows * f->ncomp;
  }
}

void FieldStoreUnpackColumns(FieldStore *st, unsigned mask, PetscInt start, PetscInt nrows, const PetscReal *buf)
{
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *f    = &st->field[k];
    void        *data = *f->data;
    if (!(f->flags & mask)) continue;
    if (f->type == FIELD_REAL)
      memcpy((PetscReal *)data + (size_t)start * f->ncomp, buf, sizeof(PetscReal) * (size_t)nrows * f->ncomp);
    else FIELD_DISPATCH(FIELD_UNPACK_COLUMN)
    buf += (size_t)nrows * f->ncomp;
  }
}
#undef FIELD_PACK_COLUMN
#undef FIELD_UNPACK_COLUMN
#undef FIELD_PACK
#undef FIELD_UNPACK
#undef FIELD_DISPATCH
