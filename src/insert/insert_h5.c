/* The initial state from a particle state file (insert_h5.h).  Rows travel
 * as reals (ids below 2^53 and 32-bit types exact); each rank appends its
 * arrivals by id. */
#include "insert/insert_h5.h"
#include "io/h5state.h"
#include "decomp/collective.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* A row on its way to the owner of its position (wrapped). */
enum {
  R_ID,
  R_TYPE,
  R_RADIUS,
  R_X,
  R_V      = R_X + 3,
  R_W      = R_V + 3,
  R_LIQUID = R_W + 3, /* a wet run's, or 0 */
  R_WIDTH
};

/* A point the grid can place: inside the box, off a periodic axis' high face; else the axis. */
static int InsertH5Outside(const Grid *g, const PetscReal x[3])
{
  for (int a = 0; a < 3; a++)
    if (!(x[a] >= g->lo[a] && x[a] <= g->hi[a]) || (g->periodic[a] && x[a] == g->hi[a])) return a;
  return -1;
}

/* A vector dataset's row: finite, each component within bound (0: any). */
static PetscErrorCode InsertH5CheckVector(const char *file, int k, PetscInt64 row, PetscInt64 id, const PetscReal *v,
                                          PetscReal bound)
{
  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++) {
    PetscCheck(isfinite(v[a]), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s: /%s row %" PetscInt64_FMT " (id %" PetscInt64_FMT "): component %c is %g: it must be finite", file,
               H5StateBlockName[k], row, id, "xyz"[a], (double)v[a]);
    PetscCheck(bound == 0.0 || PetscAbsReal(v[a]) <= bound, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s: /%s row %" PetscInt64_FMT " (id %" PetscInt64_FMT "): component %c is %g m/s, beyond the %g m/s "
               "a particle may be given",
               file, H5StateBlockName[k], row, id, "xyz"[a], (double)v[a], (double)bound);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Row i of the block: an id in [0, 2^53], a type >= 0, a radius particles
 * may have and smaller than the domain, finite vectors, a position inside
 * the domain (periodic axes wrapped), liquid finite and >= 0. */
static PetscErrorCode InsertH5CheckRow(const char *file, const Grid *g, const H5StateBlock *b, PetscInt i)
{
  const PetscInt64 row = b->off + i, id = b->id[i];
  const PetscReal  r = b->radius[i];
  PetscReal        x[3];
  int              a;

  PetscFunctionBeginUser;
  PetscCheck(id >= 0 && id <= ((PetscInt64)1 << 53), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: /particles/id row %" PetscInt64_FMT ": id %" PetscInt64_FMT " is not in [0, 2^53]", file, row, id);
  PetscCheck(b->type[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: /particles/type row %" PetscInt64_FMT " (id %" PetscInt64_FMT "): type %d is negative: types are 0 "
             "or more",
             file, row, id, (int)b->type[i]);
  PetscCheck(r >= HDEM_RADIUS_MIN && r <= HDEM_RADIUS_MAX, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: /particles/radius row %" PetscInt64_FMT " (id %" PetscInt64_FMT "): radius %g m is not in [%g, %g] m",
             file, row, id, (double)r, HDEM_RADIUS_MIN, HDEM_RADIUS_MAX);
  for (a = 0; a < 3; a++)
    PetscCheck(2.0 * r < g->hi[a] - g->lo[a], PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "%s: /particles/radius row %" PetscInt64_FMT " (id %" PetscInt64_FMT
               "): diameter %g m, no smaller than the domain along %c (%g m)",
               file, row, id, (double)(2.0 * r), "xyz"[a], (double)(g->hi[a] - g->lo[a]));
  PetscCall(InsertH5CheckVector(file, 3, row, id, b->x + 3 * i, 0.0));
  GridWrapOnce(g, b->x + 3 * i, x);
  a = InsertH5Outside(g, x);
  PetscCheck(a < 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: /particles/position row %" PetscInt64_FMT " (id %" PetscInt64_FMT
             "): (%.17g, %.17g, %.17g) is outside the domain along %c, [%.17g, %.17g] (-domain_lo, -domain_hi)",
             file, row, id, (double)b->x[3 * i], (double)b->x[3 * i + 1], (double)b->x[3 * i + 2], "xyz"[a < 0 ? 0 : a],
             (double)g -> lo[a < 0 ? 0 : a], (double)g -> hi[a < 0 ? 0 : a]);
  PetscCall(InsertH5CheckVector(file, 4, row, id, b->v + 3 * i, HDEM_SPEED_MAX));
  PetscCall(InsertH5CheckVector(file, 5, row, id, b->w + 3 * i, 0.0));
  PetscCheck(!b->liquid || (isfinite(b->liquid[i]) && b->liquid[i] >= 0.0), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: /particles/liquid row %" PetscInt64_FMT " (id %" PetscInt64_FMT
             "): %g m^3: it must be finite and >= 0",
             file, row, id, b->liquid ? (double)b->liquid[i] : 0.0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: every row of every block checked, the first bad row in the
 * file every rank's error; the largest radius of them all. */
static PetscErrorCode InsertH5CheckRows(MPI_Comm comm, const char *file, const Grid *g, const H5StateBlock *b,
                                        PetscReal *rmax)
{
  PetscErrorCode ierr = PETSC_SUCCESS;
  PetscInt64     bad  = 0;
  PetscReal      r    = 0.0;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  for (PetscInt i = 0; i < b->n && !ierr; i++) {
    ierr = InsertH5CheckRow(file, g, b, i);
    bad  = b->off + i;
    r    = PetscMax(r, b->radius[i]);
  }
  PetscCall(PetscPopErrorHandler());
  PetscCall(CollectiveFirstError(comm, ierr, bad, NULL));
  PetscCall(CollectiveMaxAll(comm, &r, 1));
  *rmax = r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt64 id, row;
} InsertH5IdRow;

static int InsertH5IdRowCompare(const void *a, const void *b)
{
  const InsertH5IdRow *x = (const InsertH5IdRow *)a, *y = (const InsertH5IdRow *)b;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

/* Collective: the ids (checked in [0, 2^53]: exact as reals) meet on the
 * rank id % size; an id seen twice is an error at its later row, the
 * first such row in the file every rank's. */
static PetscErrorCode InsertH5CheckIds(MPI_Comm comm, const char *file, const H5StateBlock *b)
{
  PetscReal     *item, *in;
  PetscMPIInt   *dest, size;
  PetscInt       nin;
  InsertH5IdRow *got;
  PetscInt64     bad = INT64_MAX, first = 0, id = 0;
  char           msg[PETSC_MAX_PATH_LEN + 160] = "";

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, NULL, &size));
  PetscCall(PetscMalloc2(2 * (size_t)b->n + 1, &item, (size_t)b->n + 1, &dest));
  for (PetscInt i = 0; i < b->n; i++)
    item[2 * i] = (PetscReal)b->id[i], item[2 * i + 1] = (PetscReal)(b->off + i),
             dest[i] = (PetscMPIInt)(b->id[i] % size);
  PetscCall(CollectiveRoute(comm, b->n, 2, item, dest, &nin, &in));
  PetscCall(PetscFree2(item, dest));
  PetscCall(PetscMalloc1((size_t)nin + 1, &got));
  for (PetscInt j = 0; j < nin; j++) got[j].id = (PetscInt64)in[2 * j], got[j].row = (PetscInt64)in[2 * j + 1];
  PetscCall(PetscFree(in));
  if (nin > 1) qsort(got, (size_t)nin, sizeof(*got), InsertH5IdRowCompare);
  for (PetscInt j = 1; j < nin; j++)
    if (got[j].id == got[j - 1].id && got[j].row < bad) bad = got[j].row, first = got[j - 1].row, id = got[j].id;
  PetscCall(PetscFree(got));
  if (bad < INT64_MAX)
    PetscCall(PetscSNPrintf(msg, sizeof(msg),
                            "%s: /particles/id row %" PetscInt64_FMT ": id %" PetscInt64_FMT
                            " is also at row %" PetscInt64_FMT ": ids must be unique",
                            file, bad, id, first));
  PetscCall(CollectiveFirstError(comm, bad < INT64_MAX ? PETSC_ERR_FILE_UNEXPECTED : PETSC_SUCCESS, bad, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The block's rows as records (positions wrapped); the block freed. */
static PetscErrorCode InsertH5Pack(const Grid *g, H5StateBlock *b, PetscInt *n, PetscReal **rec, PetscMPIInt **dest)
{
  PetscFunctionBeginUser;
  *n = b->n;
  PetscCall(PetscMalloc1((size_t)b->n * R_WIDTH + 1, rec));
  PetscCall(PetscMalloc1((size_t)b->n + 1, dest));
  for (PetscInt i = 0; i < b->n; i++) {
    PetscReal  *r = *rec + (size_t)i * R_WIDTH;
    PetscMPIInt c[3];
    r[R_ID] = (PetscReal)b->id[i], r[R_TYPE] = (PetscReal)b->type[i], r[R_RADIUS] = b->radius[i];
    GridWrapOnce(g, b->x + 3 * i, r + R_X);
    for (int a = 0; a < 3; a++) r[R_V + a] = b->v[3 * i + a], r[R_W + a] = b->w[3 * i + a];
    r[R_LIQUID] = b->liquid ? b->liquid[i] : 0.0;
    PetscCall(GridOwnerOf(g, r + R_X, c));
    PetscCall(GridRankOfCoords(g, c, &(*dest)[i]));
  }
  PetscCall(H5StateBlockFree(b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int InsertH5RecordCompare(const void *a, const void *b)
{
  const PetscReal x = ((const PetscReal *)a)[R_ID], y = ((const PetscReal *)b)[R_ID];
  return x < y ? -1 : x > y;
}

/* The records that arrived (m), appended by id: masses from each type's
 * density, the file's liquid when it has some (wet) and the store holds it. */
static PetscErrorCode InsertH5Append(const InsertH5Keys *keys, PetscBool wet, PetscInt m, PetscReal *in, Particles *p)
{
  PetscFunctionBeginUser;
  if (m > 1) qsort(in, (size_t)m, R_WIDTH * sizeof(PetscReal), InsertH5RecordCompare);
  PetscCall(ParticlesReserve(p, p->n + m));
  for (PetscInt k = 0; k < m; k++) {
    const PetscReal *r   = in + (size_t)k * R_WIDTH;
    PetscInt         t   = (PetscInt)r[R_TYPE];
    PetscReal        rho = keys->density[t < keys->ndensity - 1 ? t : keys->ndensity - 1];
    PetscCall(ParticlesAppend(p, (PetscInt64)r[R_ID], t, t == keys->frozen_type ? PARTICLE_FROZEN : 0, r[R_RADIUS], rho,
                              r + R_X, r + R_V, r + R_W));
    if (wet && p->liquid) p->liquid[p->n - 1] = r[R_LIQUID];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode InsertH5(MPI_Comm comm, const InsertH5Keys *keys, const Grid *g, Particles *p, PetscReal *rmax,
                        PetscBool *liquid)
{
  H5StateBlock   b;
  PetscReal     *rec = NULL, *in = NULL;
  PetscMPIInt   *dest = NULL;
  PetscInt       n, nin;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(H5StateReadBlock(comm, keys->file, &b));
  /* the block is freed on an error too */
  if (b.bodies > 0) {
    PetscCall(H5StateBlockFree(&b));
    SETERRQ(comm, PETSC_ERR_USER_INPUT,
            "%s holds %" PetscInt64_FMT " multi-sphere bodies (/bodies/id): -insert_mode hdf5 starts from spheres "
            "alone, and a state file does not keep what a body needs to go on (its momentum); continue a run with "
            "bodies from its checkpoint (-restart)",
            keys->file, b.bodies);
  }
  ierr = InsertH5CheckRows(comm, keys->file, g, &b, rmax); /* raised on comm: said once */
  if (!ierr) ierr = InsertH5CheckIds(comm, keys->file, &b);
  if (!ierr) ierr = H5StateBlockVerified(comm, keys->file, &b);
  if (ierr) PetscCall(H5StateBlockFree(&b));
  PetscCall(ierr);
  *liquid = b.has_liquid && p->liquid ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(InsertH5Pack(g, &b, &n, &rec, &dest));
  PetscCall(CollectiveRouteTake(g->comm, n, R_WIDTH, &rec, dest, &nin, &in));
  PetscCall(PetscFree(dest));
  PetscCall(InsertH5Append(keys, *liquid, nin, in, p));
  PetscCall(PetscFree(in));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode InsertH5Extent(MPI_Comm comm, const char *file, PetscReal lo[3], PetscReal hi[3])
{
  PetscReal box[6];
  PetscBool found;

  PetscFunctionBeginUser;
  PetscCall(H5StateExtent(comm, file, box, box + 3, &found));
  for (int a = 0; a < 3; a++) box[a] = -box[a];
  PetscCall(CollectiveMaxAll(comm, box, 6));
  for (int a = 0; a < 3 && found; a++)
    if (-box[a] <= box[3 + a]) lo[a] = -box[a], hi[a] = box[3 + a];
  PetscFunctionReturn(PETSC_SUCCESS);
}
