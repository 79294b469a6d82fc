#include "particles/integrator.h"
#include <string.h>
#include <math.h>
#include "hdem_vector.h"

/* Four particles at a time: their twelve components are three 4-lane vectors,
 * each lane scaled by its particle's 1 / m (or 1 / I).  Divisions bound the
 * kicks, so there is one per particle and quantity (a kick is dv = (f (1 / m)) h,
 * the prediction reuses it); a vector operation gives per lane the bits of
 * the scalar one (IEEE, no contraction), so the lanes and the scalar tails
 * agree.  Frozen particles are computed and not stored; so are the spheres of
 * multi-sphere particles (PARTICLE_STILL), which their bodies move. */
#pragma GCC diagnostic ignored "-Wpsabi" /* the helpers are inlined into each clone */
#define INLINE static inline __attribute__((always_inline))
typedef double    V4 __attribute__((vector_size(32)));
typedef long long M4 __attribute__((vector_size(32)));

INLINE V4 Load4(const PetscReal *a)
{
  V4 v;
  memcpy(&v, a, sizeof(v));
  return v;
}

INLINE void Store4(PetscReal *a, V4 v)
{
  memcpy(a, &v, sizeof(v));
}

/* the per-particle value s[i .. i+3] spread over the twelve components */
INLINE void Spread(const PetscReal *s, V4 q[3])
{
  q[0] = (V4){s[0], s[0], s[0], s[1]};
  q[1] = (V4){s[1], s[1], s[2], s[2]};
  q[2] = (V4){s[2], s[3], s[3], s[3]};
}

INLINE void SpreadFrozen(const LocalInt *fl, M4 q[3])
{
  static const int row[12] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
  for (int c = 0; c < 3; c++) {
    M4 z = {0, 0, 0, 0};
    for (int l = 0; l < 4; l++) z[l] = (fl[row[4 * c + l]] & PARTICLE_STILL) ? -1 : 0;
    q[c] = z;
  }
}

/* the per-particle lanes of s spread over the twelve components (as Spread) */
INLINE void SpreadLanes(V4 s, V4 q[3])
{
  q[0] = VEC_PERMUTE(M4, s, 0, 0, 0, 1);
  q[1] = VEC_PERMUTE(M4, s, 1, 1, 2, 2);
  q[2] = VEC_PERMUTE(M4, s, 2, 3, 3, 3);
}

/* reciprocal masses and inertias and frozen masks of particles i .. i+3 over their components */
INLINE void SpreadBodies(const LocalInt *fl, const PetscReal *m, const PetscReal *in, V4 rm[3], V4 ri[3], M4 fz[3],
                         PetscBool frozen)
{
  const V4 one = {1.0, 1.0, 1.0, 1.0};
  SpreadLanes(one / Load4(m), rm);
  SpreadLanes(one / Load4(in), ri);
  if (frozen) SpreadFrozen(fl, fz);
  else
    for (int c = 0; c < 3; c++) fz[c] = (M4){0, 0, 0, 0};
}

INLINE V4 Keep(M4 frozen, V4 old, V4 upd)
{
  return (V4)(((M4)old & frozen) | ((M4)upd & ~frozen));
}

/* Whether any of particles i .. i+3 is frozen: most blocks have none, and their
 * copy of a block's code (the parameter frozen below, a constant in each
 * call) has no selections. */
INLINE PetscBool AnyFrozen(const LocalInt *fl)
{
  return ((fl[0] | fl[1] | fl[2] | fl[3]) & PARTICLE_STILL) ? PETSC_TRUE : PETSC_FALSE;
}

/* per particle of four, the sum of its three components' entries of the
 * 12-layout q[0..2] in component order (X + Y) + Z */
INLINE V4 BodySums(const V4 q[3])
{
  V4 X = VEC_SHUFFLE(M4, VEC_SHUFFLE(M4, q[0], q[1], 0, 3, 6, 0), q[2], 0, 1, 2, 5);
  V4 Y = VEC_SHUFFLE(M4, VEC_SHUFFLE(M4, q[0], q[1], 1, 4, 7, 0), q[2], 0, 1, 2, 6);
  V4 Z = VEC_SHUFFLE(M4, VEC_SHUFFLE(M4, q[0], q[1], 2, 5, 0, 0), q[2], 0, 1, 4, 7);
  return (X + Y) + Z;
}

/* The first half of a step for one row of four components (c of a block,
 * qg = m g over them) from v, w, f, t in hand: the kick, the drift, the
 * predictions, f = t = 0 and gravity's work on the row in wrow. */
INLINE void OpenRow(M4 fz, V4 rm, V4 ri, V4 qg, V4 hh, V4 dd, V4 fo, V4 to, V4 vo, V4 wo, PetscReal *x, PetscReal *v,
                    PetscReal *w, PetscReal *vp, PetscReal *wp, PetscReal *f, PetscReal *t, V4 *wrow)
{
  const V4 zero = {0, 0, 0, 0};
  V4       dv = fo * rm * hh, dw = to * ri * hh, xo = Load4(x);
  V4       vn = Keep(fz, vo, vo + dv), wn = Keep(fz, wo, wo + dw);
  Store4(v, vn);
  Store4(w, wn);
  Store4(x, Keep(fz, xo, xo + vn * dd));
  Store4(vp, Keep(fz, vn, vn + dv)); /* a frozen particle's vp is its v (ParticlesAppend): no load */
  Store4(wp, Keep(fz, wn, wn + dw));
  Store4(f, zero);
  Store4(t, zero);
  *wrow = Keep(fz, zero, qg * vn * dd); /* frozen particles do no work */
}

/* A block's rows of gravity's work into the rank's lanes, and each particle's
 * sum (X + Y) + Z into its own integral gw (when kept; the tail's order). */
INLINE void OpenWork(const V4 rows[3], V4 *work4, PetscReal *gw)
{
  for (int c = 0; c < 3; c++) *work4 += rows[c];
  if (gw) Store4(gw, Load4(gw) + BodySums(rows));
}

/* IntegratorOpenStep's block of four particles at o = 3 i; gravity's work into work4 and gw. */
INLINE void OpenBlock(PetscBool frozen, const LocalInt *fl, const PetscReal *m, const PetscReal *in, PetscReal *f,
                      PetscReal *t, V4 hh, V4 dd, const V4 G[3], PetscReal *x, PetscReal *v, PetscReal *w,
                      PetscReal *vp, PetscReal *wp, V4 *work4, PetscReal *gw)
{
  V4 rm[3] = {{0}}, ri[3] = {{0}}, qm[3] = {{0}}, rows[3];
  M4 fz[3] = {{0}};
  SpreadBodies(fl, m, in, rm, ri, fz, frozen);
  Spread(m, qm);
  for (int c = 0; c < 3; c++) {
    PetscInt o = 4 * c;
    OpenRow(fz[c], rm[c], ri[c], qm[c] * G[c], hh, dd, Load4(f + o), Load4(t + o), Load4(v + o), Load4(w + o), x + o,
            v + o, w + o, vp + o, wp + o, f + o, t + o, &rows[c]);
  }
  OpenWork(rows, work4, gw);
}

/* The scalar first half of particles the blocks of four leave over: their
 * gravity work (each particle's into gw as a block sums it). */
static PetscReal OpenTail(PetscInt n, const LocalInt *restrict fl, const PetscReal *restrict m,
                          const PetscReal *restrict in, PetscReal *restrict f, PetscReal *restrict t, PetscReal dt,
                          const PetscReal g[3], PetscReal *restrict x, PetscReal *restrict v, PetscReal *restrict w,
                          PetscReal *restrict vp, PetscReal *restrict wp, PetscReal *restrict gw)
{
  const PetscReal h    = 0.5 * dt;
  PetscReal       work = 0.0;
  for (PetscInt i = 0; i < n; i++) {
    PetscReal rmi = 1.0 / m[i], rii = 1.0 / in[i], q[3] = {0.0, 0.0, 0.0};
    for (int a = 0; a < 3 && !(fl[i] & PARTICLE_STILL); a++) {
      PetscReal dv = f[3 * i + a] * rmi * h, dw = t[3 * i + a] * rii * h;
      v[3 * i + a] += dv;
      w[3 * i + a] += dw;
      x[3 * i + a] += v[3 * i + a] * dt;
      vp[3 * i + a] = v[3 * i + a] + dv;
      wp[3 * i + a] = w[3 * i + a] + dw;
      q[a]          = m[i] * g[a] * v[3 * i + a] * dt;
      work += q[a];
    }
    if (gw) gw[i] = gw[i] + ((q[0] + q[1]) + q[2]);
    for (int a = 0; a < 3; a++) f[3 * i + a] = t[3 * i + a] = 0.0;
  }
  return work;
}

/* gravity over the twelve components of a block */
INLINE void SpreadGravity(const PetscReal g[3], V4 G[3])
{
  G[0] = (V4){g[0], g[1], g[2], g[0]};
  G[1] = (V4){g[1], g[2], g[0], g[1]};
  G[2] = (V4){g[2], g[0], g[1], g[2]};
}

/* The step's first half for four particles at a time, in one pass over the
 * arrays: the kick dv = f (1 / m) h, v += dv (w likewise with t, I), the
 * drift x += v dt, the prediction vp = v + dv; gravity's work
 * m g . v dt summed in four lanes.  f and t are left zero: the coming force
 * sums start there, and the pass has them in hand (no second sweep). */
VEC_CLONES PetscReal IntegratorOpenStep(PetscInt n, const LocalInt *restrict fl, const PetscReal *restrict m,
                                        const PetscReal *restrict in, PetscReal *restrict f, PetscReal *restrict t,
                                        PetscReal dt, const PetscReal g[3], PetscReal *restrict x,
                                        PetscReal *restrict v, PetscReal *restrict w, PetscReal *restrict vp,
                                        PetscReal *restrict wp, PetscReal *restrict gw)
{
  const PetscReal h  = 0.5 * dt;
  const V4        hh = {h, h, h, h}, dd = {dt, dt, dt, dt}, zero = {0, 0, 0, 0};
  V4              G[3], work4 = zero;
  PetscInt        i = 0;
  SpreadGravity(g, G);
  for (; i + 4 <= n; i += 4) {
    PetscInt o = 3 * i;
    if (AnyFrozen(fl + i))
      OpenBlock(PETSC_TRUE, fl + i, m + i, in + i, f + o, t + o, hh, dd, G, x + o, v + o, w + o, vp + o, wp + o, &work4,
                gw ? gw + i : NULL);
    else
      OpenBlock(PETSC_FALSE, fl + i, m + i, in + i, f + o, t + o, hh, dd, G, x + o, v + o, w + o, vp + o, wp + o,
                &work4, gw ? gw + i : NULL);
  }
  return OpenTail(n - i, fl + i, m + i, in + i, f + 3 * i, t + 3 * i, dt, g, x + 3 * i, v + 3 * i, w + 3 * i,
                  vp + 3 * i, wp + 3 * i, gw ? gw + i : NULL) +
         ((work4[0] + work4[1]) + (work4[2] + work4[3]));
}

/* The squared distance bound of a particle from where the lists were built at
 * the end of a step of at most dt_up: a = |dx - c|^2 (or |dx|^2 against the
 * whole skin), b = |v|^2, c2 = |f|^2.  (|dx| + |v| dt + |f| q / m)^2
 * <= 3 (...) by Cauchy-Schwarz decides most without roots or divisions, the
 * rest exactly; both in the lanes' order.  The bound is taken a relative
 * 1e-9 short (BEYOND_SHORT), for the rounding of the displacements and the
 * drift, and the cheap test leaves room for that and its own rounding. */
#define BEYOND_SHORT (1.0 - 1e-9)
#define BEYOND_CHEAP (1.0 - 3e-9)
static inline PetscBool BeyondScalar(PetscReal a, PetscReal b, PetscReal c2, PetscReal mi, PetscReal dt_up,
                                     PetscReal lim)
{
  PetscReal q = 0.5 * dt_up * dt_up, l2 = lim * lim;
  if (3.0 * (a + b * dt_up * dt_up) * mi * mi + 3.0 * c2 * q * q < l2 * mi * mi * BEYOND_CHEAP) return PETSC_FALSE;
  return sqrt(a) + sqrt(b) * dt_up + 0.5 * sqrt(c2) / mi * dt_up * dt_up > lim * BEYOND_SHORT ? PETSC_TRUE
                                                                                              : PETSC_FALSE;
}

/* A frozen particle stays at its build position: relative to the drift it is
 * |c| away, which pairs with it may have closed by. */
static inline PetscBool DriftBeyond(const IntegratorRebuild *rb)
{
  return sqrt(rb->c[0] * rb->c[0] + rb->c[1] * rb->c[1] + rb->c[2] * rb->c[2]) > rb->hs * BEYOND_SHORT ? PETSC_TRUE
                                                                                                       : PETSC_FALSE;
}

/* The criterion's bits of one particle, not frozen, from a = |dx - c|^2,
 * aw = |dx|^2, b = |v|^2, c2 = |f|^2 (INTEGRATOR_BEYOND_*) */
static inline PetscInt BeyondBits(PetscReal a, PetscReal aw, PetscReal b, PetscReal c2, PetscReal mi,
                                  const IntegratorRebuild *rb)
{
  PetscInt bits = 0;
  if (BeyondScalar(a, b, c2, mi, rb->dt_up, rb->hs)) bits |= INTEGRATOR_BEYOND_DRIFT;
  if (BeyondScalar(aw, b, c2, mi, rb->dt_up, rb->hs)) bits |= INTEGRATOR_BEYOND_HALF;
  if (BeyondScalar(aw, b, c2, mi, rb->dt_up, 2.0 * rb->hs)) bits |= INTEGRATOR_BEYOND_SKIN;
  if (!isfinite(a + aw + b + c2)) bits |= INTEGRATOR_NONFINITE;
  return bits;
}

PetscInt IntegratorMayPass(PetscInt n, const LocalInt *fl, const PetscReal *m, const PetscReal *x, const PetscReal *x0,
                           const PetscReal *v, const PetscReal *f, const IntegratorRebuild *rb, PetscReal lo[3],
                           PetscReal hi[3])
{
  PetscInt  bits   = 0;
  PetscBool frozen = PETSC_FALSE;
  for (PetscInt i = 0; i < n; i++) {
    PetscReal a = 0.0, aw = 0.0, b = 0.0, c2 = 0.0;
    for (int k = 0; k < 3; k++) {
      PetscReal dx = x[3 * i + k] - x0[3 * i + k], dc = dx - rb->c[k];
      lo[k] = dx < lo[k] ? dx : lo[k];
      hi[k] = dx > hi[k] ? dx : hi[k];
      a += dc * dc;
      aw += dx * dx;
      b += v[3 * i + k] * v[3 * i + k];
      c2 += f[3 * i + k] * f[3 * i + k];
    }
    if (fl[i] & PARTICLE_STILL) frozen = PETSC_TRUE;
    else if (bits != INTEGRATOR_BEYOND_ALL) bits |= BeyondBits(a, aw, b, c2, m[i], rb);
  }
  return bits | (frozen && DriftBeyond(rb) ? INTEGRATOR_BEYOND_DRIFT : 0);
}

/* The next step's first half fused into a step's second half: its
 * constants and predictions (CloseBlock's op). */
typedef struct {
  V4         hh, dd, G[3]; /* half the next step, the next step, gravity over a block */
  PetscReal *vp, *wp;      /* at the block */
  PetscReal *gw;           /* at the block, or NULL */
  V4        *work4;
} OpenLanes;

/* IntegratorCloseStep's block of four particles at o = 3 i (G: gravity, or
 * NULL), with the squares of the rebuild test's vectors per component (dc:
 * the displacement less the drift C, dx: the displacement) and the
 * displacements' ranges (lanes of the 12-layout).  With op the kicked v, w
 * and the step's f, t go on in registers into the next step's first half
 * (OpenRow) instead of back to memory. */
INLINE void CloseBlock(PetscBool frozen, const OpenLanes *op, const LocalInt *fl, const PetscReal *m,
                       const PetscReal *in, const V4 *G, PetscReal *f, PetscReal *t, V4 hh, PetscReal *x,
                       const PetscReal *x0, const V4 C[3], PetscReal *v, PetscReal *w, V4 dc2[3], V4 dx2[3], V4 v2[3],
                       V4 f2[3], V4 lo[3], V4 hi[3], V4 w2[3])
{
  V4 rm[3] = {{0}}, ri[3] = {{0}}, qm[3] = {{0}}, rows[3];
  M4 fz[3] = {{0}};
  SpreadBodies(fl, m, in, rm, ri, fz, frozen);
  if (G || op) Spread(m, qm);
  for (int c = 0; c < 3; c++) {
    PetscInt o = 4 * c;
    V4 vo = Load4(v + o), wo = Load4(w + o), fo = Load4(f + o), to = Load4(t + o), dx = Load4(x + o) - Load4(x0 + o),
       dc = dx - C[c], vn, wn;
    if (G) fo = fo + qm[c] * G[c];
    vn     = Keep(fz[c], vo, vo + fo * rm[c] * hh);
    wn     = Keep(fz[c], wo, wo + to * ri[c] * hh);
    lo[c]  = Keep(dx < lo[c], dx, lo[c]);
    hi[c]  = Keep(dx > hi[c], dx, hi[c]);
    dc2[c] = dc * dc, dx2[c] = dx * dx, v2[c] = vn * vn, f2[c] = fo * fo;
    w2[c] = wn * wn;
    if (op)
      OpenRow(fz[c], rm[c], ri[c], qm[c] * op->G[c], op->hh, op->dd, fo, to, vn, wn, x + o, v + o, w + o, op->vp + o,
              op->wp + o, f + o, t + o, &rows[c]);
    else {
      if (G) Store4(f + o, fo);
      Store4(v + o, vn);
      Store4(w + o, wn);
    }
  }
  if (op) OpenWork(rows, op->work4, op->gw);
}

/* The kinetic energy (twice it) of four particles into kin4's lanes: B, W their |v|^2, |w|^2; frozen ones add
 * nothing. */
INLINE void KineticLanes(V4 *kin4, PetscBool frozen, const LocalInt *fl, V4 M, V4 B, V4 J, V4 W)
{
  V4 k = M * B + J * W;
  if (frozen)
    for (int l = 0; l < 4; l++)
      if (fl[l] & PARTICLE_STILL) k[l] = 0.0;
  *kin4 = *kin4 + k;
}

/* Whether the cheap bound (BeyondScalar's) leaves some lane of four particles
 * open: a squared distance term a against lim. */
INLINE M4 WithinLanes(V4 a, V4 B, V4 C, V4 M, V4 du, V4 qq, PetscReal lim)
{
  const V4 three = {3.0, 3.0, 3.0, 3.0}, margin = {BEYOND_CHEAP, BEYOND_CHEAP, BEYOND_CHEAP, BEYOND_CHEAP},
           l2 = {lim * lim, lim * lim, lim * lim, lim * lim};
  return three * (a + B * du * du) * M * M + three * C * qq * qq < l2 * M * M * margin;
}

/* Lanes of four particles past the cheap bound (ok clear) whose exact test
 * (BeyondScalar's) passes lim (1), or which hold a non-finite value
 * (INTEGRATOR_NONFINITE: they fail the cheap test too); frozen particles never do. */
INLINE PetscInt BeyondLanes(M4 ok, V4 A, V4 B, V4 C, V4 M, V4 du, PetscReal lim, const LocalInt *fl)
{
  V4 Ar, Br, Cr, S, half = {0.5, 0.5, 0.5, 0.5},
                    L = {lim * BEYOND_SHORT, lim * BEYOND_SHORT, lim * BEYOND_SHORT, lim * BEYOND_SHORT};
  M4       far;
  PetscInt pass = 0;
  if (ok[0] & ok[1] & ok[2] & ok[3]) return 0;
  for (int l = 0; l < 4; l++) Ar[l] = sqrt(A[l]), Br[l] = sqrt(B[l]), Cr[l] = sqrt(C[l]);
  S   = Ar + Br * du + half * Cr / M * du * du;
  far = S > L;
  for (int l = 0; l < 4; l++) {
    if (ok[l] || (fl[l] & PARTICLE_STILL)) continue;
    if (far[l]) pass |= 1;
    if (!isfinite(S[l])) pass |= INTEGRATOR_NONFINITE;
  }
  return pass;
}

/* BeyondLanes' answer as the criterion's bit `beyond` and INTEGRATOR_NONFINITE. */
static inline PetscInt LanesBits(PetscInt r, PetscInt beyond)
{
  return ((r & 1) ? beyond : 0) | (r & INTEGRATOR_NONFINITE);
}

/* The scalar second half of particles the blocks of four leave over (as
 * CloseBlock), with IntegratorMayPass on them. */
static PetscInt CloseTail(PetscInt n, const LocalInt *fl, const PetscReal *m, const PetscReal *in, const PetscReal *g,
                          PetscReal *f, const PetscReal *t, PetscReal h, const PetscReal *x, const PetscReal *x0,
                          const IntegratorRebuild *rb, PetscReal lo[3], PetscReal hi[3], PetscReal *v, PetscReal *w,
                          PetscReal *ke)
{
  for (PetscInt k = 0; k < n; k++) {
    PetscReal rmk = 1.0 / m[k], rik = 1.0 / in[k];
    for (int a = 0; a < 3 && g; a++) f[3 * k + a] = f[3 * k + a] + m[k] * g[a];
    if (fl[k] & PARTICLE_STILL) continue;
    for (int a = 0; a < 3; a++) {
      v[3 * k + a] += f[3 * k + a] * rmk * h;
      w[3 * k + a] += t[3 * k + a] * rik * h;
    }
    if (ke) {
      const PetscReal *vk = v + 3 * k, *wk = w + 3 * k;
      *ke += m[k] * ((vk[0] * vk[0] + vk[1] * vk[1]) + vk[2] * vk[2]) +
             in[k] * ((wk[0] * wk[0] + wk[1] * wk[1]) + wk[2] * wk[2]);
    }
  }
  return IntegratorMayPass(n, fl, m, x, x0, v, f, rb, lo, hi);
}

/* The step's second half, four particles at a time: with g, gravity into the
 * force (f = f + m g, the force of the step), the kick v += f (1 / m) h,
 * w += t / I h, then IntegratorMayPass on the kicked velocities, its cheap
 * test in lanes while they are in registers.  With op (dt > 0) the next
 * step's first half follows in the same pass (IntegratorCloseOpen). */
VEC_CLONES static PetscInt CloseBodies(PetscInt n, const LocalInt *restrict fl, const PetscReal *restrict m,
                                       const PetscReal *restrict in, const PetscReal         *g, PetscReal *restrict f,
                                       PetscReal *restrict t, PetscReal                       h, PetscReal *restrict x,
                                       const PetscReal *restrict x0, const IntegratorRebuild *rb, PetscReal lo[3],
                                       PetscReal       hi[3], PetscReal *restrict v, PetscReal *restrict w,
                                       IntegratorOpen *op, PetscReal *ke)
{
  const PetscReal gz[3] = {0.0, 0.0, 0.0}, *ga = g ? g : gz, *c = rb->c, dt_up = rb->dt_up, hs = rb->hs;
  const V4        Cd[3] = {{c[0], c[1], c[2], c[0]}, {c[1], c[2], c[0], c[1]}, {c[2], c[0], c[1], c[2]}};
  const V4        hh = {h, h, h, h}, du = {dt_up, dt_up, dt_up, dt_up}, zero = {0, 0, 0, 0};
  PetscReal       q  = 0.5 * dt_up * dt_up;
  const V4        qq = {q, q, q, q};
  V4              G[3], L[3], H[3], work4 = zero, kin4 = zero;
  OpenLanes       ol;
  PetscInt        bits   = 0;
  PetscBool       frozen = PETSC_FALSE;
  PetscInt        i      = 0;
  PetscReal       tail   = 0.0;
  SpreadGravity(ga, G);
  if (op) {
    PetscReal ho = 0.5 * op->dt;
    ol.hh = (V4){ho, ho, ho, ho}, ol.dd = (V4){op->dt, op->dt, op->dt, op->dt}, ol.work4 = &work4;
    SpreadGravity(op->g, ol.G);
  }
  for (int k = 0; k < 3; k++) /* lane l of row k holds axis (4 k + l) % 3 */
    for (int l = 0; l < 4; l++) L[k][l] = lo[(4 * k + l) % 3], H[k][l] = hi[(4 * k + l) % 3];
  for (; i + 4 <= n; i += 4) {
    V4        dc2[3], dx2[3], v2[3], f2[3], w2[3], M = Load4(m + i), A, Aw, B, C;
    PetscBool fz = AnyFrozen(fl + i);
    frozen       = frozen || fz;
    if (op) {
      ol.vp = op->vp + 3 * i, ol.wp = op->wp + 3 * i, ol.gw = op->gw ? op->gw + i : NULL;
      if (fz)
        CloseBlock(PETSC_TRUE, &ol, fl + i, m + i, in + i, g ? G : NULL, f + 3 * i, t + 3 * i, hh, x + 3 * i,
                   x0 + 3 * i, Cd, v + 3 * i, w + 3 * i, dc2, dx2, v2, f2, L, H, w2);
      else
        CloseBlock(PETSC_FALSE, &ol, fl + i, m + i, in + i, g ? G : NULL, f + 3 * i, t + 3 * i, hh, x + 3 * i,
                   x0 + 3 * i, Cd, v + 3 * i, w + 3 * i, dc2, dx2, v2, f2, L, H, w2);
    } else if (fz)
      CloseBlock(PETSC_TRUE, NULL, fl + i, m + i, in + i, g ? G : NULL, f + 3 * i, t + 3 * i, hh, x + 3 * i, x0 + 3 * i,
                 Cd, v + 3 * i, w + 3 * i, dc2, dx2, v2, f2, L, H, w2);
    else
      CloseBlock(PETSC_FALSE, NULL, fl + i, m + i, in + i, g ? G : NULL, f + 3 * i, t + 3 * i, hh, x + 3 * i,
                 x0 + 3 * i, Cd, v + 3 * i, w + 3 * i, dc2, dx2, v2, f2, L, H, w2);
    B = BodySums(v2);
    if (ke) KineticLanes(&kin4, fz, fl + i, M, B, Load4(in + i), BodySums(w2));
    if (bits == INTEGRATOR_BEYOND_ALL) continue;
    A = BodySums(dc2), Aw = BodySums(dx2), C = BodySums(f2);
    if (!(bits & INTEGRATOR_BEYOND_DRIFT))
      bits |= LanesBits(BeyondLanes(WithinLanes(A, B, C, M, du, qq, hs), A, B, C, M, du, hs, fl + i),
                        INTEGRATOR_BEYOND_DRIFT);
    if (!(bits & INTEGRATOR_BEYOND_HALF))
      bits |= LanesBits(BeyondLanes(WithinLanes(Aw, B, C, M, du, qq, hs), Aw, B, C, M, du, hs, fl + i),
                        INTEGRATOR_BEYOND_HALF);
    if (!(bits & INTEGRATOR_BEYOND_SKIN))
      bits |= LanesBits(BeyondLanes(WithinLanes(Aw, B, C, M, du, qq, 2.0 * hs), Aw, B, C, M, du, 2.0 * hs, fl + i),
                        INTEGRATOR_BEYOND_SKIN);
  }
  { /* the lanes' ranges into the axes' */
    for (int k = 0; k < 3; k++)
      for (int l = 0; l < 4; l++) {
        int a = (4 * k + l) % 3;
        lo[a] = L[k][l] < lo[a] ? L[k][l] : lo[a];
        hi[a] = H[k][l] > hi[a] ? H[k][l] : hi[a];
      }
  }
  /* with its ranges */
  bits |= CloseTail(n - i, fl + i, m + i, in + i, g, f + 3 * i, t + 3 * i, h, x + 3 * i, x0 + 3 * i, rb, lo, hi,
                    v + 3 * i, w + 3 * i, ke ? &tail : NULL);
  if (ke) *ke += 0.5 * (((kin4[0] + kin4[1]) + (kin4[2] + kin4[3])) + tail);
  if (op)
    op->work = OpenTail(n - i, fl + i, m + i, in + i, f + 3 * i, t + 3 * i, op->dt, op->g, x + 3 * i, v + 3 * i,
                        w + 3 * i, op->vp + 3 * i, op->wp + 3 * i, op->gw ? op->gw + i : NULL) +
               ((work4[0] + work4[1]) + (work4[2] + work4[3]));
  return bits | (frozen && DriftBeyond(rb) ? INTEGRATOR_BEYOND_DRIFT : 0);
}

PetscInt IntegratorCloseStep(PetscInt n, const LocalInt *fl, const PetscReal *m, const PetscReal *in,
                             const PetscReal *g, PetscReal *f, PetscReal *t, PetscReal h, PetscReal *x,
                             const PetscReal *x0, const IntegratorRebuild *rb, PetscReal lo[3], PetscReal hi[3],
                             PetscReal *v, PetscReal *w, PetscReal *ke)
{
  return CloseBodies(n, fl, m, in, g, f, t, h, x, x0, rb, lo, hi, v, w, NULL, ke);
}

PetscInt IntegratorCloseOpen(PetscInt n, const LocalInt *fl, const PetscReal *m, const PetscReal *in,
                             const PetscReal *g, PetscReal *f, PetscReal *t, PetscReal h, PetscReal *x,
                             const PetscReal *x0, const IntegratorRebuild *rb, PetscReal lo[3], PetscReal hi[3],
                             PetscReal *v, PetscReal *w, IntegratorOpen *op, PetscReal *ke)
{
  return CloseBodies(n, fl, m, in, g, f, t, h, x, x0, rb, lo, hi, v, w, op, ke);
}
