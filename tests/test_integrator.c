/* The integrator's passes: lanes and scalar tails give the same bits, frozen
 * bodies stay, the first half leaves the force sums zero, the second adds
 * gravity where asked, a constant force integrates exactly to rounding, and
 * the rebuild criterion agrees with IntegratorMayPass. */
#include <string.h>
#include "check_main.h"
#include "integrator.h"
#include "random.h"

#define NB 11 /* two lane groups and a tail of three */

typedef struct {
  PetscInt  fl[NB];
  PetscReal m[NB], in[NB], f[3 * NB], t[3 * NB], x[3 * NB], x0[3 * NB], v[3 * NB], w[3 * NB], vp[3 * NB], wp[3 * NB];
} Bodies;

static PetscReal Draw(PetscInt i, PetscInt k)
{
  return 2.0 * RandomUniform(5, i, 1, k) - 1.0;
}

static void BodiesFill(Bodies *b, PetscInt frozen)
{
  memset(b, 0, sizeof(*b));
  for (PetscInt i = 0; i < NB; i++) {
    b->fl[i] = i == frozen ? PARTICLE_FROZEN : 0;
    b->m[i]  = 1.0 + 0.5 * Draw(i, 0);
    b->in[i] = 0.4 * b->m[i] * 0.25;
    for (int a = 0; a < 3; a++) {
      b->f[3 * i + a] = 10.0 * Draw(i, 1 + a);
      b->t[3 * i + a] = Draw(i, 4 + a);
      b->x[3 * i + a] = b->x0[3 * i + a] = 5.0 * Draw(i, 7 + a);
      b->v[3 * i + a] = b->vp[3 * i + a] = Draw(i, 10 + a);
      b->w[3 * i + a] = b->wp[3 * i + a] = 3.0 * Draw(i, 13 + a);
    }
  }
}

static void ExpectSameBits(const PetscReal *a, const PetscReal *b, PetscInt n, const char *what)
{
  for (PetscInt k = 0; k < n; k++) ck_assert_msg(memcmp(&a[k], &b[k], sizeof(PetscReal)) == 0, "%s[%d]: %.17g vs %.17g", what, (int)k, a[k], b[k]);
}

static PetscReal Open(Bodies *b, PetscInt lo, PetscInt n, PetscReal dt, const PetscReal g[3])
{
  return IntegratorOpenStepBodies(n, b->fl + lo, b->m + lo, b->in + lo, b->f + 3 * lo, b->t + 3 * lo, dt, g, b->x + 3 * lo, b->v + 3 * lo, b->w + 3 * lo, b->vp + 3 * lo, b->wp + 3 * lo);
}

static PetscBool Close(Bodies *b, PetscInt lo, PetscInt n, const PetscReal *g, PetscReal h, PetscReal dt_up, PetscReal hs)
{
  return IntegratorCloseStepBodies(n, b->fl + lo, b->m + lo, b->in + lo, g, b->f + 3 * lo, b->t + 3 * lo, h, b->x + 3 * lo, b->x0 + 3 * lo, dt_up, hs, b->v + 3 * lo, b->w + 3 * lo);
}

/* every body through the lanes (all NB at once) and alone (the scalar tail) */
START_TEST(test_lanes_match_tail)
{
  const PetscReal g[3] = {0.3, -0.1, -9.81}, dt = 1e-3;
  Bodies          all, one;
  PetscReal       work_all, work_one = 0.0;
  BodiesFill(&all, 5);
  BodiesFill(&one, 5);
  work_all = Open(&all, 0, NB, dt, g);
  for (PetscInt i = 0; i < NB; i++) work_one += Open(&one, i, 1, dt, g);
  ExpectSameBits(all.x, one.x, 3 * NB, "x");
  ExpectSameBits(all.v, one.v, 3 * NB, "v");
  ExpectSameBits(all.w, one.w, 3 * NB, "w");
  ExpectSameBits(all.vp, one.vp, 3 * NB, "vp");
  ExpectSameBits(all.wp, one.wp, 3 * NB, "wp");
  ck_assert_rel(work_all, work_one, 1e-12); /* summed in another order */
  for (PetscInt k = 0; k < 3 * NB; k++) ck_assert(all.f[k] == 0.0 && !signbit(all.f[k]) && all.t[k] == 0.0 && !signbit(all.t[k]));
  /* the second half, with gravity into the force */
  for (PetscInt k = 0; k < 3 * NB; k++) all.f[k] = one.f[k] = 4.0 * Draw(k, 20), all.t[k] = one.t[k] = Draw(k, 21);
  (void)Close(&all, 0, NB, g, 0.5 * dt, dt, 1e3);
  for (PetscInt i = 0; i < NB; i++) (void)Close(&one, i, 1, g, 0.5 * dt, dt, 1e3);
  ExpectSameBits(all.f, one.f, 3 * NB, "f");
  ExpectSameBits(all.v, one.v, 3 * NB, "v (second half)");
  ExpectSameBits(all.w, one.w, 3 * NB, "w (second half)");
}
END_TEST

START_TEST(test_frozen_and_gravity)
{
  const PetscReal g[3] = {0.0, 0.0, -9.81}, dt = 2e-3;
  Bodies          b, ref;
  BodiesFill(&b, 2);
  ref = b;
  (void)Open(&b, 0, NB, dt, g);
  ExpectSameBits(b.x + 6, ref.x + 6, 3, "frozen x");
  ExpectSameBits(b.v + 6, ref.v + 6, 3, "frozen v");
  ExpectSameBits(b.vp + 6, ref.v + 6, 3, "frozen vp");
  ExpectSameBits(b.wp + 6, ref.w + 6, 3, "frozen wp");
  /* without g the force is left as it is; with g it becomes f + m g */
  for (PetscInt k = 0; k < 3 * NB; k++) b.f[k] = ref.f[k];
  (void)Close(&b, 0, NB, NULL, 0.5 * dt, dt, 1e3);
  ExpectSameBits(b.f, ref.f, 3 * NB, "f without g");
  ExpectSameBits(b.v + 6, ref.v + 6, 3, "frozen v (second half)");
  (void)Close(&b, 0, NB, g, 0.5 * dt, dt, 1e3);
  for (PetscInt i = 0; i < NB; i++)
    for (int a = 0; a < 3; a++) ck_assert(b.f[3 * i + a] == ref.f[3 * i + a] + b.m[i] * g[a]);
}
END_TEST

/* a constant force over many steps: v = v0 + a t, x = x0 + v0 t + a t^2 / 2 */
START_TEST(test_constant_force)
{
  const PetscReal g[3] = {0, 0, 0}, dt = 1e-3, F[3] = {2.0, -1.0, 0.5};
  Bodies          b;
  const PetscInt  steps = 1000;
  BodiesFill(&b, -1);
  for (PetscInt s = 0; s < steps; s++) {
    for (PetscInt k = 0; k < NB; k++)
      for (int a = 0; a < 3; a++) b.f[3 * k + a] = F[a] * b.m[k];
    (void)Open(&b, 0, NB, dt, g);
    for (PetscInt k = 0; k < NB; k++)
      for (int a = 0; a < 3; a++) b.f[3 * k + a] = F[a] * b.m[k];
    (void)Close(&b, 0, NB, NULL, 0.5 * dt, dt, 1e3);
  }
  for (PetscInt k = 0; k < NB; k++)
    for (int a = 0; a < 3; a++) {
      PetscReal T = steps * dt, v0 = Draw(k, 10 + a), x0 = 5.0 * Draw(k, 7 + a);
      ck_assert(fabs(b.v[3 * k + a] - (v0 + F[a] * T)) < 1e-12);
      ck_assert(fabs(b.x[3 * k + a] - (x0 + v0 * T + 0.5 * F[a] * T * T)) < 1e-11);
    }
}
END_TEST

/* the second half's criterion is IntegratorMayPass on the kicked state, for
 * bodies near and far from the threshold, frozen ones never counted */
START_TEST(test_rebuild_criterion)
{
  const PetscReal dt = 1e-3;
  for (PetscInt trial = 0; trial < 400; trial++) {
    Bodies    b;
    PetscReal hs = 0.05 * (1.0 + RandomUniform(9, trial, 0, 0)), far = hs * (0.6 + 0.8 * RandomUniform(9, trial, 0, 1));
    PetscInt  who = (PetscInt)(NB * RandomUniform(9, trial, 0, 2)), frozen = trial % 3 ? -1 : who;
    PetscBool lanes, scalar;
    BodiesFill(&b, frozen);
    for (PetscInt k = 0; k < 3 * NB; k++) b.v[k] *= 1e-3, b.f[k] *= 1e-3;
    b.x[3 * who] = b.x0[3 * who] + far;
    lanes = Close(&b, 0, NB, NULL, 0.0, dt, hs); /* h = 0: no kick, the state stays */
    scalar = IntegratorMayPass(NB, b.fl, b.m, b.x, b.x0, b.v, b.f, dt, hs);
    ck_assert_msg(lanes == scalar, "trial %d: lanes %d, IntegratorMayPass %d", (int)trial, (int)lanes, (int)scalar);
    if (frozen == who || far < 0.95 * hs) ck_assert(!lanes);
    if (frozen != who && far > 1.05 * hs) ck_assert(lanes);
  }
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("integrator");
  TCase *tc = tcase_create("integrator");
  tcase_add_test(tc, test_lanes_match_tail);
  tcase_add_test(tc, test_frozen_and_gravity);
  tcase_add_test(tc, test_constant_force);
  tcase_add_test(tc, test_rebuild_criterion);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
