#include "contact/impact.h"
#include "particles/integrator.h"

const char *const ImpactTargets[] = {"sphere", "wall", "ImpactTarget", "IMPACT_TARGET_", NULL};

/* Two bodies at most: i (index 0) the projectile, j (index 1) the target sphere. */
typedef struct {
  PetscInt  nb;
  PetscReal x[6], v[6], w[6], f[6], t[6], inv_m[2], inv_I[2];
  PetscReal R, R2; /* radii of i and j */
} ImpactBodies;

/* Overlap, normal (j -> i) and relative velocity of the pair. */
static void ImpactGeometry(const ImpactBodies *b, PetscReal *d, PetscReal n[3], PetscReal vrel[3])
{
  if (b->nb == 1) { /* wall z = 0, normal +z */
    n[0] = n[1] = 0.0;
    n[2]        = 1.0;
    *d          = b->R - b->x[2];
    for (int a = 0; a < 3; a++) vrel[a] = b->v[a];
    return;
  }
  PetscReal r[3], len;
  for (int a = 0; a < 3; a++) {
    r[a]    = b->x[a] - b->x[3 + a];
    vrel[a] = b->v[a] - b->v[3 + a];
  }
  len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  ContactNormal(r, len, n);
  *d = b->R + b->R2 - len;
}

/* Vertex of the parabola through three samples, or the middle sample. */
static PetscReal PeakOfParabola(const PetscReal t[3], const PetscReal y[3])
{
  PetscReal f01 = (y[1] - y[0]) / (t[1] - t[0]), f12 = (y[2] - y[1]) / (t[2] - t[1]);
  PetscReal a = (f12 - f01) / (t[2] - t[0]), ts;
  if (!(a < 0.0)) return y[1];
  ts = 0.5 * (t[0] + t[1]) - 0.5 * f01 / a;
  if (ts < t[0] || ts > t[2]) return y[1];
  return y[0] + f01 * (ts - t[0]) + a * (ts - t[0]) * (ts - t[1]);
}

static void ImpactBodiesSetUp(const ContactModel *model, const ImpactSetup *set, ImpactBodies *b, ContactPair *pair)
{
  PetscReal R = set->radius, R2 = set->radius2 > 0.0 ? set->radius2 : R, th = set->angle * HDEM_PI / 180.0, m, m2,
            inertia, inertia2, f1, f2;
  PetscReal vn = set->v0 * cos(th), vt = set->v0 * sin(th);

  PetscCallVoid(PetscMemzero(b, sizeof(*b)));
  b->R  = R;
  b->R2 = R2;
  b->nb = set->target == IMPACT_TARGET_WALL ? 1 : 2;
  /* the effective mass of two equal spheres is half of each one's mass */
  m           = set->mass > 0.0 ? set->mass * b->nb
                                : (4.0 / 3.0) * HDEM_PI * R * R * R * ContactMaterialOf(model, set->type)->density;
  m2          = set->mass > 0.0 ? m
                                : (4.0 / 3.0) * HDEM_PI * R2 * R2 * R2 *
                           (set->density2 > 0.0 ? set->density2 : ContactMaterialOf(model, set->type2)->density);
  inertia     = 0.4 * m * R * R;
  inertia2    = 0.4 * m2 * R2 * R2;
  b->inv_m[0] = 1.0 / m, b->inv_I[0] = 1.0 / inertia;
  b->inv_m[1] = 1.0 / m2, b->inv_I[1] = 1.0 / inertia2;
  for (int a = 0; a < 3; a++) b->w[a] = set->omega[a];
  if (b->nb == 1) {
    b->v[0] = vt;
    b->v[2] = -vn;
    /* centre-of-mass frame: each sphere carries its share of the relative velocity (equal spheres: half) */
  } else {
    f1 = m2 / (m + m2), f2 = m / (m + m2);
    b->v[0] = f1 * vt;
    b->v[2] = -f1 * vn;
    b->v[3] = -f2 * vt;
    b->v[5] = f2 * vn;
  }
  ContactPairSetUp(model, set->type, set->type2, R, m, inertia, R2, m2, inertia2, b->nb == 1 ? PETSC_TRUE : PETSC_FALSE,
                   pair);
}

/* Place the bodies so that first touch falls 'phase' into the fourth step. */
static void ImpactBodiesPlace(ImpactBodies *b, PetscReal gap)
{
  if (b->nb == 1) b->x[2] = b->R + gap;
  else {
    b->x[2] = b->R + 0.5 * gap;
    b->x[5] = -(b->R2 + 0.5 * gap);
  }
}

/* Half-step velocities, and those predicted at the step's end from the
 * forces of the previous step (still in b->f, b->t). */
static void ImpactKinematics(const ImpactBodies *b, PetscReal dt, PetscReal d, const PetscReal n[3],
                             const PetscReal vrel[3], ContactKinematics *k)
{
  PetscReal h = 0.5 * dt;
  k->d        = d;
  for (int a = 0; a < 3; a++) {
    k->n[a]   = n[a];
    k->v[a]   = vrel[a];
    k->wi[a]  = b->w[a];
    k->wj[a]  = b->nb == 2 ? b->w[3 + a] : 0.0;
    k->vp[a]  = vrel[a] + h * (b->f[a] * b->inv_m[0] - (b->nb == 2 ? b->f[3 + a] * b->inv_m[1] : 0.0));
    k->wip[a] = b->w[a] + h * b->t[a] * b->inv_I[0];
    k->wjp[a] = b->nb == 2 ? b->w[3 + a] + h * b->t[3 + a] * b->inv_I[1] : 0.0;
  }
}

/* Whether the unclipped force turned attractive in the sliver of overlap
 * between the last sample and separation: its sign as d -> 0+ at the
 * separation speed. */
static PetscBool ImpactTensileAtSeparation(const ContactModel *model, const ContactPair *pair, const ContactHistory *h,
                                           const ContactKinematics *k)
{
  PetscReal ddot = -(k->v[0] * k->n[0] + k->v[1] * k->n[1] + k->v[2] * k->n[2]), dd = 1e-9 * h->d_last;
  PetscReal F = NormalLawForce(&model->law, pair->s, dd) +
                DampingCoefficient(&pair->co->damping, &model->law, pair->s, pair->m, h->v_imp, dd) * ddot;
  return F < 0.0 ? PETSC_TRUE : PETSC_FALSE;
}

/* Contact-point tangential velocity along +x (the incoming tangential direction). */
static PetscReal ContactPointSlip(const ImpactBodies *b, const ContactPair *pair, const PetscReal n[3],
                                  const PetscReal vrel[3])
{
  PetscReal w1 = pair->ri * b->w[1] + (b->nb == 2 ? pair->rj * b->w[4] : 0.0);
  /* (w x n)_x with w = (0, w1, 0) and n ~ (0, 0, 1) */
  return vrel[0] - (w1 * n[2] - b->w[2] * n[1]);
}

/* What the loop carries between steps besides the bodies. */
typedef struct {
  PetscBool began, ended; /* the contact began / ended */
  PetscReal t, d_prev, F_prev;
  PetscReal ts[3], ds[3]; /* the last three overlap samples, for the peak */
  PetscInt  nsamp;
} ImpactTrack;

/* A step in contact: the force on the bodies, onset and end times, the
 * largest overlap (a parabola through the samples around the peak). */
static void ImpactTouching(const ContactModel *model, const ContactPair *pair, ContactHistory *hist, ContactRolling *rl,
                           ContactTurning *tn, const ContactKinematics *kin, PetscReal dt, PetscReal d, ImpactBodies *b,
                           ContactResult *cr, ImpactTrack *tr, ImpactResult *res)
{
  ContactEvaluate(model, pair, hist, rl, tn, kin, dt, cr);
  for (int a = 0; a < 3; a++) {
    b->f[a] = cr->F[a];
    b->t[a] = cr->Ti[a];
    if (b->nb == 2) {
      b->f[3 + a] = -cr->F[a];
      b->t[3 + a] = cr->Tj[a];
    }
  }
  if (!tr->began) {
    tr->began      = PETSC_TRUE;
    res->t_contact = -(tr->t - dt * d / (d - tr->d_prev)); /* onset, interpolated */
    res->v_imp     = hist->v_imp;
  }
  if (!tr->ended) {
    res->contact_steps++;
    if (cr->Fn_raw < 0.0) res->tensile = PETSC_TRUE;
    if (model->damping.separation == SEPARATION_FORCE && cr->Fn_raw <= 0.0) {
      tr->ended = PETSC_TRUE;
      res->t_contact += tr->t - dt * cr->Fn_raw / (cr->Fn_raw - tr->F_prev);
    }
  }
  tr->F_prev = cr->Fn_raw;
  tr->ts[0] = tr->ts[1], tr->ds[0] = tr->ds[1], tr->ts[1] = tr->ts[2], tr->ds[1] = tr->ds[2], tr->ts[2] = tr->t,
  tr->ds[2] = d;
  tr->nsamp++;
  if (tr->nsamp >= 3 && tr->ds[1] >= tr->ds[0] && tr->ds[1] > tr->ds[2])
    res->delta_max = PetscMax(res->delta_max, PeakOfParabola(tr->ts, tr->ds));
  res->delta_max = PetscMax(res->delta_max, d);
}

/* The step that finds the bodies apart again: the separation's force, the end time. */
static void ImpactApart(const ContactModel *model, const ContactPair *pair, ContactHistory *hist, ContactRolling *rl,
                        ContactTurning *tn, const PetscReal n[3], const PetscReal vrel[3], PetscReal dt, PetscReal d,
                        ImpactBodies *b, ContactResult *cr, ImpactTrack *tr, ImpactResult *res)
{
  ContactKinematics kin;
  ImpactKinematics(b, dt, d, n, vrel, &kin);
  if (!tr->ended && ImpactTensileAtSeparation(model, pair, hist, &kin)) res->tensile = PETSC_TRUE;
  ContactSeparate(model, pair, hist, rl, tn, &kin, dt, cr);
  for (int a = 0; a < 3; a++) {
    b->f[a] = cr->F[a];
    if (b->nb == 2) b->f[3 + a] = -cr->F[a];
  }
  if (!tr->ended) {
    tr->ended = PETSC_TRUE;
    res->t_contact += tr->t - dt * d / (d - tr->d_prev);
  }
}

PetscErrorCode ImpactRun(const ContactModel *model, const StepControl *ctl, const ImpactSetup *set, ImpactResult *res)
{
  ImpactBodies      b;
  ContactPair       pair;
  ContactHistory    hist;
  ContactRolling    roll;
  ContactTurning    turn, *tn;
  ContactResult     cr;
  ContactKinematics kin;
  ImpactTrack       tr;
  PetscReal         d, n[3], vrel[3], dt = 0.0, slip_in;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(res, sizeof(*res)));
  PetscCall(PetscMemzero(&cr, sizeof(cr)));
  PetscCall(PetscMemzero(&hist, sizeof(hist)));
  PetscCall(PetscMemzero(&roll, sizeof(roll)));
  PetscCall(PetscMemzero(&turn, sizeof(turn)));
  tn = model->tangential.model == TANGENTIAL_MINDLIN_DERESIEWICZ ? &turn : NULL;
  PetscCall(PetscMemzero(&tr, sizeof(tr)));
  ImpactBodiesSetUp(model, set, &b, &pair);
  res->m  = pair.m;
  res->mt = pair.mt;
  {
    PetscReal vn  = set->v0 * cos(set->angle * HDEM_PI / 180.0);
    PetscReal dt0 = StepControlNext(ctl, ContactStepBound(model, &pair, ctl, 0.5 * pair.m * vn * vn, vn), 0.0);
    PetscCheck(dt0 > 0.0 && dt0 < PETSC_MAX_REAL, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "no finite timestep for this impact (normal speed %g m/s); give -timestep_dt_max or a positive speed",
               (double)vn);
    ImpactBodiesPlace(&b, (3.0 + set->phase) * vn * dt0);
  }
  res->dt_min = PETSC_MAX_REAL;
  ImpactGeometry(&b, &d, n, vrel);
  res->vn_in = -(vrel[0] * n[0] + vrel[1] * n[1] + vrel[2] * n[2]);
  res->vt_in = vrel[0];
  slip_in    = ContactPointSlip(&b, &pair, n, vrel);
  tr.d_prev  = d;
  for (res->steps = 0; res->steps < set->max_steps; res->steps++) {
    PetscReal ddot = -(vrel[0] * n[0] + vrel[1] * n[1] + vrel[2] * n[2]), bound = PETSC_MAX_REAL;

    if (d > 0.0) bound = ContactStepBound(model, &pair, ctl, 0.5 * pair.m * ddot * ddot + cr.U, hist.v_imp);
    else if (ddot > 0.0) bound = ContactStepBound(model, &pair, ctl, 0.5 * pair.m * ddot * ddot, ddot);
    dt = StepControlNext(ctl, bound, dt);
    if (tr.ended && d <= 0.0) break;
    PetscCheck(dt > 0.0 && dt < PETSC_MAX_REAL, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "impact step %" PetscInt_FMT ": no finite timestep", res->steps);
    res->dt_min = PetscMin(res->dt_min, dt);
    res->dt_max = PetscMax(res->dt_max, dt);

    IntegratorKick(b.nb, b.v, b.f, b.inv_m, 0.5 * dt);
    IntegratorKick(b.nb, b.w, b.t, b.inv_I, 0.5 * dt);
    IntegratorDrift(b.nb, b.x, b.v, dt);
    tr.t += dt;
    ImpactGeometry(&b, &d, n, vrel);
    if (d > 0.0) ImpactKinematics(&b, dt, d, n, vrel, &kin);
    PetscCall(PetscMemzero(b.f, sizeof(b.f)));
    PetscCall(PetscMemzero(b.t, sizeof(b.t)));
    if (d > 0.0) ImpactTouching(model, &pair, &hist, model->rolls ? &roll : NULL, tn, &kin, dt, d, &b, &cr, &tr, res);
    else if (hist.touched)
      ImpactApart(model, &pair, &hist, model->rolls ? &roll : NULL, tn, n, vrel, dt, d, &b, &cr, &tr, res);
    IntegratorKick(b.nb, b.v, b.f, b.inv_m, 0.5 * dt);
    IntegratorKick(b.nb, b.w, b.t, b.inv_I, 0.5 * dt);
    ImpactGeometry(&b, &d, n, vrel);
    tr.d_prev = d;
  }
  /* the first half-kick of the next step completes the last force's impulse */
  IntegratorKick(b.nb, b.v, b.f, b.inv_m, 0.5 * dt);
  ImpactGeometry(&b, &d, n, vrel);
  PetscCheck(tr.ended && d <= 0.0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED,
             "the impact did not separate within %" PetscInt_FMT " steps (-impact_max_steps); the contact may stick",
             set->max_steps);
  res->vn_out        = -(vrel[0] * n[0] + vrel[1] * n[1] + vrel[2] * n[2]);
  res->vt_out        = vrel[0];
  res->e             = -res->vn_out / res->vn_in;
  res->omega_out     = b.w[1];
  res->rebound_angle = atan2(res->vt_out, -res->vn_out) * 180.0 / HDEM_PI;
  res->et            = slip_in != 0.0 ? -ContactPointSlip(&b, &pair, n, vrel) / slip_in : 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
