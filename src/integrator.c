#include "integrator.h"
#include <string.h>

/* Four bodies at a time: their twelve components are three 4-lane vectors,
 * each lane divided by its body's mass (or inertia).  The kicks are bound
 * by these divisions; a vector division gives per lane the bits of the
 * scalar one (IEEE, no contraction), so the lanes change no result.
 * Frozen bodies are computed and not stored. */
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

/* the per-body value s[i .. i+3] spread over the twelve components */
INLINE void Spread(const PetscReal *s, V4 q[3])
{
  q[0] = (V4){s[0], s[0], s[0], s[1]};
  q[1] = (V4){s[1], s[1], s[2], s[2]};
  q[2] = (V4){s[2], s[3], s[3], s[3]};
}

INLINE void SpreadFrozen(const PetscInt *fl, M4 q[3])
{
  static const int body[12] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
  for (int c = 0; c < 3; c++) {
    M4 z = {0, 0, 0, 0};
    for (int l = 0; l < 4; l++) z[l] = (fl[body[4 * c + l]] & PARTICLE_FROZEN) ? -1 : 0;
    q[c] = z;
  }
}

/* masses, inertias and frozen masks of bodies i .. i+3 over their components */
INLINE void SpreadBodies(const PetscInt *fl, const PetscReal *m, const PetscReal *in, V4 qm[3], V4 qi[3], M4 fz[3])
{
  Spread(m, qm);
  Spread(in, qi);
  SpreadFrozen(fl, fz);
}

INLINE V4 Keep(M4 frozen, V4 old, V4 upd)
{
  return (V4)(((M4)old & frozen) | ((M4)upd & ~frozen));
}

__attribute__((target_clones("avx2", "default"))) void IntegratorKickBodies(PetscInt n, const PetscInt *restrict fl, const PetscReal *restrict m, const PetscReal *restrict in, const PetscReal *restrict f, const PetscReal *restrict t, PetscReal h, PetscReal *restrict v, PetscReal *restrict w)
{
  const V4 hh = {h, h, h, h};
  PetscInt i  = 0;
  for (; i + 4 <= n; i += 4) {
    V4 qm[3] = {{0}}, qi[3] = {{0}};
    M4 fz[3] = {{0}};
    SpreadBodies(fl + i, m + i, in + i, qm, qi, fz);
    for (int c = 0; c < 3; c++) {
      PetscReal *vc = v + 3 * i + 4 * c, *wc = w + 3 * i + 4 * c;
      Store4(vc, Keep(fz[c], Load4(vc), Load4(vc) + Load4(f + 3 * i + 4 * c) / qm[c] * hh));
      Store4(wc, Keep(fz[c], Load4(wc), Load4(wc) + Load4(t + 3 * i + 4 * c) / qi[c] * hh));
    }
  }
  for (; i < n; i++) {
    if (fl[i] & PARTICLE_FROZEN) continue;
    for (int a = 0; a < 3; a++) {
      v[3 * i + a] += f[3 * i + a] / m[i] * h;
      w[3 * i + a] += t[3 * i + a] / in[i] * h;
    }
  }
}

/* The step's first half for four bodies at a time, in one pass over the
 * arrays: the kick v += f / m h (IntegratorKickBodies' operations), the
 * drift x += v dt, the prediction vp = v + h f / m; gravity's work
 * m g . v dt summed in four lanes. */
__attribute__((target_clones("avx2", "default"))) PetscReal IntegratorOpenStepBodies(PetscInt n, const PetscInt *restrict fl, const PetscReal *restrict m, const PetscReal *restrict in, const PetscReal *restrict f, const PetscReal *restrict t, PetscReal dt, const PetscReal g[3], PetscReal *restrict x, PetscReal *restrict v, PetscReal *restrict w, PetscReal *restrict vp, PetscReal *restrict wp)
{
  const PetscReal h = 0.5 * dt;
  const V4        hh = {h, h, h, h}, dd = {dt, dt, dt, dt}, zero = {0, 0, 0, 0};
  const V4        G[3] = {{g[0], g[1], g[2], g[0]}, {g[1], g[2], g[0], g[1]}, {g[2], g[0], g[1], g[2]}};
  V4              work4 = zero;
  PetscReal       work  = 0.0;
  PetscInt        i     = 0;
  for (; i + 4 <= n; i += 4) {
    V4 qm[3] = {{0}}, qi[3] = {{0}};
    M4 fz[3] = {{0}};
    SpreadBodies(fl + i, m + i, in + i, qm, qi, fz);
    for (int c = 0; c < 3; c++) {
      PetscInt o  = 3 * i + 4 * c;
      V4       vo = Load4(v + o), wo = Load4(w + o), fo = Load4(f + o), to = Load4(t + o);
      V4       vn = Keep(fz[c], vo, vo + fo / qm[c] * hh), wn = Keep(fz[c], wo, wo + to / qi[c] * hh);
      Store4(v + o, vn);
      Store4(w + o, wn);
      Store4(x + o, Keep(fz[c], Load4(x + o), Load4(x + o) + vn * dd));
      Store4(vp + o, Keep(fz[c], Load4(vp + o), vn + hh * fo / qm[c]));
      Store4(wp + o, Keep(fz[c], Load4(wp + o), wn + hh * to / qi[c]));
      work4 += Keep(fz[c], qm[c] * G[c] * vn * dd, zero);
    }
  }
  for (; i < n; i++) {
    if (fl[i] & PARTICLE_FROZEN) continue;
    for (int a = 0; a < 3; a++) {
      v[3 * i + a] += f[3 * i + a] / m[i] * h;
      w[3 * i + a] += t[3 * i + a] / in[i] * h;
      x[3 * i + a] += v[3 * i + a] * dt;
      vp[3 * i + a] = v[3 * i + a] + h * f[3 * i + a] / m[i];
      wp[3 * i + a] = w[3 * i + a] + h * t[3 * i + a] / in[i];
      work += m[i] * g[a] * v[3 * i + a] * dt;
    }
  }
  return work + ((work4[0] + work4[1]) + (work4[2] + work4[3]));
}
