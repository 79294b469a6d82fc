/* Load balancing by shifting cuts: BalanceShiftCuts on its own (targets,
 * limits, convergence on ranks of unequal speed), then GridBalance at the
 * run's rank count (the same cuts on every rank, bounds and ownership that
 * follow them, the threshold).  Trees of bisections: their boxes tile the
 * domain and own exactly the points they hold, the search for boxes near a
 * box against brute force, bad cuts refused (on a grid built by hand, any
 * rank count); BalanceRcbTree at the run's rank count against closed-form
 * cuts, shares of weighted points, and independence of how the points are
 * spread over the ranks.  When a balance is due: the interval, the ramp
 * after a start, a change of the count.
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

static unsigned long long TreeRand(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s >> 11;
}

static PetscReal TreeUniform(unsigned long long *s)
{
  return (PetscReal)TreeRand(s) / 9007199254740992.0;
}

/* A random valid tree over ranks [r0, r1) of box [lo, hi): cuts anywhere in
 * the box, some on its low face (empty boxes). */
static void TreeRandom(unsigned long long *s, PetscMPIInt r0, PetscMPIInt r1, const PetscReal lo[3],
                       const PetscReal hi[3], PetscMPIInt axis[], PetscReal cut[])
{
  PetscMPIInt m;
  PetscReal   l[3], h[3], u;
  int         a;

  if (r1 - r0 < 2) return;
  m = GridTreeSplit(r0, r1), a = (int)(TreeRand(s) % 3), u = TreeUniform(s);
  axis[m] = a;
  cut[m]  = u < 0.1 ? lo[a] : lo[a] + u * (hi[a] - lo[a]);
  for (int d = 0; d < 3; d++) l[d] = lo[d], h[d] = hi[d];
  h[a] = cut[m];
  TreeRandom(s, r0, m, l, h, axis, cut);
  h[a] = hi[a], l[a] = cut[m];
  TreeRandom(s, m, r1, l, h, axis, cut);
}

/* Whether x lies in [lo, hi), the box's face on the domain's walled high face closed. */
static PetscBool TreeHolds(const Grid *g, const PetscReal lo[3], const PetscReal hi[3], const PetscReal x[3])
{
  for (int a = 0; a < 3; a++)
    if (!(x[a] >= lo[a] && (x[a] < hi[a] || (x[a] == g->hi[a] && hi[a] == g->hi[a])))) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* Trees built by hand on a grid of any size (no communicator needed). */
START_TEST(test_tree_geometry)
{
  unsigned long long s = 99;
  for (PetscMPIInt P = 2; P <= 13; P++) {
    Grid        g;
    PetscMPIInt axis[13], ranks[13], nr, nb;
    PetscReal   cut[13], vol = 0.0;
    memset(&g, 0, sizeof(g));
    g.size = P, g.rank = P - 1;
    for (int a = 0; a < 3; a++) g.lo[a] = -1.0 - a, g.hi[a] = 2.0 + 0.5 * a;
    TreeRandom(&s, 0, P, g.lo, g.hi, axis, cut);
    EXPECT(GridSetTree(&g, axis, cut) == 0, "GridSetTree at %d ranks", P);
    for (PetscMPIInt r = 0; r < P; r++) {
      PetscReal lo[3], hi[3];
      GridBoxOf(&g, r, lo, hi);
      vol += (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
      if (r == g.rank)
        for (int a = 0; a < 3; a++) EXPECT(lo[a] == g.sublo[a] && hi[a] == g.subhi[a], "own box not the subdomain");
    }
    EXPECT(fabs(vol - 3.0 * 4.5 * 6.0) < 1e-12, "%d boxes fill %.15g of the 81 of the domain", P, vol);
    for (int k = 0; k < 400; k++) { /* each point in exactly its owner's box; points on cuts and faces too */
      PetscReal   x[3], q[6], lo[3], hi[3];
      PetscMPIInt own, n = 0;
      for (int a = 0; a < 3; a++) {
        PetscMPIInt m = 1 + (PetscMPIInt)(TreeRand(&s) % (P - 1));
        x[a]          = k % 3 == 0 && axis[m] == a ? cut[m] : g.lo[a] + TreeUniform(&s) * (g.hi[a] - g.lo[a]);
        if (k % 7 == 0) x[a] = g.hi[a];
      }
      own = GridRankAt(&g, x);
      for (PetscMPIInt r = 0; r < P; r++) {
        GridBoxOf(&g, r, lo, hi);
        n += TreeHolds(&g, lo, hi, x);
        if (r == own) EXPECT(TreeHolds(&g, lo, hi, x), "point %d is not in its owner %d's box", k, own);
      }
      EXPECT(n == 1, "point %d lies in %d boxes", k, n);
      /* boxes meeting a closed box: the tree's search against all boxes */
      for (int a = 0; a < 3; a++) {
        PetscReal w = TreeUniform(&s) * (g.hi[a] - g.lo[a]) * 0.5;
        q[a] = x[a] - (k % 5 == 0 ? 0.0 : w), q[3 + a] = x[a] + (k % 5 == 0 ? 0.0 : w);
      }
      nr = GridRanksMeeting(&g, q, q + 3, ranks);
      nb = 0;
      for (PetscMPIInt r = 0; r < P; r++) {
        PetscBool meets = PETSC_TRUE;
        GridBoxOf(&g, r, lo, hi);
        for (int a = 0; a < 3; a++) meets = meets && q[3 + a] >= lo[a] && q[a] <= hi[a];
        if (!meets) continue;
        EXPECT(nb < nr && ranks[nb] == r, "query %d: rank %d missing or out of order", k, r);
        nb++;
      }
      EXPECT(nb == nr, "query %d: %d ranks found, %d meet", k, nr, nb);
    }
    /* a cut outside the box of the range it splits */
    cut[1] = g.hi[axis[1]] + 1.0;
    PetscCallAbort(PETSC_COMM_SELF, PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    EXPECT(GridSetTree(&g, axis, cut) != 0, "a cut outside its box was taken");
    PetscCallAbort(PETSC_COMM_SELF, PetscPopErrorHandler());
    PetscFree2(g.tree_axis, g.tree_cut);
  }
  ASSERT_ALL_RANKS();
}
END_TEST

/* Points 0.5, 1.5, ..., N - 0.5 along x, none across: every cut is along x
 * at m N / P, the middle of the gap at the lower half's share. */
START_TEST(test_rcb_closed_form)
{
  const PetscReal lo[3] = {0, 0, 0}, hi[3] = {60, 1, 1};
  Grid            g;
  PetscMPIInt    *axis;
  PetscReal      *cut, *x;
  PetscInt        N = 60, n = 0;

  EXPECT(GridCreate(PETSC_COMM_WORLD, lo, hi, NULL, NULL, &g) == 0, "GridCreate");
  if (g.size > 1 && N % g.size == 0) {
    x = malloc(sizeof(*x) * 3 * (size_t)N);
    for (PetscInt i = g.rank; i < N; i += g.size, n++) x[3 * n] = i + 0.5, x[3 * n + 1] = 0.5, x[3 * n + 2] = 0.25;
    axis = malloc(sizeof(*axis) * (size_t)g.size), cut = malloc(sizeof(*cut) * (size_t)g.size);
    EXPECT(BalanceRcbTree(&g, n, x, 3, 1, axis, cut) == 0, "BalanceRcbTree");
    for (PetscMPIInt m = 1; m < g.size; m++)
      EXPECT(axis[m] == 0 && cut[m] == (PetscReal)(m * N / g.size), "cut %d: axis %d at %.17g, expected x = %d", m,
             axis[m], cut[m], (int)(m * N / g.size));
    free(x), free(axis), free(cut);
  }
  EXPECT(GridDestroy(&g) == 0, "GridDestroy");
  ASSERT_ALL_RANKS();
}
END_TEST

/* The points of the run held in blocks (spread 0) or round robin (1). */
static PetscInt RcbMine(const Grid *g, const PetscReal *all, PetscInt N, int spread, PetscReal *x)
{
  PetscInt n = 0;
  for (PetscInt i = 0; i < N; i++) {
    PetscMPIInt holder = spread ? (PetscMPIInt)(i % g->size) : (PetscMPIInt)((i * g->size) / N);
    if (holder == g->rank) memcpy(x + 3 * n++, all + 3 * i, 3 * sizeof(*x));
  }
  return n;
}

/* Two clusters in opposite corners: the same tree however the points are
 * spread over the ranks; with the points of ranks 0, 3, ... weighing 3,
 * every rank's box holds an even share of the weight. */
START_TEST(test_rcb_shares)
{
  const PetscReal    lo[3] = {0, 0, 0}, hi[3] = {4, 4, 2};
  const PetscInt     N = 1200;
  Grid               g;
  PetscMPIInt       *axis[2];
  PetscReal         *cut[2], *all, *x, *wsum, total = 0.0;
  unsigned long long s = 5;

  EXPECT(GridCreate(PETSC_COMM_WORLD, lo, hi, NULL, NULL, &g) == 0, "GridCreate");
  if (g.size < 2) {
    EXPECT(GridDestroy(&g) == 0, "GridDestroy");
    ASSERT_ALL_RANKS();
    return;
  }
  all = malloc(sizeof(*all) * 3 * (size_t)N), x = malloc(sizeof(*x) * 3 * (size_t)N);
  wsum = calloc((size_t)g.size, sizeof(*wsum));
  for (PetscInt i = 0; i < N; i++) {
    PetscReal c = i % 2 ? 3.4 : 0.6;
    for (int a = 0; a < 2; a++) all[3 * i + a] = c + 0.5 * (TreeUniform(&s) - 0.5);
    all[3 * i + 2] = 0.3 * TreeUniform(&s);
  }
  for (int k = 0; k < 2; k++) {
    axis[k] = malloc(sizeof(**axis) * (size_t)g.size), cut[k] = malloc(sizeof(**cut) * (size_t)g.size);
    EXPECT(BalanceRcbTree(&g, RcbMine(&g, all, N, k, x), x, 3, 1, axis[k], cut[k]) == 0, "BalanceRcbTree");
  }
  for (PetscMPIInt m = 1; m < g.size; m++)
    EXPECT(axis[0][m] == axis[1][m] && cut[0][m] == cut[1][m], "cut %d depends on the points' spread", m);
  EXPECT(BalanceRcbTree(&g, RcbMine(&g, all, N, 0, x), x, 3, g.rank % 3 ? 1 : 3, axis[0], cut[0]) == 0,
         "BalanceRcbTree");
  EXPECT(GridSetTree(&g, axis[0], cut[0]) == 0, "GridSetTree");
  for (PetscInt i = 0; i < N; i++) {
    PetscReal wi = ((i * g.size) / N) % 3 ? 1.0 : 3.0;
    wsum[GridRankAt(&g, all + 3 * i)] += wi, total += wi;
  }
  /* each level's cut is off by at most a point (3) from its share */
  for (PetscMPIInt r = 0; r < g.size; r++)
    EXPECT(fabs(wsum[r] - total / g.size) <= 3.0 * 2, "rank %d holds weight %g of %g (share %g)", r, wsum[r], total,
           total / g.size);
  free(all), free(x), free(wsum);
  free(axis[0]), free(axis[1]), free(cut[0]), free(cut[1]);
  EXPECT(GridDestroy(&g) == 0, "GridDestroy");
  ASSERT_ALL_RANKS();
}
END_TEST

/* BalancerDue: every interval steps; every BALANCE_RAMP_INTERVAL (or the
 * interval, if shorter) for BALANCE_RAMP_STEPS after the start; whenever the
 * count is off the last balance's by more than the threshold factor. */
START_TEST(test_due)
{
  Balancer  b;
  PetscBool grown;

  BalancerDefaults(&b);
  b.start = 1000, b.step = 1000, b.count = 1000.0; /* a restart at step 1000 */
  EXPECT(!BalancerDue(&b, 1000 + BALANCE_RAMP_INTERVAL - 1, 1000.0, &grown) && !grown,
         "due before the ramp's interval");
  EXPECT(BalancerDue(&b, 1000 + BALANCE_RAMP_INTERVAL, 1000.0, &grown) && !grown, "not due at the ramp's interval");
  b.step = 1000 + BALANCE_RAMP_STEPS - 1;
  EXPECT(!BalancerDue(&b, b.step + BALANCE_RAMP_INTERVAL, 1000.0, &grown), "due at the ramp's interval after the ramp");
  EXPECT(!BalancerDue(&b, b.step + b.interval - 1, 1000.0, &grown), "due before the interval");
  EXPECT(BalancerDue(&b, b.step + b.interval, 1000.0, &grown) && !grown, "not due at the interval");
  /* the count: off by more than the factor 1.05 either way */
  EXPECT(!BalancerDue(&b, b.step + 1, 1050.0, &grown) && !grown, "due at 1050 of 1000 (threshold 1.05)");
  EXPECT(BalancerDue(&b, b.step + 1, 1051.0, &grown) && grown, "not due at 1051 of 1000");
  EXPECT(BalancerDue(&b, b.step + 1, 952.0, &grown) && grown, "not due at 952 of 1000");
  b.count = 0.0;
  EXPECT(BalancerDue(&b, b.step + 1, 1.0, &grown) && grown, "not due at the first particle");
  EXPECT(!BalancerDue(&b, b.step + 1, 0.0, &grown) && !grown, "due with no particle, as before");
  /* an interval shorter than the ramp's rules the ramp too */
  b.interval = 4, b.step = b.start = 0, b.count = 1.0;
  EXPECT(!BalancerDue(&b, 3, 1.0, &grown) && BalancerDue(&b, 4, 1.0, &grown), "interval 4 in the ramp");
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
  tcase_add_test(tc, test_tree_geometry);
  tcase_add_test(tc, test_rcb_closed_form);
  tcase_add_test(tc, test_rcb_shares);
  tcase_add_test(tc, test_due);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
