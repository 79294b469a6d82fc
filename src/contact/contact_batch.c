#include "contact/contact_batch.h"
#include <string.h>
#include <stddef.h>
#include "hdem_vector.h"
#include "contact/cube_root.h"

/* GCC's vector extensions (clang has them too): the lanes map onto SSE2 (2 doubles) or, in the
 * AVX2 clone, onto AVX2 (4 doubles); either way per lane the scalar IEEE
 * operation.  Comparisons give all-ones / all-zeros lane masks. */
/* the helpers are inlined into each clone, so no vector crosses a call */
#pragma GCC diagnostic ignored "-Wpsabi"
#define INLINE static inline __attribute__((always_inline))
typedef double    V __attribute__((vector_size(8 * CONTACT_LANES)));
typedef long long M __attribute__((vector_size(8 * CONTACT_LANES)));

/* Lanes moves histories and particles' three components as rows of four */
_Static_assert(CONTACT_LANES == 4, "the lanes' transposes are 4 x 4");
_Static_assert(sizeof(ContactHistory) == 8 * sizeof(PetscReal) &&
                 offsetof(ContactHistory, v_imp) == 3 * sizeof(PetscReal) &&
                 offsetof(ContactHistory, d_last) == 4 * sizeof(PetscReal),
               "a history is two rows of four reals: xi, v_imp | d_last, Fn_last, dt_last, touched");

/* a in every lane: one broadcast (built lane by lane, the compiler made it
 * two or three shuffles) */
INLINE V Splat(PetscReal a)
{
  return (V){a, a, a, a};
}

INLINE V Load(const PetscReal *a)
{
  V r = {0};
  memcpy(&r, a, sizeof(r));
  return r;
}

INLINE void Store(PetscReal *a, V v)
{
  memcpy(a, &v, sizeof(v));
}

/* The 4 x 4 transpose: b[c][l] = a[l][c].  Rows of four reals (a particle's
 * three components and the next real, a history's first or second half)
 * become lanes and back by whole-vector loads, stores and shuffles: per-lane
 * element moves went through the stack, where a vector load of four scalar
 * stores waits for all of them. */
INLINE void Transpose(const V a[4], V b[4])
{
  V t0 = VEC_SHUFFLE(M, a[0], a[1], 0, 4, 2, 6), t1 = VEC_SHUFFLE(M, a[0], a[1], 1, 5, 3, 7);
  V t2 = VEC_SHUFFLE(M, a[2], a[3], 0, 4, 2, 6), t3 = VEC_SHUFFLE(M, a[2], a[3], 1, 5, 3, 7);
  b[0] = VEC_SHUFFLE(M, t0, t2, 0, 1, 4, 5);
  b[1] = VEC_SHUFFLE(M, t1, t3, 0, 1, 4, 5);
  b[2] = VEC_SHUFFLE(M, t0, t2, 2, 3, 6, 7);
  b[3] = VEC_SHUFFLE(M, t1, t3, 2, 3, 6, 7);
}

/* Components 0-2 of particle k of each lane from a 3-per-particle array
 * (the arrays keep one real past the last particle: FIELD_PAD). */
INLINE void Gather3(const PetscReal *a, const PetscInt k[4], V c[3])
{
  V r[4] = {Load(a + 3 * k[0]), Load(a + 3 * k[1]), Load(a + 3 * k[2]), Load(a + 3 * k[3])}, t[4];
  Transpose(r, t);
  for (int d = 0; d < 3; d++) c[d] = t[d];
}

/* a[3 i + d] - a[3 j + d] of each lane's pair, the scalar subtraction per element */
INLINE void GatherDiff3(const PetscReal *a, const PetscInt i[4], const PetscInt j[4], V c[3])
{
  V r[4], t[4];
  for (int l = 0; l < 4; l++) r[l] = Load(a + 3 * i[l]) - Load(a + 3 * j[l]);
  Transpose(r, t);
  for (int d = 0; d < 3; d++) c[d] = t[d];
}

INLINE V Sqrt(V a)
{
  V r = {0};
  for (int l = 0; l < CONTACT_LANES; l++) r[l] = __builtin_sqrt(a[l]);
  return r;
}

/* m ? a : b, per lane, by bits (signed zeros and NaNs pass unchanged) */
INLINE V Select(M m, V a, V b)
{
  return (V)(((M)a & m) | ((M)b & ~m));
}

/* whether some lane's mask is set */
INLINE PetscBool Any(M m)
{
  long long any = 0;
  for (int l = 0; l < CONTACT_LANES; l++) any |= m[l];
  return any ? PETSC_TRUE : PETSC_FALSE;
}

/* libm's pow lane by lane: the scalar call's bits */
INLINE V Pow(V a, PetscReal e)
{
  V r = {0};
  for (int l = 0; l < CONTACT_LANES; l++) r[l] = pow(a[l], e);
  return r;
}

/* libm's pow in the lanes where m is set (others: a as it is) */
INLINE V PowWhere(M m, V a, PetscReal e)
{
  V r = a;
  for (int l = 0; l < CONTACT_LANES; l++)
    if (m[l]) r[l] = pow(a[l], e);
  return r;
}

/* The cube root of every lane (cube_root.h: the scalar kernel's bits), m unused: one vector pass costs less than a
 * call for a single lane */
INLINE V Cbrt(M m, V a)
{
  (void)m;
  return CubeRootLanes(a);
}

/* The contact kernel on lanes: per lane the scalar instantiation's bits. */
#define K_V                  V
#define K_M                  M
#define K_FN(name)           Lanes##name
#define K_SPLAT(c)           Splat(c)
#define K_SQRT(a)            Sqrt(a)
#define K_POW(a, e)          Pow(a, e)
#define K_CBRT(m, a)         Cbrt(m, a)
#define K_POW_WHERE(m, a, e) PowWhere(m, a, e)
#define K_NLANES             CONTACT_LANES
#define K_LANE(a, l)         ((a)[l])
#define K_SELECT(m, a, b)    Select(m, a, b)
#define K_ANY(m)             Any(m)
#define K_FIRST_TOUCH        0
#include "contact/kernel.h"

/* Member f of each lane's pair constants (lanes b0 ..), as lanes */
#define BATCH_LANES(bt, b0, f) ((V){(bt)->c[b0]->f, (bt)->c[(b0) + 1]->f, (bt)->c[(b0) + 2]->f, (bt)->c[(b0) + 3]->f})

/* The constants of lanes b0 .. b0 + CONTACT_LANES - 1, those the damping
 * takes: broadcast where the lanes share one pair's (the usual case: one
 * kind of pair), else gathered. */
INLINE void LanesConst(const ContactBatch *bt, PetscInt b0, ContactDampKind damp, V *ri, V *rj, V *kc, V *gc, V *mu,
                       LanesNormalConst *nc)
{
  const ContactBatchConst *c0   = bt->c[b0];
  const PetscBool          harm = damp == CONTACT_DAMP_HARMONIC,
                  mass          = damp == CONTACT_DAMP_TSUJI || damp == CONTACT_DAMP_CALIBRATED;
  const PetscBool ca            = damp != CONTACT_DAMP_HARMONIC && damp != CONTACT_DAMP_OTHER,
                  speed         = damp == CONTACT_DAMP_SPEED || damp == CONTACT_DAMP_CALIBRATED,
                  other         = damp == CONTACT_DAMP_OTHER;
  PetscBool same                = PETSC_TRUE;

  for (int l = 1; l < CONTACT_LANES; l++) same = same && bt->c[b0 + l] == c0 ? PETSC_TRUE : PETSC_FALSE;
  if (same) {
    *ri = Splat(c0->ri), *rj = Splat(c0->rj), *kc = Splat(c0->kc), *gc = Splat(c0->gc), *mu = Splat(c0->mu);
    nc->s = Splat(c0->s);
    if (harm) nc->zs = Splat(c0->zs), nc->cF = Splat(c0->cF);
    if (mass || other) nc->m = Splat(c0->m);
    if (ca) nc->ca = Splat(c0->ca);
    if (speed) nc->cb = Splat(c0->cb), nc->cc = Splat(c0->cc);
    if (other)
      for (int l = 0; l < CONTACT_LANES; l++) nc->dmp[l] = c0->dmp;
  } else { /* lane by lane */
#define GATHER(f) BATCH_LANES(bt, b0, f)
    *ri = GATHER(ri), *rj = GATHER(rj), *kc = GATHER(kc), *gc = GATHER(gc), *mu = GATHER(mu);
    nc->s = GATHER(s);
    if (harm) nc->zs = GATHER(zs), nc->cF = GATHER(cF);
    if (mass || other) nc->m = GATHER(m);
    if (ca) nc->ca = GATHER(ca);
    if (speed) nc->cb = GATHER(cb), nc->cc = GATHER(cc);
    if (other)
      for (int l = 0; l < CONTACT_LANES; l++) nc->dmp[l] = bt->c[b0 + l]->dmp;
#undef GATHER
  }
}

/* The Mindlin-Deresiewicz spring of the lanes (kernel_md.h) onto their
 * normal part; each touching real lane's memory back into its slot.  A
 * memory is three rows of four reals, moved as rows and transposed (scalar
 * moves into and out of lanes cost as much as the spring's arithmetic). */
_Static_assert(
  sizeof(ContactTurning) == 12 * sizeof(PetscReal) && offsetof(ContactTurning, tss) == 3 * sizeof(PetscReal) &&
    offsetof(ContactTurning, dlast) == 6 * sizeof(PetscReal) &&
    offsetof(ContactTurning, mun) == 9 * sizeof(PetscReal) && offsetof(ContactTurning, phase) == 10 * sizeof(PetscReal),
  "a turning memory is three rows of four reals: ts, tss[0] | tss[1..2], dlast[0..1] | dlast[2], mun, phase, spare");
INLINE void LanesTurningMD(const ContactBatchModel *md, const ContactBatch *bt, PetscInt b0, PetscInt nreal,
                           PetscReal dt, ContactTurning *tn, M touch, V ri, V rj, V kc, V gc, V mu, const V n[3],
                           const V v[3], const V vp[3], const V wi[3], const V wj[3], const V wip[3], const V wjp[3],
                           V sd, V qd, V Fn, V Fn_applied, V xi[3], V F[3], V Ti[3], V Tj[3], V P[2])
{
  V            vt[3], vtp[3], rows[3][4], c[3][4];
  LanesTurning s;
  PetscReal   *t[CONTACT_LANES];

  for (int l = 0; l < CONTACT_LANES; l++) t[l] = (PetscReal *)(tn + bt->slot[b0 + l]);
  for (int r = 0; r < 3; r++) {
    for (int l = 0; l < CONTACT_LANES; l++) rows[r][l] = Load(t[l] + 4 * r);
    Transpose(rows[r], c[r]);
  }
  for (int a = 0; a < 3; a++) s.ts[a] = c[0][a];
  s.tss[0] = c[0][3], s.tss[1] = c[1][0], s.tss[2] = c[1][1];
  s.dlast[0] = c[1][2], s.dlast[1] = c[1][3], s.dlast[2] = c[2][0];
  s.mun = c[2][1], s.phase = c[2][2];
  LanesSlip(ri, rj, n, v, wi, wj, vt);
  LanesSlip(ri, rj, n, vp, wip, wjp, vtp);
  LanesTurningAdd(&md->km, kc, gc, mu, ri, rj, xi, &s, n, vt, vtp, Splat(dt), sd, qd, Fn, Fn_applied, F, Ti, Tj, &P[1]);
  for (int a = 0; a < 3; a++) c[0][a] = s.ts[a];
  c[0][3] = s.tss[0], c[1][0] = s.tss[1], c[1][1] = s.tss[2];
  c[1][2] = s.dlast[0], c[1][3] = s.dlast[1], c[2][0] = s.dlast[2];
  c[2][1] = s.mun, c[2][2] = s.phase; /* c[2][3]: the spare reals as loaded */
  for (int r = 0; r < 3; r++) Transpose(c[r], rows[r]);
  for (int l = 0; l < CONTACT_LANES && b0 + l < nreal; l++) {
    if (!touch[l]) continue;
    for (int r = 0; r < 3; r++) Store(t[l] + 4 * r, rows[r][l]);
  }
}

/* The rolling resistance of the lanes (kernel_rolling.h) onto their torques,
 * its power into the batch's P2; each touching real lane's spring back into
 * its slot. */
INLINE void LanesRolling(ContactBatch *bt, PetscInt b0, PetscInt nreal, PetscReal dt, ContactRolling *rl, M touch,
                         const V n[3], const V wi[3], const V wj[3], const V wip[3], const V wjp[3], V Fn, V dF,
                         V Ti[3], V Tj[3])
{
  ContactRolling   *r[CONTACT_LANES];
  LanesRollingConst rc;
  V                 mr[3], P2 = {0};

  for (int l = 0; l < CONTACT_LANES; l++) r[l] = rl + bt->slot[b0 + l];
  for (int a = 0; a < 3; a++) mr[a] = (V){r[0]->mr[a], r[1]->mr[a], r[2]->mr[a], r[3]->mr[a]};
  rc.mu = BATCH_LANES(bt, b0, co->rolling.mu), rc.eta = BATCH_LANES(bt, b0, co->rolling.eta);
  rc.Rstar = BATCH_LANES(bt, b0, Rstar), rc.Ir = BATCH_LANES(bt, b0, Ir);
  rc.constant = BATCH_LANES(bt, b0, co->rolling.type) == Splat(ROLLING_CONSTANT);
  LanesRollingAdd(&rc, mr, n, wi, wj, wip, wjp, Splat(dt), Fn, dF, Ti, Tj, &P2);
  for (int l = 0; l < CONTACT_LANES && b0 + l < nreal; l++) {
    bt->P2[b0 + l] = P2[l];
    if (touch[l])
      for (int a = 0; a < 3; a++) r[l]->mr[a] = mr[a][l];
  }
}

/* The calibrated damper's C of each lane whose contact formed it before at
 * its impact speed v_imp (cd: HistorySlotsDamp) into ca, which the kernel
 * then takes as a raw pair's; fill: the lanes that form it now. */
INLINE void LanesDampCached(const ContactBatch *bt, PetscInt b0, const PetscReal *cd, V v_imp, V *ca, M *fill)
{
  for (int l = 0; l < CONTACT_LANES; l++) {
    const PetscReal *e = cd + 2 * (size_t)bt->slot[b0 + l], zero = 0.0, vl = v_imp[l];
    if (!((*ca)[l] < 0.0)) continue; /* a raw pair's C */
    if (!memcmp(&e[0], &vl, sizeof(vl)) && memcmp(&e[1], &zero, sizeof(zero))) (*ca)[l] = e[1];
    else (*fill)[l] = -1;
  }
}

/* The C of the touching real lanes that formed it (keep) into their slots with their v_imp. */
INLINE void LanesDampKeep(const ContactBatch *bt, PetscInt b0, PetscInt nreal, PetscReal *cd, M keep, V v_imp, V C)
{
  for (int l = 0; l < CONTACT_LANES && b0 + l < nreal; l++)
    if (keep[l]) {
      PetscReal *e = cd + 2 * (size_t)bt->slot[b0 + l];
      e[0] = v_imp[l], e[1] = C[l];
    }
}

/* Lanes b0 .. b0 + CONTACT_LANES - 1 of a batch padded to whole lanes; lanes
 * at or past nreal compute on the last contact's inputs and write nothing.
 * law, damp and sides (the turning spring or rolling) are md's, passed
 * apart so that an instantiation with them constant keeps only its own
 * arithmetic. */
INLINE void Lanes(const ContactBatchModel *md, ContactLawKind law, ContactDampKind damp, PetscBool sides,
                  ContactBatch *bt, PetscInt b0, PetscInt nreal, PetscReal dt, const PetscReal *v, const PetscReal *vp,
                  const PetscReal *w, const PetscReal *wp, ContactHistory *h, ContactTurning *tn, ContactRolling *rl,
                  PetscReal *cd, PetscReal *res)
{
  ContactKernelModel km = md->km; /* under turning, the kernel's normal part, then the spring lane by lane */
  ContactNormalModel nm = md->nm;
  ContactHistory    *hl[CONTACT_LANES];
  PetscInt           il[CONTACT_LANES], jl[CONTACT_LANES];
  V                  n[3], vr[3], vpr[3], wi[3], wj[3], wip[3], wjp[3], xi[3], F[3], Ti[3], Tj[3];
  V                  r[3], rr, len, d, ri, rj, ckc, cgc, cmu;
  V                  inv, ddot, sd, qd, Fel, C, U = {0}, dF = {0}, Fn, Fn_raw, Fn_applied, P[2];
  LanesNormalConst   nc;
  V                  h0[4], h1[4], rows[4]; /* the histories' halves, per lane and as lanes */
  M                  touch, fill = {0};

  for (int l = 0; l < CONTACT_LANES; l++) {
    PetscInt b = b0 + l;
    il[l] = bt->i[b], jl[l] = bt->j[b], hl[l] = &h[bt->slot[b]]; /* padded lanes read the last contact's */
    rows[l] = Load(hl[l]->xi);                                   /* xi[0..2], v_imp */
  }
  Transpose(rows, h0);
  for (int a = 0; a < 3; a++) xi[a] = h0[a];
  GatherDiff3(v, il, jl, vr);
  GatherDiff3(vp, il, jl, vpr);
  Gather3(w, il, wi);
  Gather3(w, jl, wj);
  Gather3(wp, il, wip);
  Gather3(wp, jl, wjp);
  nm.law = law, nm.damp = damp;
  LanesConst(bt, b0, damp, &ri, &rj, &ckc, &cgc, &cmu, &nc);
  if (damp == CONTACT_DAMP_CALIBRATED && cd) LanesDampCached(bt, b0, cd, h0[3], &nc.ca, &fill);
  for (int a = 0; a < 3; a++) r[a] = Load(bt->r[a] + b0);
  rr    = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  len   = Sqrt(rr);
  d     = Load(bt->rs + b0) - len;
  touch = d > Splat(0.0);
  /* padded lanes repeat a real one */
  if (Any(d > Splat(CONTACT_OVERLAP_LIMIT) * Select(ri < rj, ri, rj))) bt->deep = PETSC_TRUE;
  inv = Splat(1.0) / len;
  for (int a = 0; a < 3; a++) n[a] = r[a] * inv;
  LanesNormal(&nm, &nc, d, h0[3], md->km.friction && md->km.mindlin, &sd, &qd, &Fel, &C, md->bound ? &U : NULL,
              md->rolling ? &dF : NULL);
  if (damp == CONTACT_DAMP_CALIBRATED && cd) LanesDampKeep(bt, b0, nreal, cd, fill & touch, h0[3], C);
  if (md->turning) km.friction = PETSC_FALSE;
  LanesContact(&km, cmu, ri, rj, ckc, cgc, n, vr, vpr, wi, wj, wip, wjp, Splat(dt), Fel, C, sd, qd, PETSC_FALSE,
               Splat(0.0), xi, &ddot, &Fn, &Fn_raw, &Fn_applied, F, Ti, Tj, P);
  if (sides && md->turning && md->km.friction)
    LanesTurningMD(md, bt, b0, nreal, dt, tn, touch, ri, rj, ckc, cgc, cmu, n, vr, vpr, wi, wj, wip, wjp, sd, qd, Fn,
                   Fn_applied, xi, F, Ti, Tj, P);
  if (sides && md->rolling) LanesRolling(bt, b0, nreal, dt, rl, touch, n, wi, wj, wip, wjp, Fn, dF, Ti, Tj);
  if (md->bound) { /* the step bound's overlap rate and elastic energy */
    for (int l = 0; l < CONTACT_LANES && b0 + l < nreal; l++) bt->ddot[b0 + l] = ddot[l], bt->U[b0 + l] = U[l];
  }
  {
    V fr[4], gr[4], er[4], c0[4] = {F[0], F[1], F[2], Ti[0]}, c1[4] = {Ti[1], Ti[2], Tj[0], Tj[1]},
                           c2[4] = {Tj[2], P[0], P[1], Splat(0.0)};
    /* d_last, Fn_last, dt_last, touched */
    for (int l = 0; l < CONTACT_LANES; l++) rows[l] = Load(&hl[l]->d_last);
    Transpose(rows, h1);
    h1[0] = d, h1[1] = Fn, h1[2] = Splat(dt);
    Transpose(h1, rows);
    if (md->km.friction) { /* xi back into rows, v_imp as loaded (Transpose reads all before writing) */
      for (int a = 0; a < 3; a++) h0[a] = xi[a];
      Transpose(h0, h0);
    }
    Transpose(c0, fr); /* each lane's twelve results as F, Ti | Ti, Tj | Tj, the powers, no work */
    Transpose(c1, gr);
    if (md->km.ledger) Transpose(c2, er); /* without the ledger only Tj[2] is read of the last four */
    else
      for (int l = 0; l < CONTACT_LANES; l++) er[l] = Splat(0.0);
    for (int l = 0; l < CONTACT_LANES && b0 + l < nreal; l++) {
      PetscReal *o      = res + CONTACT_RESULTS * bt->out[b0 + l];
      bt->apart[b0 + l] = !touch[l];
      if (!touch[l]) continue;
      if (md->km.friction) Store(hl[l]->xi, h0[l]);
      Store(&hl[l]->d_last, rows[l]);
      Store(o, fr[l]);
      Store(o + 4, gr[l]);
      if (md->km.ledger) Store(o + 8, er[l]);
      else o[8] = Tj[2][l];
    }
  }
}

/* Padding repeats the last contact, so the padded lanes compute on real numbers. */
static void Pad(ContactBatch *bt, PetscInt to)
{
  PetscInt z = bt->n - 1;
  for (PetscInt b = bt->n; b < to; b++) {
    bt->i[b] = bt->i[z], bt->j[b] = bt->j[z], bt->slot[b] = bt->slot[z], bt->out[b] = bt->out[z], bt->k[b] = bt->k[z];
    for (int a = 0; a < 3; a++) bt->r[a][b] = bt->r[a][z];
    bt->rs[b] = bt->rs[z], bt->c[b] = bt->c[z];
  }
}

/* The batch's lane groups through Lanes with law, damp and sides fixed */
#define LANES_RUN(law, damp, sides) \
  for (PetscInt b0 = 0; b0 < n; b0 += CONTACT_LANES) \
  Lanes(md, law, damp, sides, bt, b0, n, dt, v, vp, w, wp, h, tn, rl, cd, res)

/* The AVX2 clone runs where the processor has it, chosen once at load time.
 * The common models have instantiations of their own, as PETSc's sfpack.c
 * has one pack kernel per type (each keeps only its own arithmetic: the
 * Hertz-harmonic lanes do no work for the other laws); every other model
 * takes the instantiation that reads them from md. */
VEC_CLONES void ContactBatchEvaluate(const ContactBatchModel *md, ContactBatch *bt, PetscReal dt, const PetscReal *v,
                                     const PetscReal *vp, const PetscReal *w, const PetscReal *wp, ContactHistory *h,
                                     ContactTurning *tn, ContactRolling *rl, PetscReal *cd, PetscReal *res)
{
  const PetscInt        n = bt->n, whole = (n + CONTACT_LANES - 1) / CONTACT_LANES * CONTACT_LANES;
  const ContactLawKind  law   = md->nm.law;
  const ContactDampKind damp  = md->nm.damp;
  const PetscBool       sides = (md->turning && md->km.friction) || md->rolling ? PETSC_TRUE : PETSC_FALSE;

  if (!n) return;
  Pad(bt, whole);
  if (!sides && law == CONTACT_LAW_HERTZ && damp == CONTACT_DAMP_HARMONIC)
    LANES_RUN(CONTACT_LAW_HERTZ, CONTACT_DAMP_HARMONIC, PETSC_FALSE);
  else if (!sides && law == CONTACT_LAW_HERTZ && damp == CONTACT_DAMP_TSUJI)
    LANES_RUN(CONTACT_LAW_HERTZ, CONTACT_DAMP_TSUJI, PETSC_FALSE);
  else if (!sides && law == CONTACT_LAW_HERTZ && damp == CONTACT_DAMP_SPEED)
    LANES_RUN(CONTACT_LAW_HERTZ, CONTACT_DAMP_SPEED, PETSC_FALSE);
  else if (!sides && law == CONTACT_LAW_LINEAR && damp == CONTACT_DAMP_FIXED)
    LANES_RUN(CONTACT_LAW_LINEAR, CONTACT_DAMP_FIXED, PETSC_FALSE);
  else if (!sides && law == CONTACT_LAW_LINEAR && damp == CONTACT_DAMP_HARMONIC)
    LANES_RUN(CONTACT_LAW_LINEAR, CONTACT_DAMP_HARMONIC, PETSC_FALSE);
  else if (!sides && law == CONTACT_LAW_HERTZ && damp == CONTACT_DAMP_CALIBRATED)
    LANES_RUN(CONTACT_LAW_HERTZ, CONTACT_DAMP_CALIBRATED, PETSC_FALSE);
  else if (sides && law == CONTACT_LAW_HERTZ && damp == CONTACT_DAMP_HARMONIC) /* Hertz with MD or rolling */
    LANES_RUN(CONTACT_LAW_HERTZ, CONTACT_DAMP_HARMONIC, PETSC_TRUE);
  else LANES_RUN(law, damp, sides);
}

ContactBatchModel ContactBatchModelOf(const ContactModel *m, PetscBool bound)
{
  ContactBatchModel bm = {ContactKernelModelOf(m), ContactNormalModelOf(m),
                          m->tangential.model == TANGENTIAL_MINDLIN_DERESIEWICZ ? PETSC_TRUE : PETSC_FALSE, m->rolls,
                          bound};
  return bm;
}

/* Each constant the leading operation of its expression in the generic path
 * (DampingCoefficient, NormalLawForceOverSqrtU), so the same bits. */
void ContactBatchConstOf(const ContactModel *model, const ContactPair *cp, ContactBatchConst *bc)
{
  const Damping   *dmp = &cp->co->damping;
  const NormalLaw *law = &model->law;

  bc->s = cp->s, bc->ri = cp->ri, bc->rj = cp->rj, bc->kc = cp->kc, bc->gc = cp->gc, bc->mu = cp->co->tangential.mu;
  bc->m   = cp->m;
  bc->zs  = dmp->zeta * sqrt(2.0 * cp->m);
  bc->cF  = sqrt(cp->s * law->k[0] * (law->p[0] + 1.0));
  bc->dmp = dmp, bc->co = cp->co, bc->Rstar = cp->Rstar, bc->Ir = cp->Ir;
  bc->ca = bc->cb = bc->cc = 0.0;
  switch (dmp->type) {
  case DAMPING_TSUJI:
  case DAMPING_TSUJI_MARSHALL:
    bc->ca = dmp->alpha;
    break;
  case DAMPING_HUNT_CROSSLEY:
  case DAMPING_LANKARANI_NIKRAVESH:
  case DAMPING_FLORES:
  case DAMPING_HU_GUO:
  case DAMPING_GONTHIER:
    bc->ca = dmp->D, bc->cb = dmp->hc_factor, bc->cc = dmp->v_imp_min;
    break;
  case DAMPING_CONSTANT_DAMPER: /* raw: a pair constant; calibrated: c_hat m, the leading operation of its C */
    if (dmp->c > 0.0 || dmp->c_hat == 0.0) bc->ca = DampingCoefficient(dmp, law, cp->s, cp->m, 0.0, 1.0);
    else bc->ca = -1.0, bc->cb = dmp->c_hat * cp->m, bc->cc = dmp->v_imp_min;
    break;
  case DAMPING_LINEAR_DASHPOT:
  case DAMPING_NONE:
    bc->ca = DampingCoefficient(dmp, law, cp->s, cp->m, 0.0, 1.0);
    break;
  case DAMPING_HARMONIC:
    break;
  }
}
