/* Multi-sphere bodies in the time loop.  A body's spheres are rows of the
 * particle store (PARTICLE_MEMBER), all on the rank that owns the body's
 * centre of mass; its first member (the lowest id, the body's id) holds the
 * body's state: orientation, velocity, NO_SQUISH momentum, the force and
 * torque of the last force pass (Particles' b* fields).  The sphere
 * integrator leaves members alone; here each body
 *  - sums its members' forces and torques about its centre in member order,
 *    then adds M g (BodiesGather: after the force pass, the same bits on any
 *    rank count),
 *  - is kicked by half a step (BodiesClose), drifted and turned by
 *    NO_SQUISH (BodiesOpen), and
 *  - puts its members where it is: x = X + R d, v = V + w x (R d), their
 *    angular velocity the body's, and the predicted velocities likewise.
 * The force sums and the contact masses a member's contacts use come from
 * those rows (rigid/body_contact.h), so the contact code sees spheres. */
#ifndef HDEM_BODY_STEP_H
#define HDEM_BODY_STEP_H

#include "particles/integrator.h"
#include "decomp/exactsum.h"
#include "rigid/clump_template.h"
#include "rigid/rotation.h"

/* The orientation's matrix R and the body's inverse inertia in the world
 * frame, R diag(1 / I) R^T as xx yy zz xy xz yz, from row i's quaternion
 * and principal moments (a zero moment: no rotation about that axis). */
static inline void BodyInverseInertia(const Particles *p, PetscInt i, PetscReal R[9], PetscReal Iw[6])
{
  QuatToMatrix(p->bq + 4 * i, R);
  RigidInverseInertia(R, p->bI + 4 * i, Iw);
}

/* a body's part of the step (body_kernel.h) on reals */
#define B_V               PetscReal
#define B_FN(name)        name
#define B_SPLAT(c)        ((PetscReal)(c))
#define B_SELECT(m, a, b) ((m) ? (a) : (b))
#define B_SQRT(a)         sqrt(a)
#include "rigid/body_kernel.h"
#undef B_V
#undef B_FN
#undef B_SPLAT
#undef B_SELECT
#undef B_SQRT

/* Row i's lever arm, its centre less the body's centre of mass: R d. */
static inline void BodyArm(const Particles *p, PetscInt i, const PetscReal R[9], PetscReal arm[3])
{
  BodyArmOf(R, p->bd + 3 * i, arm);
}

/* The spheres rows[0 .. n-1] where their body (the first) is, at the
 * orientation R with spin w, and their predictions from Vp, wp; the
 * orientation on every sphere. */
static inline void BodyPlace(Particles *p, const LocalInt *rows, PetscInt n, const PetscReal R[9], const PetscReal w[3],
                             const PetscReal Vp[3], const PetscReal wp[3])
{
  const PetscInt   l = rows[0];
  const PetscReal *X = p->bx + 3 * l, *V = p->bv + 3 * l, *q = p->bq + 4 * l;
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt i = rows[k];
    BodyMember(R, p->bd + 3 * i, X, V, Vp, w, wp, p->x + 3 * i, p->v + 3 * i, p->vp + 3 * i);
    for (int a = 0; a < 3; a++) p->w[3 * i + a] = w[a], p->wp[3 * i + a] = wp[a];
    if (k)
      for (int a = 0; a < 4; a++) p->bq[4 * i + a] = q[a];
  }
}

/* Body rows[0 .. n-1]'s force and torque about its centre from its
 * members', in member order, and M g (BodiesGather). */
static inline void BodyGather(Particles *p, const LocalInt *rows, PetscInt n, const PetscReal g[3])
{
  const PetscInt l    = rows[0];
  PetscReal      F[3] = {0, 0, 0}, T[3] = {0, 0, 0}, R[9];
  QuatToMatrix(p->bq + 4 * l, R);
  for (PetscInt k = 0; k < n; k++)
    BodyGatherMember(R, p->bd + 3 * rows[k], p->f + 3 * rows[k], p->t + 3 * rows[k], F, T);
  for (int a = 0; a < 3; a++) p->bft[6 * l + a] = F[a] + p->bm[l] * g[a], p->bft[6 * l + 3 + a] = T[a];
}

/* The members' part of the rebuild criterion: their largest squared arm
 * *r2, their displacements since the lists were built folded into lo, hi
 * and the largest squared one in *dx2max. */
static inline void BodyMembersDrift(const Particles *p, const LocalInt *rows, PetscInt n, PetscReal lo[3],
                                    PetscReal hi[3], PetscReal *r2, PetscReal *dx2max)
{
  *r2 = *dx2max = 0.0;
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt   i = rows[k];
    const PetscReal *d = p->bd + 3 * i;
    PetscReal        dx[3];
    *r2 = PetscMax(*r2, d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int a = 0; a < 3; a++) {
      dx[a] = p->x[3 * i + a] - p->x0[3 * i + a];
      lo[a] = PetscMin(lo[a], dx[a]), hi[a] = PetscMax(hi[a], dx[a]);
    }
    *dx2max = PetscMax(*dx2max, dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
  }
}

/* The rebuild criterion's test (IntegratorMayPass) taken a relative 1e-9 short. */
#define BODY_BEYOND_SHORT (1.0 - 1e-9)

/* A body's criterion bits: a member may get extra further than its
 * displacement, the largest squared one dx2max. */
static inline PetscInt BodyPassBits(PetscReal extra, PetscReal dx2max, const IntegratorRebuild *rb)
{
  const PetscReal half = rb->hs * BODY_BEYOND_SHORT, skin = 2.0 * rb->hs * BODY_BEYOND_SHORT;
  PetscInt        bits = 0;
  if (!isfinite(extra) || !isfinite(dx2max)) bits |= INTEGRATOR_NONFINITE;
  if (!(extra < half && dx2max < (half - extra) * (half - extra)))
    bits |= INTEGRATOR_BEYOND_DRIFT | INTEGRATOR_BEYOND_HALF;
  if (!(extra < skin && dx2max < (skin - extra) * (skin - extra))) bits |= INTEGRATOR_BEYOND_SKIN;
  return bits;
}

/* Gravity's work over a body's drift (qg by axis) into its gravity_work
 * or the ledger's gravity slot. */
static inline void BodyGravityWork(Particles *p, PetscInt l, const PetscReal g[3], PetscReal dt, const PetscReal qg[3])
{
  const PetscReal M = p->bm[l], *V = p->bv + 3 * l;
  if (p->wgrav) p->wgrav[l] = p->wgrav[l] + ((qg[0] + qg[1]) + qg[2]);
  if (p->nledger) p->lwork[(p->nledger + 1) * l + p->nledger] += M * ((g[0] * V[0] + g[1] * V[1]) + g[2] * V[2]) * dt;
}

/* The owned bodies: their member rows, member by member. */
typedef struct {
  PetscInt   nbody, cap, rcap, qcap;
  LocalInt  *start; /* nbody + 1 */
  LocalInt  *row;
  PetscReal *qp; /* the rotation's working copy: columns q, p, dt / (4 I) of 11 (BodiesOpen) */
} BodyIndex;

/* After particles moved between ranks or were made or removed; an error
 * when a body's members are not all here (a body may never be split). */
PETSC_EXTERN PetscErrorCode BodyIndexBuild(const Particles *, const ClumpTemplates *, BodyIndex *);
PETSC_EXTERN PetscErrorCode BodyIndexDestroy(BodyIndex *);

/* Members of body rows[0 .. n-1] (first: its state) placed from it: x, v,
 * w (their predictions the same), every member's orientation and centre bx. */
PETSC_EXTERN void BodyMembersPlace(Particles *, const LocalInt *rows, PetscInt n);

/* The first half of a step for every body: the kick by dt / 2 with the last
 * force and torque, the drift, the rotation, the members placed with their
 * predictions; gravity's work on each body into its first member's
 * gravity_work or the ledger's gravity slot, and returned summed. */
PETSC_EXTERN PetscReal BodiesOpen(Particles *, BodyIndex *, PetscReal dt, const PetscReal g[3]);
/* Every sphere's home (bx) its body's centre: the time loop moves the
 * first's alone, the others' are brought along before they are read (a
 * rebuild's migration). */
PETSC_EXTERN void BodiesSyncHome(Particles *, const BodyIndex *);
/* Each body's force and torque from its members' and M g, into its first member. */
PETSC_EXTERN void BodiesGather(Particles *, const BodyIndex *, const PetscReal g[3]);
/* The second half: the kick by dt / 2 and the members' velocities, with
 * BodiesMayPass's bits for the next step (rb; NULL: none) and the kicked
 * bodies' kinetic energies (translation and rotation, a plain sum in body
 * order) added to *ke (NULL: none) in the same pass. */
PETSC_EXTERN PetscInt BodiesClose(Particles *, const BodyIndex *, PetscReal dt, const IntegratorRebuild *,
                                  PetscReal lo[3], PetscReal hi[3], PetscReal *ke);
/* With gg, BodiesGather(gg) first; then BodiesClose, then BodiesOpen's kick, drift and rotation for the next
 * step (dt_next, gravity g; its work summed in body order into *work) in
 * one pass, four bodies to a vector (rotations RIGID_LANES at a time): the same bits as the
 * two.  With place the members are placed too, RIGID_LANES bodies at a time
 * after their rotation (BodiesPlaceTurned's operations); else
 * BodiesPlaceTurned places them after the spheres' pass, which keeps
 * members' states but not their predictions. */
PETSC_EXTERN PetscInt BodiesCloseTurn(Particles *, const BodyIndex *, PetscReal dt, const IntegratorRebuild *,
                                      PetscReal lo[3], PetscReal hi[3], PetscReal *ke, PetscReal dt_next,
                                      const PetscReal g[3], const PetscReal *gg, PetscBool place, PetscReal *work);
/* BodiesOpen's last sweep after BodiesCloseTurn: the members placed. */
PETSC_EXTERN void BodiesPlaceTurned(Particles *, const BodyIndex *, PetscReal dt);
/* The rebuild criterion's bits (IntegratorMayPass's) for the members, from
 * the bodies' motion now, and their displacements folded into lo, hi. */
PETSC_EXTERN PetscInt BodiesMayPass(const Particles *, const BodyIndex *, const IntegratorRebuild *, PetscReal lo[3],
                                    PetscReal hi[3]);
/* The longest step over which no member moves half the skin hs, from the
 * bodies' velocities, spins and accelerations; *who: the first member of
 * the body that sets it (-1: none); *amax: the largest acceleration of a
 * member's centre, as bounded there (kept if larger). */
PETSC_EXTERN PetscReal BodiesKinematicBound(const Particles *, const BodyIndex *, PetscReal hs, PetscInt *who,
                                            PetscReal *amax);
/* The bodies' kinetic energies of translation and rotation into ke, kr. */
PETSC_EXTERN void BodiesEnergy(const Particles *, const BodyIndex *, ExactSum *ke, ExactSum *kr);
/* A body's kinetic energy (row: its first member). */
PETSC_EXTERN PetscReal BodyKinetic(const Particles *, PetscInt row);

#endif
