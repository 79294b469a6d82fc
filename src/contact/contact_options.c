/* Reading a contact model and a step controller from the options database
 * (deck keys contact_*, material_*, particle_*, timestep_*). */
#include "contact/contact_options.h"
#include "io/options.h"
#include "io/table.h"

static PetscErrorCode NormalLawSetFromOptions(MPI_Comm comm, ContactModel *model)
{
  NormalLawType type = NORMAL_LAW_HERTZ;
  PetscReal     k = 0.0, p = 1.5, pk[NORMAL_LAW_MAX_TERMS], pp[NORMAL_LAW_MAX_TERMS];
  PetscInt      nk = NORMAL_LAW_MAX_TERMS, np = NORMAL_LAW_MAX_TERMS, ntd = 4096, ntf = 4096;
  PetscReal    *td, *tf;
  PetscBool     kset, pset, pkset, ppset, tdset, tfset, fileset;
  char          file[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(ntd, &td, ntf, &tf));
  PetscOptionsBegin(comm, NULL, "Normal contact law", NULL);
  PetscCall(PetscOptionsEnum("-contact_law", "normal contact law", NULL, NormalLawTypes, (PetscEnum)type, (PetscEnum *)&type, NULL));
  PetscCall(OptionsCheckSyntax("-contact_k", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-contact_k", "law stiffness k of F = k d^p [N/m^p]; hertz: default (4/3) E* sqrt(R*) from the material", NULL, k, &k, &kset));
  PetscCall(OptionsCheckSyntax("-contact_p", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-contact_p", "power-law exponent p >= 1 (law power)", NULL, p, &p, &pset));
  PetscCall(OptionsCheckList("-contact_poly_k", PETSC_FALSE, 1, NORMAL_LAW_MAX_TERMS));
  PetscCall(PetscOptionsRealArray("-contact_poly_k", "coefficients k1,k2,.. of F = sum k_i d^p_i [N/m^p_i] (law poly)", NULL, pk, &nk, &pkset));
  PetscCall(OptionsCheckList("-contact_poly_p", PETSC_FALSE, 1, NORMAL_LAW_MAX_TERMS));
  PetscCall(PetscOptionsRealArray("-contact_poly_p", "exponents p1,p2,.. >= 1 (law poly)", NULL, pp, &np, &ppset));
  PetscCall(OptionsCheckList("-contact_table_delta", PETSC_FALSE, 1, 4096));
  PetscCall(PetscOptionsRealArray("-contact_table_delta", "overlaps of the tabulated law, from 0, increasing [m] (law table)", NULL, td, &ntd, &tdset));
  PetscCall(OptionsCheckList("-contact_table_force", PETSC_FALSE, 1, 4096));
  PetscCall(PetscOptionsRealArray("-contact_table_force", "forces at those overlaps, from 0, increasing [N] (law table)", NULL, tf, &ntf, &tfset));
  PetscCall(PetscOptionsString("-contact_table_file", "two-column file: overlap [m], force [N] (law table)", NULL, "", file, sizeof(file), &fileset));
  PetscOptionsEnd();

  model->hertz_from_material = PETSC_FALSE;
  switch (type) {
  case NORMAL_LAW_LINEAR:
  case NORMAL_LAW_POWER:
    PetscCheck(kset, comm, PETSC_ERR_USER_INPUT, "-contact_law %s needs -contact_k [N/m^p]", NormalLawTypes[type]);
    PetscCall(OptionsCheckReal("contact_k", k, 0.0, PETSC_MAX_REAL, RANGE_OPEN, "[N/m^p]"));
    if (type == NORMAL_LAW_LINEAR) p = 1.0;
    else PetscCall(OptionsCheckReal("contact_p", p, 1.0, 1e3, RANGE_CLOSED, "[-]"));
    PetscCall(NormalLawCreatePoly(type, 1, &k, &p, &model->law));
    break;
  case NORMAL_LAW_HERTZ:
    PetscCheck(!pset, comm, PETSC_ERR_USER_INPUT, "-contact_p is for -contact_law power; hertz has p = 1.5");
    if (kset) PetscCall(OptionsCheckReal("contact_k", k, 0.0, PETSC_MAX_REAL, RANGE_OPEN, "[N/m^1.5]"));
    else {
      k                          = 1.0;
      model->hertz_from_material = PETSC_TRUE;
    }
    p = 1.5;
    PetscCall(NormalLawCreatePoly(type, 1, &k, &p, &model->law));
    break;
  case NORMAL_LAW_POLY:
    PetscCheck(pkset && ppset, comm, PETSC_ERR_USER_INPUT, "-contact_law poly needs -contact_poly_k and -contact_poly_p");
    PetscCheck(nk == np, comm, PETSC_ERR_USER_INPUT, "-contact_poly_k has %" PetscInt_FMT " values but -contact_poly_p has %" PetscInt_FMT, nk, np);
    for (PetscInt i = 0; i < nk; i++) {
      PetscCall(OptionsCheckReal("contact_poly_k", pk[i], 0.0, PETSC_MAX_REAL, RANGE_OPEN, "[N/m^p]"));
      PetscCall(OptionsCheckReal("contact_poly_p", pp[i], 1.0, 1e3, RANGE_CLOSED, "[-]"));
    }
    PetscCall(NormalLawCreatePoly(type, nk, pk, pp, &model->law));
    break;
  case NORMAL_LAW_TABLE:
    if (fileset) {
      PetscInt   n;
      PetscReal *x, *y;
      PetscCheck(!tdset && !tfset, comm, PETSC_ERR_USER_INPUT, "give either -contact_table_file or -contact_table_delta/-contact_table_force, not both");
      PetscCall(TableRead(comm, file, &n, &x, &y));
      PetscCall(NormalLawCreateTable(n, x, y, &model->law));
      PetscCall(PetscFree2(x, y));
    } else {
      PetscCheck(tdset && tfset, comm, PETSC_ERR_USER_INPUT, "-contact_law table needs -contact_table_file, or -contact_table_delta and -contact_table_force");
      PetscCheck(ntd == ntf, comm, PETSC_ERR_USER_INPUT, "-contact_table_delta has %" PetscInt_FMT " values but -contact_table_force has %" PetscInt_FMT, ntd, ntf);
      PetscCall(NormalLawCreateTable(ntd, td, tf, &model->law));
    }
    break;
  }
  PetscCheck(!(pkset || ppset) || type == NORMAL_LAW_POLY, comm, PETSC_ERR_USER_INPUT, "-contact_poly_k/-contact_poly_p are for -contact_law poly");
  PetscCheck(!(tdset || tfset || fileset) || type == NORMAL_LAW_TABLE, comm, PETSC_ERR_USER_INPUT, "-contact_table_* are for -contact_law table");
  PetscCheck(!pset || type == NORMAL_LAW_POWER, comm, PETSC_ERR_USER_INPUT, "-contact_p is for -contact_law power");
  PetscCall(PetscFree2(td, tf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MaterialSetFromOptions(MPI_Comm comm, Material *mat)
{
  PetscFunctionBeginUser;
  mat->E       = 6.3e10;
  mat->nu      = 0.22;
  mat->density = 2500.0;
  PetscOptionsBegin(comm, NULL, "Material", NULL);
  PetscCall(PetscOptionsReal("-material_E", "Young's modulus E [Pa] (Hertz stiffness, Mindlin tangential stiffness)", NULL, mat->E, &mat->E, NULL));
  PetscCall(OptionsCheckSyntax("-material_nu", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-material_nu", "Poisson ratio nu [-]", NULL, mat->nu, &mat->nu, NULL));
  PetscCall(OptionsCheckSyntax("-particle_density", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-particle_density", "particle density [kg/m^3]", NULL, mat->density, &mat->density, NULL));
  PetscOptionsEnd();
  PetscCall(OptionsCheckReal("material_E", mat->E, 0.0, PETSC_MAX_REAL, RANGE_OPEN, "[Pa]"));
  PetscCall(OptionsCheckReal("material_nu", mat->nu, -1.0, 0.5, RANGE_OPEN_LO, "[-]"));
  PetscCall(OptionsCheckReal("particle_density", mat->density, 0.0, PETSC_MAX_REAL, RANGE_OPEN, "[kg/m^3]"));
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
  PetscOptionsBegin(comm, NULL, "Normal damping", NULL);
  PetscCall(PetscOptionsEnum("-contact_damping", "normal damping law", NULL, DampingTypes, (PetscEnum)dmp->type, (PetscEnum *)&dmp->type, NULL));
  PetscCall(OptionsCheckSyntax("-contact_e", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-contact_e", "target normal restitution e in (0, 1] [-]", NULL, e, &e, &eset));
  PetscCall(OptionsCheckSyntax("-contact_damping_coeff", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-contact_damping_coeff", "raw damping coefficient instead of -contact_e: harmonic zeta [-], tsuji alpha [-], Hunt-Crossley D [s/m], constant_damper/linear_dashpot c [N s/m]", NULL, coeff, &coeff, &cset));
  PetscCall(PetscOptionsEnum("-contact_separation", "overlap: force not clipped, contact ends at d = 0; force: normal force clipped at zero", NULL, SeparationTypes, (PetscEnum)dmp->separation, (PetscEnum *)&dmp->separation, NULL));
  PetscCall(OptionsCheckSyntax("-contact_v_imp_min", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-contact_v_imp_min", "floor on the impact speed of the speed-scaled laws (Hunt-Crossley family, constant_damper) [m/s]", NULL, dmp->v_imp_min, &dmp->v_imp_min, NULL));
  PetscOptionsEnd();
  PetscCheck(!(eset && cset), comm, PETSC_ERR_USER_INPUT, "give either -contact_e or -contact_damping_coeff, not both");
  PetscCheck(!(dmp->type == DAMPING_NONE && (eset || cset)), comm, PETSC_ERR_USER_INPUT, "-contact_damping none takes neither -contact_e nor -contact_damping_coeff");
  PetscCall(OptionsCheckReal("contact_e", e, 0.0, 1.0, RANGE_OPEN_LO, "[-]"));
  if (cset) PetscCall(OptionsCheckReal("contact_damping_coeff", coeff, 0.0, PETSC_MAX_REAL, RANGE_CLOSED, ""));
  PetscCall(OptionsCheckReal("contact_v_imp_min", dmp->v_imp_min, 0.0, PETSC_MAX_REAL, RANGE_OPEN, "[m/s]"));
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
  PetscOptionsBegin(comm, NULL, "Tangential contact", NULL);
  PetscCall(OptionsCheckSyntax("-contact_mu", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-contact_mu", "Coulomb friction coefficient mu [-]; 0 disables the tangential spring", NULL, tg->mu, &tg->mu, NULL));
  PetscCall(PetscOptionsEnum("-contact_tangential_stiffness", "constant kt, or Mindlin kt = 8 G* sqrt(R* d)", NULL, TangentialStiffnessTypes, (PetscEnum)tg->stiffness, (PetscEnum *)&tg->stiffness, NULL));
  PetscCall(OptionsCheckSyntax("-contact_kt", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-contact_kt", "constant tangential stiffness [N/m] (default 2/7 of a linear law's k)", NULL, tg->kt, &tg->kt, &ktset));
  PetscCall(OptionsCheckSyntax("-contact_tangential_damping", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-contact_tangential_damping", "damping ratio of the tangential spring [-]", NULL, tg->zeta, &tg->zeta, NULL));
  PetscOptionsEnd();
  PetscCall(OptionsCheckReal("contact_mu", tg->mu, 0.0, PETSC_MAX_REAL, RANGE_CLOSED, "[-]"));
  PetscCall(OptionsCheckReal("contact_tangential_damping", tg->zeta, 0.0, PETSC_MAX_REAL, RANGE_CLOSED, "[-]"));
  if (tg->stiffness == TANGENTIAL_CONSTANT && tg->mu > 0.0) {
    PetscCheck(tg->kt > 0.0 || ktset, comm, PETSC_ERR_USER_INPUT, "-contact_tangential_stiffness constant with -contact_law %s needs -contact_kt [N/m]", NormalLawTypes[model->law.type]);
    PetscCall(OptionsCheckReal("contact_kt", tg->kt, 0.0, PETSC_MAX_REAL, RANGE_OPEN, "[N/m]"));
  }
  PetscCheck(!(ktset && tg->stiffness == TANGENTIAL_MINDLIN), comm, PETSC_ERR_USER_INPUT, "-contact_kt is for -contact_tangential_stiffness constant");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ContactModelSetFromOptions(MPI_Comm comm, ContactModel *model)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(model, sizeof(*model)));
  PetscCall(NormalLawSetFromOptions(comm, model));
  PetscCall(MaterialSetFromOptions(comm, &model->material));
  PetscCall(DampingSetFromOptions(comm, model));
  PetscCall(TangentialSetFromOptions(comm, model));
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
  PetscOptionsBegin(comm, NULL, "Time step", NULL);
  PetscCall(PetscOptionsEnum("-timestep_mode", "adaptive: the global contact bound; fixed: -timestep_dt", NULL, TimestepModes, (PetscEnum)ctl->mode, (PetscEnum *)&ctl->mode, NULL));
  PetscCall(OptionsCheckSyntax("-timestep_dt", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-timestep_dt", "step of the fixed mode [s]", NULL, ctl->dt_fixed, &ctl->dt_fixed, &dtset));
  PetscCall(OptionsCheckSyntax("-timestep_steps_per_contact", PETSC_TRUE));
  PetscCall(PetscOptionsInt("-timestep_steps_per_contact", "least number of steps per contact duration N [-]", NULL, ctl->steps_per_contact, &ctl->steps_per_contact, NULL));
  PetscCall(OptionsCheckSyntax("-timestep_stability_factor", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-timestep_stability_factor", "fraction of the tangent-stiffness stability limit 2/w [-]", NULL, ctl->stability_factor, &ctl->stability_factor, NULL));
  PetscCall(OptionsCheckSyntax("-timestep_growth", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-timestep_growth", "largest ratio of a step to the previous one [-]", NULL, ctl->growth, &ctl->growth, NULL));
  PetscCall(OptionsCheckSyntax("-timestep_dt_max", PETSC_FALSE));
  PetscCall(PetscOptionsReal("-timestep_dt_max", "cap on the adaptive step [s]", NULL, ctl->dt_max, &ctl->dt_max, NULL));
  PetscOptionsEnd();
  PetscCheck(ctl->mode == TIMESTEP_FIXED || !dtset, comm, PETSC_ERR_USER_INPUT, "-timestep_dt needs -timestep_mode fixed");
  if (ctl->mode == TIMESTEP_FIXED) {
    PetscCheck(dtset, comm, PETSC_ERR_USER_INPUT, "-timestep_mode fixed needs -timestep_dt [s]");
    PetscCall(OptionsCheckReal("timestep_dt", ctl->dt_fixed, 0.0, PETSC_MAX_REAL, RANGE_OPEN, "[s]"));
  }
  PetscCall(OptionsCheckInt("timestep_steps_per_contact", ctl->steps_per_contact, 1, 1000000000));
  PetscCall(OptionsCheckReal("timestep_stability_factor", ctl->stability_factor, 0.0, 1.0, RANGE_OPEN_LO, "[-]"));
  PetscCall(OptionsCheckReal("timestep_growth", ctl->growth, 1.0, PETSC_MAX_REAL, RANGE_CLOSED, "[-]"));
  PetscCall(OptionsCheckReal("timestep_dt_max", ctl->dt_max, 0.0, PETSC_MAX_REAL, RANGE_OPEN, "[s]"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
