/* Several materials and pair coefficients: the two-material moduli against
 * their closed forms, Hertz's contact time with them (a sphere on a wall of
 * another material, on a rigid wall, on a sphere of another size and
 * density), each pair's own restitution and friction, and the keys' errors. */
#include <math.h>
#include "check_main.h"
#include "contact/contact_options.h"
#include "contact/impact.h"

static PetscErrorCode ModelFrom(const char *opts, ContactModel *model, StepControl *ctl)
{
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsClear(NULL));
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(ContactModelSetFromOptions(PETSC_COMM_SELF, model));
  if (ctl) PetscCall(StepControlSetFromOptions(PETSC_COMM_SELF, ctl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Hertz's elastic contact time of F = (4/3) E* sqrt(R*) d^1.5 at approach speed v:
 * 2 (m^2 / (R* E*^2 v))^(1/5) (15/16)^(2/5) int_0^1 (1 - x^(5/2))^(-1/2) dx. */
static PetscReal HertzTime(PetscReal m, PetscReal Rs, PetscReal Es, PetscReal v)
{
  const PetscReal In = 1.4716286656; /* int_0^1 (1 - x^2.5)^-0.5 dx */
  return 2.0 * In * pow(15.0 / 16.0, 0.4) * pow(m * m / (Rs * Es * Es * v), 0.2);
}

START_TEST(test_moduli)
{
  ContactModel md;
  PetscReal    E1 = 7e10, n1 = 0.33, E2 = 2e11, n2 = 0.29, G1 = E1 / (2 * (1 + n1)), G2 = E2 / (2 * (1 + n2));
  ck_assert(!ModelFrom("-material1_E 7e10 -material1_nu 0.33 -material2_E 2e11 -material2_nu 0.29 -material3_E inf "
                       "-material3_nu 0.2",
                       &md, NULL));
  ck_assert_rel(ContactCoeffOf(&md, 1, 2)->Estar, 1.0 / ((1 - n1 * n1) / E1 + (1 - n2 * n2) / E2), 1e-15);
  ck_assert_rel(ContactCoeffOf(&md, 2, 1)->Gstar, 1.0 / ((2 - n1) / G1 + (2 - n2) / G2), 1e-15);
  ck_assert_rel(ContactCoeffOf(&md, 1, 3)->Estar, E1 / (1 - n1 * n1), 1e-15); /* rigid */
  ck_assert_rel(ContactCoeffOf(&md, 1, 3)->Gstar, G1 / (2 - n1), 1e-15);
  /* one material twice: the single-material expressions, bit for bit; types without a material: the default */
  ck_assert(ContactCoeffOf(&md, 1, 1)->Estar == E1 / (2.0 * (1.0 - n1 * n1)));
  ck_assert(ContactCoeffOf(&md, 5, 40)->Estar == md.coeff[MATERIAL_TYPES][MATERIAL_TYPES].Estar);
  ck_assert(md.several && ContactMaterialOf(&md, 7)->E == md.material.E);
  ck_assert(!ContactModelDestroy(&md));
}
END_TEST

/* Elastic impacts (no damping): the contact time is Hertz's with the pair's E* and R*. */
START_TEST(test_hertz_two_materials)
{
  const char  *base = "-contact_damping none -contact_mu 0 -timestep_steps_per_contact 200 -material1_E 7e10 "
                      "-material1_nu 0.33 -material1_density 2700 "
                      "-material2_E 2e11 -material2_nu 0.29 -material2_density 7800 -material3_E inf";
  ContactModel md;
  StepControl  ctl;
  ImpactResult r;
  PetscReal    R = 5e-3, v = 0.5, m1 = 4.0 / 3.0 * HDEM_PI * R * R * R * 2700;
  struct {
    ImpactTarget target;
    PetscInt     t2;
    PetscReal    R2, rho2;
  } cs[] = {
    {IMPACT_TARGET_WALL, 2, 0, 0},      {IMPACT_TARGET_WALL, 3, 0, 0},         {IMPACT_TARGET_SPHERE, 2, 0, 0},
    {IMPACT_TARGET_SPHERE, 2, 2e-3, 0}, {IMPACT_TARGET_SPHERE, 2, 8e-3, 1000},
  };
  ck_assert(!ModelFrom(base, &md, &ctl));
  for (size_t c = 0; c < sizeof(cs) / sizeof(cs[0]); c++) {
    ImpactSetup set = {.target    = cs[c].target,
                       .v0        = v,
                       .radius    = R,
                       .phase     = 0.5,
                       .max_steps = 10000000,
                       .radius2   = cs[c].R2,
                       .density2  = cs[c].rho2,
                       .type      = 1,
                       .type2     = cs[c].t2};
    PetscReal   R2  = cs[c].R2 > 0 ? cs[c].R2 : R,
              m2    = 4.0 / 3.0 * HDEM_PI * R2 * R2 * R2 * (cs[c].rho2 > 0 ? cs[c].rho2 : 7800), m, Rs;
    ck_assert(!ImpactRun(&md, &ctl, &set, &r));
    m  = cs[c].target == IMPACT_TARGET_WALL ? m1 : m1 * m2 / (m1 + m2);
    Rs = cs[c].target == IMPACT_TARGET_WALL ? R : R * R2 / (R + R2);
    ck_assert_rel(r.m, m, 1e-14);
    ck_assert_rel(r.t_contact, HertzTime(m, Rs, ContactCoeffOf(&md, 1, cs[c].t2)->Estar, v), 2e-3);
    ck_assert_rel(r.e, 1.0, 1e-3);
  }
  ck_assert(!ContactModelDestroy(&md));
}
END_TEST

/* Each pair its restitution (harmonic damping: exact at any speed) and friction. */
START_TEST(test_pair_coefficients)
{
  ContactModel md;
  StepControl  ctl;
  ImpactResult r;
  ck_assert(!ModelFrom("-contact_e 0.8 -contact_mu 0.5 -material1_E 1e8 -material2_E 5e9 -material2_nu 0.25 "
                       "-pair_2_1_e 0.3 -pair_2_1_mu 0.1 -pair_1_1_e 0.6",
                       &md, &ctl));
  for (int s = 0; s < 3; s++) {
    const PetscReal speeds[] = {0.1, 1.0, 5.0};
    ImpactSetup     set      = {.target    = IMPACT_TARGET_WALL,
                                .v0        = speeds[s],
                                .radius    = 1e-3,
                                .phase     = 0.5,
                                .max_steps = 10000000,
                                .type      = 1,
                                .type2     = 2};
    ck_assert(!ImpactRun(&md, &ctl, &set, &r));
    ck_assert_rel(r.e, 0.3, 5e-3);
    set.type2 = 1; /* the same material: its own pair */
    ck_assert(!ImpactRun(&md, &ctl, &set, &r));
    ck_assert_rel(r.e, 0.6, 5e-3);
    set.target = IMPACT_TARGET_SPHERE, set.type2 = 2, set.radius2 = 2e-3, set.density2 = 500;
    ck_assert(!ImpactRun(&md, &ctl, &set, &r));
    ck_assert_rel(r.e, 0.3, 5e-3);
    /* no material: the defaults */
    set.target = IMPACT_TARGET_WALL, set.type = 4, set.type2 = 4, set.radius2 = set.density2 = 0;
    ck_assert(!ImpactRun(&md, &ctl, &set, &r));
    ck_assert_rel(r.e, 0.8, 5e-3);
  }
  /* sliding throughout at 80 deg (tan 80 > 3.5 mu (1 + e)): the centre's tangential speed drops by mu (1 + e) vn */
  for (int c = 0; c < 2; c++) {
    PetscReal   mu = c ? 0.5 : 0.1, e = c ? 0.6 : 0.3;
    ImpactSetup set = {.target    = IMPACT_TARGET_WALL,
                       .v0        = 1.0,
                       .angle     = 80.0,
                       .radius    = 1e-3,
                       .phase     = 0.5,
                       .max_steps = 10000000,
                       .type      = 1,
                       .type2     = c ? 1 : 2};
    ck_assert(!ImpactRun(&md, &ctl, &set, &r));
    ck_assert_rel(r.vt_in - r.vt_out, mu * (1.0 + e) * r.vn_in, 1e-2);
  }
  ck_assert(!ContactModelDestroy(&md));
}
END_TEST

START_TEST(test_bad_keys)
{
  ContactModel   md;
  PetscErrorCode ierr;
  const char    *bad[] = {"-material1_E 1e9 -pair_1_3_e 0.5", /* type 3 has no material */
                          /* one pair twice */
                          "-material1_E 1e9 -material2_E 1e9 -pair_1_2_e 0.5 -pair_2_1_mu 0.2",
                          "-material1_E 1e9 -pair_1_1_kt 1e4", /* kt with Mindlin */
                          "-material1_E -5",                   /* out of range */
                          "-material2_nu 0.7"};
  ck_assert(!PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  for (size_t c = 0; c < sizeof(bad) / sizeof(bad[0]); c++) {
    ierr = ModelFrom(bad[c], &md, NULL);
    ck_assert_msg(ierr != 0, "accepted: %s", bad[c]);
  }
  ck_assert(!PetscPopErrorHandler());
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("materials");
  TCase *tc = tcase_create("materials");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_moduli);
  tcase_add_test(tc, test_hertz_two_materials);
  tcase_add_test(tc, test_pair_coefficients);
  tcase_add_test(tc, test_bad_keys);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
