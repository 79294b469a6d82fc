#include <stdio.h>
#include "geometry/motion.h"
#include <math.h>
#include "io/options.h"

const char *const MotionKinds[] = {"none", "translate", "rotate", "vibrate", "MotionKind", "MOTION_", NULL};

/* A vibration's peak speed bounded as a translation's. */
static PetscErrorCode WallMotionCheckPeak(MPI_Comm comm, const char *kf, const char *ka, const char *ka2,
                                          const WallMotion *m)
{
  PetscReal amp = 0.0, peak;
  char      txt[96];

  PetscFunctionBeginUser;
  if (m->kind != MOTION_VIBRATE) PetscFunctionReturn(PETSC_SUCCESS);
  for (int a = 0; a < 3; a++) amp = PetscMax(amp, PetscAbsReal(m->amplitude[a]) + PetscAbsReal(m->amplitude2[a]));
  peak = 2.0 * HDEM_PI * m->frequency * amp;
  snprintf(txt, sizeof(txt), "%g Hz with amplitudes up to %g m: a peak speed of %g m/s", (double)m->frequency,
           (double)amp, (double)peak); /* as given, not PETSc's "10000." */
  PetscCheck(peak <= HDEM_SPEED_MAX, comm, PETSC_ERR_USER_INPUT, "%s = %s (%s, %s), beyond the %d m/s allowed", kf, txt,
             ka, ka2, (int)HDEM_SPEED_MAX);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode WallMotionSetFromOptions(MPI_Comm comm, const char *prefix, PetscBool quiet, WallMotion *m)
{
  char                     k[16][80];
  PetscInt                 n;
  PetscBool                set, given[13] = {PETSC_FALSE};
  PetscReal                len, phase_deg = 0.0;
  static const char *const suffix[] = {"_motion",    "_velocity",    "_axis_point",      "_axis",  "_angular_velocity",
                                       "_amplitude", "_amplitude2",  "_frequency",       "_phase", "_start_time",
                                       "_stop_time", "_remove_time", "_surface_velocity"};

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(m, sizeof(*m)));
  m->axis[2] = 1.0;
  m->stop = m->remove = INFINITY;
  for (size_t s = 0; s < sizeof(suffix) / sizeof(*suffix); s++)
    PetscCall(PetscSNPrintf(k[s], sizeof(k[s]), "%s%s", prefix, suffix[s]));
  OptionsQuiet(quiet);
  PetscCall(OptionsEnum(k[0], "how the wall moves: none, translate, rotate, vibrate (from time, X(t) = R(t) X0 + T(t))",
                        MotionKinds, (PetscEnum *)&m->kind, NULL));
  PetscCall(OptionsRealArray(k[1], "translate: the wall's velocity", "[m/s]", 3, 3, -HDEM_SPEED_MAX, HDEM_SPEED_MAX,
                             RANGE_CLOSED, m->velocity, &n, &given[1]));
  PetscCall(OptionsRealArray(k[2], "rotate: a point on the axis", "[m]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL,
                             RANGE_CLOSED, m->axis_point, &n, &given[2]));
  PetscCall(OptionsRealArray(k[3], "rotate: the axis direction (right-handed)", "[-]", 3, 3, PETSC_MIN_REAL,
                             PETSC_MAX_REAL, RANGE_CLOSED, m->axis, &n, &given[3]));
  PetscCall(OptionsReal(k[4], "rotate: angular velocity about the axis", "[rad/s]", -HDEM_SPIN_MAX, HDEM_SPIN_MAX,
                        RANGE_CLOSED, &m->omega, &given[4]));
  PetscCall(OptionsRealArray(k[5], "vibrate: amplitude A of A sin(2 pi f t)", "[m]", 3, 3, PETSC_MIN_REAL,
                             PETSC_MAX_REAL, RANGE_CLOSED, m->amplitude, &n, &given[5]));
  PetscCall(OptionsRealArray(k[6], "vibrate: amplitude A2 of A2 sin(2 pi f t + phase)", "[m]", 3, 3, PETSC_MIN_REAL,
                             PETSC_MAX_REAL, RANGE_CLOSED, m->amplitude2, &n, &given[6]));
  PetscCall(
    OptionsReal(k[7], "vibrate: frequency f", "[Hz]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &m->frequency, &given[7]));
  PetscCall(OptionsReal(k[8], "vibrate: phase of the second term", "[deg]", -360.0, 360.0, RANGE_CLOSED, &phase_deg,
                        &given[8]));
  PetscCall(OptionsReal(k[9], "the motion starts", "[s]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &m->start, NULL));
  PetscCall(OptionsReal(k[10], "the motion stops (the wall stays where it is then)", "[s]", 0.0, INFINITY, RANGE_CLOSED,
                        &m->stop, NULL));
  PetscCall(OptionsReal(k[11], "the wall is gone from this time on (a plug, a gate)", "[s]", 0.0, INFINITY,
                        RANGE_CLOSED, &m->remove, NULL));
  PetscCall(OptionsRealArray(k[12], "the surface's own tangential velocity (a belt); the wall does not move", "[m/s]",
                             3, 3, -HDEM_SPEED_MAX, HDEM_SPEED_MAX, RANGE_CLOSED, m->surface_velocity, &n, &set));
  OptionsQuiet(PETSC_FALSE);
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  m->phase = phase_deg * HDEM_PI / 180.0;
  { /* a key of another kind of motion does nothing: an error, not a wall that silently stays put
     * (for a wall or mesh that exists: one without its normal or file is said to lack it, later) */
    static const MotionKind owner[9] = {MOTION_NONE,    MOTION_TRANSLATE, MOTION_ROTATE,  MOTION_ROTATE, MOTION_ROTATE,
                                        MOTION_VIBRATE, MOTION_VIBRATE,   MOTION_VIBRATE, MOTION_VIBRATE};
    char                    kn[96], kf[96];
    PetscBool               hn, hf;
    PetscCall(PetscSNPrintf(kn, sizeof(kn), "%s_normal", prefix));
    PetscCall(PetscSNPrintf(kf, sizeof(kf), "%s_file", prefix));
    PetscCall(PetscOptionsHasName(NULL, NULL, kn, &hn));
    PetscCall(PetscOptionsHasName(NULL, NULL, kf, &hf));
    for (int s = 1; s <= 8 && (hn || hf); s++)
      PetscCheck(!given[s] || m->kind == owner[s], comm, PETSC_ERR_USER_INPUT,
                 "%s is given but does nothing: it is for %s %s, and %s is %s", k[s], k[0], MotionKinds[owner[s]], k[0],
                 MotionKinds[m->kind]);
  }
  /* a vibration at 0 Hz never moves: not what was meant */
  if (m->kind == MOTION_VIBRATE && !(m->frequency > 0.0)) {
    char fv[32];
    snprintf(fv, sizeof(fv), "%g", (double)m->frequency); /* as given, not PETSc's "0." */
    SETERRQ(comm, PETSC_ERR_USER_INPUT, "%s = %s: %s vibrate needs a frequency in (0, inf) Hz", k[7], fv, k[0]);
  }
  PetscCall(WallMotionCheckPeak(comm, k[7], k[5], k[6], m));
  PetscCheck(m->stop >= m->start, comm, PETSC_ERR_USER_INPUT, "%s = %g must not precede %s = %g", k[10],
             (double)m->stop, k[9], (double)m->start);
  len = PetscSqrtReal(m->axis[0] * m->axis[0] + m->axis[1] * m->axis[1] + m->axis[2] * m->axis[2]);
  PetscCheck(len > 0.0 || m->kind != MOTION_ROTATE, comm, PETSC_ERR_USER_INPUT, "%s must not be zero", k[3]);
  if (len > 0.0)
    for (int a = 0; a < 3; a++) m->axis[a] /= len;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool WallMotionMoves(const WallMotion *m)
{
  switch (m->kind) {
  case MOTION_TRANSLATE:
    return m->velocity[0] != 0.0 || m->velocity[1] != 0.0 || m->velocity[2] != 0.0 ? PETSC_TRUE : PETSC_FALSE;
  case MOTION_ROTATE:
    return m->omega != 0.0 ? PETSC_TRUE : PETSC_FALSE;
  case MOTION_VIBRATE:
    return m->frequency > 0.0 ? PETSC_TRUE : PETSC_FALSE;
  default:
    return PETSC_FALSE;
  }
}

PetscBool WallMotionPresent(const WallMotion *m, PetscReal t)
{
  return t < m->remove ? PETSC_TRUE : PETSC_FALSE;
}

static PetscReal MotionTau(const WallMotion *m, PetscReal t)
{
  return PetscMin(PetscMax(t, m->start), m->stop) - m->start;
}

static void MotionVibration(const WallMotion *m, PetscReal tau, PetscReal T[3])
{
  PetscReal s1 = sin(2.0 * HDEM_PI * m->frequency * tau), s2 = sin(2.0 * HDEM_PI * m->frequency * tau + m->phase);
  for (int a = 0; a < 3; a++) T[a] = m->amplitude[a] * s1 + m->amplitude2[a] * s2;
}

void WallMotionPose(const WallMotion *m, PetscReal t, WallPose *ps)
{
  PetscReal tau = MotionTau(m, t);

  PetscMemzero(ps, sizeof(*ps));
  for (int a = 0; a < 3; a++) ps->R[a][a] = 1.0;
  ps->identity = PETSC_FALSE;
  switch (m->kind) {
  case MOTION_TRANSLATE:
    for (int a = 0; a < 3; a++) ps->T[a] = m->velocity[a] * tau;
    break;
  case MOTION_ROTATE: {
    PetscReal        th = m->omega * tau, c = cos(th), s = sin(th), C = 1.0 - c;
    const PetscReal *k       = m->axis;
    PetscReal        K[3][3] = {{0.0, -k[2], k[1]}, {k[2], 0.0, -k[0]}, {-k[1], k[0], 0.0}};
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) ps->R[a][b] = (a == b ? c : 0.0) + s * K[a][b] + C * k[a] * k[b];
    for (int a = 0; a < 3; a++)
      ps->T[a] = m->axis_point[a] -
                 (ps->R[a][0] * m->axis_point[0] + ps->R[a][1] * m->axis_point[1] + ps->R[a][2] * m->axis_point[2]);
    break;
  }
  case MOTION_VIBRATE:
    MotionVibration(m, tau, ps->T);
    break;
  default:
    break;
  }
  ps->identity = PETSC_TRUE; /* exactly where the deck puts it: points are used as given */
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      if (ps->R[a][b] != (a == b ? 1.0 : 0.0)) ps->identity = PETSC_FALSE;
  for (int a = 0; a < 3; a++)
    if (ps->T[a] != 0.0) ps->identity = PETSC_FALSE;
  if (m->kind != MOTION_ROTATE) {
    const PetscReal o[3] = {0.0, 0.0, 0.0};
    ps->uniform          = PETSC_TRUE;
    WallMotionVelocity(m, t, o, ps->v);
  }
}

void WallMotionVelocity(const WallMotion *m, PetscReal t, const PetscReal x[3], PetscReal v[3])
{
  PetscBool moving = t >= m->start && t <= m->stop ? PETSC_TRUE : PETSC_FALSE;

  for (int a = 0; a < 3; a++) v[a] = 0.0;
  if (!moving) return;
  switch (m->kind) {
  case MOTION_TRANSLATE:
    for (int a = 0; a < 3; a++) v[a] = m->velocity[a];
    break;
  case MOTION_ROTATE: {
    PetscReal r[3], w[3];
    for (int a = 0; a < 3; a++) r[a] = x[a] - m->axis_point[a], w[a] = m->omega * m->axis[a];
    v[0] = w[1] * r[2] - w[2] * r[1];
    v[1] = w[2] * r[0] - w[0] * r[2];
    v[2] = w[0] * r[1] - w[1] * r[0];
    break;
  }
  case MOTION_VIBRATE: {
    PetscReal tau = t - m->start, om = 2.0 * HDEM_PI * m->frequency;
    PetscReal c1 = om * cos(om * tau), c2 = om * cos(om * tau + m->phase);
    for (int a = 0; a < 3; a++) v[a] = m->amplitude[a] * c1 + m->amplitude2[a] * c2;
    break;
  }
  default:
    break;
  }
}

/* A translation's speed; a vibration's amplitudes, |A| + |A2|. */
static PetscReal WallMotionSpeed(const WallMotion *m)
{
  return PetscSqrtReal(m->velocity[0] * m->velocity[0] + m->velocity[1] * m->velocity[1] +
                       m->velocity[2] * m->velocity[2]);
}

static PetscReal WallMotionAmplitude(const WallMotion *m)
{
  return PetscSqrtReal(m->amplitude[0] * m->amplitude[0] + m->amplitude[1] * m->amplitude[1] +
                       m->amplitude[2] * m->amplitude[2]) +
         PetscSqrtReal(m->amplitude2[0] * m->amplitude2[0] + m->amplitude2[1] * m->amplitude2[1] +
                       m->amplitude2[2] * m->amplitude2[2]);
}

PetscReal WallMotionSpeedMax(const WallMotion *m)
{
  switch (WallMotionMoves(m) ? m->kind : MOTION_NONE) {
  case MOTION_TRANSLATE:
    return WallMotionSpeed(m);
  case MOTION_VIBRATE:
    return 2.0 * HDEM_PI * m->frequency * WallMotionAmplitude(m);
  case MOTION_ROTATE:
    return PETSC_MAX_REAL;
  default:
    return 0.0;
  }
}

PetscReal WallMotionTravel(const WallMotion *m, PetscReal rext, PetscReal t0, PetscReal t1)
{
  PetscReal a = PetscMax(t0, m->start), b = PetscMin(t1, m->stop), span = b > a ? b - a : 0.0;

  if (!WallMotionMoves(m) || span == 0.0) return 0.0;
  switch (m->kind) {
  case MOTION_TRANSLATE:
    return WallMotionSpeed(m) * span;
  case MOTION_ROTATE:
    return PetscAbsReal(m->omega) * rext * span;
  case MOTION_VIBRATE: {
    PetscReal A = WallMotionAmplitude(m);
    return PetscMin(2.0 * A, 2.0 * HDEM_PI * m->frequency * A * span);
  }
  default:
    return 0.0;
  }
}

void WallMotionContactVelocity(const WallMotion *m, const WallPose *p0, const WallPose *p1, PetscReal dt, PetscReal t1,
                               const PetscReal c[3], const PetscReal n[3], PetscReal vh[3], PetscReal ve[3])
{
  const PetscReal *s  = m->surface_velocity;
  PetscReal        sn = s[0] * n[0] + s[1] * n[1] + s[2] * n[2];

  if (p1->uniform)
    for (int a = 0; a < 3; a++) ve[a] = p1->v[a];
  else WallMotionVelocity(m, t1, c, ve);
  if (dt > 0.0 && WallMotionMoves(m)) {
    PetscReal x0[3], xs[3];
    WallPoseInverse(p1, c, x0);
    WallPoseApply(p0, x0, xs);
    for (int a = 0; a < 3; a++) vh[a] = (c[a] - xs[a]) / dt;
  } else
    for (int a = 0; a < 3; a++) vh[a] = ve[a];
  for (int a = 0; a < 3; a++) {
    vh[a] += s[a] - sn * n[a];
    ve[a] += s[a] - sn * n[a];
  }
}
