/* hdem impact: one calibration impact, printed as one JSON object. */
#include "app/commands.h"
#include "contact/contact_options.h"
#include "contact/impact.h"
#include "rigid/rigid_impact.h"
#include "io/json.h"
#include "io/options.h"
#include "decomp/collective.h"

#define IMPACT_MAX_SPEEDS 1024

/* A multi-sphere body instead of the sphere: -impact_body clumpN, its orientation. */
typedef struct {
  PetscInt  body; /* the template's number, -1: the sphere */
  PetscReal q[4];
} ImpactBody;

static PetscErrorCode ImpactBodySetFromOptions(MPI_Comm comm, const ClumpTemplates *ts, const ImpactSetup *set,
                                               ImpactBody *b)
{
  char      name[32] = "sphere";
  PetscInt  nq;
  PetscBool bset;

  PetscFunctionBeginUser;
  b->body = -1;
  b->q[0] = 1.0, b->q[1] = b->q[2] = b->q[3] = 0.0;
  PetscCall(OptionsString("-impact_body",
                          "what strikes: sphere, or a multi-sphere body clumpN (clumpN_*; a wall target)", name,
                          sizeof(name), &bset));
  PetscCall(OptionsRealArray("-impact_orientation",
                             "the body's orientation, a quaternion w, x, y, z from its principal frame (normalised)",
                             "[-]", 4, 4, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, b->q, &nq, NULL));
  if (OptionsCollecting() || !strcmp(name, "sphere")) PetscFunctionReturn(PETSC_SUCCESS);
  {
    char *end;
    long  k = strncmp(name, "clump", 5) ? -1 : strtol(name + 5, &end, 10);
    PetscCheck(k >= 0 && k < CLUMP_TEMPLATES_MAX && name[5] && !*end, comm, PETSC_ERR_USER_INPUT,
               "-impact_body '%s': allowed sphere, clump0 .. clump%d", name, CLUMP_TEMPLATES_MAX - 1);
    PetscCheck(ts->t[k].on, comm, PETSC_ERR_USER_INPUT,
               "-impact_body %s: no such template (give %s_spheres or %s_file)", name, name, name);
    b->body = (PetscInt)k;
  }
  PetscCheck(set->target == IMPACT_TARGET_WALL, comm, PETSC_ERR_USER_INPUT,
             "-impact_body %s strikes a wall: -impact_target wall", name);
  PetscCheck(b->q[0] != 0.0 || b->q[1] != 0.0 || b->q[2] != 0.0 || b->q[3] != 0.0, comm, PETSC_ERR_USER_INPUT,
             "-impact_orientation: not a rotation (all zero)");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ImpactSetupSetFromOptions(MPI_Comm comm, ImpactSetup *set, PetscInt *nv, PetscReal v0[])
{
  PetscBool vset;

  PetscFunctionBeginUser;
  (void)comm;
  set->target    = IMPACT_TARGET_WALL;
  set->v0        = 1.0;
  set->angle     = 0.0;
  set->mass      = 0.0;
  set->radius    = 1e-3;
  set->phase     = 0.5;
  set->max_steps = 10000000;
  set->radius2 = set->density2 = 0.0;
  set->type = set->type2 = 0;
  for (int a = 0; a < 3; a++) set->omega[a] = 0.0;
  v0[0] = set->v0;
  PetscCall(OptionsSection("Impact experiment"));
  PetscCall(OptionsEnum("-impact_target",
                        "what the sphere hits: a wall, or a sphere (centre-of-mass frame; equal unless -impact_radius2 "
                        "or -impact_density2)",
                        ImpactTargets, (PetscEnum *)&set->target, NULL));
  PetscCall(OptionsRealArray("-impact_v0",
                             "relative approach speed; a comma list runs one impact per speed, shared over the ranks",
                             "[m/s]", 1, IMPACT_MAX_SPEEDS, 0.0, PETSC_MAX_REAL, RANGE_OPEN, v0, nv, &vset));
  PetscCall(OptionsReal("-impact_angle", "angle of the incoming velocity from the surface normal", "[deg]", 0.0, 90.0,
                        RANGE_OPEN_HI, &set->angle, NULL));
  PetscCall(OptionsReal("-impact_mass", "effective mass of the contact (1-D checks); 0: from radius and density",
                        "[kg]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &set->mass, NULL));
  PetscCall(
    OptionsReal("-particle_radius", "sphere radius", "[m]", 0.0, PETSC_MAX_REAL, RANGE_OPEN, &set->radius, NULL));
  PetscCall(OptionsReal("-impact_radius2", "radius of the target sphere (default: -particle_radius)", "[m]", 0.0,
                        PETSC_MAX_REAL, RANGE_OPEN, &set->radius2, NULL));
  PetscCall(OptionsReal("-impact_density2", "density of the target sphere (default: its type's)", "[kg/m^3]", 0.0,
                        PETSC_MAX_REAL, RANGE_OPEN, &set->density2, NULL));
  PetscCall(OptionsInt("-impact_type", "material type of the sphere (materialK; its density unless -impact_mass)", 0,
                       LOCAL_INT_MAX, &set->type, NULL));
  PetscCall(
    OptionsInt("-impact_type2", "material type of the target, sphere or wall", 0, LOCAL_INT_MAX, &set->type2, NULL));
  {
    PetscInt nw;
    PetscCall(OptionsRealArray("-impact_omega",
                               "initial angular velocity of the sphere, x, y, z (y turns it in the plane of incidence)",
                               "[rad/s]", 3, 3, -HDEM_SPIN_MAX, HDEM_SPIN_MAX, RANGE_CLOSED, set->omega, &nw, NULL));
  }
  PetscCall(OptionsDefaultText("-impact_radius2", "-particle_radius"));
  PetscCall(OptionsDefaultText("-impact_density2", "the type's"));
  PetscCall(OptionsReal("-impact_phase", "fraction of a step at which first touch falls", "[-]", 0.0, 1.0,
                        RANGE_OPEN_HI, &set->phase, NULL));
  PetscCall(OptionsInt("-impact_max_steps", "give up after this many steps", 1, PETSC_MAX_INT, &set->max_steps, NULL));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  if (!vset) {
    *nv   = 1;
    v0[0] = set->v0;
  }
  PetscCheck(!(set->mass > 0.0 && (set->radius2 > 0.0 || set->density2 > 0.0)), comm, PETSC_ERR_USER_INPUT,
             "-impact_mass sets both bodies' masses: give it without -impact_radius2 and -impact_density2");
  PetscCheck(!((set->radius2 > 0.0 || set->density2 > 0.0) && set->target == IMPACT_TARGET_WALL), comm,
             PETSC_ERR_USER_INPUT, "-impact_radius2 and -impact_density2 are for -impact_target sphere");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void ImpactResultWrite(const ContactModel *model, const ImpactSetup *set, const ImpactResult *r, FILE *fp)
{
  const ContactCoeff *co = ContactCoeffOf(model, set->type, set->type2);
  const Damping      *d  = &co->damping;
  JsonWriter          w;
  JsonBegin(&w, fp);
  JsonReal(&w, "v0", set->v0);
  JsonReal(&w, "e", r->e);
  if (d->e > 0.0) JsonReal(&w, "e_target", d->e);
  else JsonNull(&w, "e_target");
  JsonReal(&w, "t_contact", r->t_contact);
  JsonReal(&w, "delta_max", r->delta_max);
  JsonBool(&w, "tensile", r->tensile);
  JsonInt(&w, "steps", r->steps);
  JsonInt(&w, "contact_steps", r->contact_steps);
  JsonReal(&w, "dt_min", r->dt_min);
  JsonReal(&w, "dt_max", r->dt_max);
  JsonReal(&w, "vn_in", r->vn_in);
  JsonReal(&w, "vt_in", r->vt_in);
  JsonReal(&w, "vn_out", r->vn_out);
  JsonReal(&w, "vt_out", r->vt_out);
  JsonReal(&w, "omega_out", r->omega_out);
  JsonReal(&w, "rebound_angle", r->rebound_angle);
  if (set->angle > 0.0 && co->tangential.mu > 0.0) JsonReal(&w, "et", r->et);
  else JsonNull(&w, "et");
  JsonReal(&w, "mass_effective", r->m);
  JsonReal(&w, "mass_tangential", r->mt);
  JsonString(&w, "law", NormalLawTypes[model->law.type]);
  JsonString(&w, "damping", DampingTypes[d->type]);
  JsonString(&w, "separation", SeparationTypes[d->separation]);
  JsonString(&w, "target", ImpactTargets[set->target]);
  if (d->type == DAMPING_HARMONIC || d->type == DAMPING_LINEAR_DASHPOT) JsonReal(&w, "zeta", d->zeta);
  if (d->type == DAMPING_TSUJI || d->type == DAMPING_TSUJI_MARSHALL) JsonReal(&w, "alpha", d->alpha);
  if (d->type == DAMPING_CONSTANT_DAMPER) JsonReal(&w, "c_hat", d->c_hat);
  JsonReal(&w, "Estar", co->Estar);
  JsonReal(&w, "mu", co->tangential.mu);
  JsonEnd(&w);
}

/* A body's impact as JSON. */
static void RigidResultWrite(const ContactModel *model, const ImpactSetup *set, const ImpactBody *b,
                             const RigidImpactResult *r, FILE *fp)
{
  const ContactCoeff *co = ContactCoeffOf(model, set->type, set->type2);
  JsonWriter          w;
  char                name[16];
  snprintf(name, sizeof(name), "clump%d", (int)b->body);
  JsonBegin(&w, fp);
  JsonString(&w, "body", name);
  JsonReal(&w, "v0", set->v0);
  JsonReal(&w, "angle", set->angle);
  JsonReal(&w, "e", r->e);
  if (co->damping.e > 0.0) JsonReal(&w, "e_target", co->damping.e);
  else JsonNull(&w, "e_target");
  JsonRealArray(&w, "velocity_out", r->v_out, 3);
  JsonRealArray(&w, "angular_velocity_out", r->w_out, 3);
  JsonRealArray(&w, "velocity_impulse", r->v_ref, 3);
  JsonRealArray(&w, "angular_velocity_impulse", r->w_ref, 3);
  JsonReal(&w, "mass", r->mass);
  JsonRealArray(&w, "inertia", r->inertia, 3);
  JsonReal(&w, "mass_normal", r->mass_normal);
  JsonReal(&w, "dt", r->dt);
  JsonInt(&w, "steps", r->steps);
  JsonInt(&w, "spheres_touching", r->spheres);
  JsonString(&w, "damping", DampingTypes[co->damping.type]);
  JsonReal(&w, "mu", co->tangential.mu);
  JsonEnd(&w);
}

#define RIGID_NFIELD 24
static void RigidResultPack(const RigidImpactResult *r, PetscReal *f)
{
  f[0] = r->e, f[1] = r->mass, f[2] = r->mass_normal, f[3] = r->dt, f[4] = (PetscReal)r->steps,
  f[5] = (PetscReal)r->spheres;
  for (int a = 0; a < 3; a++)
    f[6 + a] = r->v_out[a], f[9 + a] = r->w_out[a], f[12 + a] = r->v_ref[a], f[15 + a] = r->w_ref[a],
          f[18 + a] = r->inertia[a];
  f[21] = f[22] = f[23] = 0.0;
}

static void RigidResultUnpack(const PetscReal *f, RigidImpactResult *r)
{
  r->e = f[0], r->mass = f[1], r->mass_normal = f[2], r->dt = f[3], r->steps = (PetscInt)f[4],
  r->spheres = (PetscInt)f[5];
  for (int a = 0; a < 3; a++)
    r->v_out[a] = f[6 + a], r->w_out[a] = f[9 + a], r->v_ref[a] = f[12 + a], r->w_ref[a] = f[15 + a],
    r->inertia[a] = f[18 + a];
}

/* The fields of ImpactResult that travel between ranks, in order. */
#define IMPACT_NFIELD 18
static void ImpactResultPack(const ImpactResult *r, PetscReal *buf)
{
  PetscReal f[IMPACT_NFIELD] = {r->e,
                                r->t_contact,
                                r->delta_max,
                                (PetscReal)r->tensile,
                                (PetscReal)r->steps,
                                (PetscReal)r->contact_steps,
                                r->dt_min,
                                r->dt_max,
                                r->vn_in,
                                r->vt_in,
                                r->vn_out,
                                r->vt_out,
                                r->omega_out,
                                r->rebound_angle,
                                r->et,
                                r->m,
                                r->mt,
                                r->v_imp};
  for (int i = 0; i < IMPACT_NFIELD; i++) buf[i] = f[i];
}

static void ImpactResultUnpack(const PetscReal *f, ImpactResult *r)
{
  r->e = f[0], r->t_contact = f[1], r->delta_max = f[2], r->tensile = f[3] != 0.0 ? PETSC_TRUE : PETSC_FALSE;
  r->steps = (PetscInt)f[4], r->contact_steps = (PetscInt)f[5], r->dt_min = f[6], r->dt_max = f[7];
  r->vn_in = f[8], r->vt_in = f[9], r->vn_out = f[10], r->vt_out = f[11], r->omega_out = f[12];
  r->rebound_angle = f[13], r->et = f[14], r->m = f[15], r->mt = f[16], r->v_imp = f[17];
}

/* The impacts, one per speed (the sphere's, or the body's when b->body >= 0):
 * round-robin over the ranks, gathered on rank 0 and printed in speed order. */
static PetscErrorCode ImpactSpeeds(MPI_Comm comm, const ContactModel *model, const StepControl *ctl, ImpactSetup *set,
                                   const ClumpTemplates *ts, const ImpactBody *b, PetscInt nv, const PetscReal v0[])
{
  const PetscInt   nf = b->body >= 0 ? RIGID_NFIELD : IMPACT_NFIELD;
  PetscMPIInt      rank, size;
  PetscReal       *buf;
  RigidImpactSetup rs;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, &size));
  PetscCall(PetscMemzero(&rs, sizeof(rs)));
  if (b->body >= 0) {
    rs.tmpl = &ts->t[b->body], rs.density = ContactMaterialOf(model, set->type)->density, rs.type = set->type,
    rs.type2 = set->type2;
    rs.angle = set->angle, rs.phase = set->phase, rs.max_steps = set->max_steps;
    for (int a = 0; a < 4; a++) rs.q[a] = b->q[a];
    for (int a = 0; a < 3; a++) rs.omega[a] = set->omega[a];
  }
  PetscCall(PetscCalloc1(nv * nf, &buf));
  for (PetscInt i = rank; i < nv; i += size) {
    if (b->body >= 0) {
      RigidImpactResult res;
      rs.v0 = v0[i];
      PetscCall(RigidImpactRun(model, ctl, &rs, &res));
      RigidResultPack(&res, buf + i * nf);
    } else {
      ImpactResult res;
      set->v0 = v0[i];
      PetscCall(ImpactRun(model, ctl, set, &res));
      ImpactResultPack(&res, buf + i * nf);
    }
  }
  PetscCall(CollectiveSumToRoot(comm, buf, nv * nf));
  if (rank == 0) {
    if (nv > 1) printf("[\n");
    for (PetscInt i = 0; i < nv; i++) {
      set->v0 = v0[i];
      if (b->body >= 0) {
        RigidImpactResult res;
        RigidResultUnpack(buf + i * nf, &res);
        RigidResultWrite(model, set, b, &res, stdout);
      } else {
        ImpactResult res;
        ImpactResultUnpack(buf + i * nf, &res);
        ImpactResultWrite(model, set, &res, stdout);
      }
      printf(i < nv - 1 ? ",\n" : "\n");
    }
    if (nv > 1) printf("]\n");
    fflush(stdout);
  }
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CommandImpact(MPI_Comm comm, PetscBool help)
{
  ContactModel   model;
  StepControl    ctl;
  ClumpTemplates clumps;
  ImpactBody     body;
  ImpactSetup    set;
  PetscInt       nv;
  PetscReal      v0[IMPACT_MAX_SPEEDS];

  PetscFunctionBeginUser;
  OptionsSetCollect(PETSC_TRUE); /* every key once, values unread: help, and unknown keys first */
  PetscCall(ContactModelSetFromOptions(comm, &model));
  PetscCall(StepControlSetFromOptions(comm, &ctl));
  PetscCall(ImpactSetupSetFromOptions(comm, &set, &nv, v0));
  PetscCall(ClumpTemplatesSetFromOptions(comm, &clumps));
  PetscCall(ImpactBodySetFromOptions(comm, &clumps, &set, &body));
  PetscCall(ContactModelDestroy(&model));
  PetscCall(ClumpTemplatesDestroy(&clumps));
  OptionsSetCollect(PETSC_FALSE);
  if (help) {
    PetscCall(PetscPrintf(comm, "usage: hdem impact [-key value ...] [-options_file_yaml DECK.yaml]\n"
                                "One calibration impact per speed (a sphere on a wall or on another sphere, of any two "
                                "material types), each a JSON object on standard output.\n"
                                "Keys as a deck writes them (YAML, nested at underscores: contact: {e: 0.5} is "
                                "contact_e) or on the command line. Units are SI.\n"));
    PetscCall(OptionsPrintHelp(comm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(OptionsCheckUnused(comm));
  PetscCall(ContactModelSetFromOptions(comm, &model));
  PetscCall(StepControlSetFromOptions(comm, &ctl));
  PetscCall(ImpactSetupSetFromOptions(comm, &set, &nv, v0));
  PetscCall(ClumpTemplatesSetFromOptions(comm, &clumps));
  PetscCall(ImpactBodySetFromOptions(comm, &clumps, &set, &body));
  PetscCall(ImpactSpeeds(comm, &model, &ctl, &set, &clumps, &body, nv, v0));
  PetscCall(ClumpTemplatesDestroy(&clumps));
  PetscCall(ContactModelDestroy(&model));
  PetscFunctionReturn(PETSC_SUCCESS);
}
