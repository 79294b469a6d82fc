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
    bi->rcap = PetscMax(m, 2 * bi->rcap);
    PetscCall(PetscMalloc1(bi->rcap, &bi->row));
  }
  for (PetscInt a = 0; a < m;) {
    PetscInt64 b = p->body[k[a].row];
    PetscInt   t = p->btmpl[k[a].row], n = t >= 0 && t < CLUMP_TEMPLATES_MAX ? ct->t[t].n : 0, c = 0;
    PetscCheck(n > 0 && k[a].id == b, PETSC_COMM_SELF, PETSC_ERR_PLIB, "body %" PetscInt64_FMT ": member %" PetscInt64_FMT " is here without its first member",
               b, k[a].id);
    if (bi->nbody + 1 >= bi->cap) {
      bi->cap = PetscMax(bi->nbody + 2, 2 * bi->cap);
      PetscCall(PetscRealloc(sizeof(*bi->start) * (size_t)bi->cap, &bi->start));
    }
    bi->start[bi->nbody] = (LocalInt)a;
    for (; a < m && p->body[k[a].row] == b; a++, c++) {
      PetscCheck(k[a].id == b + c, PETSC_COMM_SELF, PETSC_ERR_PLIB, "body %" PetscInt64_FMT ": member %" PetscInt64_FMT " is not here", b, b + c);
      bi->row[a] = k[a].row;
    }
    PetscCheck(c == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "body %" PetscInt64_FMT ": %" PetscInt_FMT " of its %" PetscInt_FMT " spheres are here", b, c, n);
    bi->nbody++;
  }
  if (bi->cap < 1) {
    bi->cap = 1;
    PetscCall(PetscMalloc1(1, &bi->start));
  }
  bi->start[bi->nbody] = (LocalInt)m;
  PetscCall(PetscFree(k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BodyIndexDestroy(BodyIndex *bi)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(bi->start));
  PetscCall(PetscFree(bi->row));
  PetscCall(PetscMemzero(bi, sizeof(*bi)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline void Cross3(const PetscReal a[3], const PetscReal b[3], PetscReal c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static inline PetscReal Norm(const PetscReal a[3])
{
  return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

void BodyMembersPlace(Particles *p, const LocalInt *rows, PetscInt n, const PetscReal Vp[3], const PetscReal wp[3])
{
  const PetscInt   l = rows[0];
  const PetscReal *X = p->bx + 3 * l, *V = p->bv + 3 * l, *q = p->bq + 4 * l, *in = p->bm + 5 * l + 1;
  PetscReal        R[9], Iw[9], w[3];

  QuatToMatrix(q, R);
  RigidOmegaWorld(q, p->bp + 4 * l, in, w);
  RigidInverseInertiaWorld(q, in, Iw);
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt   i = rows[k];
    const PetscReal *d = p->bd + 3 * i;
    PetscReal       *arm = p->barm + 3 * i, c[3];
    for (int a = 0; a < 3; a++) arm[a] = (R[3 * a] * d[0] + R[3 * a + 1] * d[1]) + R[3 * a + 2] * d[2];
    Cross3(w, arm, c);
    for (int a = 0; a < 3; a++) {
      p->bx[3 * i + a] = X[a];
      p->x[3 * i + a]  = X[a] + arm[a];
      p->v[3 * i + a]  = V[a] + c[a];
      p->w[3 * i + a]  = w[a];
    }
    if (Vp) {
      Cross3(wp, arm, c);
      for (int a = 0; a < 3; a++) p->vp[3 * i + a] = Vp[a] + c[a], p->wp[3 * i + a] = wp[a];
    }
    p->binv[6 * i] = Iw[0], p->binv[6 * i + 1] = Iw[4], p->binv[6 * i + 2] = Iw[8];
    p->binv[6 * i + 3] = Iw[1], p->binv[6 * i + 4] = Iw[2], p->binv[6 * i + 5] = Iw[5];
  }
}

PetscReal BodiesOpen(Particles *p, const BodyIndex *bi, PetscReal dt, const PetscReal g[3])
{
  const PetscReal h = 0.5 * dt;
  PetscReal       work = 0.0;

  for (PetscInt b = 0; b < bi->nbody; b++) {
    const LocalInt *rows = bi->row + bi->start[b];
    const PetscInt  n = bi->start[b + 1] - bi->start[b], l = rows[0];
    const PetscReal M = p->bm[5 * l], rm = 1.0 / M, *in = p->bm + 5 * l + 1, *F = p->bft + 6 * l, *T = F + 3;
    PetscReal      *X = p->bx + 3 * l, *V = p->bv + 3 * l, *q = p->bq + 4 * l, *pm = p->bp + 4 * l, Vp[3], wp[3], Iw[9], qg[3], w[3];
    for (int a = 0; a < 3; a++) {
      PetscReal dv = F[a] * rm * h;
      V[a] += dv;
      Vp[a] = V[a] + dv;
      X[a] += V[a] * dt;
      qg[a] = M * g[a] * V[a] * dt;
    }
    work += (qg[0] + qg[1]) + qg[2];
    if (p->wgrav) p->wgrav[l] = p->wgrav[l] + ((qg[0] + qg[1]) + qg[2]);
    if (p->nledger) p->lwork[(p->nledger + 1) * l + p->nledger] += M * ((g[0] * V[0] + g[1] * V[1]) + g[2] * V[2]) * dt;
    RigidKick(q, T, h, pm);
    RigidRotate(in, dt, q, pm);
    /* the prediction at the step's end: the angular momentum kicked once more, at the new orientation */
    RigidOmegaWorld(q, pm, in, w);
    RigidInverseInertiaWorld(q, in, Iw);
    for (int a = 0; a < 3; a++) wp[a] = w[a] + ((Iw[3 * a] * T[0] + Iw[3 * a + 1] * T[1]) + Iw[3 * a + 2] * T[2]) * h;
    BodyMembersPlace(p, rows, n, Vp, wp);
  }
  return work;
}

void BodiesGather(Particles *p, const BodyIndex *bi, const PetscReal g[3])
{
  for (PetscInt b = 0; b < bi->nbody; b++) {
    const LocalInt *rows = bi->row + bi->start[b];
    const PetscInt  n = bi->start[b + 1] - bi->start[b], l = rows[0];
    PetscReal       F[3] = {0, 0, 0}, T[3] = {0, 0, 0};
    for (PetscInt k = 0; k < n; k++) {
      const PetscInt i = rows[k];
      PetscReal      c[3];
      Cross3(p->barm + 3 * i, p->f + 3 * i, c);
      for (int a = 0; a < 3; a++) F[a] += p->f[3 * i + a], T[a] += c[a] + p->t[3 * i + a];
    }
    for (int a = 0; a < 3; a++) p->bft[6 * l + a] = F[a] + p->bm[5 * l] * g[a], p->bft[6 * l + 3 + a] = T[a];
  }
}

/* The rebuild criterion's test (IntegratorMayPass) taken a relative 1e-9 short. */
#define BODY_BEYOND_SHORT (1.0 - 1e-9)

void BodiesClose(Particles *p, const BodyIndex *bi, PetscReal dt)
{
  const PetscReal h = 0.5 * dt;

  for (PetscInt b = 0; b < bi->nbody; b++) {
    const LocalInt *rows = bi->row + bi->start[b];
    const PetscInt  n = bi->start[b + 1] - bi->start[b], l = rows[0];
    const PetscReal rm = 1.0 / p->bm[5 * l], *in = p->bm + 5 * l + 1, *F = p->bft + 6 * l, *T = F + 3;
    PetscReal      *V = p->bv + 3 * l, w[3];
    for (int a = 0; a < 3; a++) V[a] += F[a] * rm * h;
    RigidKick(p->bq + 4 * l, T, h, p->bp + 4 * l);
    RigidOmegaWorld(p->bq + 4 * l, p->bp + 4 * l, in, w);
    for (PetscInt k = 0; k < n; k++) {
      const PetscInt i = rows[k];
      PetscReal      c[3];
      Cross3(w, p->barm + 3 * i, c);
      for (int a = 0; a < 3; a++) p->v[3 * i + a] = V[a] + c[a], p->w[3 * i + a] = w[a];
    }
  }
}

PetscInt BodiesMayPass(const Particles *p, const BodyIndex *bi, const IntegratorRebuild *rb, PetscReal lo[3], PetscReal hi[3])
{
  const PetscReal du = rb->dt_up;
  PetscInt        bits = 0;

  for (PetscInt b = 0; b < bi->nbody; b++) {
    const LocalInt  *rows = bi->row + bi->start[b];
    const PetscInt   n = bi->start[b + 1] - bi->start[b], l = rows[0];
    const PetscReal  rm = 1.0 / p->bm[5 * l], *in = p->bm + 5 * l + 1, *F = p->bft + 6 * l, *T = F + 3, *pm = p->bp + 4 * l;
    PetscReal        move, turn, imin;
    /* how far a member may get from where the lists were built by the end
     * of the next step: the centre's drift after the next kick, and the turn
     * (the free rotor keeps |L|: no axis turns faster than |L| / I_min, and
     * NO_SQUISH's sub-rotations add up to at most sqrt(3) |L| / I_min dt) */
    imin = PetscMin(in[0], PetscMin(in[1], in[2]));
    move = (Norm(p->bv + 3 * l) + Norm(F) * rm * 0.5 * du) * du;
    turn = sqrt(3.0) * (0.5 * sqrt(pm[0] * pm[0] + pm[1] * pm[1] + pm[2] * pm[2] + pm[3] * pm[3]) + Norm(T) * 0.5 * du) / imin * du;
    if (!isfinite(move) || !isfinite(turn)) bits |= INTEGRATOR_NONFINITE;
    for (PetscInt k = 0; k < n; k++) {
      const PetscInt i = rows[k];
      PetscReal      dx[3], D;
      for (int a = 0; a < 3; a++) {
        dx[a] = p->x[3 * i + a] - p->x0[3 * i + a];
        lo[a] = PetscMin(lo[a], dx[a]), hi[a] = PetscMax(hi[a], dx[a]);
      }
      D = Norm(dx) + move + turn * Norm(p->barm + 3 * i);
      if (!(D < rb->hs * BODY_BEYOND_SHORT)) bits |= INTEGRATOR_BEYOND_DRIFT | INTEGRATOR_BEYOND_HALF;
      if (!(D < 2.0 * rb->hs * BODY_BEYOND_SHORT)) bits |= INTEGRATOR_BEYOND_SKIN;
      if (!isfinite(D)) bits |= INTEGRATOR_NONFINITE;
    }
  }
  return bits;
}

PetscReal BodiesKinematicBound(const Particles *p, const BodyIndex *bi, PetscReal hs, PetscInt *who)
{
  PetscReal bound = PETSC_MAX_REAL;

  *who = -1;
  for (PetscInt b = 0; b < bi->nbody; b++) {
    const LocalInt  *rows = bi->row + bi->start[b];
    const PetscInt   n = bi->start[b + 1] - bi->start[b], l = rows[0];
    const PetscReal *in = p->bm + 5 * l + 1, *F = p->bft + 6 * l, *T = F + 3;
    PetscReal        rho = 0.0, w[3], wn, v, acc, qq, dtk, imin = PetscMin(in[0], PetscMin(in[1], in[2]));
    for (PetscInt k = 0; k < n; k++) rho = PetscMax(rho, Norm(p->barm + 3 * rows[k]));
    RigidOmegaWorld(p->bq + 4 * l, p->bp + 4 * l, in, w);
    wn  = Norm(w);
    v   = Norm(p->bv + 3 * l) + wn * rho;
    acc = Norm(F) / p->bm[5 * l] + (Norm(T) / imin + wn * wn) * rho;
    qq  = sqrt(v * v + 2.0 * acc * hs) + v;
    dtk = qq > 0.0 ? 2.0 * hs / qq : PETSC_MAX_REAL;
    if (dtk < bound) bound = dtk, *who = l;
  }
  return bound;
}

PetscReal BodyKinetic(const Particles *p, PetscInt l)
{
  const PetscReal *V = p->bv + 3 * l, *in = p->bm + 5 * l + 1;
  PetscReal        Lb[3], kr = 0.0;
  RigidMomentumBody(p->bq + 4 * l, p->bp + 4 * l, Lb);
  for (int a = 0; a < 3; a++) kr += in[a] > 0.0 ? Lb[a] * Lb[a] / in[a] : 0.0;
  return 0.5 * p->bm[5 * l] * (V[0] * V[0] + V[1] * V[1] + V[2] * V[2]) + 0.5 * kr;
}

void BodiesEnergy(const Particles *p, const BodyIndex *bi, ExactSum *ke, ExactSum *kr)
{
  for (PetscInt b = 0; b < bi->nbody; b++) {
    const PetscInt   l  = bi->row[bi->start[b]];
    const PetscReal *V  = p->bv + 3 * l, *in = p->bm + 5 * l + 1;
    PetscReal        Lb[3], r = 0.0;
    RigidMomentumBody(p->bq + 4 * l, p->bp + 4 * l, Lb);
    for (int a = 0; a < 3; a++) r += in[a] > 0.0 ? Lb[a] * Lb[a] / in[a] : 0.0;
    ExactSumAdd(ke, 0.5 * p->bm[5 * l] * (V[0] * V[0] + V[1] * V[1] + V[2] * V[2]));
    ExactSumAdd(kr, 0.5 * r);
  }
}
