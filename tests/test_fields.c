/* A field added to the particle store in one line (ParticlesAddField) goes
 * wherever the table says, with no other code: it follows its particle
 * through migrations, reaches the ghosts, is written to snapshots and
 * checkpoints, and a restart restores it, on this rank count and on rank 0
 * alone.  Also the record store's sort and the pack of a field store. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check_main.h"
#include "engine/setup.h"
#include "engine/checkpoint.h"
#include "io/h5file.h"
#include "io/snapshot.h"
#include "decomp/collective.h"

static char tmpdir[256];

/* The scratch field's value of particle id, component c. */
static PetscReal Scratch2(PetscInt64 id, int c)
{
  return 1000.0 * (PetscReal)id + 0.25 * c + 1.0 / 3.0;
}

/* A bed of 300 spheres thrown about at 3 m/s in a box periodic in x and y; -balance_mode none: equal slabs, so which
 * particles change rank does not depend on timings. */
static const char *deck = "-domain_lo 0,0,0 -domain_hi 0.012,0.009,0.02 -domain_periodic true,true,false -gravity "
                          "0,0,-9.81 -material_E 1e7 -contact_e 0.5 "
                          "-insert_count 300 -insert_seed 5 -insert_spacing 1.05 -insert_radius_min 4e-4 "
                          "-insert_radius_max 8e-4 -insert_velocity_random 3 -neighbor_skin 2e-4 "
                          "-balance_mode none";

static void Options(const char *extra)
{
  char opts[2048];
  snprintf(opts, sizeof(opts), "%s %s", deck, extra);
  ck_assert_int_eq(PetscOptionsClear(NULL), 0);
  ck_assert_int_eq(PetscOptionsInsertString(NULL, opts), 0);
}

/* Every local row (owned and ghost) holds its particle's values. */
static PetscInt WrongRows(const Engine *e, const PetscReal *scratch)
{
  PetscInt bad = 0;
  for (PetscInt i = 0; i < e->p.n + e->p.nghost; i++)
    for (int c = 0; c < 2; c++) bad += scratch[2 * i + c] != Scratch2(e->p.id[i], c);
  return bad;
}

START_TEST(test_added_field_travels)
{
  Engine      e;
  EngineKeys  keys;
  PetscReal  *scratch = NULL, moved = 0.0, bad, total;
  PetscInt64 *first;
  PetscInt    nfirst;
  char        path[512];
  PetscMPIInt rank, size;

  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  Options("");
  ck_assert_int_eq(EngineSetFromOptions(PETSC_COMM_WORLD, &e, &keys), 0);
  ck_assert_int_eq(EngineCreate(PETSC_COMM_WORLD, PETSC_TRUE, &keys, &e), 0);
  /* the one line: a field of two reals that travels, is checkpointed and written */
  ck_assert_int_eq(ParticlesAddField(&e.p, "scratch", FIELD_REAL, 2, FIELD_GHOST | FIELD_CHECKPOINT | FIELD_SNAPSHOT,
                                     (void **)&scratch),
                   0);
  for (PetscInt i = 0; i < e.p.n; i++)
    for (int c = 0; c < 2; c++) scratch[2 * i + c] = Scratch2(e.p.id[i], c);
  nfirst = e.p.n;
  ck_assert_int_eq(PetscMalloc1(nfirst + 1, &first), 0);
  for (PetscInt i = 0; i < nfirst; i++) first[i] = e.p.id[i];
  ck_assert_int_eq(EngineSetUp(&e), 0);
  for (int k = 0; k < 400; k++) ck_assert_int_eq(EngineStep(&e, PETSC_FALSE), 0);
  /* particles changed ranks (on more than one), and each carried its values */
  for (PetscInt i = 0; i < e.p.n; i++) {
    PetscBool was = PETSC_FALSE;
    for (PetscInt k = 0; k < nfirst && !was; k++) was = first[k] == e.p.id[i] ? PETSC_TRUE : PETSC_FALSE;
    moved += !was;
  }
  bad = (PetscReal)WrongRows(&e, scratch);
  ck_assert_int_eq(CollectiveSumAll(PETSC_COMM_WORLD, &moved, 1), 0);
  ck_assert_int_eq(CollectiveSumAll(PETSC_COMM_WORLD, &bad, 1), 0);
  ck_assert_msg(e.clock.rebuilds >= 3, "only %d rebuilds", (int)e.clock.rebuilds);
  ck_assert_msg(size == 1 || moved > 0, "no particle changed rank");
  ck_assert_msg(bad == 0, "%g values of the added field are not their particle's", bad);
  /* a snapshot holds it */
  snprintf(path, sizeof(path), "%s/snap_np%d.h5", tmpdir, size);
  {
    SnapshotView v = {&e.p.st, 0, NULL, NULL, e.clock.t, e.clock.dt, e.clock.step, NULL, NULL, NULL, NULL};
    H5File       f;
    PetscInt64   rows = 0;
    ck_assert_int_eq(SnapshotWriteState(PETSC_COMM_WORLD, path, SnapshotFieldsAll(&e.p.st), &v), 0);
    ck_assert_int_eq(H5FileOpen(PETSC_COMM_WORLD, path, &f), 0);
    ck_assert_int_eq(H5FileRows(f, "particles/scratch", H5FILE_REAL, 2, &rows, NULL), 0);
    ck_assert_int_eq(H5FileClose(&f), 0);
    ck_assert_int_eq((int)rows, 300);
  }
  /* and a checkpoint, read back here and on rank 0 alone */
  snprintf(path, sizeof(path), "%s/ckpt_np%d.h5", tmpdir, size);
  ck_assert_int_eq(CheckpointWrite(&e, path, ""), 0);
  ck_assert_int_eq(PetscFree(first), 0);
  EngineDestroy(&e);
  for (int alone = 0; alone < 2; alone++) {
    MPI_Comm comm;
    MPI_Comm_split(PETSC_COMM_WORLD, alone && rank ? MPI_UNDEFINED : 0, rank, &comm);
    bad = total = 0.0;
    if (comm != MPI_COMM_NULL) {
      Options("");
      scratch = NULL;
      ck_assert_int_eq(EngineSetFromOptions(comm, &e, &keys), 0);
      ck_assert_int_eq(EngineCreate(comm, PETSC_FALSE, &keys, &e), 0);
      ck_assert_int_eq(ParticlesAddField(&e.p, "scratch", FIELD_REAL, 2,
                                         FIELD_GHOST | FIELD_CHECKPOINT | FIELD_SNAPSHOT, (void **)&scratch),
                       0);
      ck_assert_int_eq(CheckpointRead(&e, path), 0);
      bad   = (PetscReal)WrongRows(&e, scratch);
      total = (PetscReal)e.p.n;
      ck_assert_int_eq(CollectiveSumAll(comm, &total, 1), 0);
      EngineDestroy(&e);
      MPI_Comm_free(&comm);
    }
    ck_assert_int_eq(CollectiveSumAll(PETSC_COMM_WORLD, &bad, 1), 0);
    ck_assert_msg(bad == 0, "restart%s: %g values of the added field are not their particle's",
                  alone ? " on rank 0 alone" : "", bad);
    if (rank == 0) ck_assert_msg(total == 300, "restart: %g particles", total);
  }
}
END_TEST

/* Records sort into (owner, kind, partner) order however they arrive, keep
 * their payloads, and are found by key; packed and added back they are the
 * same bytes. */
START_TEST(test_record_sort)
{
  RecordStore s, t;
  PetscReal   buf[16];
  const int   n = 500;

  ck_assert_int_eq(RecordStoreCreate(2 * sizeof(PetscReal), &s), 0);
  ck_assert_int_eq(RecordStoreCreate(2 * sizeof(PetscReal), &t), 0);
  for (int k = 0; k < n; k++) {
    RecordKey key    = {(PetscInt64)((k * 7919) % 97), (PetscInt64)(k % 3), (PetscInt64)((k * 104729) % 1000003)};
    PetscReal pay[2] = {(PetscReal)key.owner, (PetscReal)(key.kind * 1000003 + key.partner)};
    ck_assert_int_eq(RecordStoreAdd(&s, &key, pay), 0);
  }
  ck_assert_int_eq(RecordStoreSort(&s, NULL), 0);
  for (int k = 0; k < n; k++) {
    RecordKey        a = RecordStoreKey(&s, k);
    const PetscReal *p = (const PetscReal *)RecordStorePayload(&s, k);
    ck_assert(p[0] == (PetscReal)a.owner && p[1] == (PetscReal)(a.kind * 1000003 + a.partner));
    if (k) {
      RecordKey b = RecordStoreKey(&s, k - 1);
      ck_assert(b.owner < a.owner ||
                (b.owner == a.owner && (b.kind < a.kind || (b.kind == a.kind && b.partner <= a.partner))));
    }
    ck_assert(RecordStoreFind(&s, RecordStoreFirst(&s, a.owner), &a) != NULL);
    RecordStorePack(&s, k, buf);
    ck_assert_int_eq(RecordStoreAddPacked(&t, buf), 0);
  }
  ck_assert(t.n == s.n && !memcmp(t.r, s.r, (size_t)s.n * s.stride));
  ck_assert_int_eq(RecordStoreDestroy(&s), 0);
  ck_assert_int_eq(RecordStoreDestroy(&t), 0);
}
END_TEST

/* The column pack (the halo's, whose fields are reals) of every field type and width, here the ghosts' fields: back
 * into consecutive rows as it was, and the row pack's values field after field. */
START_TEST(test_pack_columns)
{
  FieldStore     st;
  PetscInt       n = 0, nghost = 0, w, row;
  PetscInt64    *id = NULL, *i64 = NULL;
  PetscReal     *x = NULL, *r1 = NULL, *r4 = NULL, *rows_buf, *cols_buf;
  signed char   *image = NULL, *i8 = NULL;
  LocalInt      *owner = NULL, *origin = NULL, *flags = NULL;
  int32_t       *i32     = NULL;
  const LocalInt pick[3] = {7, 2, 5};
  const unsigned fw      = FIELD_GHOST;

  ck_assert_int_eq(FieldStoreCreate(&st, &n, &nghost, &id, &x, &image, &owner, &origin, &flags), 0);
  ck_assert_int_eq(FieldStoreAdd(&st, "r1", FIELD_REAL, 1, fw, (void **)&r1), 0);
  ck_assert_int_eq(FieldStoreAdd(&st, "i32", FIELD_INT32, 2, fw, (void **)&i32), 0);
  ck_assert_int_eq(FieldStoreAdd(&st, "r4", FIELD_REAL, 4, fw, (void **)&r4), 0);
  ck_assert_int_eq(FieldStoreAdd(&st, "i8", FIELD_INT8, 3, fw, (void **)&i8), 0);
  ck_assert_int_eq(FieldStoreAdd(&st, "i64", FIELD_INT64, 1, fw, (void **)&i64), 0);
  ck_assert_int_eq(FieldStoreReserve(&st, 16), 0);
  for (PetscInt k = 0; k < 13; k++) {
    ck_assert_int_eq(FieldStoreAppend(&st, &row), 0);
    for (int a = 0; a < 3; a++) x[3 * row + a] = 10.0 * k + a + 0.5, i8[3 * row + a] = (signed char)(k - 3 * a);
    for (int a = 0; a < 4; a++) r4[4 * row + a] = -1.0 / (k + a + 1.0);
    r1[row] = 1e300 / (k + 1.0), i32[2 * row] = 100000 * (int32_t)k, i32[2 * row + 1] = -(int32_t)k;
    i64[row] = ((PetscInt64)1 << 52) + k;
  }
  w = FieldStorePackWidth(&st, fw);
  ck_assert_int_ge(w, 3 + 1 + 2 + 4 + 3 + 1);
  ck_assert_int_eq(PetscMalloc2(3 * w, &rows_buf, 3 * w, &cols_buf), 0);
  FieldStorePack(&st, fw, 3, pick, rows_buf);
  FieldStorePackColumns(&st, fw, 3, pick, cols_buf);
  for (PetscInt f = 0, off = 0; f < st.nfield; f++) { /* field f's values of row r at r * nc of its column */
    PetscInt nc = st.field[f].ncomp;
    if (!(st.field[f].flags & fw)) continue;
    for (PetscInt r = 0; r < 3; r++)
      for (PetscInt c = 0; c < nc; c++) ck_assert(cols_buf[3 * off + r * nc + c] == rows_buf[r * w + off + c]);
    off += nc;
  }
  FieldStoreUnpackColumns(&st, fw, 10, 3, cols_buf);
  for (PetscInt r = 0; r < 3; r++) {
    PetscInt to = 10 + r, from = pick[r];
    for (int a = 0; a < 3; a++) ck_assert(x[3 * to + a] == x[3 * from + a] && i8[3 * to + a] == i8[3 * from + a]);
    for (int a = 0; a < 4; a++) ck_assert(r4[4 * to + a] == r4[4 * from + a]);
    ck_assert(r1[to] == r1[from] && i64[to] == i64[from]);
    ck_assert(i32[2 * to] == i32[2 * from] && i32[2 * to + 1] == i32[2 * from + 1]);
  }
  ck_assert_int_eq(PetscFree2(rows_buf, cols_buf), 0);
  ck_assert_int_eq(FieldStoreDestroy(&st), 0);
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("fields");
  TCase *tc = tcase_create("fields");
  snprintf(tmpdir, sizeof(tmpdir), "/tmp/hdem_test_fields_%d", (int)getppid());
  mkdir(tmpdir, 0755);
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_added_field_travels);
  tcase_add_test(tc, test_record_sort);
  tcase_add_test(tc, test_pack_columns);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
