/* The bodies' passes of the time loop that run four bodies to a vector:
 * each body's own arithmetic (body_kernel.h) in lanes, its members one by
 * one.  A lane's operations are the scalar instantiation's, so a body's
 * bits do not depend on which bodies share its vector, nor on the rank
 * count. */
#include "rigid/body_step.h"
#include "hdem_vector.h"
#include <math.h>

#pragma GCC diagnostic ignored "-Wpsabi" /* the helpers are inlined into each clone */
typedef double         V4 __attribute__((vector_size(32)));
typedef long long      M4 __attribute__((vector_size(32)));

#define INLINE static inline __attribute__((always_inline))

INLINE V4 Splat(PetscReal c)
{
  return (V4){c, c, c, c};
}

INLINE V4 Select(M4 m, V4 a, V4 b)
{
  return (V4)(((M4)a & m) | ((M4)b & ~m));
}

INLINE V4 Sqrt(V4 a)
{
  V4 r;
  for (int l = 0; l < 4; l++) r[l] = sqrt(a[l]);
  return r;
}

#define B_V               V4
#define B_FN(name)        name##Lanes
#define B_SPLAT(c)        Splat(c)
#define B_SELECT(m, a, b) Select(m, a, b)
#define B_SQRT(a)         Sqrt(a)
#include "rigid/quat_kernel.h"
#include "rigid/body_kernel.h"

/* Column c of the rows l[0..3] of an array of s reals a row. */
INLINE V4 Gather(const PetscReal *a, PetscInt s, PetscInt c, const PetscInt l[4])
{
  return (V4){a[s * l[0] + c], a[s * l[1] + c], a[s * l[2] + c], a[s * l[3] + c]};
}

/* Four bodies' state, from their first members' rows l (the centres X: CloseTurnLanes', which moves them) */
typedef struct {
  V4 M, F[3], T[3], in[3], V[3], X[3], q[4], pm[4];
} BodyLanes;

INLINE void BodyLanesLoad(const Particles *p, const PetscInt l[4], BodyLanes *b)
{
  b->M = Gather(p->bm, 1, 0, l);
  for (int a = 0; a < 3; a++) {
    b->F[a] = Gather(p->bft, 6, a, l), b->T[a] = Gather(p->bft, 6, 3 + a, l);
    b->in[a] = Gather(p->bI, 4, a, l), b->V[a] = Gather(p->bv, 3, a, l);
  }
  for (int a = 0; a < 4; a++) b->q[a] = Gather(p->bq, 4, a, l), b->pm[a] = Gather(p->bp, 4, a, l);
}

/* The first member rows of bodies b0 .. b0 + 3 (past nb: the last real one's) */
INLINE PetscInt BodyLanesRows(const BodyIndex *bi, PetscInt b0, PetscInt l[4])
{
  const PetscInt nb = PetscMin(4, bi->nbody - b0);
  for (int k = 0; k < 4; k++) l[k] = bi->row[bi->start[b0 + PetscMin(k, nb - 1)]];
  return nb;
}

/* Four bodies with n members each gathered a member of each at a time (BodyGather's operations in each lane). */
INLINE void GatherLanes(Particles *p, const BodyIndex *bi, PetscInt b0, PetscInt n, const PetscReal g[3])
{
  const LocalInt *st   = bi->start + b0;
  const PetscInt  l[4] = {bi->row[st[0]], bi->row[st[1]], bi->row[st[2]], bi->row[st[3]]};
  V4              q[4], R[9], F[3], T[3], M = Gather(p->bm, 1, 0, l);
  for (int a = 0; a < 4; a++) q[a] = Gather(p->bq, 4, a, l);
  QuatToMatrixLanes(q, R);
  for (int a = 0; a < 3; a++) F[a] = T[a] = Splat(0.0);
  for (PetscInt m = 0; m < n; m++) {
    const PetscInt i[4] = {bi->row[st[0] + m], bi->row[st[1] + m], bi->row[st[2] + m], bi->row[st[3] + m]};
    V4             d[3], f[3], t[3];
    for (int a = 0; a < 3; a++)
      d[a] = Gather(p->bd, 3, a, i), f[a] = Gather(p->f, 3, a, i), t[a] = Gather(p->t, 3, a, i);
    BodyGatherMemberLanes(R, d, f, t, F, T);
  }
  for (int a = 0; a < 3; a++) F[a] = F[a] + M * Splat(g[a]);
  for (int k = 0; k < 4; k++)
    for (int a = 0; a < 3; a++) p->bft[6 * l[k] + a] = F[a][k], p->bft[6 * l[k] + 3 + a] = T[a][k];
}

/* BodiesGather of bodies b0 .. b0 + 3 (past the last: those there are) */
INLINE void GatherFour(Particles *p, const BodyIndex *bi, PetscInt b0, const PetscReal g[3])
{
  const LocalInt *st = bi->start + b0;
  const PetscInt  n = st[1] - st[0], nb = PetscMin(4, bi->nbody - b0);
  if (nb == 4 && st[2] - st[1] == n && st[3] - st[2] == n && st[4] - st[3] == n) GatherLanes(p, bi, b0, n, g);
  else
    for (PetscInt k = 0; k < nb; k++) BodyGather(p, bi->row + st[k], st[k + 1] - st[k], g);
}

VEC_CLONES void BodiesGather(Particles *p, const BodyIndex *bi, const PetscReal g[3])
{
  for (PetscInt b = 0; b < bi->nbody; b += 4) GatherFour(p, bi, b, g);
}

/* BodiesPlaceTurned of bodies b0 .. b0 + 3 (past the last: those there are) */
INLINE void PlaceFour(Particles *p, const BodyIndex *bi, PetscInt b0, V4 h)
{
  PetscInt  l[4], nb = BodyLanesRows(bi, b0, l);
  BodyLanes b;
  V4        R[9], w[3], Vp[3], wp[3];
  BodyLanesLoad(p, l, &b);
  BodyPlaceStateLanes(b.M, b.F, b.T, b.in, b.V, b.q, b.pm, h, R, w, Vp, wp);
  for (PetscInt k = 0; k < nb; k++) {
    PetscReal Rk[9], wk[3], Vpk[3], wpk[3];
    for (int a = 0; a < 9; a++) Rk[a] = R[a][k];
    for (int a = 0; a < 3; a++) wk[a] = w[a][k], Vpk[a] = Vp[a][k], wpk[a] = wp[a][k];
    BodyPlace(p, bi->row + bi->start[b0 + k], bi->start[b0 + k + 1] - bi->start[b0 + k], Rk, wk, Vpk, wpk);
  }
}

VEC_CLONES void BodiesPlaceTurned(Particles *p, const BodyIndex *bi, PetscReal dt)
{
  for (PetscInt b0 = 0; b0 < bi->nbody; b0 += 4) PlaceFour(p, bi, b0, Splat(0.5 * dt));
}

/* BodiesCloseTurn for bodies b0 .. b0 + 3, their sums first with gg: their turn's columns into qp
 * (leading dimension ld, from column c). */
INLINE PetscInt CloseTurnLanes(Particles *p, const BodyIndex *bi, PetscInt b0, V4 h, const IntegratorRebuild *rb,
                               PetscReal lo[3], PetscReal hi[3], PetscReal *ke, V4 dn, const PetscReal g[3],
                               const PetscReal *gg, PetscReal *work, PetscReal *qp, PetscInt ld, PetscInt c)
{
  PetscInt  l[4], nb = BodyLanesRows(bi, b0, l), bits = 0;
  BodyLanes b;
  V4        G[3] = {Splat(g[0]), Splat(g[1]), Splat(g[2])}, qg[3], tq[3];

  if (gg) GatherFour(p, bi, b0, gg);
  BodyLanesLoad(p, l, &b);
  for (int a = 0; a < 3; a++) b.X[a] = Gather(p->bx, 3, a, l);
  BodyKickLanes(b.M, b.F, b.T, h, b.q, b.V, b.pm);
  if (rb) {
    V4 move, turn;
    BodyReachLanes(b.M, b.F, b.T, b.in, b.V, b.pm, Splat(rb->dt_up), &move, &turn);
    for (PetscInt k = 0; k < nb; k++) { /* the members' lane by lane: a vector of them would wait on their stores */
      PetscReal r2, dx2;
      BodyMembersDrift(p, bi->row + bi->start[b0 + k], bi->start[b0 + k + 1] - bi->start[b0 + k], lo, hi, &r2, &dx2);
      bits |= BodyPassBits(move[k] + turn[k] * sqrt(r2), dx2, rb);
    }
  }
  if (ke) { /* in body order */
    V4 t, r;
    BodyEnergyLanes(b.M, b.in, b.V, b.q, b.pm, &t, &r);
    for (PetscInt k = 0; k < nb; k++) *ke += t[k] + r[k];
  }
  BodyDriftLanes(b.M, b.F, b.T, b.in, dn, G, b.q, b.V, b.X, b.pm, qg, tq);
  for (PetscInt k = 0; k < nb; k++) {
    const PetscInt lk = l[k];
    PetscReal      qgk[3];
    for (int a = 0; a < 3; a++) p->bv[3 * lk + a] = b.V[a][k], p->bx[3 * lk + a] = b.X[a][k], qgk[a] = qg[a][k];
    BodyGravityWork(p, lk, g, dn[0], qgk);
    *work += (qgk[0] + qgk[1]) + qgk[2];
    for (int a = 0; a < 4; a++) qp[a * ld + c + k] = b.q[a][k], qp[(4 + a) * ld + c + k] = b.pm[a][k];
    for (int a = 0; a < 3; a++) qp[(8 + a) * ld + c + k] = tq[a][k];
  }
  return bits;
}

VEC_CLONES PetscInt BodiesCloseTurn(Particles *p, const BodyIndex *bi, PetscReal dt, const IntegratorRebuild *rb,
                                    PetscReal lo[3], PetscReal hi[3], PetscReal *ke, PetscReal dt_next,
                                    const PetscReal g[3], const PetscReal *gg, PetscBool place, PetscReal *work)
{
  const V4 h = Splat(0.5 * dt), dn = Splat(dt_next);
  PetscInt bits = 0;

  *work = 0.0;
  for (PetscInt b0 = 0; b0 < bi->nbody; b0 += RIGID_LANES) { /* a vector of bodies a rotation */
    PetscReal qp[11 * RIGID_LANES] = {0};
    PetscInt  nb                   = PetscMin(RIGID_LANES, bi->nbody - b0);
    for (PetscInt c = 0; c < nb; c += 4)
      bits |= CloseTurnLanes(p, bi, b0 + c, h, rb, lo, hi, ke, dn, g, gg, work, qp, RIGID_LANES, c);
    RigidRotateLanes(RIGID_LANES, qp, qp + 8 * RIGID_LANES);
    for (PetscInt k = 0; k < nb; k++) {
      const PetscInt l = bi->row[bi->start[b0 + k]];
      for (int a = 0; a < 4; a++)
        p->bq[4 * l + a] = qp[a * RIGID_LANES + k], p->bp[4 * l + a] = qp[(4 + a) * RIGID_LANES + k];
    }
    for (PetscInt c = 0; place && c < nb; c += 4) PlaceFour(p, bi, b0 + c, Splat(0.5 * dt_next));
  }
  return bits;
}
