/* Rolling resistance against its closed forms: a sphere rolling on a plane
 * under gravity stops after 7 v0^2 / (10 mu_r g) (epsd and constant); on an
 * incline it stays when tan(alpha) < mu_r and rolls down at
 * (5/7) g (sin(alpha) - mu_r cos(alpha)) when steeper; the epsd torque never
 * exceeds mu_r R* Fn and reaches it while rolling.  A velocity Verlet loop
 * around ContactEvaluate, as the engine steps a particle against a wall. */
#include <math.h>
#include "check_main.h"
#include "contact/contact_options.h"

typedef struct {
  PetscReal x[3], v[3], w[3], f[3], t[3];
} Ball;

typedef struct {
  PetscReal stop_x;   /* x where vx first fell to zero (or the last x) */
  PetscReal x, vx;    /* at the end */
  PetscReal cap_max;  /* largest |spring torque| / (mu_r R* Fn) */
  PetscReal cap_roll; /* that ratio half-way through the rolling */
} RollResult;

static PetscErrorCode RollRun(const char *opts, PetscReal alpha_deg, PetscReal v0, PetscReal tend, RollResult *res)
{
  ContactModel   model;
  ContactPair    cp;
  ContactHistory h;
  ContactRolling rl;
  Ball           b;
  PetscReal      R = 1e-3, rho = 2500.0, gmag = 9.81, al = alpha_deg * HDEM_PI / 180.0, g[3], m, Iner, dt = 2e-6, d0,
            t       = 0.0, mur;
  PetscBool stopped = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsClear(NULL));
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(ContactModelSetFromOptions(PETSC_COMM_SELF, &model));
  m = 4.0 / 3.0 * HDEM_PI * R * R * R * rho, Iner = 0.4 * m * R * R;
  ContactPairSetUp(&model, 1, 1, R, m, Iner, 0, 0, 0, PETSC_TRUE, &cp);
  mur  = cp.co->rolling.mu;
  g[0] = gmag * sin(al), g[1] = 0.0, g[2] = -gmag * cos(al);
  /* at rest on the plane z = 0: the overlap that carries the weight */
  d0 = pow(m * gmag * cos(al) / cp.s / model.law.k[0], 1.0 / 1.5);
  PetscCall(PetscMemzero(&b, sizeof(b)));
  PetscCall(PetscMemzero(&h, sizeof(h)));
  PetscCall(PetscMemzero(&rl, sizeof(rl)));
  PetscCall(PetscMemzero(res, sizeof(*res)));
  b.x[2] = R - d0, b.v[0] = v0, b.w[1] = v0 / R; /* rolling: the contact point at rest */
  h.touched = 1;                                 /* resting from the start: no first-touch weighting */
  /* rolling already: the spring at its cap (from zero, the dashpot of a fast
   * roll with an unloaded spring would brake far more than the cap) */
  if (v0 > 0.0) rl.mr[1] = -mur * cp.Rstar * m * gmag * cos(al);
  for (int a = 0; a < 3; a++) b.f[a] = m * g[a];
  b.f[2] += m * gmag * cos(al);
  while (t < tend) {
    ContactKinematics k;
    ContactResult     cr;
    for (int a = 0; a < 3; a++) b.v[a] += 0.5 * dt * b.f[a] / m, b.w[a] += 0.5 * dt * b.t[a] / Iner;
    for (int a = 0; a < 3; a++) b.x[a] += dt * b.v[a];
    t += dt;
    PetscCall(PetscMemzero(&k, sizeof(k)));
    k.n[2] = 1.0, k.d = R - b.x[2];
    for (int a = 0; a < 3; a++) {
      k.v[a] = b.v[a], k.wi[a] = b.w[a];
      k.vp[a] = b.v[a] + 0.5 * dt * b.f[a] / m, k.wip[a] = b.w[a] + 0.5 * dt * b.t[a] / Iner;
    }
    PetscCheck(k.d > 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the sphere left the plane at t = %g", (double)t);
    ContactEvaluate(&model, &cp, &h, &rl, NULL, &k, dt, &cr);
    for (int a = 0; a < 3; a++) b.f[a] = cr.F[a] + m * g[a], b.t[a] = cr.Ti[a];
    for (int a = 0; a < 3; a++) b.v[a] += 0.5 * dt * b.f[a] / m, b.w[a] += 0.5 * dt * b.t[a] / Iner;
    if (mur > 0.0 && cr.Fn > 0.0) {
      PetscReal ratio = sqrt(rl.mr[0] * rl.mr[0] + rl.mr[1] * rl.mr[1] + rl.mr[2] * rl.mr[2]) /
                        (mur * cp.Rstar * cr.Fn);
      res->cap_max = PetscMax(res->cap_max, ratio);
      if (!stopped && v0 > 0.0 && b.v[0] < 0.5 * v0 && res->cap_roll == 0.0) res->cap_roll = ratio;
    }
    if (!stopped && v0 > 0.0 && b.v[0] <= 0.0) stopped = PETSC_TRUE, res->stop_x = b.x[0];
  }
  if (!stopped) res->stop_x = b.x[0];
  res->x = b.x[0], res->vx = b.v[0];
  PetscCall(ContactModelDestroy(&model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define BASE "-material_E 1e7 -material_nu 0.3 -contact_e 0.5 -contact_mu 0.5 "

START_TEST(test_rolling_stops)
{
  const char *cases[] = {BASE "-contact_mu_roll 0.1", BASE "-contact_mu_roll 0.1 -contact_rolling constant",
                         BASE "-contact_mu_roll 0.25 -contact_roll_damping 0.5"};
  PetscReal   mus[]   = {0.1, 0.1, 0.25};
  for (int c = 0; c < 3; c++) {
    RollResult r;
    PetscReal  v0 = 0.05, s = 7.0 * v0 * v0 / (10.0 * mus[c] * 9.81);
    ck_assert(!RollRun(cases[c], 0.0, v0, 1.3 * v0 / (5.0 / 7.0 * mus[c] * 9.81), &r));
    ck_assert_rel(r.stop_x, s, 0.02);
    if (c != 1) {
      ck_assert_msg(r.cap_max <= 1.0 + 1e-12, "case %d: the torque exceeds mu_r R* Fn by %g", c,
                    (double)(r.cap_max - 1.0));
      ck_assert_rel(r.cap_roll, 1.0, 1e-9); /* fully mobilised while it rolls */
    }
  }
}
END_TEST

START_TEST(test_rolling_incline)
{
  RollResult r;
  PetscReal  mu = 0.1, T = 0.1;
  /* tan(alpha) = 0.06 < mu_r: it stays, after the spring's elastic give (a rotation of M / k_r, a hundredth of R at
   * most here) */
  ck_assert(!RollRun(BASE "-contact_mu_roll 0.1", atan(0.06) * 180.0 / HDEM_PI, 0.0, T, &r));
  ck_assert_msg(fabs(r.x) < 1e-5 && fabs(r.vx) < 1e-8, "on tan(alpha) = 0.06 it moved %g m, speed %g m/s", (double)r.x,
                (double)r.vx);
  {
    PetscReal x1 = r.x;
    ck_assert(!RollRun(BASE "-contact_mu_roll 0.1", atan(0.06) * 180.0 / HDEM_PI, 0.0, 2.0 * T, &r));
    ck_assert_msg(fabs(r.x - x1) < 1e-9, "on tan(alpha) = 0.06 it crept on: %g m, then %g m", (double)x1, (double)r.x);
  }
  /* tan(alpha) = 0.3 > mu_r: rolls down at (5/7) g (sin - mu_r cos) */
  {
    PetscReal al = atan(0.3), a = 5.0 / 7.0 * 9.81 * (sin(al) - mu * cos(al));
    ck_assert(!RollRun(BASE "-contact_mu_roll 0.1", al * 180.0 / HDEM_PI, 0.0, T, &r));
    ck_assert_rel(r.x, 0.5 * a * T * T, 0.02);
  }
  /* no rolling resistance: (5/7) g sin */
  {
    PetscReal al = atan(0.06), a = 5.0 / 7.0 * 9.81 * sin(al);
    ck_assert(!RollRun(BASE, al * 180.0 / HDEM_PI, 0.0, T, &r));
    ck_assert_rel(r.x, 0.5 * a * T * T, 0.02);
  }
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("rolling");
  TCase *tc = tcase_create("rolling");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_rolling_stops);
  tcase_add_test(tc, test_rolling_incline);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
