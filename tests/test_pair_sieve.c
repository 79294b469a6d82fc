/* The force scan's sieve: which pairs pass (touched, imaged, or
 * closer than the squared radii sum or reach) is its definition's, pair for
 * pair, on every path the processor has (AVX-512, AVX2, portable) alike, at the boundary to
 * the last bit, for NaN separations, and over runs of any length. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check_main.h"
#include "interact/pair_sieve.h"
#include "interact/neighbor.h"
#include "particles/random.h"

#define NP 600 /* particles */
#define NK 256 /* pairs: one whole run */

typedef struct {
  LocalInt      ij[2 * NK];
  unsigned char fl[NK];
  PetscReal     x[3 * NP + 1], rad[NP];
} Pairs;

/* The definition, straight. */
static int Passes(const Pairs *q, PetscInt k, PetscReal reach)
{
  PetscInt  i = q->ij[2 * k], j = q->ij[2 * k + 1];
  PetscReal r[3], rr, rs, lim;
  if (q->fl[k] & (NEIGHBOR_TOUCHED | NEIGHBOR_IMAGED)) return 1;
  for (int a = 0; a < 3; a++) r[a] = q->x[3 * i + a] - q->x[3 * j + a];
  rr  = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  rs  = q->rad[i] + q->rad[j];
  lim = reach >= 0.0 ? PairSieveReach2(rs, reach) : rs * rs;
  return rr < lim;
}

/* Random pairs about touching distance; some touched, imaged, NaN;
 * some set exactly on the threshold or one ulp inside. */
static void PairsFill(Pairs *q, PetscInt trial, PetscReal reach)
{
  memset(q, 0, sizeof(*q));
  for (PetscInt i = 0; i < NP; i++) {
    q->rad[i] = 0.5 * (1.0 + RandomUniform(11, trial, i, 0));
    for (int a = 0; a < 3; a++) q->x[3 * i + a] = 40.0 * RandomUniform(11, trial, i, 1 + a);
  }
  for (PetscInt k = 0; k < NK; k++) {
    PetscInt  i = (PetscInt)(NP * RandomUniform(12, trial, k, 0)), j = (PetscInt)(NP * RandomUniform(12, trial, k, 1));
    PetscReal u      = RandomUniform(12, trial, k, 2),
              dir[3] = {RandomUniform(12, trial, k, 3) - 0.5, RandomUniform(12, trial, k, 4) - 0.5,
                        RandomUniform(12, trial, k, 5) - 0.5};
    PetscReal len    = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]),
              dist   = (q->rad[i] + q->rad[j]) * (0.8 + 0.4 * RandomUniform(12, trial, k, 6));
    if (j == i) j = (i + 1) % NP;
    q->ij[2 * k] = i, q->ij[2 * k + 1] = j;
    /* a later pair may move j again */
    for (int a = 0; a < 3; a++) q->x[3 * j + a] = q->x[3 * i + a] - dist * dir[a] / len;
    if (u < 0.25) q->fl[k] = NEIGHBOR_TOUCHED;
    else if (u < 0.30) q->fl[k] = NEIGHBOR_IMAGED;
    else if (u < 0.32) q->x[3 * j] = NAN;
    q->fl[k] |= (unsigned char)((k % 7) << NEIGHBOR_CLASS_SHIFT); /* classes do not matter */
  }
  /* pairs on the threshold's last bit: a member moved along x until rr meets lim */
  for (PetscInt k = 0; k < NK; k += 9) {
    PetscInt  i = q->ij[2 * k], j = q->ij[2 * k + 1];
    PetscReal rs, lim, dx;
    if (q->fl[k] & (NEIGHBOR_TOUCHED | NEIGHBOR_IMAGED)) continue;
    rs              = q->rad[i] + q->rad[j];
    lim             = reach >= 0.0 ? PairSieveReach2(rs, reach) : rs * rs;
    q->x[3 * j + 1] = q->x[3 * i + 1], q->x[3 * j + 2] = q->x[3 * i + 2];
    dx          = sqrt(lim);
    q->x[3 * j] = q->x[3 * i] - dx;
    for (int it = 0; it < 4; it++) { /* nudge to rr == lim, or the next below on odd k */
      PetscReal r = q->x[3 * i] - q->x[3 * j], rr = r * r;
      if (rr < lim) q->x[3 * j] = nextafter(q->x[3 * j], -INFINITY);
      else if (rr > lim) q->x[3 * j] = nextafter(q->x[3 * j], INFINITY);
    }
    if ((k / 9) % 2) q->x[3 * j] = nextafter(q->x[3 * j], INFINITY);
  }
}

static void CheckRun(const Pairs *q, PetscReal reach, PetscInt k0, PetscInt k1, PetscInt trial)
{
  PairSieve sv = {q->ij, q->fl, q->x, q->rad, reach};
  LocalInt  at[PAIR_SIEVE_CHUNK];
  PetscInt  want[PAIR_SIEVE_CHUNK], na, nw = 0;

  for (PetscInt k = k0; k < k1; k++)
    if (Passes(q, k, reach)) want[nw++] = k;
  for (int path = PAIR_SIEVE_PORTABLE; path <= (int)PairSieveBest() + 1; path++) {
    const char *name = path <= (int)PairSieveBest() ? PairSievePathName((PairSievePath)path) : "PairSieveRun";
    na               = path <= (int)PairSieveBest() ? PairSieveRunOn((PairSievePath)path, &sv, k0, k1, at)
                                                    : PairSieveRun(&sv, k0, k1, at);
    ck_assert_msg(na == nw, "trial %d [%d, %d): %s: %d pass, the definition says %d", (int)trial, (int)k0, (int)k1,
                  name, (int)na, (int)nw);
    for (PetscInt a = 0; a < nw; a++)
      ck_assert_msg(at[a] == want[a], "trial %d: %s: pass %d is pair %d, expected %d", (int)trial, name, (int)a,
                    (int)at[a], (int)want[a]);
  }
}

START_TEST(test_definition)
{
  static Pairs q;
  for (PetscInt trial = 0; trial < 40; trial++) {
    PetscReal reach = trial % 2 ? -1.0 : 0.05 * RandomUniform(13, trial, 0, 0);
    PairsFill(&q, trial, reach);
    CheckRun(&q, reach, 0, NK, trial);
    CheckRun(&q, reach, 3, 3 + 13 * (trial + 1) % (NK - 3), trial); /* odd starts and lengths: the tails */
  }
}
END_TEST

/* The threshold pairs exist and split as built: on the bit, out; one ulp in, in. */
START_TEST(test_threshold_bits)
{
  static Pairs q;
  PetscInt     on = 0, in = 0;
  PairsFill(&q, 7, -1.0);
  for (PetscInt k = 0; k < NK; k += 9) {
    PetscInt  i = q.ij[2 * k], j = q.ij[2 * k + 1];
    PetscReal rs, r[3], rr;
    if (q.fl[k] & (NEIGHBOR_TOUCHED | NEIGHBOR_IMAGED)) continue;
    for (int a = 0; a < 3; a++) r[a] = q.x[3 * i + a] - q.x[3 * j + a];
    rs = q.rad[i] + q.rad[j], rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    if (rr == rs * rs) on++, ck_assert(!Passes(&q, k, -1.0));
    if (rr < rs * rs && rr > 0.99 * rs * rs) in++, ck_assert(Passes(&q, k, -1.0));
  }
  ck_assert_msg(on > 0 && in > 0, "threshold pairs: %d on the bit, %d inside", (int)on, (int)in);
  CheckRun(&q, -1.0, 0, NK, 7);
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s = suite_create("pair_sieve");
  /* the paths this processor lacks are not tested here: say which are */
  printf("pair_sieve: PairSieveRun takes the %s path on this processor; the paths tested:",
         PairSievePathName(PairSieveBest()));
  for (int path = PAIR_SIEVE_PORTABLE; path <= (int)PairSieveBest(); path++)
    printf(" %s", PairSievePathName((PairSievePath)path));
  printf("\n");
  TCase *tc = tcase_create("pair_sieve");
  tcase_add_test(tc, test_definition);
  tcase_add_test(tc, test_threshold_bits);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
