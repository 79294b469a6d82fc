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
  const PetscReal *in = p->bI + 4 * i;
  PetscReal        ri[3];
  QuatToMatrix(p->bq + 4 * i, R);
  for (int a = 0; a < 3; a++) ri[a] = in[a] > 0.0 ? 1.0 / in[a] : 0.0;
  Iw[0] = R[0] * R[0] * ri[0] + R[1] * R[1] * ri[1] + R[2] * R[2] * ri[2];
  Iw[1] = R[3] * R[3] * ri[0] + R[4] * R[4] * ri[1] + R[5] * R[5] * ri[2];
  Iw[2] = R[6] * R[6] * ri[0] + R[7] * R[7] * ri[1] + R[8] * R[8] * ri[2];
  Iw[3] = R[0] * R[3] * ri[0] + R[1] * R[4] * ri[1] + R[2] * R[5] * ri[2];
  Iw[4] = R[0] * R[6] * ri[0] + R[1] * R[7] * ri[1] + R[2] * R[8] * ri[2];
  Iw[5] = R[3] * R[6] * ri[0] + R[4] * R[7] * ri[1] + R[5] * R[8] * ri[2];
}

/* Row i's lever arm, its centre less the body's centre of mass: R d. */
static inline void BodyArm(const Particles *p, PetscInt i, const PetscReal R[9], PetscReal arm[3])
{
  const PetscReal *d = p->bd + 3 * i;
  for (int a = 0; a < 3; a++) arm[a] = (R[3 * a] * d[0] + R[3 * a + 1] * d[1]) + R[3 * a + 2] * d[2];
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
/* BodiesClose, then BodiesOpen's kick, drift and rotation for the next
 * step (dt_next, gravity g; its work summed in body order into *work) in
 * one pass, body by body (rotations four at a time): the same bits as the
 * two.  The members' velocities are not set: BodiesPlaceTurned places the
 * members (after the spheres' pass, which keeps members' states but not
 * their predictions). */
PETSC_EXTERN PetscInt BodiesCloseTurn(Particles *, const BodyIndex *, PetscReal dt, const IntegratorRebuild *,
                                      PetscReal lo[3], PetscReal hi[3], PetscReal *ke, PetscReal dt_next,
                                      const PetscReal g[3], PetscReal *work);
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
