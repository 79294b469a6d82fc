/* The prescribed rigid motion of a wall (a plane or a mesh), evaluated in
 * closed form from time: X(t) = R(t) X0 + T(t) for a point X0 of the wall
 * as the deck places it.  Integrating the motion step by step would drift;
 * from time it is the same at every step length and on every rank.
 *
 * The motion runs from start_time to stop_time and holds its pose outside
 * (tau = clamp(t, start, stop) - start):
 *   translate  T = velocity tau
 *   rotate     R = rotation by angular_velocity tau about axis through axis_point
 *   vibrate    T = A sin(2 pi f tau) + A2 sin(2 pi f tau + phase)
 * From remove_time on the wall is gone.  surface_velocity is the wall's
 * surface sliding along itself (a belt): it adds to the wall's velocity at
 * a contact, tangentially, without moving the wall. */
#ifndef HDEM_MOTION_H
#define HDEM_MOTION_H

#include "hdem.h"

typedef enum {
  MOTION_NONE,
  MOTION_TRANSLATE,
  MOTION_ROTATE,
  MOTION_VIBRATE
} MotionKind;
PETSC_EXTERN const char *const MotionKinds[];

typedef struct {
  MotionKind kind;
  PetscReal  velocity[3];
  PetscReal  axis_point[3], axis[3], omega;                 /* axis: unit */
  PetscReal  amplitude[3], amplitude2[3], frequency, phase; /* phase [rad] */
  PetscReal  start, stop, remove;
  PetscReal  surface_velocity[3];
} WallMotion;

/* A pose: X = R X0 + T. */
typedef struct {
  PetscReal R[3][3], T[3];
  PetscBool identity; /* R = I and T = 0 exactly: points are used as they are */
  /* without rotation, the velocity at the pose's time, the same at every point (WallMotionVelocity's): a step's
   * contacts share its cosines */
  PetscBool uniform;
  PetscReal v[3];
} WallPose;

/* Keys <prefix>_motion, _velocity, ... (prefix "-wall0", "-mesh3"); quiet as OptionsQuiet. */
PETSC_EXTERN PetscErrorCode WallMotionSetFromOptions(MPI_Comm, const char *prefix, PetscBool quiet, WallMotion *);
PETSC_EXTERN PetscBool      WallMotionMoves(const WallMotion *); /* some motion at some time */
PETSC_EXTERN PetscBool      WallMotionPresent(const WallMotion *, PetscReal t);
PETSC_EXTERN void           WallMotionPose(const WallMotion *, PetscReal t, WallPose *);
/* The velocity at time t of the wall's material point now at world position x (surface velocity not included). */
PETSC_EXTERN void WallMotionVelocity(const WallMotion *, PetscReal t, const PetscReal x[3], PetscReal v[3]);
/* The wall's velocity at a contact at world point c (normal n) at the end
 * t1 of a step of length dt: over the step (vh: the displacement of the
 * material point now at c since the step's start pose p0, over dt; dt = 0:
 * the velocity at t1) and at its end (ve); the surface velocity's
 * tangential part added to both.  p1: the pose at t1. */
PETSC_EXTERN void WallMotionContactVelocity(const WallMotion *, const WallPose *p0, const WallPose *p1, PetscReal dt,
                                            PetscReal t1, const PetscReal c[3], const PetscReal n[3], PetscReal vh[3],
                                            PetscReal ve[3]);
/* The largest speed of any of the wall's points at any time when it does not
 * rotate (translate, vibrate; 0 without motion); PETSC_MAX_REAL for a
 * rotation, whose speed grows with the distance from its axis. */
PETSC_EXTERN PetscReal WallMotionSpeedMax(const WallMotion *);
/* A bound on how far any point within distance rext of the rotation axis
 * (or of anywhere, for the other motions) moves between t0 and t1. */
PETSC_EXTERN PetscReal WallMotionTravel(const WallMotion *, PetscReal rext, PetscReal t0, PetscReal t1);

/* X = R X0 + T, and X0 = R^T (X - T). */
static inline void WallPoseApply(const WallPose *ps, const PetscReal x0[3], PetscReal x[3])
{
  if (ps->identity) {
    for (int a = 0; a < 3; a++) x[a] = x0[a];
    return;
  }
  for (int a = 0; a < 3; a++) x[a] = ps->R[a][0] * x0[0] + ps->R[a][1] * x0[1] + ps->R[a][2] * x0[2] + ps->T[a];
}

static inline void WallPoseRotate(const WallPose *ps, const PetscReal n0[3], PetscReal n[3])
{
  if (ps->identity) {
    for (int a = 0; a < 3; a++) n[a] = n0[a];
    return;
  }
  for (int a = 0; a < 3; a++) n[a] = ps->R[a][0] * n0[0] + ps->R[a][1] * n0[1] + ps->R[a][2] * n0[2];
}

static inline void WallPoseInverse(const WallPose *ps, const PetscReal x[3], PetscReal x0[3])
{
  PetscReal d[3];
  if (ps->identity) {
    for (int a = 0; a < 3; a++) x0[a] = x[a];
    return;
  }
  for (int a = 0; a < 3; a++) d[a] = x[a] - ps->T[a];
  for (int a = 0; a < 3; a++) x0[a] = ps->R[0][a] * d[0] + ps->R[1][a] * d[1] + ps->R[2][a] * d[2];
}

#endif
