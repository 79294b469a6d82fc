/* The integrator's passes: lanes and scalar tails give the same bits, frozen
 * bodies stay, the first half leaves the force sums zero, the second adds
 * gravity where asked, a constant force integrates exactly to rounding, and
 * the rebuild criterion agrees with IntegratorMayPass, measures displacements
 * from the common drift (and absolutely against the whole skin; frozen
 * bodies by the drift) and returns their ranges; the second half fused
 * with the next step's first gives the bits of the two apart. */
#include <string.h>
#include "check_main.h"
#include "particles/integrator.h"
#include "particles/random.h"

#define NB 11 /* two lane groups and a tail of three */

typedef struct {
  LocalInt  fl[NB];
  PetscReal m[NB], in[NB], f[3 * NB], t[3 * NB], x[3 * NB], x0[3 * NB], v[3 * NB], w[3 * NB], vp[3 * NB], wp[3 * NB];
  PetscReal gw[NB]; /* each body's gravity work */
} Rows;

static PetscReal Draw(PetscInt i, PetscInt k)
{
  return 2.0 * RandomUniform(5, i, 1, k) - 1.0;
}

static void RowsFill(Rows *b, PetscInt frozen)
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
  for (PetscInt k = 0; k < n; k++)
    ck_assert_msg(memcmp(&a[k], &b[k], sizeof(PetscReal)) == 0, "%s[%d]: %.17g vs %.17g", what, (int)k, a[k], b[k]);
}

static PetscReal Open(Rows *b, PetscInt lo, PetscInt n, PetscReal dt, const PetscReal g[3])
{
  return IntegratorOpenStep(n, b->fl + lo, b->m + lo, b->in + lo, b->f + 3 * lo, b->t + 3 * lo, dt, g, b->x + 3 * lo,
                            b->v + 3 * lo, b->w + 3 * lo, b->vp + 3 * lo, b->wp + 3 * lo, b->gw + lo);
}

static PetscInt CloseKinetic(Rows *b, PetscInt lo, PetscInt n, const PetscReal *g, PetscReal h,
                             const IntegratorRebuild *rb, PetscReal rlo[3], PetscReal rhi[3], PetscReal *ke)
{
  return IntegratorCloseStep(n, b->fl + lo, b->m + lo, b->in + lo, g, b->f + 3 * lo, b->t + 3 * lo, h, b->x + 3 * lo,
                             b->x0 + 3 * lo, rb, rlo, rhi, b->v + 3 * lo, b->w + 3 * lo, ke);
}

static PetscInt CloseRanges(Rows *b, PetscInt lo, PetscInt n, const PetscReal *g, PetscReal h,
                            const IntegratorRebuild *rb, PetscReal rlo[3], PetscReal rhi[3])
{
  return CloseKinetic(b, lo, n, g, h, rb, rlo, rhi, NULL);
}

/* The kinetic energy of rows 0 .. n - 1 not frozen, translational and rotational. */
static PetscReal Kinetic(const Rows *b, PetscInt n)
{
  PetscReal k = 0.0;
  for (PetscInt i = 0; i < n; i++) {
    if (b->fl[i] & PARTICLE_STILL) continue;
    for (int a = 0; a < 3; a++)
      k += 0.5 * (b->m[i] * b->v[3 * i + a] * b->v[3 * i + a] + b->in[i] * b->w[3 * i + a] * b->w[3 * i + a]);
  }
  return k;
}

/* no drift */
static PetscInt Close(Rows *b, PetscInt lo, PetscInt n, const PetscReal *g, PetscReal h, PetscReal dt_up, PetscReal hs)
{
  IntegratorRebuild rb     = {dt_up, hs, {0.0, 0.0, 0.0}};
  PetscReal         rlo[3] = {PETSC_INFINITY, PETSC_INFINITY, PETSC_INFINITY},
            rhi[3]         = {PETSC_NINFINITY, PETSC_NINFINITY, PETSC_NINFINITY};
  return CloseRanges(b, lo, n, g, h, &rb, rlo, rhi);
}

static PetscInt MayPass(const Rows *b, const IntegratorRebuild *rb, PetscReal rlo[3], PetscReal rhi[3])
{
  return IntegratorMayPass(NB, b->fl, b->m, b->x, b->x0, b->v, b->f, rb, rlo, rhi);
}

/* the engine's decision from the bits */
static PetscBool Rebuild(PetscInt bits)
{
  return ((bits & INTEGRATOR_BEYOND_DRIFT) && (bits & INTEGRATOR_BEYOND_HALF)) || (bits & INTEGRATOR_BEYOND_SKIN)
         ? PETSC_TRUE
         : PETSC_FALSE;
}

/* every body through the lanes (all NB at once) and alone (the scalar tail) */
START_TEST(test_lanes_match_tail)
{
  const PetscReal g[3] = {0.3, -0.1, -9.81}, dt = 1e-3;
  Rows            all, one;
  PetscReal       work_all, work_one = 0.0;
  RowsFill(&all, 5);
  RowsFill(&one, 5);
  work_all = Open(&all, 0, NB, dt, g);
  for (PetscInt i = 0; i < NB; i++) work_one += Open(&one, i, 1, dt, g);
  ExpectSameBits(all.x, one.x, 3 * NB, "x");
  ExpectSameBits(all.v, one.v, 3 * NB, "v");
  ExpectSameBits(all.w, one.w, 3 * NB, "w");
  ExpectSameBits(all.vp, one.vp, 3 * NB, "vp");
  ExpectSameBits(all.wp, one.wp, 3 * NB, "wp");
  ExpectSameBits(all.gw, one.gw, NB, "each body's gravity work");
  ck_assert(all.gw[5] == 0.0); /* frozen */
  for (PetscInt i = 0; i < NB; i++)
    if (i != 5)
      ck_assert_rel(all.gw[i],
                    all.m[i] * (g[0] * all.v[3 * i] + g[1] * all.v[3 * i + 1] + g[2] * all.v[3 * i + 2]) * dt, 1e-12);
  ck_assert_rel(work_all, work_one, 1e-12); /* summed in another order */
  for (PetscInt k = 0; k < 3 * NB; k++)
    ck_assert(all.f[k] == 0.0 && !signbit(all.f[k]) && all.t[k] == 0.0 && !signbit(all.t[k]));
  /* the second half, with gravity into the force */
  for (PetscInt k = 0; k < 3 * NB; k++) all.f[k] = one.f[k] = 4.0 * Draw(k, 20), all.t[k] = one.t[k] = Draw(k, 21);
  (void)Close(&all, 0, NB, g, 0.5 * dt, dt, 1e3);
  for (PetscInt i = 0; i < NB; i++) (void)Close(&one, i, 1, g, 0.5 * dt, dt, 1e3);
  ExpectSameBits(all.f, one.f, 3 * NB, "f");
  ExpectSameBits(all.v, one.v, 3 * NB, "v (second half)");
  ExpectSameBits(all.w, one.w, 3 * NB, "w (second half)");
}
END_TEST

/* IntegratorCloseOpen against IntegratorCloseStep then
 * IntegratorOpenStep: every array bitwise, the bits, the ranges, the
 * kinetic energy (and it against a plain sum) and the work; over every count (lane groups and tails), with and without
 * a frozen body and gravity in the second half, with a drift. */
START_TEST(test_close_open_fused)
{
  const PetscReal g[3] = {0.3, -0.1, -9.81}, dt = 1e-3, dt_next = 7e-4;
  for (PetscInt n = 0; n <= NB; n++)
    for (int variant = 0; variant < 4; variant++) {
      const PetscReal  *gc = variant & 1 ? g : NULL;
      IntegratorRebuild rb = {dt_next, 2e-3, {1e-4, -2e-4, 0.0}};
      Rows              two, one;
      PetscReal         lo2[3] = {PETSC_INFINITY, PETSC_INFINITY, PETSC_INFINITY},
                hi2[3] = {PETSC_NINFINITY, PETSC_NINFINITY, PETSC_NINFINITY}, lo1[3], hi1[3], work2, ke1 = 0.0,
                ke2 = 0.0, ke;
      PetscInt       bits2, bits1;
      IntegratorOpen op;
      RowsFill(&two, variant & 2 ? 6 : -1);
      /* displacements since the build */
      for (PetscInt k = 0; k < 3 * NB; k++) two.x[k] += 1e-3 * Draw(k, 30);
      one = two;
      memcpy(lo1, lo2, sizeof(lo1)), memcpy(hi1, hi2, sizeof(hi1));
      bits2 = CloseKinetic(&two, 0, n, gc, 0.5 * dt, &rb, lo2, hi2, &ke2);
      ke    = Kinetic(&two, n);
      ck_assert_msg(PetscAbsReal(ke2 - ke) <= 1e-13 * ke, "n %d variant %d: kinetic energy %.17g, summed here %.17g",
                    (int)n, variant, ke2, ke);
      work2 = Open(&two, 0, n, dt_next, g);
      op    = (IntegratorOpen){dt_next, g, one.vp, one.wp, one.gw, 0.0};
      bits1 = IntegratorCloseOpen(n, one.fl, one.m, one.in, gc, one.f, one.t, 0.5 * dt, one.x, one.x0, &rb, lo1, hi1,
                                  one.v, one.w, &op, &ke1);
      ck_assert_msg(memcmp(&ke1, &ke2, sizeof(ke1)) == 0, "n %d variant %d: fused kinetic energy %.17g vs %.17g",
                    (int)n, variant, ke1, ke2);
      ck_assert_msg(bits1 == bits2, "n %d variant %d: bits %d vs %d", (int)n, variant, (int)bits1, (int)bits2);
      ck_assert_msg(memcmp(&op.work, &work2, sizeof(work2)) == 0, "n %d variant %d: work %.17g vs %.17g", (int)n,
                    variant, op.work, work2);
      ExpectSameBits(lo1, lo2, 3, "lo");
      ExpectSameBits(hi1, hi2, 3, "hi");
      ExpectSameBits(one.x, two.x, 3 * NB, "x");
      ExpectSameBits(one.v, two.v, 3 * NB, "v");
      ExpectSameBits(one.w, two.w, 3 * NB, "w");
      ExpectSameBits(one.vp, two.vp, 3 * NB, "vp");
      ExpectSameBits(one.wp, two.wp, 3 * NB, "wp");
      ExpectSameBits(one.f, two.f, 3 * NB, "f");
      ExpectSameBits(one.t, two.t, 3 * NB, "t");
      ExpectSameBits(one.gw, two.gw, NB, "gw");
    }
}
END_TEST

START_TEST(test_frozen_and_gravity)
{
  const PetscReal g[3] = {0.0, 0.0, -9.81}, dt = 2e-3;
  Rows            b, ref;
  RowsFill(&b, 2);
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
  Rows            b;
  const PetscInt  steps = 1000;
  RowsFill(&b, -1);
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
 * bodies near and far from the threshold, with and without a drift, frozen
 * ones never counted but for the drift; the displacements' ranges alike from
 * both and equal to the direct ones */
START_TEST(test_rebuild_criterion)
{
  const PetscReal dt = 1e-3;
  for (PetscInt trial = 0; trial < 600; trial++) {
    Rows      b;
    PetscReal hs = 0.05 * (1.0 + RandomUniform(9, trial, 0, 0)), far = hs * (0.6 + 0.8 * RandomUniform(9, trial, 0, 1)),
              rel;
    PetscInt          who = (PetscInt)(NB * RandomUniform(9, trial, 0, 2)), frozen = trial % 3 ? -1 : who;
    IntegratorRebuild rb     = {dt, hs, {0.0, 0.0, 0.0}};
    PetscReal         llo[3] = {PETSC_INFINITY, PETSC_INFINITY, PETSC_INFINITY},
              lhi[3]         = {PETSC_NINFINITY, PETSC_NINFINITY, PETSC_NINFINITY}, slo[3], shi[3], dlo[3], dhi[3];
    PetscInt lanes, scalar;
    RowsFill(&b, frozen);
    for (PetscInt k = 0; k < 3 * NB; k++) b.v[k] *= 1e-3, b.f[k] *= 1e-3;
    b.x[3 * who] = b.x0[3 * who] + far;
    if (trial % 2) /* a drift a fraction of the way along the displaced body's */
      for (int a = 0; a < 3; a++)
        rb.c[a] = (a == 0 ? far : 0.0) * 0.3 * RandomUniform(9, trial, 0, 3 + a) +
                  (a ? 0.1 * hs * (RandomUniform(9, trial, 0, 6 + a) - 0.5) : 0.0);
    for (int a = 0; a < 3; a++) slo[a] = llo[a], shi[a] = lhi[a], dlo[a] = PETSC_INFINITY, dhi[a] = PETSC_NINFINITY;
    for (PetscInt i = 0; i < NB; i++)
      for (int a = 0; a < 3; a++) {
        PetscReal dx = b.x[3 * i + a] - b.x0[3 * i + a];
        dlo[a] = PetscMin(dlo[a], dx), dhi[a] = PetscMax(dhi[a], dx);
      }
    lanes  = CloseRanges(&b, 0, NB, NULL, 0.0, &rb, llo, lhi); /* h = 0: no kick, the state stays */
    scalar = MayPass(&b, &rb, slo, shi);
    ck_assert_msg(lanes == scalar, "trial %d: lanes %d, IntegratorMayPass %d", (int)trial, (int)lanes, (int)scalar);
    for (int a = 0; a < 3; a++)
      ck_assert_msg(llo[a] == dlo[a] && lhi[a] == dhi[a] && slo[a] == dlo[a] && shi[a] == dhi[a],
                    "trial %d axis %d: ranges [%g, %g] (lanes), [%g, %g] (scalar), [%g, %g] direct", (int)trial, a,
                    llo[a], lhi[a], slo[a], shi[a], dlo[a], dhi[a]);
    /* the others sit at their build positions, |c| from the drift, which stays small */
    rel = sqrt((far - rb.c[0]) * (far - rb.c[0]) + rb.c[1] * rb.c[1] + rb.c[2] * rb.c[2]);
    ck_assert(!(lanes & INTEGRATOR_BEYOND_SKIN)); /* far < 1.4 hs: within the whole skin */
    if (frozen == who || rel < 0.95 * hs)
      ck_assert_msg(!(lanes & INTEGRATOR_BEYOND_DRIFT), "trial %d: beyond the drift's bound at %g of hs", (int)trial,
                    rel / hs);
    if (frozen != who && rel > 1.05 * hs) ck_assert(lanes & INTEGRATOR_BEYOND_DRIFT);
    if (frozen == who || far < 0.95 * hs) ck_assert(!(lanes & INTEGRATOR_BEYOND_HALF));
    if (frozen != who && far > 1.05 * hs) ck_assert(lanes & INTEGRATOR_BEYOND_HALF);
  }
}
END_TEST

/* At the criterion's edge: a body whose displacement, speed and force terms
 * are equal (where the cheap bound, by Cauchy-Schwarz, is tight) with their
 * sum S a few parts in 1e9 from the half skin, in a lane: the lanes decide as
 * IntegratorMayPass does, and both sides of the edge occur. */
START_TEST(test_rebuild_edge)
{
  const PetscReal dt = 1e-3, q = 0.5 * dt * dt;
  PetscInt        beyond = 0, within = 0;
  for (PetscInt trial = 0; trial < 400; trial++) {
    Rows              b;
    PetscReal         hs     = 0.05 * (1.0 + RandomUniform(14, trial, 0, 0)), S, third;
    PetscInt          who    = (PetscInt)(8 * RandomUniform(14, trial, 0, 1)), lanes, scalar;
    IntegratorRebuild rb     = {dt, hs, {0.0, 0.0, 0.0}};
    PetscReal         llo[3] = {PETSC_INFINITY, PETSC_INFINITY, PETSC_INFINITY},
              lhi[3]         = {PETSC_NINFINITY, PETSC_NINFINITY, PETSC_NINFINITY}, slo[3], shi[3];
    RowsFill(&b, -1);
    for (PetscInt k = 0; k < 3 * NB; k++) b.v[k] *= 1e-6, b.f[k] *= 1e-6;
    S     = hs * (1.0 - 1e-9 + 4e-9 * (2.0 * RandomUniform(14, trial, 0, 2) - 1.0));
    third = S / 3.0;
    for (int a = 0; a < 3; a++) b.x[3 * who + a] = b.x0[3 * who + a], b.v[3 * who + a] = b.f[3 * who + a] = 0.0;
    b.x[3 * who] = b.x0[3 * who] + third;
    b.v[3 * who] = third / dt;
    b.f[3 * who] = third * b.m[who] / q;
    for (int a = 0; a < 3; a++) slo[a] = llo[a], shi[a] = lhi[a];
    lanes  = CloseRanges(&b, 0, NB, NULL, 0.0, &rb, llo, lhi);
    scalar = MayPass(&b, &rb, slo, shi);
    ck_assert_msg(lanes == scalar, "trial %d: lanes %d, IntegratorMayPass %d", (int)trial, (int)lanes, (int)scalar);
    if (lanes & INTEGRATOR_BEYOND_HALF) beyond++;
    else within++;
  }
  ck_assert_msg(beyond > 0 && within > 0, "the edge: %d beyond, %d within", (int)beyond, (int)within);
}
END_TEST

/* A bed moving as a whole needs no rebuild until it has moved the whole
 * skin (walls, migration), or its frozen bodies (left behind) half of it. */
START_TEST(test_rebuild_drift)
{
  const PetscReal dt = 1e-3, hs = 0.05;
  for (PetscInt trial = 0; trial < 60; trial++) {
    Rows      b;
    PetscReal D[3] = {RandomUniform(10, trial, 0, 0) - 0.5, RandomUniform(10, trial, 0, 1) - 0.5,
                      RandomUniform(10, trial, 0, 2) - 0.5},
              len, s = 3.0 * hs * RandomUniform(10, trial, 0, 3);
    PetscInt          frozen = trial % 3 == 2 ? (PetscInt)(NB * RandomUniform(10, trial, 0, 4)) : -1;
    IntegratorRebuild rb     = {dt, hs, {0.0, 0.0, 0.0}};
    PetscReal         lo[3]  = {PETSC_INFINITY, PETSC_INFINITY, PETSC_INFINITY},
              hi[3]          = {PETSC_NINFINITY, PETSC_NINFINITY, PETSC_NINFINITY}, lo2[3], hi2[3];
    PetscInt  lanes, scalar;
    PetscBool expect;
    RowsFill(&b, frozen);
    for (PetscInt k = 0; k < 3 * NB; k++) b.v[k] = b.f[k] = 0.0;
    len = sqrt(D[0] * D[0] + D[1] * D[1] + D[2] * D[2]);
    for (int a = 0; a < 3; a++) D[a] *= s / len;
    for (PetscInt i = 0; i < NB; i++)
      if (i != frozen)
        for (int a = 0; a < 3; a++) b.x[3 * i + a] = b.x0[3 * i + a] + D[a];
    /* the drift the engine takes, the ranges' midpoint, or (every other trial
     * with a frozen body) the bed's own, which leaves the frozen body |c| behind */
    (void)MayPass(&b, &rb, lo, hi);
    for (int a = 0; a < 3; a++)
      rb.c[a] = (frozen >= 0 && trial % 2 ? D[a] : 0.5 * (lo[a] + hi[a])) + 0.0, lo2[a] = PETSC_INFINITY,
      hi2[a] = PETSC_NINFINITY;
    {
      Rows      c8 = b;
      PetscBool lanes8;
      PetscReal behind = frozen >= 0 && trial % 2 ? s : 0.5 * s; /* the frozen body from the drift */
      lanes            = CloseRanges(&b, 0, NB, NULL, 0.0, &rb, lo2, hi2);
      scalar           = MayPass(&b, &rb, lo2, hi2);
      /* lanes alone, no scalar tail */
      lanes8 = Rebuild(CloseRanges(&c8, 0, 8, NULL, 0.0, &rb, lo2, hi2));
      /* beyond the whole skin; or beyond half of it, and the frozen body as far from the drift */
      expect = s > 2.0 * hs * 1.001 || (frozen >= 0 && frozen < 8 && behind > hs * 1.001 && s > hs * 1.001)
               ? PETSC_TRUE
               : PETSC_FALSE;
      ck_assert_msg(lanes == scalar, "trial %d: lanes %d, IntegratorMayPass %d", (int)trial, (int)lanes, (int)scalar);
      if (fabs(s - 2.0 * hs) > 0.002 * hs && fabs(behind - hs) > 0.002 * hs && fabs(s - hs) > 0.002 * hs)
        ck_assert_msg(lanes8 == expect, "trial %d: moved %g hs as a whole (frozen %d): rebuild %d, expected %d",
                      (int)trial, s / hs, (int)frozen, (int)lanes8, (int)expect);
    }
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
  tcase_add_test(tc, test_rebuild_edge);
  tcase_add_test(tc, test_rebuild_drift);
  tcase_add_test(tc, test_close_open_fused);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
