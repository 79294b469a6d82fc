/* A contact model (normal law + damping + separation + tangential) and the
 * evaluation of one contact between two bodies, or a body and a wall.
 *
 * Orientation: the normal n points from body j to body i, relative
 * velocities are v_i - v_j, and the returned force acts on i (j receives
 * its opposite).
 *
 * Velocity Verlet knows the half-step velocity, which is exactly the motion
 * over the step, so the tangential spring is stretched with it; dashpots
 * instead take the velocity predicted at the step's end, v + (dt/2) a_old,
 * which makes the damping force second-order accurate (with the half-step
 * velocity alone, restitution is off by O(dt)).
 *
 * Where the normal force jumps (a linear term with damping at first touch,
 * the tensile tail of 'overlap' at separation), velocity Verlet misplaces an
 * impulse of order F dt.  The first step of a contact therefore weighs its
 * force so that it carries the impulse of the part of the step spent in
 * contact, and the step that finds the pair apart again (ContactSeparate)
 * adds the impulse of the tail between the last step and the separation;
 * both from the law's own integrals (U and int C), the overlap moving at the
 * current rate.  Restitution is then second-order accurate for every law. */
#ifndef HDEM_CONTACT_H
#define HDEM_CONTACT_H

#define CONTACT_OVERLAP_LIMIT 0.5 /* overlap over the smaller radius beyond which a run has failed */

#include "contact/damping.h"
#include "decomp/records.h"

typedef enum {
  TANGENTIAL_CONSTANT,
  TANGENTIAL_MINDLIN
} TangentialStiffnessType;

PETSC_EXTERN const char *const TangentialStiffnessTypes[];

/* What the tangential history holds: the accumulated shear displacement,
 * the force its current stiffness gives (Cundall-Strack), or the force
 * itself, incremented with the stiffness of each moment; for
 * Mindlin-Deresiewicz the force too, with the stiffness of its loading,
 * unloading or reloading branch (tangential_md.c). */
typedef enum {
  TANGENTIAL_SHEAR_DISPLACEMENT,
  TANGENTIAL_INCREMENTAL,
  TANGENTIAL_MINDLIN_DERESIEWICZ
} TangentialModel;

PETSC_EXTERN const char *const TangentialModels[];

typedef struct {
  /* Young's modulus [Pa] (inf: rigid, walls only), Poisson ratio, density [kg/m^3] */
  PetscReal E, nu, density;
  PetscReal liquid;   /* liquid volume of each of its particles at insertion [m^3] */
  PetscReal moisture; /* or its moisture content: liquid mass over wet mass [-], 0: none */
} Material;

/* Particle and wall types 0 .. MATERIAL_TYPES - 1 may have materials and
 * pair coefficients of their own; every other type has the defaults, in
 * the table's last slot. */
#define MATERIAL_TYPES 16
#define MATERIAL_SLOTS (MATERIAL_TYPES + 1)
static inline PetscInt MaterialSlot(PetscInt type)
{
  return type >= 0 && type < MATERIAL_TYPES ? type : MATERIAL_TYPES;
}

typedef struct {
  PetscReal               mu; /* Coulomb friction coefficient; 0 disables the spring */
  TangentialStiffnessType stiffness;
  TangentialModel         model;
  PetscReal               kt;   /* constant stiffness [N/m] */
  PetscReal               zeta; /* damping ratio of the tangential oscillator */
} Tangential;

typedef enum {
  ROLLING_EPSD,
  ROLLING_CONSTANT
} RollingType;

PETSC_EXTERN const char *const RollingTypes[];

/* Rolling resistance: a torque against the relative rolling of the two
 * bodies, at most mu R* Fn.  epsd: the elastic-plastic spring-dashpot of Ai,
 * Chen, Rotter & Ooi (Powder Technol. 206 (2011) 269, "type C"); constant:
 * the full torque against the rolling direction (their "type A"). */
typedef struct {
  PetscReal   mu;  /* rolling friction coefficient; 0: none */
  PetscReal   eta; /* epsd: damping ratio of the rolling oscillator */
  RollingType type;
} Rolling;

/* What a pair of types has of its own: the two-material moduli, its
 * damping (from its restitution) and its tangential spring. */
typedef struct {
  /* 1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2, 1/G* = (2 - nu1)/G1 + (2 - nu2)/G2 [Pa] */
  PetscReal  Estar, Gstar;
  Damping    damping;
  Tangential tangential;
  Rolling    rolling;
  PetscBool  set; /* some coefficient given for this pair (pair_I_J) */
} ContactCoeff;

typedef enum {
  LIQUID_WILLETT,
  LIQUID_WILLETT_SIMPLE
} LiquidForceType;

PETSC_EXTERN const char *const LiquidForceTypes[];

/* Capillary liquid bridges (contact/liquid.h): one model for every pair. */
typedef struct {
  PetscBool       on;        /* some material has liquid: particles carry a liquid field */
  PetscReal       gamma;     /* surface tension [N/m] */
  PetscReal       theta;     /* contact angle [rad] */
  PetscReal       viscosity; /* [Pa s]; 0: no lubrication force */
  PetscReal       fraction;  /* share of each particle's liquid a new bridge takes */
  PetscReal       vmax;      /* largest bridge volume [m^3] */
  PetscReal       cutoff;    /* lubrication's least separation over R* */
  PetscReal       reach;     /* rupture distance of the largest bridge [m] */
  PetscReal       density;   /* of the liquid, for moisture contents [kg/m^3] */
  PetscBool       vmax_set;  /* liquid_bridge_max given; else with moisture, set from the largest particle */
  LiquidForceType force;
} Liquid;

typedef struct {
  NormalLaw    law;
  PetscBool    hertz_from_material; /* Hertz with k = (4/3) E* sqrt(R*) per pair */
  Damping      damping;             /* the defaults of every pair */
  Tangential   tangential;
  Rolling      rolling;
  Liquid       liquid;
  Material     material;            /* the default material (key material_*) */
  Material     mat[MATERIAL_SLOTS]; /* each type's (materialK_*), the default's last */
  PetscBool    mat_set[MATERIAL_TYPES];
  ContactCoeff coeff[MATERIAL_SLOTS][MATERIAL_SLOTS]; /* by slot, symmetric */
  PetscBool    friction;                              /* some pair has mu > 0 */
  PetscBool    rolls;                                 /* some pair has rolling resistance */
  PetscBool    several;                               /* some type has a material or pair coefficients of its own */
  /* the energy ledger is kept: the kernel gives its powers (thermo_ledger, the engine's) */
  PetscBool ledger;
} ContactModel;

/* Constants of one pair, fixed while the two bodies keep their shapes. */
typedef struct {
  PetscReal s;      /* normal-law scale */
  PetscReal m;      /* effective mass along the normal [kg] */
  PetscReal mt;     /* effective mass of the tangential contact-point motion [kg] */
  PetscReal Rstar;  /* effective radius [m] */
  PetscReal Gstar;  /* effective shear modulus [Pa] (Mindlin) */
  PetscReal ri, rj; /* lever arms from each centre to the contact point [m] */
  PetscReal Ir;     /* rolling inertia, 1/Ir = 1/(I_i + m_i ri^2) + 1/(I_j + m_j rj^2) [kg m^2] */
  /* tangential spring and damper, kt = kc d^(1/2) and gt = gc d^(1/4) (Mindlin)
   * or kt = kc and gt = gc (constant): the roots that depend on the pair alone */
  PetscReal           kc, gc;
  const ContactCoeff *co; /* the coefficients of the pair's types */
} ContactPair;

/* What a contact remembers from step to step: its tangential spring and the
 * normal speed at first touch (the speed-scaled damping laws need it). */
typedef struct {
  PetscReal  xi[3];
  PetscReal  v_imp;
  PetscReal  d_last, Fn_last, dt_last; /* overlap, normal force and step of the last step */
  PetscInt64 touched;
} ContactHistory;

/* The rolling spring (epsd), kept beside the history only in runs with
 * rolling resistance, so that a history stays two rows of four reals. */
typedef struct {
  PetscReal mr[3]; /* its torque on i [N m] */
} ContactRolling;

/* The Mindlin-Deresiewicz spring's memory (tangential_md.c), kept beside
 * the history only in runs with that model. */
typedef struct {
  PetscReal ts[3];    /* T*: the elastic force where loading last turned to unloading [N] */
  PetscReal tss[3];   /* T**: where unloading last turned to reloading [N] */
  PetscReal dlast[3]; /* the last step's tangential displacement increment [m] */
  PetscReal mun;      /* mu N at the last step [N] */
  /* 0 loading; unloading -1, reloading +1 in a loop from the virgin curve, -2, +2 inside one */
  PetscReal phase;
  PetscReal spare; /* unused, zero: three rows of four reals, which the lanes move whole */
} ContactTurning;

/* A pair's liquid bridge, kept beside the history only in wet runs; it
 * outlives the contact until it ruptures. */
typedef struct {
  PetscReal V; /* its liquid volume [m^3]; 0: none */
} ContactBridge;

/* A history as records carry it between ranks and into checkpoints. */
typedef struct {
  ContactHistory h;
  ContactRolling r;
  ContactBridge  b;
  ContactTurning t;
} ContactRecord;

/* Its fields as checkpoints name them (decomp/records.h), offsets in a ContactRecord: the history's, then each
 * side state's (ContactSides), named with its prefix. */
PETSC_EXTERN const RecordField ContactHistoryFields[];

/* The contact states kept beside the history, slot for slot, in the runs that need them: a new one (twisting,
 * cohesion hysteresis, wear) is a member of ContactRecord, a row of ContactSides, its fields in
 * ContactHistoryFields, and its kernel code.  A checkpoint older than the format that brought a state is read with
 * the state zero. */
typedef enum {
  CONTACT_SIDE_ROLLING, /* ContactRolling: rolling resistance (epsd) */
  CONTACT_SIDE_BRIDGE,  /* ContactBridge: liquid bridges */
  CONTACT_SIDE_TURNING, /* ContactTurning: the Mindlin-Deresiewicz spring's turning points */
  CONTACT_SIDES
} ContactSide;

typedef struct {
  const char *name;
  size_t      size;   /* bytes per contact */
  size_t      offset; /* in a ContactRecord */
  PetscBool (*enabled)(const ContactModel *);
  const char *prefix; /* its fields' names in ContactHistoryFields begin so */
  PetscInt    since;  /* the checkpoint format (CHECKPOINT_VERSION) that first kept it */
  size_t      spare;  /* bytes at its end that no field names and no checkpoint keeps (zero) */
} ContactSideState;

PETSC_EXTERN const ContactSideState ContactSides[CONTACT_SIDES];

typedef struct {
  PetscReal F[3];   /* force on i [N] */
  PetscReal Ti[3];  /* torque on i [N m] */
  PetscReal Tj[3];  /* torque on j [N m] */
  PetscReal Fn;     /* normal force as applied (clipped for 'force') */
  PetscReal Fn_raw; /* elastic + damping, unclipped */
  PetscReal U;      /* elastic energy [J] */
  PetscReal ddot;   /* overlap rate [m/s] */
  PetscReal P[3];   /* the ledger's powers [W]: normal beyond elastic, tangential, rolling (kernel.h) */
  /* the ledger's normal work where the step's trapezoid of P misses it: a first touch's, a separation's [J] */
  PetscReal W;
} ContactResult;

PETSC_EXTERN PetscErrorCode ContactModelDestroy(ContactModel *);
/* A pair of bodies of types ti and tj (a wall's type for a wall). */
PETSC_EXTERN void ContactPairSetUp(const ContactModel *, PetscInt ti, PetscInt tj, PetscReal Ri, PetscReal mi,
                                   PetscReal Ii, PetscReal Rj, PetscReal mj, PetscReal Ij, PetscBool wall,
                                   ContactPair *);
/* The coefficients of the pair of types ti, tj. */
static inline const ContactCoeff *ContactCoeffOf(const ContactModel *m, PetscInt ti, PetscInt tj)
{
  return &m->coeff[MaterialSlot(ti)][MaterialSlot(tj)];
}
/* The material of type t. */
static inline const Material *ContactMaterialOf(const ContactModel *m, PetscInt t)
{
  return &m->mat[MaterialSlot(t)];
}
/* kc and gc from the pair's mt (again after changing mt) */
PETSC_EXTERN void      ContactPairTangential(const ContactModel *, ContactPair *);
PETSC_EXTERN PetscReal ContactTangentialStiffness(const ContactModel *, const ContactPair *, PetscReal d);
/* The epsd rolling stiffness k_r = 2.25 kn mu_r^2 R*^2 for the normal stiffness kn. */
PETSC_EXTERN PetscReal ContactRollingStiffness(const ContactPair *, PetscReal kn);
typedef struct {
  PetscReal n[3], d;               /* normal j -> i, overlap [m] */
  PetscReal v[3], wi[3], wj[3];    /* half-step relative and angular velocities */
  PetscReal vp[3], wip[3], wjp[3]; /* the same predicted at the end of the step */
  /* a wall's velocity at the contact point, predicted (the ledger's work of walls) */
  PetscReal vw[3];
} ContactKinematics;

/* The unit normal r / |r| (one division), shared by every path that forms it. */
static inline void ContactNormal(const PetscReal r[3], PetscReal len, PetscReal n[3])
{
  PetscReal inv = 1.0 / len;
  for (int a = 0; a < 3; a++) n[a] = r[a] * inv;
}

/* What the contact kernel (kernel.h) takes of the model: the same for every
 * contact (each contact's friction coefficient is its pair's). */
typedef struct {
  PetscBool clip;        /* separation 'force': the normal force is clipped at zero */
  PetscBool friction;    /* some pair has mu > 0: the spring runs (with mu = 0 it holds no force) */
  PetscBool mindlin;     /* kt = kc d^(1/2), gt = gc d^(1/4), else kt = kc, gt = gc */
  PetscBool incremental; /* the history is the elastic force (TANGENTIAL_INCREMENTAL) */
  PetscBool ledger;      /* the energy ledger's powers wanted */
} ContactKernelModel;

static inline ContactKernelModel ContactKernelModelOf(const ContactModel *m)
{
  ContactKernelModel km = {m->damping.separation == SEPARATION_FORCE ? PETSC_TRUE : PETSC_FALSE, m->friction,
                           m->tangential.stiffness == TANGENTIAL_MINDLIN ? PETSC_TRUE : PETSC_FALSE,
                           m->tangential.model == TANGENTIAL_INCREMENTAL ? PETSC_TRUE : PETSC_FALSE, m->ledger};
  return km;
}

/* How the kernel forms a contact's elastic force and damping coefficient (kernel.h, Normal): the law and the
 * damping classed by the arithmetic they take, the same for every contact.  What no class covers (a law of several
 * terms or a table; the constant damper calibrated from e) the kernel takes contact by contact from NormalLawEval
 * and DampingCoefficient, so no choice of law or damping leaves the kernel. */
typedef enum {
  CONTACT_LAW_HERTZ,  /* s k d^1.5 */
  CONTACT_LAW_LINEAR, /* s k d */
  CONTACT_LAW_POWER,  /* s k d^p */
  CONTACT_LAW_OTHER   /* NormalLawEval */
} ContactLawKind;

typedef enum {
  CONTACT_DAMP_HARMONIC, /* zeta sqrt(2 m) sqrt(s k (p + 1)) d^((p - 1)/2) */
  CONTACT_DAMP_TSUJI,    /* tsuji, tsuji_marshall: alpha sqrt(m F / d) */
  CONTACT_DAMP_SPEED,    /* the Hunt-Crossley family: D F, or (factor / max(v_imp, v_min)) F */
  CONTACT_DAMP_FIXED,    /* a constant of the pair: linear_dashpot, none, a raw constant damper */
  /* the constant damper calibrated from e: c_hat m v / (kp1 E / (s k))^(1/kp1), E = m v^2 / 2, v = max(v_imp, v_min);
   * a pair with a raw dashpot its C */
  CONTACT_DAMP_CALIBRATED,
  CONTACT_DAMP_OTHER /* DampingCoefficient */
} ContactDampKind;

typedef struct {
  ContactLawKind   law;
  ContactDampKind  damp;
  PetscReal        k, p, kp1, hp, ikp1; /* a monomial's k, p, p + 1, (p - 1)/2 and 1/(p + 1) */
  const NormalLaw *nlaw;                /* the law itself (CONTACT_LAW_OTHER, CONTACT_DAMP_OTHER) */
} ContactNormalModel;

PETSC_EXTERN ContactNormalModel ContactNormalModelOf(const ContactModel *);

/* The ledger's correction of a first touch's or a separation's damping work (contact.c). */
PETSC_EXTERN PetscReal ContactDampingWork(PetscReal v, PetscReal IC, PetscReal P, PetscReal dt);
/* The elastic energy a contact's tangential and rolling springs hold at overlap d [J]. */
PETSC_EXTERN PetscReal ContactTangentialEnergy(const ContactModel *, const ContactPair *, const ContactHistory *,
                                               PetscReal d);
PETSC_EXTERN PetscReal ContactRollingEnergy(const ContactModel *, const ContactPair *, const ContactRolling *,
                                            PetscReal d);

/* The Mindlin-Deresiewicz spring's force, torques and power onto r, which
 * holds the kernel's normal part (its Fn the applied normal force, Fn the
 * unweighted one): ContactEvaluate's, and the lanes' contact by contact. */
PETSC_EXTERN void ContactTurningAdd(const ContactKernelModel *, PetscReal kc, PetscReal gc, PetscReal mu, PetscReal ri,
                                    PetscReal rj, ContactHistory *, ContactTurning *, const ContactKinematics *,
                                    PetscReal dt, PetscReal sd, PetscReal qd, PetscReal Fn, ContactResult *r);
/* The same from the contact points' sliding velocities vt (half step) and vtp (predicted), the kernel's Slip of the
 * kinematics (the lanes form them in lanes). */
PETSC_EXTERN void ContactTurningAddSlip(const ContactKernelModel *, PetscReal kc, PetscReal gc, PetscReal mu,
                                        PetscReal ri, PetscReal rj, ContactHistory *, ContactTurning *,
                                        const PetscReal n[3], const PetscReal vt[3], const PetscReal vtp[3],
                                        PetscReal dt, PetscReal sd, PetscReal qd, PetscReal Fn, ContactResult *r);

/* The rolling resistance's torques and power onto r (where the pair has
 * any), from the unweighted normal force Fn and the law's stiffness kn:
 * ContactEvaluate's, and the lanes' contact by contact.  Of the pair it
 * reads co, Rstar and Ir. */
PETSC_EXTERN void ContactRollingAdd(const ContactPair *, ContactRolling *, const ContactKinematics *, PetscReal dt,
                                    PetscReal Fn, PetscReal kn, ContactResult *r);

/* rl: the contact's rolling spring, NULL in a run without rolling resistance. */
PETSC_EXTERN void ContactEvaluate(const ContactModel *, const ContactPair *, ContactHistory *, ContactRolling *rl,
                                  ContactTurning *tn, const ContactKinematics *, PetscReal dt, ContactResult *);
PETSC_EXTERN void ContactSeparate(const ContactModel *, const ContactPair *, ContactHistory *, ContactRolling *rl,
                                  ContactTurning *tn, const ContactKinematics *, PetscReal dt, ContactResult *);

#endif
