/* RouteSparse (decomp/route.h) at 1-4 ranks: records between partners
 * chosen by a rule every rank evaluates, blocks of known sizes (empty ones
 * and a rank's own among them), each record naming its sender, receiver and
 * place; what arrives is checked record by record, in the promised order.
 * Then only ranks 0 and 1 route while the others wait: no rank outside the
 * partners takes part (checks per rank, asserted together: check_main.h). */
#include "check_main.h"
#include "decomp/route.h"

#define WIDTH 3

/* How many records rank s sends rank r at pass p; -1: they are not partners. */
static PetscInt Block(PetscMPIInt s, PetscMPIInt r, PetscMPIInt size, int p)
{
  if (size > 2 && (s + 2 * r + p) % 3 == 0) return -1;
  return (PetscInt)((7 * s + 3 * r + 5 * p) % 4) * (s == r ? 2 : 50);
}

static void Record(PetscMPIInt s, PetscMPIInt r, PetscInt k, PetscReal rec[WIDTH])
{
  rec[0] = s, rec[1] = r, rec[2] = (PetscReal)k;
}

START_TEST(test_route_sparse)
{
  PetscMPIInt rank, size, to[4], from[4];
  PetscInt    nto[4], nsend, nrecv, nout, n, want;
  PetscReal  *items, *out;

  ck_assert(MPI_Comm_rank(PETSC_COMM_WORLD, &rank) == MPI_SUCCESS);
  ck_assert(MPI_Comm_size(PETSC_COMM_WORLD, &size) == MPI_SUCCESS && size <= 4);
  for (int p = 0; p < 3; p++) {
    nsend = nrecv = n = want = 0;
    for (PetscMPIInt r = 0; r < size; r++)
      if (Block(rank, r, size, p) >= 0) n += Block(rank, r, size, p);
    ck_assert(!PetscMalloc1(WIDTH * n + 1, &items));
    n = 0;
    for (PetscMPIInt r = size - 1; r >= 0; r--) { /* in any order */
      PetscInt b = Block(rank, r, size, p);
      if (b < 0) continue;
      to[nsend] = r, nto[nsend++] = b;
      for (PetscInt k = 0; k < b; k++) Record(rank, r, k, items + WIDTH * n++);
    }
    for (PetscMPIInt s = 0; s < size; s++)
      if (Block(s, rank, size, p) >= 0) from[nrecv++] = s, want += Block(s, rank, size, p);
    ck_assert(!RouteSparse(PETSC_COMM_WORLD, WIDTH, nsend, to, nto, items, nrecv, from, &nout, &out));
    EXPECT(nout == want, "pass %d: %d records arrived, %d sent", p, (int)nout, (int)want);
    n = 0;
    for (PetscInt j = 0; j < nrecv && nout == want; j++)
      for (PetscInt k = 0; k < Block(from[j], rank, size, p); k++, n++) {
        PetscReal rec[WIDTH];
        Record(from[j], rank, k, rec);
        EXPECT(out[WIDTH * n] == rec[0] && out[WIDTH * n + 1] == rec[1] && out[WIDTH * n + 2] == rec[2],
               "pass %d: record %d is (%g %g %g), not (%g %g %g)", p, (int)n, (double)out[WIDTH * n],
               (double)out[WIDTH * n + 1], (double)out[WIDTH * n + 2], (double)rec[0], (double)rec[1], (double)rec[2]);
      }
    ck_assert(!PetscFree(items));
    ck_assert(!PetscFree(out));
  }
  if (size > 2 && rank < 2) { /* a pair alone; a collective would wait for the others forever */
    PetscMPIInt peer = 1 - rank;
    PetscInt    one  = 1;
    PetscReal   rec[WIDTH];
    Record(rank, peer, 0, rec);
    ck_assert(!RouteSparse(PETSC_COMM_WORLD, WIDTH, 1, &peer, &one, rec, 1, &peer, &nout, &out));
    EXPECT(nout == 1 && out[0] == peer && out[1] == rank, "the pair's record: %d records from %g", (int)nout,
           nout ? (double)out[0] : -1.0);
    ck_assert(!PetscFree(out));
  }
  ASSERT_ALL_RANKS();
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("route");
  TCase *tc = tcase_create("route");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_route_sparse);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
