/* The contact lanes (ContactBatchEvaluate) give, contact by contact, the bits
 * of the scalar ContactEvaluate: forces, torques and the updated history,
 * over sticking, slipping and unstretched springs, clipped and unclipped
 * normal forces, Mindlin and constant stiffness, with and without tangential
 * damping and friction, in full and partial lane groups, and the step
 * bound's inputs (overlap rate, elastic energy); and pairs found apart are
 * reported and left untouched. */
#include "check_main.h"
#include "contact/contact_options.h"
#include "contact/contact_batch.h"
#include "contact/kernel_scalar.h"
#include "contact/cube_root.h"
#include <string.h>

#define NPAIR 123 /* at most CONTACT_BATCH, not a multiple of the lanes: a padded last group */

static PetscReal Uniform(unsigned *s, PetscReal lo, PetscReal hi)
{
  *s = *s * 1103515245u + 12345u;
  return lo + (hi - lo) * (PetscReal)((*s >> 8) & 0xffffff) / (PetscReal)0x1000000;
}

/* Pair b is particles 2b (i) and 2b + 1 (j), equal spheres, touching since an
 * earlier step (or, one in nine, already apart). */
/* pairs 32..63 whole lane groups of the second kind, every fifth elsewhere */
static int Kind(PetscInt b)
{
  return (b >= 32 && b < 64) || b % 5 == 3 ? 1 : 0;
}

/* The batch's pairs: random directions and overlaps (some apart), springs
 * none, sticking or slipping (64..95: whole lane groups sticking), one of
 * two kinds each; href keeps the histories as given.  scale: from the
 * spring's displacement [m] to its history's unit (the incremental
 * spring's is a force). */
static void FillPairs(ContactBatch *bt, const ContactBatchConst bc[2], PetscReal rs, PetscReal scale,
                      ContactHistory h[], ContactHistory href[], unsigned *seedp)
{
  unsigned seed = *seedp;
  for (PetscInt b = 0; b < NPAIR; b++) {
    PetscReal dir[3] = {Uniform(&seed, -1, 1), Uniform(&seed, -1, 1), Uniform(&seed, -1, 1)}, nd,
              d      = b % 9 == 4 ? -1e-6 : Uniform(&seed, 0.0, 2e-5),
              /* pairs 64..95: whole lane groups sticking */
      xs = (b >= 64 && b < 96) ? 1e-9 : (b % 3 == 0 ? 1e-7 : (b % 3 == 1 ? 1e-9 : 1e-1));
    nd   = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    PetscCallVoid(PetscMemzero(&h[b], sizeof(h[b])));
    h[b].touched = 1;
    h[b].v_imp   = b % 4 == 1 ? 0.0 : Uniform(&seed, 0.01, 1.0); /* 0: the speed-scaled laws' floor */
    for (int a = 0; a < 3; a++) {
      bt->r[a][b] = dir[a] / nd * (rs - d);
      h[b].xi[a]  = b % 7 == 0 ? 0.0 : scale * Uniform(&seed, -xs, xs); /* none, sticking, slipping */
    }
    bt->k[b] = b, bt->i[b] = 2 * b, bt->j[b] = 2 * b + 1, bt->slot[b] = b, bt->out[b] = b;
    bt->rs[b] = rs, bt->c[b] = &bc[Kind(b)];
    bt->n++;
    href[b] = h[b];
  }
  *seedp = seed;
}

/* The scalar instantiation's normal part (the fused first touches') against
 * NormalLawEval and DampingCoefficient, bit for bit, at the pair's overlap
 * and impact speed. */
static void CheckScalarNormal(const ContactModel *model, const ContactPair *cp, const ContactBatchConst *bc,
                              PetscReal d, PetscReal v_imp, const char *opts)
{
  const ContactNormalModel nm = ContactNormalModelOf(model);
  ContactScalarNormalConst nc = {bc->s, bc->m, bc->zs, bc->cF, bc->ca, bc->cb, bc->cc, {bc->dmp}};
  PetscReal                sd, qd, Fel, C, U, dF, Ur, Fr, dFr, Cr;

  ContactScalarNormal(&nm, &nc, d, v_imp, PETSC_TRUE, &sd, &qd, &Fel, &C, &U, &dF);
  NormalLawEval(&model->law, cp->s, d, &Ur, &Fr, &dFr);
  Cr = DampingCoefficient(&cp->co->damping, &model->law, cp->s, cp->m, v_imp, d);
  ck_assert_msg(!memcmp(&Fel, &Fr, sizeof(Fr)) && !memcmp(&U, &Ur, sizeof(Ur)) && !memcmp(&C, &Cr, sizeof(Cr)) &&
                  !memcmp(&dF, &dFr, sizeof(dFr)),
                "scalar Normal at d %g: F %.17g U %.17g C %.17g dF %.17g, generic %.17g %.17g %.17g %.17g (%s)", d, Fel,
                U, C, dF, Fr, Ur, Cr, dFr, opts);
}

/* One model's batch: the pairs, their histories and side states as the
 * lanes leave them and as given (ref, for the scalar path), the particles'
 * velocities and the lanes' results. */
typedef struct {
  const char       *opts;
  ContactModel      model;
  ContactBatchModel bm;
  ContactPair       cps[2];
  ContactBatchConst bc[2];
  ContactBatch      bt;
  ContactHistory    h[NPAIR], href[NPAIR];
  ContactTurning    tn[NPAIR], tnref[NPAIR], *turn;
  ContactRolling    rl[NPAIR], rlref[NPAIR], *roll;
  PetscReal         v[6 * NPAIR + 1], vp[6 * NPAIR + 1], w[6 * NPAIR + 1], wp[6 * NPAIR + 1];
  PetscReal         res[CONTACT_RESULTS * NPAIR], rs, dt;
  PetscReal         cd[2 * NPAIR], *damp; /* the calibrated damper's (v_imp, C) per slot, under that damper */
} Case;

/* Two kinds of pair (spheres of radius R, mass m, inertia in and a smaller
 * one): lane groups of one kind (the constants broadcast) and mixed ones
 * (gathered); the lanes' constants as the engine memoises them. */
static void PairKinds(Case *c, PetscReal R, PetscReal m, PetscReal in)
{
  ContactPairSetUp(&c->model, 1, 1, R, m, in, R, m, in, PETSC_FALSE, &c->cps[0]);
  ContactPairSetUp(&c->model, 1, 2, R, m, in, 0.8 * R, 0.6 * m, 0.4 * 0.6 * m * 0.64 * R * R, PETSC_FALSE, &c->cps[1]);
  for (int q = 0; q < 2; q++) ContactBatchConstOf(&c->model, &c->cps[q], &c->bc[q]);
  c->bm = ContactBatchModelOf(&c->model, PETSC_TRUE);
}

/* The side states the model keeps: turning points anywhere on the
 * branches (loading, unloading, reloading, in a loop or not); rolling
 * springs none, below and at their cap. */
static void SideStates(Case *c, unsigned *seed)
{
  c->turn = c->bm.turning ? c->tn : NULL;
  c->roll = c->bm.rolling ? c->rl : NULL;
  for (PetscInt b = 0; b < NPAIR; b++) {
    for (int a = 0; a < 3; a++) {
      c->tn[b].ts[a] = Uniform(seed, -1e-3, 1e-3), c->tn[b].tss[a] = Uniform(seed, -1e-3, 1e-3);
      c->tn[b].dlast[a] = Uniform(seed, -1e-9, 1e-9);
      c->rl[b].mr[a]    = b % 3 == 0 ? 0.0 : Uniform(seed, -1e-6, 1e-6) * (b % 3 == 2 ? 1e3 : 1.0);
    }
    c->tn[b].mun = Uniform(seed, 0.0, 2e-3), c->tn[b].phase = (PetscReal)(b % 5) - 2.0;
    c->tnref[b] = c->tn[b], c->rlref[b] = c->rl[b];
  }
}

/* Pair b's kinematics (particles 2b and 2b + 1, centres len apart) as the scalar path reads them. */
static void PairKinematics(const Case *c, PetscInt b, PetscReal len, ContactKinematics *kin)
{
  PetscInt  i = 2 * b, j = 2 * b + 1;
  PetscReal r[3] = {c->bt.r[0][b], c->bt.r[1][b], c->bt.r[2][b]};

  ContactNormal(r, len, kin->n);
  for (int a = 0; a < 3; a++) {
    kin->v[a]  = c->v[3 * i + a] - c->v[3 * j + a];
    kin->vp[a] = c->vp[3 * i + a] - c->vp[3 * j + a];
    kin->wi[a] = c->w[3 * i + a], kin->wj[a] = c->w[3 * j + a];
    kin->wip[a] = c->wp[3 * i + a], kin->wjp[a] = c->wp[3 * j + a];
  }
}

/* Touching pair b: the lanes' results, history and side states against ContactEvaluate's (cr). */
static void CheckTouching(const Case *c, PetscInt b, const ContactResult *cr)
{
  const PetscReal *res  = c->res + CONTACT_RESULTS * b;
  const char      *opts = c->opts;

  ck_assert_msg(!c->roll || !memcmp(&c->rl[b], &c->rlref[b], sizeof(c->rl[b])), "pair %d: rolling springs differ (%s)",
                (int)b, opts);
  /* the rolling power, the generic path's P[2] */
  ck_assert_msg(!c->roll || !memcmp(&c->bt.P2[b], &cr->P[2], sizeof(cr->P[2])),
                "pair %d: rolling power %.17g, scalar %.17g (%s)", (int)b, c->bt.P2[b], cr->P[2], opts);
  ck_assert_msg(!c->turn || !memcmp(&c->tn[b], &c->tnref[b], sizeof(c->tn[b])), "pair %d: turning points differ (%s)",
                (int)b, opts);
  ck_assert_msg(!memcmp(res, cr->F, sizeof(cr->F)) && !memcmp(res + 3, cr->Ti, sizeof(cr->Ti)) &&
                  !memcmp(res + 6, cr->Tj, sizeof(cr->Tj)),
                "pair %d: lanes F (%.17g %.17g %.17g) scalar (%.17g %.17g %.17g) (%s)", (int)b, res[0], res[1], res[2],
                cr->F[0], cr->F[1], cr->F[2], opts);
  /* the ledger's powers, the same bits; no first touch in the lanes: no work of one */
  ck_assert_msg(!memcmp(res + 9, cr->P, 2 * sizeof(cr->P[0])) && res[11] == 0.0,
                "pair %d: lanes powers (%.17g %.17g) scalar (%.17g %.17g) (%s)", (int)b, res[9], res[10], cr->P[0],
                cr->P[1], opts);
  ck_assert_msg(!memcmp(&c->h[b], &c->href[b], sizeof(c->h[b])), "pair %d: histories differ (%s)", (int)b, opts);
  ck_assert_msg(!memcmp(&c->bt.ddot[b], &cr->ddot, sizeof(cr->ddot)) && !memcmp(&c->bt.U[b], &cr->U, sizeof(cr->U)),
                "pair %d: the step bound's inputs differ: ddot %.17g vs %.17g, U %.17g vs %.17g (%s)", (int)b,
                c->bt.ddot[b], cr->ddot, c->bt.U[b], cr->U, opts);
}

/* Each pair of the batch after a step of the lanes (the pass-th) against ContactEvaluate's step on the
 * reference state; counts the contacts that slip and stick at the first. */
static void CheckPairs(Case *c, int pass, PetscInt *nslip, PetscInt *nstick)
{
  for (PetscInt b = 0; b < NPAIR; b++) {
    const ContactPair *cp = &c->cps[Kind(b)];
    ContactKinematics  kin;
    ContactResult      cr;
    PetscReal len = sqrt(c->bt.r[0][b] * c->bt.r[0][b] + c->bt.r[1][b] * c->bt.r[1][b] + c->bt.r[2][b] * c->bt.r[2][b]);
    kin.d         = c->rs - len;
    if (!(kin.d > 0.0)) {
      ck_assert_msg(c->bt.apart[b], "pair %d apart but not reported (%s)", (int)b, c->opts);
      ck_assert_msg(!memcmp(&c->h[b], &c->href[b], sizeof(c->h[b])) &&
                      !memcmp(&c->tn[b], &c->tnref[b], sizeof(c->tn[b])) &&
                      !memcmp(&c->rl[b], &c->rlref[b], sizeof(c->rl[b])),
                    "pair %d apart: its history changed (%s)", (int)b, c->opts);
      continue;
    }
    ck_assert_msg(!c->bt.apart[b], "pair %d touches but was reported apart (%s)", (int)b, c->opts);
    CheckScalarNormal(&c->model, cp, &c->bc[Kind(b)], kin.d, c->href[b].v_imp, c->opts);
    PairKinematics(c, b, len, &kin);
    ContactEvaluate(&c->model, cp, &c->href[b], c->roll ? &c->rlref[b] : NULL, c->turn ? &c->tnref[b] : NULL, &kin,
                    c->dt, &cr);
    CheckTouching(c, b, &cr);
    if (c->damp && c->bc[Kind(b)].ca < 0.0) { /* the C kept: the damping's own at the contact's impact speed */
      PetscReal Cr = DampingCoefficient(&cp->co->damping, &c->model.law, cp->s, cp->m, c->href[b].v_imp, kin.d);
      ck_assert_msg(!memcmp(&c->cd[2 * b], &c->href[b].v_imp, sizeof(Cr)) &&
                      !memcmp(&c->cd[2 * b + 1], &Cr, sizeof(Cr)),
                    "pair %d, step %d: the damper's C kept %.17g at v_imp %.17g, the damping's %.17g (%s)", (int)b,
                    pass, c->cd[2 * b + 1], c->cd[2 * b], Cr, c->opts);
    }
    if (pass == 0 && cp->co->tangential.mu > 0.0) {
      PetscReal ft = 0.0;
      for (int a = 0; a < 3; a++) ft += (cr.F[a] - cr.Fn * kin.n[a]) * (cr.F[a] - cr.Fn * kin.n[a]);
      if (sqrt(ft) > (1.0 - 1e-9) * cp->co->tangential.mu * PetscMax(cr.Fn, 0.0)) (*nslip)++;
      else (*nstick)++;
    }
  }
}

/* The lanes against ContactEvaluate under the model of opts; counts the
 * contacts that slip and stick. */
static void RunCase(const char *opts, PetscInt *nslip, PetscInt *nstick)
{
  Case    *c;
  unsigned seed = 12345;

  ck_assert_int_eq(PetscCalloc1(1, &c), 0);
  c->opts = opts, c->rs = 1e-3, c->dt = 1e-6;
  ck_assert_int_eq(PetscOptionsClear(NULL), 0);
  ck_assert_int_eq(PetscOptionsInsertString(NULL, opts), 0);
  ck_assert_msg(ContactModelSetFromOptions(PETSC_COMM_SELF, &c->model) == 0, "model refused: %s", opts);
  PairKinds(c, 5e-4, 1.3e-6, 0.4 * 1.3e-6 * 5e-4 * 5e-4);
  for (PetscInt q = 0; q < 6 * NPAIR; q++) {
    c->v[q]  = Uniform(&seed, -0.5, 0.5);
    c->vp[q] = c->v[q] + Uniform(&seed, -0.01, 0.01);
    c->w[q]  = Uniform(&seed, -300.0, 300.0);
    c->wp[q] = c->w[q] + Uniform(&seed, -3.0, 3.0);
  }
  /* the real past the last particle: zero (Calloc) */
  FillPairs(&c->bt, c->bc, c->rs, c->model.tangential.model != TANGENTIAL_SHEAR_DISPLACEMENT ? 1e4 : 1.0, c->h, c->href,
            &seed);
  SideStates(c, &seed);
  c->damp = c->bm.nm.damp == CONTACT_DAMP_CALIBRATED ? c->cd : NULL;
  /* twice: the second step takes the calibrated damper's C as the first kept it */
  for (int pass = 0; pass < 2; pass++) {
    ContactBatchEvaluate(&c->bm, &c->bt, c->dt, c->v, c->vp, c->w, c->wp, c->h, c->turn, c->roll, c->damp, c->res);
    CheckPairs(c, pass, nslip, nstick);
  }
  ContactModelDestroy(&c->model);
  PetscCallVoid(PetscFree(c));
}

START_TEST(test_lanes_equal_scalar)
{
  static const char *cases[] = {
    "-contact_law hertz -contact_k 1e9 -contact_damping harmonic -contact_e 0.5 -contact_mu 0.5 "
    "-contact_tangential_stiffness mindlin -material_E 1e7 "
    "-material_nu 0.3 -contact_separation force",
    "-contact_law hertz -contact_k 1e9 -contact_damping harmonic -contact_e 0.9 -contact_mu 0.3 "
    "-contact_tangential_stiffness mindlin -material_E 1e7 "
    "-material_nu 0.25 -contact_tangential_damping 0.2 -contact_separation overlap",
    "-contact_law hertz -contact_k 1e9 -contact_damping harmonic -contact_e 0.3 -contact_mu 0.4 "
    "-contact_tangential_stiffness constant -contact_kt 2e5 "
    "-contact_separation force",
    "-contact_law hertz -contact_k 1e9 -contact_damping harmonic -contact_e 0.7 -contact_mu 0 -contact_separation "
    "overlap",
    /* two materials (Hertz from E*): the pairs of types 1-1 and 1-2 differ in every constant, lanes mixed */
    "-contact_law hertz -contact_damping harmonic -contact_e 0.5 -contact_mu 0.5 -material_E 1e7 -material_nu 0.3 "
    "-material1_E 2e7 -material2_E 5e6 "
    "-material2_nu 0.2 -pair_1_2_e 0.8 -pair_1_2_mu 0.2 -pair_1_2_tangential_damping 0.1 -contact_separation force",
    "-contact_law hertz -contact_damping harmonic -contact_e 0.5 -contact_mu 0.5 -material_E 1e7 -material1_E 2e7 "
    "-material2_E 5e6 -pair_2_1_mu 0 "
    "-contact_separation overlap",
    "-contact_law hertz -contact_damping harmonic -contact_e 0.5 -contact_mu 0 -material_E 1e7 -material1_nu 0.1 "
    "-material2_E 5e6 -pair_1_2_mu 0.6 "
    "-contact_separation force",
    /* the incremental spring, Mindlin and constant */
    "-contact_law hertz -contact_k 1e9 -contact_damping harmonic -contact_e 0.5 -contact_mu 0.5 "
    "-contact_tangential_stiffness mindlin -material_E 1e7 "
    "-contact_tangential_model incremental -contact_tangential_damping 0.1 -contact_separation force",
    "-contact_law hertz -contact_damping harmonic -contact_e 0.4 -contact_mu 0.3 -contact_tangential_stiffness "
    "constant -contact_kt 2e5 "
    "-contact_tangential_model incremental -material_E 1e7 -material1_E 2e7 -material2_nu 0.25 -pair_1_2_mu 0.1 "
    "-contact_separation overlap",
  };
  PetscInt nslip = 0, nstick = 0;
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) RunCase(cases[c], &nslip, &nstick);
  ck_assert_msg(nslip > 50 && nstick > 50, "%d slipping, %d sticking contacts: the cases do not cover both", (int)nslip,
                (int)nstick);
}
END_TEST

/* Every normal law x damping law x separation x tangential model (with and
 * without its dashpot), and pair coefficients of several materials: the
 * lanes give ContactEvaluate's bits, the scalar Normal those of
 * NormalLawEval and DampingCoefficient. */
START_TEST(test_every_model)
{
  static const char *laws[] = {
    "-contact_law hertz -material_E 1e7 -material_nu 0.3",
    "-contact_law hertz -contact_k 1e9",
    "-contact_law linear -contact_k 2000",
    "-contact_law power -contact_k 1e6 -contact_p 1.7",
    "-contact_law poly -contact_poly_k 2000,1e8 -contact_poly_p 1,1.5",
    "-contact_law table -contact_table_delta 0,1e-5,2e-5,4e-5 -contact_table_force 0,0.01,0.03,0.09",
  };
  static const char *dampings[] = {"harmonic -contact_e 0.5",
                                   "tsuji -contact_e 0.5",
                                   "tsuji_marshall -contact_e 0.616",
                                   "hunt_crossley -contact_e 0.5",
                                   "lankarani_nikravesh -contact_e 0.5",
                                   "flores -contact_e 0.5",
                                   "hu_guo -contact_e 0.5",
                                   "gonthier -contact_e 0.5",
                                   "hunt_crossley -contact_damping_coeff 0.3",
                                   "constant_damper -contact_e 0.5",
                                   "constant_damper -contact_damping_coeff 1e-3",
                                   "linear_dashpot -contact_e 0.5",
                                   "linear_dashpot -contact_damping_coeff 1e-3",
                                   "none"};
  static const char *seps[]     = {"overlap", "force"};
  static const char *tangs[]    = {
       "-contact_mu 0",
       "-contact_mu 0.5 -contact_tangential_stiffness mindlin",
       "-contact_mu 0.5 -contact_tangential_stiffness mindlin -contact_tangential_damping 0.2",
       "-contact_mu 0.4 -contact_tangential_stiffness constant -contact_kt 2e5",
       "-contact_mu 0.4 -contact_tangential_stiffness constant -contact_kt 2e5 -contact_tangential_damping 0.3",
       "-contact_mu 0.5 -contact_tangential_stiffness mindlin -contact_tangential_model incremental",
       "-contact_mu 0.3 -contact_tangential_stiffness constant -contact_kt 2e5 -contact_tangential_model incremental "
          "-contact_tangential_damping 0.1",
       "-contact_mu 0.5 -contact_tangential_stiffness mindlin -contact_tangential_model mindlin_deresiewicz",
       "-contact_mu 0.5 -contact_tangential_stiffness mindlin -contact_tangential_model mindlin_deresiewicz "
          "-contact_tangential_damping 0.2",
       /* rolling resistance, the spring-dashpot and the constant torque, a pair without */
       "-contact_mu 0.5 -contact_tangential_stiffness mindlin -contact_mu_roll 0.1 -material1_E 1e7 -material2_E 5e6 "
          "-pair_1_2_mu_roll 0",
       "-contact_mu 0.4 -contact_tangential_stiffness constant -contact_kt 2e5 -contact_mu_roll 0.2 -contact_rolling "
          "constant",
       "-contact_mu 0.5 -contact_tangential_stiffness mindlin -contact_tangential_model mindlin_deresiewicz "
          "-contact_mu_roll 0.1 -contact_roll_damping 0.5",
       /* several materials: every pair constant differs between the kinds, lanes mixed */
       "-contact_mu 0.5 -contact_tangential_stiffness mindlin -material1_E 2e7 -material2_E 5e6 -material2_nu 0.2 "
          "-pair_1_2_mu 0.2 -pair_1_2_tangential_damping 0.1",
  };
  PetscInt nslip = 0, nstick = 0, ncase = 0;

  for (size_t l = 0; l < sizeof(laws) / sizeof(laws[0]); l++)
    for (size_t dm = 0; dm < sizeof(dampings) / sizeof(dampings[0]); dm++)
      for (size_t sp = 0; sp < 2; sp++)
        for (size_t t = 0; t < sizeof(tangs) / sizeof(tangs[0]); t++) {
          const char *dn = dampings[dm];
          char        opts[1024];
          PetscBool   mono = l < 4 ? PETSC_TRUE : PETSC_FALSE;
          /* the combinations the model refuses (DampingSetUp) */
          if (!strncmp(dn, "tsuji ", 6) && !mono) continue;
          if (!strncmp(dn, "constant_damper", 15) && (!mono || (sp == 0 && !strstr(dn, "coeff")))) continue;
          if (!strncmp(dn, "linear_dashpot", 14) && l != 2) continue;
          /* the several materials' pair restitution where the damping takes one */
          ck_assert_int_eq(PetscSNPrintf(opts, sizeof(opts), "%s -contact_damping %s -contact_separation %s %s%s",
                                         laws[l], dn, seps[sp], tangs[t],
                                         t == 12 && strstr(dn, "-contact_e") && strncmp(dn, "linear_dashpot", 14)
                                           ? " -pair_1_2_e 0.8"
                                           : ""),
                           0);
          RunCase(opts, &nslip, &nstick);
          ncase++;
        }
  ck_assert_msg(ncase > 400, "only %d models", (int)ncase);
  ck_assert_msg(nslip > 1000 && nstick > 1000, "%d slipping, %d sticking contacts: the cases do not cover both",
                (int)nslip, (int)nstick);
}
END_TEST

/* The cube root of the Mindlin-Deresiewicz slip (cube_root.h): the lanes give
 * the scalar's bits on every input (random bit patterns: subnormals,
 * infinities, NaNs, zeros of either sign; and the slip fraction's range
 * (0, 1)), and on glibc the bits of its cbrt; elsewhere within an ulp of
 * libm's. */
START_TEST(test_cube_root)
{
  uint64_t  s    = 0x9e3779b97f4a7c15ULL;
  PetscInt  nsub = 0, nspecial = 0;
  CubeRootV x;

  for (int k = 0; k < 400000; k++) {
    for (int l = 0; l < 4; l++) {
      uint64_t b;
      double   y;
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      b = s;
      if (k % 2) memcpy(&y, &b, sizeof(y));   /* any double */
      else y = (double)(s >> 11) * 0x1.0p-53; /* the slip fraction's (0, 1) */
      if (k == 0) y = l == 0 ? 0.0 : l == 1 ? -0.0 : l == 2 ? INFINITY : 0x1p-1074;
      if (k == 1) y = l == 0 ? NAN : l == 1 ? -INFINITY : l == 2 ? 1.0 : -0x1.8p-1070;
      x[l] = y;
    }
    {
      const CubeRootV r = CubeRootLanes(x);
      for (int l = 0; l < 4; l++) {
        const double c = CubeRoot(x[l]), lib = cbrt(x[l]), xl = x[l], rl = r[l];
        if (!isfinite(xl) || xl == 0.0) nspecial++;
        else if (fabs(xl) < 0x1p-1022) nsub++;
        if (isnan(xl)) {
          ck_assert_msg(isnan(c) && isnan(rl), "cube root of NaN: %a, %a", c, rl);
          continue;
        }
        ck_assert_msg(!memcmp(&c, &rl, sizeof(c)), "cube root of %a: lanes %a, scalar %a", xl, rl, c);
#if defined(__GLIBC__)
        ck_assert_msg(!memcmp(&c, &lib, sizeof(c)), "cube root of %a: %a, glibc's cbrt %a", xl, c, lib);
#else
        ck_assert_msg(c == lib || fabs(c - lib) <= fabs(nextafter(lib, 0.0) - lib), "cube root of %a: %a, libm %a", xl,
                      c, lib);
#endif
      }
    }
  }
  ck_assert_msg(nsub > 100 && nspecial > 100, "%d subnormals, %d special values: not covered", (int)nsub,
                (int)nspecial);
}
END_TEST

static Suite *ContactBatchSuite(void)
{
  Suite *s = suite_create("contact_batch");
  TCase *t = tcase_create("core");
  tcase_add_test(t, test_lanes_equal_scalar);
  tcase_add_test(t, test_every_model);
  tcase_add_test(t, test_cube_root);
  suite_add_tcase(s, t);
  return s;
}

int main(int argc, char **argv)
{
  return HdemCheckRun(argc, argv, ContactBatchSuite());
}
