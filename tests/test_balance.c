/* Load balancing by shifting cuts: BalanceShiftCuts on its own (targets,
 * limits, convergence on ranks of unequal speed), then GridBalance at the
 * run's rank count (the same cuts on every rank, bounds and ownership that
 * follow them, the threshold).
 */
#include "check_main.h"
#include "decomp/balance.h"
#include <string.h>

/* Two slabs of [0, 40] costing 3 and 1: the cut goes where the cumulative
 * cost, linear within the first slab, reaches half, unless the limit stops it. */
START_TEST(test_shift_target_and_limit)
{
  const PetscReal old[3] = {0.0, 20.0, 40.0}, cost[2] = {3.0, 1.0};
  PetscReal       cuts[3];

  BalanceShiftCuts(2, cost, old, 1.0, 1.0, cuts);
  EXPECT(cuts[0] == 0.0 && cuts[2] == 40.0, "ends moved: %g %g", cuts[0], cuts[2]);
  EXPECT(fabs(cuts[1] - 40.0 / 3.0) < 1e-12, "cut at %.15g, expected 40/3", cuts[1]);
  /* half way */
  BalanceShiftCuts(2, cost, old, 1.0, 0.5, cuts);
  EXPECT(fabs(cuts[1] - 50.0 / 3.0) < 1e-12, "cut at %.15g, expected 50/3 (half way)", cuts[1]);
  /* wmin 15: the cut may move at most (20 - 15) / 2 */
  BalanceShiftCuts(2, cost, old, 15.0, 1.0, cuts);
  EXPECT(cuts[1] == 17.5, "limited cut at %.15g, expected 17.5", cuts[1]);
  /* slabs already at wmin stay */
  BalanceShiftCuts(2, cost, old, 20.0, 1.0, cuts);
  EXPECT(cuts[1] == 20.0, "cut at %.15g moved though the slabs are at wmin", cuts[1]);
  ASSERT_ALL_RANKS();
}
END_TEST

/* Equal costs, zero costs and an empty slab. */
START_TEST(test_shift_degenerate)
{
  const PetscReal old[5] = {0.0, 1.0, 2.0, 3.0, 4.0}, even[4] = {2, 2, 2, 2}, zero[4] = {0, 0, 0, 0},
                  hole[4] = {1, 0, 0, 1};
  PetscReal cuts[5];

  BalanceShiftCuts(4, even, old, 0.1, 1.0, cuts);
  for (int k = 0; k <= 4; k++) EXPECT(fabs(cuts[k] - old[k]) < 1e-14, "even costs moved cut %d to %.17g", k, cuts[k]);
  BalanceShiftCuts(4, zero, old, 0.1, 1.0, cuts);
  for (int k = 0; k <= 4; k++) EXPECT(cuts[k] == old[k], "zero costs moved cut %d", k);
  /* the middle cut sits in the empty middle: anywhere there is balanced, and it stays */
  BalanceShiftCuts(4, hole, old, 0.1, 1.0, cuts);
  EXPECT(cuts[1] < 1.0 && cuts[3] > 3.0, "outer cuts %g %g should close in on the costly ends", cuts[1], cuts[3]);
  EXPECT(cuts[2] >= 1.0 && cuts[2] <= 3.0, "middle cut %g left the empty slabs", cuts[2]);
  ASSERT_ALL_RANKS();
}
END_TEST

/* Random costs and widths: ends kept, every slab at least wmin wide, every
 * cut within half of its narrower neighbour's room, so a point moves one
 * slab at most. */
START_TEST(test_shift_invariants)
{
  unsigned long long s = 12345;
  for (int trial = 0; trial < 2000; trial++) {
    PetscMPIInt n = 2 + (PetscMPIInt)(trial % 9);
    PetscReal   old[12], cost[11], cuts[12], wmin;
    old[0] = -3.0;
    for (PetscMPIInt c = 0; c < n; c++) {
      s          = s * 6364136223846793005ULL + 1442695040888963407ULL;
      old[c + 1] = old[c] + 0.5 + (double)(s >> 11) / 9007199254740992.0 * 4.0;
      s          = s * 6364136223846793005ULL + 1442695040888963407ULL;
      cost[c]    = (s >> 60) < 3 ? 0.0 : (double)(s >> 11) / 9007199254740992.0 * 100.0;
    }
    wmin = 0.4;
    BalanceShiftCuts(n, cost, old, wmin, trial % 2 ? 1.0 : 0.5, cuts);
    EXPECT(cuts[0] == old[0] && cuts[n] == old[n], "trial %d: ends moved", trial);
    for (PetscMPIInt c = 0; c < n; c++)
      EXPECT(cuts[c + 1] - cuts[c] >= wmin * (1.0 - 1e-12), "trial %d: slab %d is %g wide, below wmin", trial, c,
             cuts[c + 1] - cuts[c]);
    for (PetscMPIInt k = 1; k < n; k++) {
      EXPECT(cuts[k] > old[k - 1] && cuts[k] < old[k + 1], "trial %d: cut %d left its neighbours' slabs", trial, k);
      EXPECT(fabs(cuts[k] - old[k]) <=
               0.5 * (PetscMin(old[k] - old[k - 1], old[k + 1] - old[k]) - wmin) * (1.0 + 1e-12) + 1e-15,
             "trial %d: cut %d moved beyond its limit", trial, k);
    }
  }
  ASSERT_ALL_RANKS();
}
END_TEST

/* Ranks of unequal speed over a uniform load (cost = width / speed, the
 * time mode's case): repeated shifts, half way as GridBalance moves, converge
 * to equal times. */
START_TEST(test_shift_converges)
{
  const PetscReal speed[4] = {1.0, 0.6, 1.3, 0.9};
  PetscReal       cuts[5] = {0, 10, 20, 30, 40}, next[5], cost[4], imb = 0.0;

  for (int it = 0; it < 12; it++) {
    PetscReal sum = 0.0, max = 0.0;
    for (int c = 0; c < 4; c++)
      cost[c] = (cuts[c + 1] - cuts[c]) / speed[c], sum += cost[c], max = PetscMax(max, cost[c]);
    imb = max * 4.0 / sum;
    BalanceShiftCuts(4, cost, cuts, 1.0, BALANCE_FRACTION, next);
    memcpy(cuts, next, sizeof(cuts));
  }
  EXPECT(imb < 1.01, "still %.4f x the mean after 12 shifts", imb);
  ASSERT_ALL_RANKS();
}
END_TEST

/* GridBalance over the run's ranks, along whichever axes are cut: every rank
 * receives the same cuts, its bounds are its slab's, points are owned by the
 * slab their cuts say, the imbalance is max / mean, and nothing moves under
 * the threshold. */
START_TEST(test_grid_balance)
{
  const PetscReal lo[3] = {0, 0, 0}, hi[3] = {24, 12, 8};
  const PetscBool per[3] = {PETSC_TRUE, PETSC_FALSE, PETSC_TRUE};
  Grid            g;
  PetscReal       imb, cost, want, sum = 0.0, max = 0.0;
  PetscBool       moved;
  PetscMPIInt     size;

  EXPECT(GridCreate(PETSC_COMM_WORLD, lo, hi, per, NULL, &g) == 0, "GridCreate");
  size = g.size;
  cost = 1.0 + g.rank; /* the higher ranks are dearer */
  for (PetscMPIInt r = 0; r < size; r++) sum += 1.0 + r, max = PetscMax(max, 1.0 + r);
  want = max * size / sum;
  EXPECT(GridBalance(&g, cost, 0.5, 1e9, &imb, &moved) == 0, "GridBalance");
  EXPECT(fabs(imb - want) < 1e-12, "imbalance %g, expected %g", imb, want);
  EXPECT(!moved, "cuts moved under the threshold");
  EXPECT(GridBalance(&g, cost, 0.5, 1.0, &imb, &moved) == 0, "GridBalance");
  EXPECT(moved == (size > 1), "moved %d at %d ranks", (int)moved, size);
  for (int a = 0; a < 3; a++) {
    PetscMPIInt d = g.dims[a];
    PetscReal  *mine, *root;
    EXPECT(g.cuts[a][0] == lo[a] && g.cuts[a][d] == hi[a], "axis %d: ends moved", a);
    EXPECT(g.sublo[a] == g.cuts[a][g.coords[a]] && g.subhi[a] == g.cuts[a][g.coords[a] + 1],
           "axis %d: bounds are not the slab's", a);
    mine = malloc((size_t)(d + 1) * sizeof(*mine));
    root = malloc((size_t)(d + 1) * sizeof(*root));
    memcpy(mine, g.cuts[a], (size_t)(d + 1) * sizeof(*mine));
    memcpy(root, mine, (size_t)(d + 1) * sizeof(*root));
    EXPECT(MPI_Bcast(root, d + 1, MPIU_REAL, 0, PETSC_COMM_WORLD) == MPI_SUCCESS, "MPI_Bcast");
    EXPECT(memcmp(root, mine, (size_t)(d + 1) * sizeof(*mine)) == 0, "axis %d: cuts differ from rank 0's", a);
    for (PetscMPIInt c = 0; c < d; c++) {
      PetscReal   x[3] = {0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])};
      PetscMPIInt own[3];
      EXPECT(g.cuts[a][c + 1] - g.cuts[a][c] >= 0.5, "axis %d slab %d narrower than wmin", a, c);
      x[a] = g.cuts[a][c]; /* a point on a cut belongs to the slab above */
      EXPECT(GridOwnerOf(&g, x, own) == 0 && own[a] == c, "axis %d: the point on cut %d went to slab %d", a, c, own[a]);
      x[a] = nextafter(g.cuts[a][c + 1], -1e300);
      EXPECT(GridOwnerOf(&g, x, own) == 0 && own[a] == c, "axis %d: the point below cut %d went to slab %d", a, c + 1,
             own[a]);
      EXPECT(GridSlabOf(&g, a, x[a]) == c, "GridSlabOf disagrees with GridOwnerOf");
    }
    free(mine);
    free(root);
  }
  EXPECT(GridDestroy(&g) == 0, "GridDestroy");
  ASSERT_ALL_RANKS();
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("balance");
  TCase *tc = tcase_create("shift");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_shift_target_and_limit);
  tcase_add_test(tc, test_shift_degenerate);
  tcase_add_test(tc, test_shift_invariants);
  tcase_add_test(tc, test_shift_converges);
  tcase_add_test(tc, test_grid_balance);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
