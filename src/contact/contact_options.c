/* Reading a contact model and a step controller from the options database
 * (deck keys contact_*, material_*, particle_*, timestep_*). */
#include "contact/contact_options.h"
#include "io/options.h"
#include "io/table.h"
#include <math.h>

/* The tabulated law: from file (NULL: none), or from the ntd overlaps td and ntf forces tf (-1: not given). */
static PetscErrorCode NormalLawTableKeys(MPI_Comm comm, const char *file, PetscInt ntd, PetscInt ntf,
                                         const PetscReal *td, const PetscReal *tf, ContactModel *model)
{
  PetscFunctionBeginUser;
  if (file) {
    PetscInt       n;
    PetscReal     *x, *y;
    PetscErrorCode ierr;
    PetscCheck(ntd < 0 && ntf < 0, comm, PETSC_ERR_USER_INPUT,
               "give either -contact_table_file or -contact_table_delta/-contact_table_force, not both");
    PetscCall(TableRead(comm, file, &n, &x, &y));
    /* the table is freed whether it is taken or refused */
    ierr = NormalLawCreateTable(n, x, y, &model->law);
    PetscCall(PetscFree2(x, y));
    PetscCall(ierr);
  } else {
    PetscCheck(ntd >= 0 && ntf >= 0, comm, PETSC_ERR_USER_INPUT,
               "-contact_law table needs -contact_table_file, or -contact_table_delta and -contact_table_force");
    PetscCheck(ntd == ntf, comm, PETSC_ERR_USER_INPUT,
               "-contact_table_delta has %" PetscInt_FMT " values but -contact_table_force has %" PetscInt_FMT, ntd,
               ntf);
    PetscCall(NormalLawCreateTable(ntd, td, tf, &model->law));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The keys, with td and tf room for the table's 4096 rows (freed by the caller, also on an error). */
static PetscErrorCode NormalLawKeys(MPI_Comm comm, ContactModel *model, PetscReal *td, PetscReal *tf)
{
  NormalLawType type = NORMAL_LAW_HERTZ;
  PetscReal     k = 0.0, p = 1.5, pk[NORMAL_LAW_MAX_TERMS] = {0}, pp[NORMAL_LAW_MAX_TERMS] = {0};
  PetscInt      nk = 0, np = 0, ntd = 0, ntf = 0;
  PetscBool     kset, pset, pkset, ppset, tdset, tfset, fileset;
  char          file[PETSC_MAX_PATH_LEN] = "";

  PetscFunctionBeginUser;
  PetscCall(OptionsSection("Normal contact law"));
  PetscCall(OptionsEnum("-contact_law", "normal contact law", NormalLawTypes, (PetscEnum *)&type, NULL));
  PetscCall(OptionsReal("-contact_k",
                        "law stiffness k of F = k d^p; hertz: default (4/3) E* sqrt(R*) from the material", "[N/m^p]",
                        0.0, PETSC_MAX_REAL, RANGE_OPEN, &k, &kset));
  PetscCall(OptionsReal("-contact_p", "power-law exponent p (law power)", "[-]", 1.0, 1e3, RANGE_CLOSED, &p, &pset));
  PetscCall(OptionsRealArray("-contact_poly_k", "coefficients k1,k2,.. of F = sum k_i d^p_i (law poly)", "[N/m^p]", 1,
                             NORMAL_LAW_MAX_TERMS, 0.0, PETSC_MAX_REAL, RANGE_OPEN, pk, &nk, &pkset));
  PetscCall(OptionsRealArray("-contact_poly_p", "exponents p1,p2,.. (law poly)", "[-]", 1, NORMAL_LAW_MAX_TERMS, 1.0,
                             1e3, RANGE_CLOSED, pp, &np, &ppset));
  PetscCall(OptionsRealArray("-contact_table_delta", "overlaps of the tabulated law, from 0, increasing (law table)",
                             "[m]", 1, 4096, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, td, &ntd, &tdset));
  PetscCall(OptionsRealArray("-contact_table_force", "forces at those overlaps, from 0, increasing (law table)", "[N]",
                             1, 4096, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, tf, &ntf, &tfset));
  PetscCall(OptionsPath("-contact_table_file", "two-column file: overlap [m], force [N] (law table)", file,
                        sizeof(file), &fileset));
  PetscCall(OptionsDefaultText("-contact_k", "hertz: from the material; linear, power: required"));
  PetscCall(OptionsDefaultText("-contact_poly_k", "required with law poly"));
  PetscCall(OptionsDefaultText("-contact_poly_p", "required with law poly"));
  PetscCall(OptionsDefaultText("-contact_table_delta", "none"));
  PetscCall(OptionsDefaultText("-contact_table_force", "none"));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);

  model->hertz_from_material = PETSC_FALSE;
  switch (type) {
  case NORMAL_LAW_LINEAR:
  case NORMAL_LAW_POWER:
    PetscCheck(kset, comm, PETSC_ERR_USER_INPUT, "-contact_law %s needs -contact_k [N/m^p]", NormalLawTypes[type]);
    if (type == NORMAL_LAW_LINEAR) p = 1.0;
    PetscCall(NormalLawCreatePoly(type, 1, &k, &p, &model->law));
    break;
  case NORMAL_LAW_HERTZ:
    PetscCheck(!pset, comm, PETSC_ERR_USER_INPUT, "-contact_p is for -contact_law power; hertz has p = 1.5");
    if (!kset) {
      k                          = 1.0;
      model->hertz_from_material = PETSC_TRUE;
    }
    p = 1.5;
    PetscCall(NormalLawCreatePoly(type, 1, &k, &p, &model->law));
    break;
  case NORMAL_LAW_POLY:
    PetscCheck(pkset && ppset, comm, PETSC_ERR_USER_INPUT,
               "-contact_law poly needs -contact_poly_k and -contact_poly_p");
    PetscCheck(nk == np, comm, PETSC_ERR_USER_INPUT,
               "-contact_poly_k has %" PetscInt_FMT " values but -contact_poly_p has %" PetscInt_FMT, nk, np);
    PetscCall(NormalLawCreatePoly(type, nk, pk, pp, &model->law));
    break;
  case NORMAL_LAW_TABLE:
    PetscCall(NormalLawTableKeys(comm, fileset ? file : NULL, tdset ? ntd : -1, tfset ? ntf : -1, td, tf, model));
    break;
  }
  PetscCheck(!(pkset || ppset) || type == NORMAL_LAW_POLY, comm, PETSC_ERR_USER_INPUT,
             "-contact_poly_k/-contact_poly_p are for -contact_law poly");
  PetscCheck(!(tdset || tfset || fileset) || type == NORMAL_LAW_TABLE, comm, PETSC_ERR_USER_INPUT,
             "-contact_table_* are for -contact_law table");
  PetscCheck(!pset || type == NORMAL_LAW_POWER, comm, PETSC_ERR_USER_INPUT, "-contact_p is for -contact_law power");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode NormalLawSetFromOptions(MPI_Comm comm, ContactModel *model)
{
  PetscReal     *td, *tf;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc2(4096, &td, 4096, &tf));
  ierr = NormalLawKeys(comm, model, td, tf);
  PetscCall(PetscFree2(td, tf));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MaterialSetFromOptions(MPI_Comm comm, Material *mat)
{
  PetscFunctionBeginUser;
  mat->E       = 6.3e10;
  mat->nu      = 0.22;
  mat->density = 2500.0;
  PetscCall(OptionsSection("Material"));
  PetscCall(OptionsReal("-material_E", "Young's modulus E (Hertz stiffness, Mindlin tangential stiffness)", "[Pa]", 0.0,
                        PETSC_MAX_REAL, RANGE_OPEN, &mat->E, NULL));
  PetscCall(OptionsReal("-material_nu", "Poisson ratio nu", "[-]", -1.0, 0.5, RANGE_OPEN_LO, &mat->nu, NULL));
  PetscCall(OptionsReal("-particle_density", "particle density", "[kg/m^3]", HDEM_DENSITY_MIN, HDEM_DENSITY_MAX,
                        RANGE_CLOSED, &mat->density, NULL));
  PetscCall(OptionsReal("-material_liquid", "liquid volume of each particle at insertion (liquid bridges)", "[m^3]",
                        0.0, PETSC_MAX_REAL, RANGE_CLOSED, &mat->liquid, NULL));
  PetscCall(OptionsReal("-material_moisture",
                        "moisture content: liquid mass over wet mass of each particle at insertion (instead of "
                        "material_liquid; liquid bridges)",
                        "[-]", 0.0, 1.0, RANGE_OPEN_HI, &mat->moisture, NULL));
  PetscCheck(OptionsCollecting() || !(mat->liquid > 0.0 && mat->moisture > 0.0), comm, PETSC_ERR_USER_INPUT,
             "-material_liquid = %g and -material_moisture = %g: give a liquid volume or a moisture content, not both",
             (double)mat->liquid, (double)mat->moisture);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DampingSetFromOptions(MPI_Comm comm, ContactModel *model)
{
  Damping  *dmp = &model->damping;
  PetscReal e = 0.5, coeff = 0.0;
  PetscBool eset, cset;

  PetscFunctionBeginUser;
  dmp->type       = DAMPING_HARMONIC;
  dmp->separation = SEPARATION_FORCE;
  dmp->v_imp_min  = 1e-6;
  PetscCall(OptionsSection("Normal damping"));
  PetscCall(OptionsEnum("-contact_damping", "normal damping law", DampingTypes, (PetscEnum *)&dmp->type, NULL));
  PetscCall(OptionsReal("-contact_e", "target normal restitution e", "[-]", 0.0, 1.0, RANGE_OPEN_LO, &e, &eset));
  PetscCall(OptionsReal("-contact_damping_coeff",
                        "raw damping coefficient instead of -contact_e: harmonic zeta [-], tsuji alpha [-], "
                        "Hunt-Crossley D [s/m], "
                        "constant_damper/linear_dashpot c [N s/m]",
                        "", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &coeff, &cset));
  PetscCall(OptionsEnum("-contact_separation",
                        "overlap: force not clipped, contact ends at d = 0; force: normal force clipped at zero",
                        SeparationTypes, (PetscEnum *)&dmp->separation, NULL));
  PetscCall(OptionsReal("-contact_v_imp_min",
                        "floor on the impact speed of the speed-scaled laws (Hunt-Crossley family, constant_damper)",
                        "[m/s]", 0.0, PETSC_MAX_REAL, RANGE_OPEN, &dmp->v_imp_min, NULL));
  PetscCall(OptionsDefaultText("-contact_damping_coeff", "from -contact_e"));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!(eset && cset), comm, PETSC_ERR_USER_INPUT, "give either -contact_e or -contact_damping_coeff, not both");
  PetscCheck(!(dmp->type == DAMPING_NONE && (eset || cset)), comm, PETSC_ERR_USER_INPUT,
             "-contact_damping none takes neither -contact_e nor -contact_damping_coeff");
  if (dmp->type == DAMPING_NONE) e = 1.0;
  PetscCall(DampingSetUp(dmp, &model->law, e, coeff, cset));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TangentialSetFromOptions(MPI_Comm comm, ContactModel *model)
{
  Tangential *tg = &model->tangential;
  PetscBool   ktset;

  PetscFunctionBeginUser;
  tg->mu        = 0.5;
  tg->stiffness = model->law.type == NORMAL_LAW_LINEAR ? TANGENTIAL_CONSTANT : TANGENTIAL_MINDLIN;
  tg->kt        = model->law.type == NORMAL_LAW_LINEAR ? 2.0 / 7.0 * model->law.k[0] : 0.0;
  tg->zeta      = 0.0;
  PetscCall(OptionsSection("Tangential contact"));
  PetscCall(OptionsReal("-contact_mu", "Coulomb friction coefficient mu; 0 disables the tangential spring", "[-]", 0.0,
                        PETSC_MAX_REAL, RANGE_CLOSED, &tg->mu, NULL));
  PetscCall(OptionsEnum("-contact_tangential_stiffness", "constant kt, or Mindlin kt = 8 G* sqrt(R* d)",
                        TangentialStiffnessTypes, (PetscEnum *)&tg->stiffness, NULL));
  PetscCall(OptionsReal("-contact_kt", "constant tangential stiffness (default 2/7 of a linear law's k)", "[N/m]", 0.0,
                        PETSC_MAX_REAL, RANGE_OPEN, &tg->kt, &ktset));
  PetscCall(OptionsReal("-contact_tangential_damping", "damping ratio of the tangential spring", "[-]", 0.0,
                        PETSC_MAX_REAL, RANGE_CLOSED, &tg->zeta, NULL));
  tg->model = TANGENTIAL_SHEAR_DISPLACEMENT;
  PetscCall(OptionsEnum("-contact_tangential_model",
                        "shear_displacement: F = -kt(d) xi of the accumulated displacement; incremental: F += -kt(d) "
                        "dxi, the force kept (LAMMPS mindlin/force); "
                        "mindlin_deresiewicz: F += -kt(d) theta dxi with loading, unloading and reloading under a "
                        "varying normal force (Thornton & Yin)",
                        TangentialModels, (PetscEnum *)&tg->model, NULL));
  PetscCall(OptionsDefaultText("-contact_tangential_stiffness", "mindlin; constant with law linear"));
  PetscCall(OptionsDefaultText("-contact_kt", "2/7 of k with law linear; required with constant stiffness otherwise"));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  if (tg->stiffness == TANGENTIAL_CONSTANT && tg->mu > 0.0) {
    PetscCheck(tg->kt > 0.0 || ktset, comm, PETSC_ERR_USER_INPUT,
               "-contact_tangential_stiffness constant with -contact_law %s needs -contact_kt [N/m]",
               NormalLawTypes[model->law.type]);
  }
  PetscCheck(!(ktset && tg->stiffness == TANGENTIAL_MINDLIN), comm, PETSC_ERR_USER_INPUT,
             "-contact_kt is for -contact_tangential_stiffness constant");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RollingSetFromOptions(MPI_Comm comm, ContactModel *model)
{
  Rolling *rl = &model->rolling;

  PetscFunctionBeginUser;
  (void)comm;
  rl->mu   = 0.0;
  rl->eta  = 0.3;
  rl->type = ROLLING_EPSD;
  PetscCall(OptionsSection("Rolling resistance"));
  PetscCall(OptionsReal("-contact_mu_roll",
                        "rolling friction coefficient mu_r: a torque of at most mu_r R* Fn against rolling; 0: none",
                        "[-]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &rl->mu, NULL));
  PetscCall(OptionsReal("-contact_roll_damping", "epsd: damping ratio of the rolling spring-dashpot", "[-]", 0.0,
                        PETSC_MAX_REAL, RANGE_CLOSED, &rl->eta, NULL));
  PetscCall(OptionsEnum("-contact_rolling",
                        "epsd (Ai et al. 2011 type C: elastic-plastic spring-dashpot) or constant (the full torque "
                        "against rolling)",
                        RollingTypes, (PetscEnum *)&rl->type, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Liquid bridges: on when some material has liquid.  The largest bridge
 * is, by default, the one two particles of the wettest material form at
 * their first touch; it sets the lists' reach beyond contact. */
static PetscErrorCode LiquidSetFromOptions(MPI_Comm comm, ContactModel *model)
{
  Liquid           *lq    = &model->liquid;
  PetscReal         theta = 0.0, lmax = 0.0;
  PetscBool         vset, given[7]    = {PETSC_FALSE};
  const char *const keys[7] = {"-contact_liquid_surface_tension",
                               "-contact_liquid_contact_angle",
                               "-contact_liquid_viscosity",
                               "-contact_liquid_bridge_fraction",
                               "-contact_liquid_bridge_max",
                               "-contact_liquid_lubrication_cutoff",
                               "-contact_liquid_force"};

  PetscFunctionBeginUser;
  lq->gamma     = 0.072;
  lq->viscosity = 0.0;
  lq->fraction  = 0.05;
  lq->cutoff    = 1e-3;
  lq->force     = LIQUID_WILLETT;
  PetscCall(OptionsSection("Liquid bridges"));
  PetscCall(OptionsReal("-contact_liquid_surface_tension", "surface tension of the liquid", "[N/m]", 0.0,
                        PETSC_MAX_REAL, RANGE_CLOSED, &lq->gamma, &given[0]));
  PetscCall(OptionsReal("-contact_liquid_contact_angle", "contact angle of the liquid on the particles", "[deg]", 0.0,
                        90.0, RANGE_OPEN_HI, &theta, &given[1]));
  PetscCall(OptionsReal("-contact_liquid_viscosity",
                        "viscosity of the liquid: normal lubrication force 6 pi eta R*^2 v / S; 0: none", "[Pa*s]", 0.0,
                        PETSC_MAX_REAL, RANGE_CLOSED, &lq->viscosity, &given[2]));
  PetscCall(OptionsReal("-contact_liquid_bridge_fraction", "share of each particle's liquid a new bridge takes", "[-]",
                        0.0, 1.0, RANGE_OPEN_LO, &lq->fraction, &given[3]));
  PetscCall(OptionsReal("-contact_liquid_bridge_max", "largest bridge volume (the rest stays on the particles)",
                        "[m^3]", 0.0, PETSC_MAX_REAL, RANGE_OPEN, &lq->vmax, &vset));
  PetscCall(OptionsReal("-contact_liquid_lubrication_cutoff", "least separation of the lubrication force, over R*",
                        "[-]", 0.0, 1.0, RANGE_OPEN_LO, &lq->cutoff, &given[5]));
  PetscCall(OptionsEnum("-contact_liquid_force",
                        "willett (the full fit of Willett et al. 2000) or willett_simple (their closed form)",
                        LiquidForceTypes, (PetscEnum *)&lq->force, &given[6]));
  lq->density = 1000.0;
  PetscCall(OptionsReal("-contact_liquid_density", "density of the liquid, for moisture contents", "[kg/m^3]",
                        HDEM_DENSITY_MIN, HDEM_DENSITY_MAX, RANGE_CLOSED, &lq->density, NULL));
  PetscCall(
    OptionsDefaultText("-contact_liquid_bridge_max", "2 liquid_bridge_fraction times the largest particle liquid"));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  lq->theta = theta * HDEM_PI / 180.0;
  for (PetscInt k = 0; k < MATERIAL_SLOTS; k++) lmax = PetscMax(lmax, model->mat[k].liquid);
  lq->on = lmax > 0.0 ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt k = 0; k < MATERIAL_SLOTS; k++)
    if (model->mat[k].moisture > 0.0) lq->on = PETSC_TRUE;
  lq->vmax_set = vset;
  given[4]     = vset;
  for (int k = 0; k < 7; k++) /* a dry run ignores them: likely a forgotten material_liquid */
    PetscCheck(lq->on || !given[k], comm, PETSC_ERR_USER_INPUT,
               "%s is given but does nothing: no material has liquid (material_liquid, materialK_liquid, "
               "material_moisture or materialK_moisture > 0 turns bridges on)",
               keys[k]);
  if (!vset) lq->vmax = 2.0 * lq->fraction * lmax;
  lq->reach = lq->on ? (1.0 + 0.5 * lq->theta) * cbrt(lq->vmax) : 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Keys materialK_*: a type's own material, the default's where a key is not given. */
static PetscErrorCode MaterialsSetFromOptions(MPI_Comm comm, ContactModel *model)
{
  PetscFunctionBeginUser;
  (void)comm;
  PetscCall(OptionsSection("Materials of types"));
  for (PetscInt k = 0; k < MATERIAL_TYPES; k++) {
    Material *mat = &model->mat[k];
    char      key[64];
    PetscBool set[5];
    *mat = model->material;
    OptionsQuiet(k > 0 ? PETSC_TRUE : PETSC_FALSE);
    PetscCall(PetscSNPrintf(key, sizeof(key), "-material%" PetscInt_FMT "_E", k));
    PetscCall(OptionsReal(key,
                          "materialK (K = 0..15): the material of particle and wall type K: Young's modulus (inf: "
                          "rigid, walls only)",
                          "[Pa]", 0.0, INFINITY, RANGE_OPEN_LO, &mat->E, &set[0]));
    PetscCall(PetscSNPrintf(key, sizeof(key), "-material%" PetscInt_FMT "_nu", k));
    PetscCall(OptionsReal(key, "materialK: Poisson ratio", "[-]", -1.0, 0.5, RANGE_OPEN_LO, &mat->nu, &set[1]));
    PetscCall(PetscSNPrintf(key, sizeof(key), "-material%" PetscInt_FMT "_density", k));
    PetscCall(OptionsReal(key, "materialK: density of its particles", "[kg/m^3]", HDEM_DENSITY_MIN, HDEM_DENSITY_MAX,
                          RANGE_CLOSED, &mat->density, &set[2]));
    PetscCall(PetscSNPrintf(key, sizeof(key), "-material%" PetscInt_FMT "_liquid", k));
    PetscCall(OptionsReal(key, "materialK: liquid volume of each of its particles at insertion", "[m^3]", 0.0,
                          PETSC_MAX_REAL, RANGE_CLOSED, &mat->liquid, &set[3]));
    PetscCall(PetscSNPrintf(key, sizeof(key), "-material%" PetscInt_FMT "_moisture", k));
    PetscCall(OptionsReal(key, "materialK: moisture content of its particles, liquid mass over wet mass", "[-]", 0.0,
                          1.0, RANGE_OPEN_HI, &mat->moisture, &set[4]));
    OptionsQuiet(PETSC_FALSE);
    if (k == 0) {
      PetscCall(OptionsDefaultText("-material0_E", "material_E"));
      PetscCall(OptionsDefaultText("-material0_nu", "material_nu"));
      PetscCall(OptionsDefaultText("-material0_density", "particle_density"));
      PetscCall(OptionsDefaultText("-material0_liquid", "material_liquid"));
      PetscCall(OptionsDefaultText("-material0_moisture", "material_moisture"));
    }
    model->mat_set[k] = set[0] || set[1] || set[2] || set[3] || set[4] ? PETSC_TRUE : PETSC_FALSE;
    /* one of the two: a type's own key replaces the default's other */
    if (set[3] && !set[4]) mat->moisture = 0.0;
    if (set[4] && !set[3]) mat->liquid = 0.0;
    PetscCheck(OptionsCollecting() || !(mat->liquid > 0.0 && mat->moisture > 0.0), comm, PETSC_ERR_USER_INPUT,
               "-material%" PetscInt_FMT "_liquid and -material%" PetscInt_FMT
               "_moisture (or their material_ defaults): give a liquid volume or a moisture content, not both",
               k, k);
  }
  model->mat[MATERIAL_TYPES] = model->material;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* E* and G* of two materials; one material twice: the single-material
 * expressions, E / (2 (1 - nu^2)) and G / (2 (2 - nu)). */
static void ContactModuli(const Material *a, const Material *b, PetscReal *Estar, PetscReal *Gstar)
{
  if (a->E == b->E && a->nu == b->nu) {
    PetscReal G = a->E / (2.0 * (1.0 + a->nu));
    *Estar      = a->E / (2.0 * (1.0 - a->nu * a->nu));
    *Gstar      = G / (2.0 * (2.0 - a->nu));
  } else {
    PetscReal Ga = a->E / (2.0 * (1.0 + a->nu)), Gb = b->E / (2.0 * (1.0 + b->nu));
    /* a rigid one: its term 0 */
    *Estar = 1.0 / ((1.0 - a->nu * a->nu) / a->E + (1.0 - b->nu * b->nu) / b->E);
    *Gstar = 1.0 / ((2.0 - a->nu) / Ga + (2.0 - b->nu) / Gb);
  }
}

/* Keys pair_I_J_* (order free): a pair of types' own coefficients over the defaults. */
static PetscErrorCode PairKeys(MPI_Comm comm, ContactModel *model, PetscInt ti, PetscInt tj, ContactCoeff *co)
{
  char      key[64], name[32];
  PetscReal e = 0.0, mu = co->tangential.mu, kt = co->tangential.kt, zt = co->tangential.zeta, mur = co->rolling.mu,
            eta = co->rolling.eta;
  PetscBool set[6];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, sizeof(name), "pair_%" PetscInt_FMT "_%" PetscInt_FMT, ti, tj));
  OptionsQuiet(ti == 0 && tj == 1 ? PETSC_FALSE : PETSC_TRUE);
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_e", name));
  PetscCall(OptionsReal(key, "pair_I_J (I, J = 0..15, order free): the pair's restitution e", "[-]", 0.0, 1.0,
                        RANGE_OPEN_LO, &e, &set[0]));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_mu", name));
  PetscCall(OptionsReal(key, "pair_I_J: friction coefficient", "[-]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &mu, &set[1]));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_kt", name));
  PetscCall(OptionsReal(key, "pair_I_J: constant tangential stiffness (tangential_stiffness constant)", "[N/m]", 0.0,
                        PETSC_MAX_REAL, RANGE_OPEN, &kt, &set[2]));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_tangential_damping", name));
  PetscCall(OptionsReal(key, "pair_I_J: damping ratio of the tangential spring", "[-]", 0.0, PETSC_MAX_REAL,
                        RANGE_CLOSED, &zt, &set[3]));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_mu_roll", name));
  PetscCall(OptionsReal(key, "pair_I_J: rolling friction coefficient", "[-]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &mur,
                        &set[4]));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_roll_damping", name));
  PetscCall(OptionsReal(key, "pair_I_J: damping ratio of the rolling spring-dashpot (epsd)", "[-]", 0.0, PETSC_MAX_REAL,
                        RANGE_CLOSED, &eta, &set[5]));
  OptionsQuiet(PETSC_FALSE);
  if (ti == 0 && tj == 1) {
    PetscCall(OptionsDefaultText("-pair_0_1_e", "contact_e"));
    PetscCall(OptionsDefaultText("-pair_0_1_mu", "contact_mu"));
    PetscCall(OptionsDefaultText("-pair_0_1_kt", "contact_kt"));
    PetscCall(OptionsDefaultText("-pair_0_1_tangential_damping", "contact_tangential_damping"));
    PetscCall(OptionsDefaultText("-pair_0_1_mu_roll", "contact_mu_roll"));
    PetscCall(OptionsDefaultText("-pair_0_1_roll_damping", "contact_roll_damping"));
  }
  if (OptionsCollecting() || !(set[0] || set[1] || set[2] || set[3] || set[4] || set[5]))
    PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!co->set, comm, PETSC_ERR_USER_INPUT,
             "pair_%" PetscInt_FMT "_%" PetscInt_FMT " and pair_%" PetscInt_FMT "_%" PetscInt_FMT
             " are one pair: give one",
             tj, ti, ti, tj);
  PetscCheck(model->mat_set[ti] && model->mat_set[tj], comm, PETSC_ERR_USER_INPUT,
             "%s: type %" PetscInt_FMT " has no material (give material%" PetscInt_FMT ")", name,
             model->mat_set[ti] ? tj : ti, model->mat_set[ti] ? tj : ti);
  PetscCheck(!set[2] || co->tangential.stiffness == TANGENTIAL_CONSTANT, comm, PETSC_ERR_USER_INPUT,
             "-%s_kt is for -contact_tangential_stiffness constant", name);
  PetscCheck(!(set[0] && model->damping.type == DAMPING_NONE), comm, PETSC_ERR_USER_INPUT,
             "-%s_e: -contact_damping none takes no restitution", name);
  co->set = PETSC_TRUE;
  if (set[0]) PetscCall(DampingSetUp(&co->damping, &model->law, e, 0.0, PETSC_FALSE));
  co->tangential.mu = mu, co->tangential.kt = kt, co->tangential.zeta = zt;
  co->rolling.mu = mur, co->rolling.eta = eta;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every pair of slots: its moduli from its two materials, the defaults
 * overridden by pair_I_J; symmetric. */
static PetscErrorCode ContactCoeffsSetUp(MPI_Comm comm, ContactModel *model)
{
  PetscFunctionBeginUser;
  PetscCall(OptionsSection("Pairs of types"));
  for (PetscInt a = 0; a < MATERIAL_SLOTS; a++)
    for (PetscInt b = 0; b < MATERIAL_SLOTS; b++) {
      ContactCoeff *co = &model->coeff[a][b];
      PetscCall(PetscMemzero(co, sizeof(*co)));
      ContactModuli(&model->mat[a], &model->mat[b], &co->Estar, &co->Gstar);
      co->damping    = model->damping;
      co->tangential = model->tangential;
      co->rolling    = model->rolling;
    }
  for (PetscInt ti = 0; ti < MATERIAL_TYPES; ti++)
    for (PetscInt tj = 0; tj < MATERIAL_TYPES; tj++)
      PetscCall(PairKeys(comm, model, ti, tj, &model->coeff[PetscMin(ti, tj)][PetscMax(ti, tj)]));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  model->several = model->friction = model->rolls = PETSC_FALSE;
  for (PetscInt a = 0; a < MATERIAL_SLOTS; a++)
    for (PetscInt b = 0; b < MATERIAL_SLOTS; b++) {
      if (b < a) model->coeff[a][b] = model->coeff[b][a];
      if (model->coeff[a][b].tangential.mu > 0.0) model->friction = PETSC_TRUE;
      if (model->coeff[a][b].rolling.mu > 0.0) model->rolls = PETSC_TRUE;
      if (model->coeff[a][b].set) model->several = PETSC_TRUE;
    }
  for (PetscInt k = 0; k < MATERIAL_TYPES; k++)
    if (model->mat_set[k]) model->several = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ContactModelSetFromOptions(MPI_Comm comm, ContactModel *model)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(model, sizeof(*model)));
  PetscCall(NormalLawSetFromOptions(comm, model));
  PetscCall(MaterialSetFromOptions(comm, &model->material));
  PetscCall(MaterialsSetFromOptions(comm, model));
  PetscCall(DampingSetFromOptions(comm, model));
  PetscCall(TangentialSetFromOptions(comm, model));
  PetscCall(RollingSetFromOptions(comm, model));
  PetscCall(ContactCoeffsSetUp(comm, model));
  PetscCall(LiquidSetFromOptions(comm, model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StepControlSetFromOptions(MPI_Comm comm, StepControl *ctl)
{
  PetscBool dtset;

  PetscFunctionBeginUser;
  ctl->mode              = TIMESTEP_ADAPTIVE;
  ctl->dt_fixed          = 0.0;
  ctl->steps_per_contact = HDEM_DEFAULT_STEPS_PER_CONTACT;
  ctl->stability_factor  = 0.7;
  ctl->growth            = 1.2;
  ctl->dt_max            = 1.0;
  PetscCall(OptionsSection("Time step"));
  PetscCall(OptionsEnum("-timestep_mode", "adaptive: the global contact bound; fixed: -timestep_dt", TimestepModes,
                        (PetscEnum *)&ctl->mode, NULL));
  PetscCall(OptionsReal("-timestep_dt", "step of the fixed mode", "[s]", 0.0, PETSC_MAX_REAL, RANGE_OPEN,
                        &ctl->dt_fixed, &dtset));
  PetscCall(OptionsInt("-timestep_steps_per_contact", "least number of steps per contact duration N", 1, 1000000000,
                       &ctl->steps_per_contact, NULL));
  PetscCall(OptionsReal("-timestep_stability_factor", "fraction of the tangent-stiffness stability limit 2/w", "[-]",
                        0.0, 1.0, RANGE_OPEN_LO, &ctl->stability_factor, NULL));
  PetscCall(OptionsReal("-timestep_growth", "largest ratio of a step to the previous one", "[-]", 1.0, PETSC_MAX_REAL,
                        RANGE_CLOSED, &ctl->growth, NULL));
  PetscCall(OptionsReal("-timestep_dt_max", "cap on the adaptive step", "[s]", 0.0, PETSC_MAX_REAL, RANGE_OPEN,
                        &ctl->dt_max, NULL));
  PetscCall(OptionsDefaultText("-timestep_dt", "required with mode fixed"));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(ctl->mode == TIMESTEP_FIXED || !dtset, comm, PETSC_ERR_USER_INPUT,
             "-timestep_dt needs -timestep_mode fixed");
  PetscCheck(ctl->mode != TIMESTEP_FIXED || dtset, comm, PETSC_ERR_USER_INPUT,
             "-timestep_mode fixed needs -timestep_dt [s]");
  PetscFunctionReturn(PETSC_SUCCESS);
}
