/* The tangential models in oblique elastic impacts of a sphere on a rigid
 * plane (alumina on a rigid wall, as Chung & Ooi's tests 4-6: E 380 GPa,
 * nu 0.23, mu 0.092, no normal damping): the incremental spring never
 * returns more energy than came in (the shear-displacement spring with the
 * Mindlin stiffness does, in the micro-slip range); in gross sliding both
 * give the closed form psi2 = psi1 - 3.5 (1 + e); with a constant stiffness
 * the two are the same spring; a sphere spinning fast slides throughout and
 * leaves with the closed form's speed and spin; the Mindlin-Deresiewicz
 * spring against its closed forms.  Chung & Ooi's benchmarks:
 * test_chung_ooi.c. */
#include <math.h>
#include "check_main.h"
#include "contact/contact_options.h"
#include "contact/impact.h"
#include "contact/tangential_md.h"

#define ALUMINA \
  "-material1_E 3.8e11 -material1_nu 0.23 -material1_density 4000 -material2_E inf -contact_damping none -contact_mu " \
  "0.092 " \
  "-timestep_steps_per_contact 400 "

/* psi1 = vt / (mu vn) at vn = 5 m/s: the rebound's psi2 = v_ct,out / (mu vn) and its energy gain (KE_out / KE_in - 1).
 */
static void Oblique(const char *opts, PetscReal psi1, PetscReal *psi2, PetscReal *gain)
{
  ContactModel md;
  StepControl  ctl;
  ImpactResult r;
  PetscReal    mu = 0.092, vn = 5.0, vt = psi1 * mu * vn, R = 2.5e-3, m = 4.0 / 3.0 * HDEM_PI * R * R * R * 4000.0,
            I0    = 0.4 * m * R * R;
  ImpactSetup set = {.target    = IMPACT_TARGET_WALL,
                     .v0        = sqrt(vn * vn + vt * vt),
                     .angle     = atan2(vt, vn) * 180.0 / HDEM_PI,
                     .radius    = R,
                     .phase     = 0.5,
                     .max_steps = 10000000,
                     .type      = 1,
                     .type2     = 2};
  ck_assert(!PetscOptionsClear(NULL));
  ck_assert(!PetscOptionsInsertString(NULL, opts));
  ck_assert(!ContactModelSetFromOptions(PETSC_COMM_SELF, &md));
  ck_assert(!StepControlSetFromOptions(PETSC_COMM_SELF, &ctl));
  ck_assert(!ImpactRun(&md, &ctl, &set, &r));
  *psi2 = -r.et * psi1;
  *gain = (0.5 * m * (r.vn_out * r.vn_out + r.vt_out * r.vt_out) + 0.5 * I0 * r.omega_out * r.omega_out) /
            (0.5 * m * set.v0 * set.v0) -
          1.0;
  ck_assert(!ContactModelDestroy(&md));
}

START_TEST(test_incremental_no_energy_gain)
{
  PetscReal most = -1.0, sd_most = -1.0;
  for (int k = 1; k <= 12; k++) {
    PetscReal psi1 = 0.15 * k, psi2, gain;
    Oblique(ALUMINA "-contact_tangential_model incremental", psi1, &psi2, &gain);
    most = PetscMax(most, gain);
    Oblique(ALUMINA "-contact_tangential_model shear_displacement", psi1, &psi2, &gain);
    sd_most = PetscMax(sd_most, gain);
  }
  ck_assert_msg(most <= 1e-9, "the incremental spring returned %g more energy than came in", (double)most);
  ck_assert_msg(sd_most > 1e-5,
                "the shear-displacement spring gained at most %g: the check does not tell the models apart",
                (double)sd_most);
}
END_TEST

START_TEST(test_gross_sliding)
{
  for (int m = 0; m < 2; m++) {
    PetscReal psi2, gain;
    Oblique(m ? ALUMINA "-contact_tangential_model incremental" : ALUMINA, 10.0, &psi2, &gain);
    ck_assert_msg(fabs(psi2 - (10.0 - 7.0)) < 2e-3, "model %d: psi2 %.6f, sliding throughout gives 3", m, (double)psi2);
  }
}
END_TEST

START_TEST(test_constant_stiffness_same)
{
  for (int k = 1; k <= 4; k++) {
    PetscReal a2, b2, ga, gb;
    Oblique(ALUMINA "-contact_tangential_stiffness constant -contact_kt 2e6", 0.4 * k, &a2, &ga);
    Oblique(ALUMINA "-contact_tangential_stiffness constant -contact_kt 2e6 -contact_tangential_model incremental",
            0.4 * k, &b2, &gb);
    ck_assert_msg(fabs(a2 - b2) <= 1e-9 * fabs(a2) + 1e-12,
                  "psi1 %g: psi2 %.15g (displacement) and %.15g (incremental)", 0.4 * k, (double)a2, (double)b2);
  }
}
END_TEST

/* A spinning sphere dropped normally (Chung & Ooi's test 6, spin fast enough
 * to slide throughout): it leaves with vt = mu (1 + e) vn along the slip's
 * friction and its spin less (5/2) mu (1 + e) vn / R, whatever the model. */
START_TEST(test_spinning_sphere)
{
  for (int m = 0; m < 2; m++) {
    ContactModel md;
    StepControl  ctl;
    ImpactResult r;
    PetscReal    R = 2.5e-3, vn = 5.0, w0 = 4000.0, mu = 0.092, J = mu * 2.0 * vn;
    ImpactSetup  set = {.target    = IMPACT_TARGET_WALL,
                        .v0        = vn,
                        .radius    = R,
                        .phase     = 0.5,
                        .max_steps = 10000000,
                        .type      = 1,
                        .type2     = 2,
                        .omega     = {0, w0, 0}};
    ck_assert(!PetscOptionsClear(NULL));
    ck_assert(!PetscOptionsInsertString(NULL, m ? ALUMINA "-contact_tangential_model incremental" : ALUMINA));
    ck_assert(!ContactModelSetFromOptions(PETSC_COMM_SELF, &md));
    ck_assert(!StepControlSetFromOptions(PETSC_COMM_SELF, &ctl));
    ck_assert(!ImpactRun(&md, &ctl, &set, &r));
    ck_assert_rel(fabs(r.vt_out), J, 2e-3);
    ck_assert_rel(fabs(r.omega_out), w0 - 2.5 * J / R, 2e-3);
    ck_assert_rel(-r.vn_out, vn, 1e-3);
    ck_assert(!ContactModelDestroy(&md));
  }
}
END_TEST

/* Mindlin & Deresiewicz at constant normal force, the spring driven alone
 * through loading to 0.8 of the full-slip displacement ds = 3 mu N / (2 kt0),
 * unloading past the symmetric point and reloading: against the closed
 * forms T = mu N (1 - (1 - 2 kt0 d / (3 mu N))^(3/2)) (loading) and
 * T = T* -/+ 2 mu N (1 - (1 - kt0 s / (3 mu N))^(3/2)) (unloading,
 * reloading, s from the turning point); past -T* the virgin curve again. */
static PetscReal MDVirgin(PetscReal kt0, PetscReal muN, PetscReal d)
{
  PetscReal x = 1.0 - 2.0 * kt0 * fabs(d) / (3.0 * muN);
  return copysign(muN * (1.0 - pow(x > 0 ? x : 0, 1.5)), d);
}

static PetscReal MDBranch(PetscReal kt0, PetscReal muN, PetscReal Tturn, PetscReal s)
{
  PetscReal x = 1.0 - kt0 * fabs(s) / (3.0 * muN);
  return Tturn + copysign(2.0 * muN * (1.0 - pow(x > 0 ? x : 0, 1.5)), s);
}

/* the spring moved from d0 to d1 in n steps along x; the largest error against f(d) relative to mu N */
static PetscReal MDDrive(ContactTurning *tn, PetscReal T[3], PetscReal kt0, PetscReal muN, PetscReal d0, PetscReal d1,
                         PetscInt n, PetscReal (*f)(PetscReal, void *), void *ctx)
{
  const PetscReal nrm[3] = {0, 0, 1}, zero[3] = {0, 0, 0};
  PetscReal       err = 0.0, Ft[3];
  for (PetscInt k = 1; k <= n; k++) {
    PetscReal vt[3] = {(d1 - d0) / n, 0, 0}, d = d0 + (d1 - d0) * k / n;
    ContactTangentialMD(tn, T, nrm, vt, zero, 1.0, kt0, 0.0, 1.0, muN, Ft);
    ck_assert_msg(fabs(Ft[0] - T[0]) < 1e-12 * muN && Ft[1] == 0.0 && Ft[2] == 0.0,
                  "undamped: the force is the spring");
    if (f) err = PetscMax(err, fabs(-T[0] - f(d, ctx)) / muN);
  }
  return err;
}

typedef struct {
  PetscReal kt0, muN, Tturn, dturn;
} MDCtx;

static PetscReal FVirgin(PetscReal d, void *c)
{
  MDCtx *m = (MDCtx *)c;
  return MDVirgin(m->kt0, m->muN, d);
}
static PetscReal FBranch(PetscReal d, void *c)
{
  MDCtx *m = (MDCtx *)c;
  return MDBranch(m->kt0, m->muN, m->Tturn, d - m->dturn);
}

START_TEST(test_md_closed_forms)
{
  ContactTurning tn;
  PetscReal      T[3] = {0, 0, 0}, kt0 = 2e6, muN = 3.0, ds = 3.0 * muN / (2.0 * kt0), Ts, e;
  MDCtx          c = {kt0, muN, 0, 0};
  const PetscInt n = 20000;
  PetscCallAbort(PETSC_COMM_SELF, PetscMemzero(&tn, sizeof(tn)));
  /* the spring force -T opposes the displacement; the curves give -T */
  e = MDDrive(&tn, T, kt0, muN, 0.0, 0.8 * ds, n, FVirgin, &c);
  ck_assert_msg(e < 1e-3, "loading: %g of mu N off the closed form", e);
  Ts      = -T[0];
  c.Tturn = Ts, c.dturn = 0.8 * ds;
  e = MDDrive(&tn, T, kt0, muN, 0.8 * ds, -0.8 * ds, 2 * n, FBranch, &c);
  ck_assert_msg(e < 1e-3, "unloading: %g of mu N off the closed form", e);
  ck_assert_msg(fabs(-T[0] + Ts) < 2e-3 * muN, "unloading to -d* reaches -T* (Masing): %g against %g", -T[0], -Ts);
  /* on past -T*: the loop is closed, the virgin curve beyond */
  e = MDDrive(&tn, T, kt0, muN, -0.8 * ds, -0.95 * ds, n, FVirgin, &c);
  ck_assert_msg(e < 2e-3, "past the loop: %g of mu N off the virgin curve", e);
  /* a loop from there, and a branch inside it from 0.4 ds */
  c.Tturn = -T[0], c.dturn = -0.95 * ds;
  e = MDDrive(&tn, T, kt0, muN, -0.95 * ds, 0.4 * ds, n, FBranch, &c);
  ck_assert_msg(e < 1e-3, "reloading: %g of mu N off the closed form", e);
  c.Tturn = -T[0], c.dturn = 0.4 * ds;
  e = MDDrive(&tn, T, kt0, muN, 0.4 * ds, -0.5 * ds, n, FBranch, &c);
  ck_assert_msg(e < 1e-3, "a branch inside the loop: %g of mu N off the closed form", e);
  /* full slip holds mu N */
  (void)MDDrive(&tn, T, kt0, muN, -0.5 * ds, -3.0 * ds, n, NULL, NULL);
  ck_assert_msg(fabs(T[0] - muN) < 1e-12 * muN, "sliding: %g against mu N %g", T[0], muN);
}
END_TEST

START_TEST(test_md_growing_normal_force)
{
  /* while mu N grows faster than the elastic increments, theta = 1: the
   * no-slip stiffness; and a turning point grows with mu N */
  ContactTurning  tn;
  const PetscReal nrm[3] = {0, 0, 1}, zero[3] = {0, 0, 0}, kt0 = 2e6, dd = 1e-9;
  PetscReal       T[3] = {0, 0, 0}, Ft[3];
  PetscCallAbort(PETSC_COMM_SELF, PetscMemzero(&tn, sizeof(tn)));
  for (int k = 1; k <= 1000; k++) {
    PetscReal vt[3] = {dd, 0, 0};
    ContactTangentialMD(&tn, T, nrm, vt, zero, 1.0, kt0, 0.0, 1.0, 0.01 * k, Ft);
  }
  ck_assert_rel(-T[0], kt0 * dd * 1000, 1e-12);
  { /* reverse: T* is the force there, then moves with mu N */
    PetscReal vt[3] = {-dd, 0, 0}, Tstar = T[0];
    ContactTangentialMD(&tn, T, nrm, vt, zero, 1.0, kt0, 0.0, 1.0, 10.0 + 0.5, Ft);
    ck_assert_rel(tn.ts[0], Tstar * (1.0 + 0.5 / fabs(Tstar)), 1e-12);
    ck_assert(tn.phase < 0);
  }
}
END_TEST

START_TEST(test_md_rising_normal_force_adds)
{
  /* a rising normal force adds mu dN (1 - theta) along the displacement on
   * every branch: the spring's force moves further than at constant N, on
   * loading and on unloading alike (micro-slip steps: mu dN < kt0 |dd|) */
  const PetscReal nrm[3] = {0, 0, 1}, zero[3] = {0, 0, 0}, kt0 = 2e6, muN0 = 3.0, dd = 1e-8;
  PetscReal       change[2][2];
  for (int rise = 0; rise < 2; rise++) {
    ContactTurning tn;
    PetscReal      T[3] = {0, 0, 0}, Ft[3], muN = muN0, S0;
    PetscCallAbort(PETSC_COMM_SELF, PetscMemzero(&tn, sizeof(tn)));
    tn.mun = muN0;
    for (int k = 0; k < 100; k++) { /* loading */
      PetscReal vt[3] = {dd, 0, 0};
      if (rise) muN += 1e-3;
      ContactTangentialMD(&tn, T, nrm, vt, zero, 1.0, kt0, 0.0, 1.0, muN, Ft);
    }
    change[0][rise] = -T[0];
    S0              = -T[0];
    for (int k = 0; k < 50; k++) { /* unloading */
      PetscReal vt[3] = {-dd, 0, 0};
      if (rise) muN += 1e-3;
      ContactTangentialMD(&tn, T, nrm, vt, zero, 1.0, kt0, 0.0, 1.0, muN, Ft);
    }
    ck_assert(tn.phase < 0);
    change[1][rise] = -T[0] - S0;
  }
  ck_assert_msg(change[0][1] > change[0][0], "loading: %g with N rising, %g at constant N", change[0][1], change[0][0]);
  ck_assert_msg(change[1][1] < change[1][0], "unloading: %g with N rising, %g at constant N", change[1][1],
                change[1][0]);
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("tangential");
  TCase *tc = tcase_create("tangential");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_incremental_no_energy_gain);
  tcase_add_test(tc, test_gross_sliding);
  tcase_add_test(tc, test_constant_stiffness_same);
  tcase_add_test(tc, test_spinning_sphere);
  tcase_add_test(tc, test_md_closed_forms);
  tcase_add_test(tc, test_md_growing_normal_force);
  tcase_add_test(tc, test_md_rising_normal_force_adds);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
