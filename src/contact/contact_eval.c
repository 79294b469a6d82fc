/* A contact evaluated through the contact kernel's scalar instantiation (kernel_scalar.h): the normal force and
 * damping of any law, the tangential spring, the Mindlin-Deresiewicz turning spring (tangential_md.h) and rolling
 * resistance, as the generic pair path and the fused scan's side terms take them. */
#include "contact/contact.h"
#include "contact/kernel_scalar.h"

static inline PetscReal Dot3(const PetscReal a[3], const PetscReal b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Rolling resistance through the kernel's scalar instantiation (kernel_rolling.h). */
void ContactRollingAdd(const ContactPair *pair, ContactRolling *rl, const ContactKinematics *k, PetscReal dt,
                       PetscReal Fn, PetscReal kn, ContactResult *r)
{
  const Rolling            *ro = &pair->co->rolling;
  ContactScalarRollingConst c  = {ro->mu, ro->eta, pair->Rstar, pair->Ir, ro->type == ROLLING_CONSTANT};
  if (!(c.mu > 0.0)) return;
  ContactScalarRollingAdd(&c, rl->mr, k->n, k->wi, k->wj, k->wip, k->wjp, dt, Fn, kn, r->Ti, r->Tj, &r->P[2]);
}

/* The Mindlin-Deresiewicz spring (kernel_md.h) after the kernel's
 * normal force: its force weighted as the kernel weighs a first touch's
 * (Fn_applied / Fn), added with its torques; the ledger's power. */
void ContactTurningAddSlip(const ContactKernelModel *km, PetscReal kc, PetscReal gc, PetscReal mu, PetscReal ri,
                           PetscReal rj, ContactHistory *h, ContactTurning *tn, const PetscReal n[3],
                           const PetscReal vt[3], const PetscReal vtp[3], PetscReal dt, PetscReal sd, PetscReal qd,
                           PetscReal Fn, ContactResult *r)
{
  ContactScalarTurning s;

  ContactScalarTurningFrom(tn, &s);
  ContactScalarTurningAdd(km, kc, gc, mu, ri, rj, h->xi, &s, n, vt, vtp, dt, sd, qd, Fn, r->Fn, r->F, r->Ti, r->Tj,
                          &r->P[1]);
  ContactScalarTurningTo(&s, tn);
}

void ContactTurningAdd(const ContactKernelModel *km, PetscReal kc, PetscReal gc, PetscReal mu, PetscReal ri,
                       PetscReal rj, ContactHistory *h, ContactTurning *tn, const ContactKinematics *k, PetscReal dt,
                       PetscReal sd, PetscReal qd, PetscReal Fn, ContactResult *r)
{
  PetscReal vt[3], vtp[3];
  ContactScalarSlip(ri, rj, k->n, k->v, k->wi, k->wj, vt);
  ContactScalarSlip(ri, rj, k->n, k->vp, k->wip, k->wjp, vtp);
  ContactTurningAddSlip(km, kc, gc, mu, ri, rj, h, tn, k->n, vt, vtp, dt, sd, qd, Fn, r);
}

/* Any law through the kernel: its elastic force and damping coefficient
 * from the law's and the damping's own functions. */
void ContactEvaluate(const ContactModel *model, const ContactPair *pair, ContactHistory *h, ContactRolling *rl,
                     ContactTurning *tn, const ContactKinematics *k, PetscReal dt, ContactResult *r)
{
  ContactKernelModel km = ContactKernelModelOf(model), kk = km;
  PetscReal          Fel, dF, C, J = 0.0, sd = 0.0, qd = 0.0, Fn;

  PetscBool first = PETSC_FALSE;

  if (!h->touched) {
    h->touched = 1;
    h->v_imp   = -Dot3(k->v, k->n);
    /* dt = 0: a contact present at the start */
    first = dt > 0.0 && h->v_imp > 0.0 ? PETSC_TRUE : PETSC_FALSE;
  }
  NormalLawEval(&model->law, pair->s, k->d, &r->U, &Fel, &dF);
  C = DampingCoefficient(&pair->co->damping, &model->law, pair->s, pair->m, h->v_imp, k->d);
  /* impulse since first touch: int F dt = (U(d) + v int_0^d C) / v */
  if (first)
    J = r->U / h->v_imp + DampingCoefficientIntegral(&pair->co->damping, &model->law, pair->s, pair->m, h->v_imp, k->d);
  r->W = 0.0;
  if (km.friction && km.mindlin) sd = sqrt(k->d), qd = sqrt(sd);
  if (tn) kk.friction = PETSC_FALSE; /* the kernel's normal force, then the turning spring's */
  ContactScalarContact(&kk, pair->co->tangential.mu, pair->ri, pair->rj, pair->kc, pair->gc, k->n, k->v, k->vp, k->wi,
                       k->wj, k->wip, k->wjp, dt, Fel, C, sd, qd, first, J, h->xi, &r->ddot, &Fn, &r->Fn_raw, &r->Fn,
                       r->F, r->Ti, r->Tj, r->P);
  r->P[2] = 0.0;
  if (tn && km.friction)
    ContactTurningAdd(&km, pair->kc, pair->gc, pair->co->tangential.mu, pair->ri, pair->rj, h, tn, k, dt, sd, qd, Fn,
                      r);
  if (first) r->W = ContactDampingWork(h->v_imp, J - r->U / h->v_imp, r->P[0], dt);
  if (rl) ContactRollingAdd(pair, rl, k, dt, Fn, dF, r);
  h->d_last  = k->d;
  h->Fn_last = Fn;
  h->dt_last = dt;
}
