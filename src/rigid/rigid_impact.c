#include "rigid/rigid_impact.h"
#include "rigid/rotation.h"
#include "rigid/body_contact.h"

static PetscErrorCode RigidPlane(void *ctx, const PetscReal x[3], PetscReal r, PetscReal *d, PetscReal n[3])
{
  (void)ctx;
  *d   = r - x[2];
  n[0] = n[1] = 0.0, n[2] = 1.0;
  return PETSC_SUCCESS;
}

static inline void Cross(const PetscReal a[3], const PetscReal b[3], PetscReal c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1], c[1] = a[2] * b[0] - a[0] * b[2], c[2] = a[0] * b[1] - a[1] * b[0];
}

/* The contact of member k (lever rk from the centre, radius r, normal n, overlap d) with the wall. */
static void RigidMemberContact(const ContactModel *model, const RigidImpactSetup *set, PetscReal M, PetscReal I0,
                               const PetscReal Iinv[9], const PetscReal rk[3], PetscReal r, PetscReal d,
                               const PetscReal n[3], const PetscReal V[3], const PetscReal W[3], const PetscReal Vp[3],
                               const PetscReal Wp[3], PetscReal dt, ContactHistory *h, ContactPair *cp, PetscReal rc[3],
                               ContactResult *cr)
{
  ContactKinematics kin;
  PetscReal         wr[3], kn, kt;

  PetscCallVoid(PetscMemzero(&kin, sizeof(kin)));
  for (int a = 0; a < 3; a++) kin.n[a] = n[a], kin.wi[a] = W[a], kin.wip[a] = Wp[a], rc[a] = rk[a] - r * n[a];
  kin.d = d;
  Cross(W, rk, wr);
  for (int a = 0; a < 3; a++) kin.v[a] = V[a] + wr[a];
  Cross(Wp, rk, wr);
  for (int a = 0; a < 3; a++) kin.vp[a] = Vp[a] + wr[a];
  ContactPairSetUp(model, set->type, set->type2, r, M, I0, 0.0, 0.0, 0.0, PETSC_TRUE, cp);
  RigidContactShares(1.0 / M, Iinv, rc, n, &kn, &kt);
  if (set->total_mass) cp->m = M;
  else cp->m = 1.0 / kn, cp->mt = 1.0 / kt;
  ContactPairTangential(model, cp);
  if (d > 0.0) ContactEvaluate(model, cp, h, NULL, NULL, &kin, dt, cr);
  else ContactSeparate(model, cp, h, NULL, NULL, &kin, dt, cr);
}

/* Where the impulse solution starts: the first member to touch (first),
 * its lever rc0 and normal nrm0, the inverse inertia Iinv0 and the normal
 * approach speed vcn0 then; rc1 its lever at its last touching step. */
typedef struct {
  PetscInt  first;
  PetscBool began;
  PetscReal rc0[3], rc1[3], Iinv0[9], nrm0[3], vcn0;
} RigidImpactFirst;

/* The step: the bound of the lowest sphere's contact at its projected mass;
 * the body placed so that the first touch is a phase into the second step. */
static PetscErrorCode RigidImpactStepSize(const ContactModel *model, const StepControl *ctl,
                                          const RigidImpactSetup *set, PetscReal M, const PetscReal Ip[3],
                                          const PetscReal q[4], const PetscReal R[9], PetscReal al, PetscReal *dt,
                                          PetscReal X[3])
{
  const ClumpTemplate *t = set->tmpl;
  PetscReal            rk[3], lo[3], kn, kt, vn, Iinv[9], nrm0[3] = {0, 0, 1}, zlow = PETSC_MAX_REAL;
  PetscInt             kl = 0;
  ContactPair          cp;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < t->n; k++) {
    for (int a = 0; a < 3; a++)
      rk[a] = R[3 * a] * t->s[4 * k] + R[3 * a + 1] * t->s[4 * k + 1] + R[3 * a + 2] * t->s[4 * k + 2];
    if (rk[2] - t->s[4 * k + 3] < zlow) zlow = rk[2] - t->s[4 * k + 3], kl = k;
  }
  for (int a = 0; a < 3; a++)
    lo[a] = R[3 * a] * t->s[4 * kl] + R[3 * a + 1] * t->s[4 * kl + 1] + R[3 * a + 2] * t->s[4 * kl + 2] -
            (a == 2 ? t->s[4 * kl + 3] : 0.0);
  RigidInverseInertiaWorld(q, Ip, Iinv);
  RigidContactShares(1.0 / M, Iinv, lo, nrm0, &kn, &kt);
  ContactPairSetUp(model, set->type, set->type2, t->s[4 * kl + 3], M, Ip[0], 0.0, 0.0, 0.0, PETSC_TRUE, &cp);
  cp.m = set->total_mass ? M : 1.0 / kn;
  ContactPairTangential(model, &cp);
  vn = set->v0 * cos(al);
  PetscCheck(vn > 0.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the body does not approach the wall");
  *dt  = ContactStepBound(model, &cp, ctl, 0.5 * cp.m * vn * vn, vn);
  X[2] = -zlow + vn * *dt * (1.0 + set->phase);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The members' contacts with the wall at one step: the force F and torque
 * Tq on the body, whether some member touches, the impulse solution's start
 * at the first touch. */
static PetscErrorCode RigidImpactForces(const ContactModel *model, const RigidImpactSetup *set, PetscReal M,
                                        const PetscReal Ip[3], const PetscReal Iinv[9], const PetscReal R[9],
                                        const PetscReal X[3], const PetscReal V[3], const PetscReal W[3],
                                        const PetscReal Vp[3], const PetscReal Wp[3], PetscReal dt, ContactHistory *h,
                                        PetscBool *ever, RigidImpactFirst *fi, PetscReal F[3], PetscReal Tq[3],
                                        PetscBool *touching)
{
  const ClumpTemplate *t     = set->tmpl;
  RigidWallFn          wall  = set->wall ? set->wall : RigidPlane;
  PetscReal            Fn[3] = {0, 0, 0}, Tn[3] = {0, 0, 0};

  PetscFunctionBeginUser;
  *touching = PETSC_FALSE;
  for (PetscInt k = 0; k < t->n; k++) {
    PetscReal     rk[3], xk[3], n[3], d, rc[3], c[3], r = t->s[4 * k + 3];
    ContactPair   cp;
    ContactResult cr;
    for (int a = 0; a < 3; a++)
      rk[a] = R[3 * a] * t->s[4 * k] + R[3 * a + 1] * t->s[4 * k + 1] + R[3 * a + 2] * t->s[4 * k + 2],
      xk[a] = X[a] + rk[a];
    PetscCall(wall(set->wall_ctx, xk, r, &d, n));
    if (!(d > 0.0) && !h[k].touched) continue;
    RigidMemberContact(model, set, M, Ip[0], Iinv, rk, r, d, n, V, W, Vp, Wp, dt, &h[k], &cp, rc, &cr);
    if (d > 0.0) {
      *touching = PETSC_TRUE;
      if (fi->first < 0) { /* the impulse solution's start */
        PetscReal wr[3];
        fi->first = k;
        for (int a = 0; a < 3; a++) fi->rc0[a] = rc[a], fi->nrm0[a] = n[a];
        for (int a = 0; a < 9; a++) fi->Iinv0[a] = Iinv[a];
        Cross(W, rk, wr);
        fi->vcn0  = (V[0] + wr[0]) * n[0] + (V[1] + wr[1]) * n[1] + (V[2] + wr[2]) * n[2];
        fi->began = PETSC_TRUE;
      }
      if (k == fi->first)
        for (int a = 0; a < 3; a++) fi->rc1[a] = rc[a];
      ever[k] = PETSC_TRUE;
    }
    for (int a = 0; a < 3; a++) Fn[a] += cr.F[a];
    Cross(rk, cr.F, c);
    for (int a = 0; a < 3; a++) Tn[a] += c[a] + cr.Ti[a];
  }
  for (int a = 0; a < 3; a++) F[a] = Fn[a], Tq[a] = Tn[a];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The outcome (V, W after the impact) beside the impulse solution's, from
 * the first touch's lever, normal and inverse inertia. */
static void RigidImpactReference(const ContactModel *model, const RigidImpactSetup *set, PetscReal M, PetscReal al,
                                 const PetscReal V[3], const PetscReal W[3], const RigidImpactFirst *fi,
                                 RigidImpactResult *res)
{
  PetscReal wr[3], kn, kt, J, c[3], Jn[3];

  Cross(W, fi->rc1, wr);
  res->e = -((V[0] + wr[0]) * fi->nrm0[0] + (V[1] + wr[1]) * fi->nrm0[1] + (V[2] + wr[2]) * fi->nrm0[2]) / fi->vcn0;
  RigidContactShares(1.0 / M, fi->Iinv0, fi->rc0, fi->nrm0, &kn, &kt);
  {
    const ContactCoeff *co = ContactCoeffOf(model, set->type, set->type2);
    PetscReal           e  = co->damping.e > 0.0 ? co->damping.e : 1.0;
    J                      = -(1.0 + e) * fi->vcn0 / kn;
  }
  for (int a = 0; a < 3; a++) Jn[a] = J * fi->nrm0[a];
  Cross(fi->rc0, Jn, c);
  for (int a = 0; a < 3; a++) {
    res->v_out[a] = V[a], res->w_out[a] = W[a];
    res->v_ref[a] = (a == 0 ? set->v0 * sin(al) : a == 2 ? -set->v0 * cos(al) : 0.0) + Jn[a] / M;
    res->w_ref[a] = set->omega[a] +
                    (fi->Iinv0[3 * a] * c[0] + fi->Iinv0[3 * a + 1] * c[1] + fi->Iinv0[3 * a + 2] * c[2]);
  }
  res->mass_normal = 1.0 / kn;
}

PetscErrorCode RigidImpactRun(const ContactModel *model, const StepControl *ctl, const RigidImpactSetup *set,
                              RigidImpactResult *res)
{
  const ClumpTemplate *t = set->tmpl;
  ContactHistory      *h;
  PetscBool           *ever;
  PetscReal M, Ip[3], q[4], p[4], R[9], Iinv[9], X[3] = {0, 0, 0}, V[3], W[3], F[3] = {0, 0, 0}, Tq[3] = {0, 0, 0}, dt,
                                                 hh, al = set->angle * HDEM_PI / 180.0;
  RigidImpactFirst fi = {-1, PETSC_FALSE, {0, 0, 0}, {0, 0, 0}, {0}, {0, 0, 1}, 0.0};
  PetscInt         step;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(res, sizeof(*res)));
  PetscCall(PetscCalloc2(t->n, &h, t->n, &ever));
  ClumpTemplateMass(t, set->density, 1.0, &M, Ip);
  for (int a = 0; a < 4; a++) q[a] = set->q[a];
  QuatNormalize(q);
  QuatToMatrix(q, R);
  V[0] = set->v0 * sin(al), V[1] = 0.0, V[2] = -set->v0 * cos(al);
  for (int a = 0; a < 3; a++) W[a] = set->omega[a];
  RigidMomentumFromOmega(q, Ip, W, p);
  PetscCall(RigidImpactStepSize(model, ctl, set, M, Ip, q, R, al, &dt, X));
  hh = 0.5 * dt;
  for (step = 0; step < set->max_steps; step++) {
    PetscReal pp[4], Wp[3], Vp[3];
    PetscBool touching;
    for (int a = 0; a < 3; a++) Vp[a] = V[a] + hh * F[a] / M; /* the kick's prediction */
    for (int a = 0; a < 4; a++) pp[a] = p[a];
    RigidKick(q, Tq, hh, pp);
    for (int a = 0; a < 3; a++) V[a] += hh * F[a] / M;
    RigidKick(q, Tq, hh, p);
    for (int a = 0; a < 3; a++) X[a] += dt * V[a];
    RigidRotate(Ip, dt, q, p);
    RigidOmegaWorld(q, p, Ip, W);
    RigidOmegaWorld(q, pp, Ip, Wp);
    QuatToMatrix(q, R);
    RigidInverseInertiaWorld(q, Ip, Iinv);
    PetscCall(RigidImpactForces(model, set, M, Ip, Iinv, R, X, V, W, Vp, Wp, dt, h, ever, &fi, F, Tq, &touching));
    for (int a = 0; a < 3; a++) V[a] += hh * F[a] / M;
    RigidKick(q, Tq, hh, p);
    /* the first impact is over (a later one, the body turning onto another sphere, is not this experiment's) */
    if (fi.began && !touching) break;
  }
  if (!fi.began || step == set->max_steps) {
    PetscCall(PetscFree2(h, ever));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "the body %s after %" PetscInt_FMT " steps (-impact_max_steps)",
            fi.began ? "was still on the wall" : "did not reach the wall", set->max_steps);
  }
  RigidOmegaWorld(q, p, Ip, W);
  RigidImpactReference(model, set, M, al, V, W, &fi, res);
  res->mass = M, res->dt = dt, res->steps = step + 1;
  for (int a = 0; a < 3; a++) res->inertia[a] = Ip[a];
  for (PetscInt k = 0; k < t->n; k++) res->spheres += ever[k] ? 1 : 0;
  PetscCall(PetscFree2(h, ever));
  PetscFunctionReturn(PETSC_SUCCESS);
}
