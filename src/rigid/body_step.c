#include "rigid/body_step.h"
#include "rigid/rotation.h"
#include "rigid/body_contact.h"
#include <stdlib.h>
#include <math.h>

typedef struct {
  PetscInt64 id;
  LocalInt   row;
} BodyKey;

static int BodyKeyCompare(const void *a, const void *b)
{
  PetscInt64 x = ((const BodyKey *)a)->id, y = ((const BodyKey *)b)->id;
  return x < y ? -1 : (x > y);
}

PetscErrorCode BodyIndexBuild(const Particles *p, const ClumpTemplates *ct, BodyIndex *bi)
{
  BodyKey *k;
  PetscInt m = 0;

  PetscFunctionBeginUser;
  bi->nbody = 0;
  if (!p->body) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < p->n; i++) m += (p->flags[i] & PARTICLE_MEMBER) ? 1 : 0;
  PetscCall(PetscMalloc1(m + 1, &k));
  m = 0;
  for (PetscInt i = 0; i < p->n; i++)
    if (p->flags[i] & PARTICLE_MEMBER) k[m].id = p->id[i], k[m].row = (LocalInt)i, m++;
  qsort(k, (size_t)m, sizeof(*k), BodyKeyCompare); /* a body's members have consecutive ids from the body's */
  if (m > bi->rcap) {
    PetscCall(PetscFree(bi->row));
    bi->rcap = PetscMax(m, m + m / 4);
    PetscCall(PetscMalloc1(bi->rcap, &bi->row));
  }
  for (PetscInt a = 0; a < m;) {
    PetscInt64 b = p->body[k[a].row];
    PetscInt   t = p->btmpl[k[a].row], n = t >= 0 && t < CLUMP_TEMPLATES_MAX ? ct->t[t].n : 0, c = 0;
    PetscCheck(n > 0 && k[a].id == b, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "body %" PetscInt64_FMT ": member %" PetscInt64_FMT " is here without its first member", b, k[a].id);
    if (bi->nbody + 1 >= bi->cap) {
      bi->cap = PetscMax(bi->nbody + 2, 2 * bi->cap);
      PetscCall(PetscRealloc(sizeof(*bi->start) * (size_t)bi->cap, &bi->start));
    }
    bi->start[bi->nbody] = (LocalInt)a;
    for (; a < m && p->body[k[a].row] == b; a++, c++) {
      PetscCheck(k[a].id == b + c, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "body %" PetscInt64_FMT ": member %" PetscInt64_FMT " is not here", b, b + c);
      bi->row[a] = k[a].row;
    }
    PetscCheck(c == n, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "body %" PetscInt64_FMT ": %" PetscInt_FMT " of its %" PetscInt_FMT " spheres are here", b, c, n);
    bi->nbody++;
  }
  if (bi->cap < 1) {
    bi->cap = 1;
    PetscCall(PetscMalloc1(1, &bi->start));
  }
  bi->start[bi->nbody] = (LocalInt)m;
  if (bi->nbody > bi->qcap) {
    PetscCall(PetscFree(bi->qp));
    bi->qcap = ((bi->nbody + bi->nbody / 4) + RIGID_LANES - 1) / RIGID_LANES * RIGID_LANES;
    PetscCall(PetscMalloc1(11 * bi->qcap, &bi->qp));
  }
  PetscCall(PetscFree(k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BodyIndexDestroy(BodyIndex *bi)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(bi->start));
  PetscCall(PetscFree(bi->row));
  PetscCall(PetscFree(bi->qp));
  PetscCall(PetscMemzero(bi, sizeof(*bi)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void BodyMembersPlace(Particles *p, const LocalInt *rows, PetscInt n)
{
  const PetscInt l = rows[0];
  PetscReal      R[9], w[3];

  QuatToMatrix(p->bq + 4 * l, R);
  RigidSpin(p->bq + 4 * l, p->bp + 4 * l, p->bI + 4 * l, R, w);
  BodyPlace(p, rows, n, R, w, p->bv + 3 * l, w);
  for (PetscInt k = 1; k < n; k++)
    for (int a = 0; a < 3; a++) p->bx[3 * rows[k] + a] = p->bx[3 * l + a];
}

/* BodiesOpen's kick and drift of body l (gravity's work into its integral,
 * returned), its (q, p) and dt / (4 I) into column b of the rotation's
 * columns qp (leading dimension ld). */
static inline PetscReal BodyOpenKick(Particles *p, PetscInt l, PetscReal dt, const PetscReal g[3], PetscReal *qp,
                                     PetscInt ld, PetscInt b)
{
  const PetscReal *F = p->bft + 6 * l, *q = p->bq + 4 * l;
  PetscReal       *pm = p->bp + 4 * l, qg[3], tq[3];
  BodyDrift(p->bm[l], F, F + 3, p->bI + 4 * l, dt, g, q, p->bv + 3 * l, p->bx + 3 * l, pm, qg, tq);
  BodyGravityWork(p, l, g, dt, qg);
  for (int a = 0; a < 4; a++) qp[a * ld + b] = q[a], qp[(4 + a) * ld + b] = pm[a];
  for (int a = 0; a < 3; a++) qp[(8 + a) * ld + b] = tq[a];
  return (qg[0] + qg[1]) + qg[2];
}

/* BodiesOpen's last sweep for body rows[0 .. n-1], turned (q, p in its
 * first member): its spin and predictions, its members placed. */
static inline void BodyOpenPlace(Particles *p, const LocalInt *rows, PetscInt n, PetscReal h)
{
  const PetscInt   l = rows[0];
  const PetscReal *F = p->bft + 6 * l;
  PetscReal        Vp[3], wp[3], w[3], R[9];
  BodyPlaceState(p->bm[l], F, F + 3, p->bI + 4 * l, p->bv + 3 * l, p->bq + 4 * l, p->bp + 4 * l, h, R, w, Vp, wp);
  BodyPlace(p, rows, n, R, w, Vp, wp);
}

/* In three sweeps over the bodies: the kicks, then NO_SQUISH's rotation of
 * RIGID_LANES bodies at a time in vector lanes (RigidRotateLanes), then the spheres
 * placed.  Each body's numbers go through the same operations whatever its
 * neighbours: the same bits on any rank count. */
PetscReal BodiesOpen(Particles *p, BodyIndex *bi, PetscReal dt, const PetscReal g[3])
{
  const PetscInt ld   = (bi->nbody + RIGID_LANES - 1) / RIGID_LANES * RIGID_LANES; /* the rotation's columns */
  PetscReal      work = 0.0, *qp = bi->qp;

  for (PetscInt b = 0; b < bi->nbody; b++) work += BodyOpenKick(p, bi->row[bi->start[b]], dt, g, qp, ld, b);
  for (PetscInt b = bi->nbody; b < ld; b++) /* the last vector's idle lanes turn nothing */
    for (int c = 0; c < 11; c++) qp[c * ld + b] = 0.0;
  if (bi->nbody) RigidRotateLanes(ld, qp, qp + 8 * ld);
  for (PetscInt b = 0; b < bi->nbody; b++) {
    const LocalInt *rows = bi->row + bi->start[b];
    const PetscInt  l    = rows[0];
    for (int a = 0; a < 4; a++) p->bq[4 * l + a] = qp[a * ld + b], p->bp[4 * l + a] = qp[(4 + a) * ld + b];
    BodyOpenPlace(p, rows, bi->start[b + 1] - bi->start[b], 0.5 * dt);
  }
  return work;
}

void BodiesSyncHome(Particles *p, const BodyIndex *bi)
{
  for (PetscInt b = 0; b < bi->nbody; b++) {
    const LocalInt *rows = bi->row + bi->start[b];
    const PetscInt  n = bi->start[b + 1] - bi->start[b], l = rows[0];
    for (PetscInt k = 1; k < n; k++)
      for (int a = 0; a < 3; a++) p->bx[3 * rows[k] + a] = p->bx[3 * l + a];
  }
}

/* One body's part of the rebuild criterion (BodiesMayPass) from its
 * motion now: how far a sphere may get from where the lists were built by
 * the end of the next step, the centre's move and the turn (BodyReach)
 * times the farthest sphere's arm. */
static inline PetscInt BodyMayPass(const Particles *p, const LocalInt *rows, PetscInt n, const IntegratorRebuild *rb,
                                   PetscReal lo[3], PetscReal hi[3])
{
  const PetscInt   l = rows[0];
  const PetscReal *F = p->bft + 6 * l;
  PetscReal        move, turn, r2, dx2max;
  BodyReach(p->bm[l], F, F + 3, p->bI + 4 * l, p->bv + 3 * l, p->bp + 4 * l, rb->dt_up, &move, &turn);
  BodyMembersDrift(p, rows, n, lo, hi, &r2, &dx2max);
  return BodyPassBits(move + turn * sqrt(r2), dx2max, rb);
}

/* Body l's kinetic energies of translation and rotation. */
static inline void BodyEnergies(const Particles *p, PetscInt l, PetscReal *ke, PetscReal *kr)
{
  BodyEnergy(p->bm[l], p->bI + 4 * l, p->bv + 3 * l, p->bq + 4 * l, p->bp + 4 * l, ke, kr);
}

/* BodiesClose for body rows[0 .. n-1]: the kick, its members' velocities
 * and spins, the criterion's bits (rb) and the kinetic
 * energy added to *ke (when not NULL).  The spin after the kick: the angular
 * momentum grows by T h, and at the orientation of the step the spin is
 * linear in it, by R I^-1 R^T T h. */
static inline PetscInt BodyClose(Particles *p, const LocalInt *rows, PetscInt n, PetscReal h,
                                 const IntegratorRebuild *rb, PetscReal lo[3], PetscReal hi[3], PetscReal *ke)
{
  const PetscInt   l = rows[0];
  const PetscReal *F = p->bft + 6 * l, *T = F + 3, *w0 = p->w + 3 * l, *in = p->bI + 4 * l;
  PetscReal       *V    = p->bv + 3 * l, w[3], R[9], tb[3];
  PetscInt         bits = 0;
  BodyKick(p->bm[l], F, T, h, p->bq + 4 * l, V, p->bp + 4 * l);
  QuatToMatrix(p->bq + 4 * l, R);
  for (int a = 0; a < 3; a++)
    tb[a] = in[a] > 0.0 ? ((R[a] * T[0] + R[3 + a] * T[1]) + R[6 + a] * T[2]) * h / in[a] : 0.0;
  for (int a = 0; a < 3; a++) w[a] = w0[a] + ((R[3 * a] * tb[0] + R[3 * a + 1] * tb[1]) + R[3 * a + 2] * tb[2]);
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt i = rows[k];
    PetscReal      c[3], arm[3];
    BodyArm(p, i, R, arm);
    BodyCross(w, arm, c);
    for (int a = 0; a < 3; a++) p->v[3 * i + a] = V[a] + c[a], p->w[3 * i + a] = w[a];
  }
  if (rb) bits |= BodyMayPass(p, rows, n, rb, lo, hi);
  if (ke) { /* in body order, while the body is at hand */
    PetscReal t, r;
    BodyEnergies(p, l, &t, &r);
    *ke += t + r;
  }
  return bits;
}

PetscInt BodiesClose(Particles *p, const BodyIndex *bi, PetscReal dt, const IntegratorRebuild *rb, PetscReal lo[3],
                     PetscReal hi[3], PetscReal *ke)
{
  PetscInt bits = 0;
  for (PetscInt b = 0; b < bi->nbody; b++)
    bits |= BodyClose(p, bi->row + bi->start[b], bi->start[b + 1] - bi->start[b], 0.5 * dt, rb, lo, hi, ke);
  return bits;
}

PetscInt BodiesMayPass(const Particles *p, const BodyIndex *bi, const IntegratorRebuild *rb, PetscReal lo[3],
                       PetscReal hi[3])
{
  PetscInt bits = 0;
  for (PetscInt b = 0; b < bi->nbody; b++)
    bits |= BodyMayPass(p, bi->row + bi->start[b], bi->start[b + 1] - bi->start[b], rb, lo, hi);
  return bits;
}

PetscReal BodiesKinematicBound(const Particles *p, const BodyIndex *bi, PetscReal hs, PetscInt *who, PetscReal *amax)
{
  PetscReal bound = PETSC_MAX_REAL;

  *who = -1;
  for (PetscInt b = 0; b < bi->nbody; b++) {
    const LocalInt  *rows = bi->row + bi->start[b];
    const PetscInt   n = bi->start[b + 1] - bi->start[b], l = rows[0];
    const PetscReal *in = p->bI + 4 * l, *F = p->bft + 6 * l, *T = F + 3;
    PetscReal        rho = 0.0, w[3], wn, v, acc, qq, dtk, imin = PetscMin(in[0], PetscMin(in[1], in[2]));
    for (PetscInt k = 0; k < n; k++) rho = PetscMax(rho, BodyNorm(p->bd + 3 * rows[k]));
    RigidOmegaWorld(p->bq + 4 * l, p->bp + 4 * l, in, w);
    wn  = BodyNorm(w);
    v   = BodyNorm(p->bv + 3 * l) + wn * rho;
    acc = BodyNorm(F) / p->bm[l] + (BodyNorm(T) / imin + wn * wn) * rho;
    if (acc > *amax) *amax = acc;
    qq  = sqrt(v * v + 2.0 * acc * hs) + v;
    dtk = qq > 0.0 ? 2.0 * hs / qq : PETSC_MAX_REAL;
    if (dtk < bound) bound = dtk, *who = l;
  }
  return bound;
}

PetscReal BodyKinetic(const Particles *p, PetscInt l)
{
  PetscReal ke, kr;
  BodyEnergies(p, l, &ke, &kr);
  return ke + kr;
}

void BodiesEnergy(const Particles *p, const BodyIndex *bi, ExactSum *ke, ExactSum *kr)
{
  for (PetscInt b = 0; b < bi->nbody; b++) {
    PetscReal t, r;
    BodyEnergies(p, bi->row[bi->start[b]], &t, &r);
    ExactSumAdd(ke, t);
    ExactSumAdd(kr, r);
  }
}
