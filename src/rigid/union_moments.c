#include "rigid/union_moments.h"

#define GL_LOW  24
#define GL_HIGH 48

typedef struct {
  PetscReal u[3], h; /* sphere k's surface is covered where n.u > h */
} Cap;

typedef struct {
  PetscReal c[3], r; /* the sphere, its centre relative to the moments' point */
  Cap      *cap;
  PetscInt  ncap;
  PetscReal scale[10]; /* of each moment, for the error test */
  PetscReal tol;       /* per unit of th */
} Surface;

/* Gauss-Legendre nodes and weights on [-1, 1] by Newton's iteration on P_n. */
static void GaussLegendre(int n, PetscReal *x, PetscReal *w)
{
  for (int i = 0; i < n; i++) {
    PetscReal z = cos(HDEM_PI * (i + 0.75) / (n + 0.5)), dp = 1.0;
    for (int it = 0; it < 100; it++) {
      PetscReal p0 = 1.0, p1 = z, dz;
      for (int k = 2; k <= n; k++) {
        PetscReal p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
        p0 = p1, p1 = p2;
      }
      dp = n * (z * p1 - p0) / (z * z - 1.0);
      dz = p1 / dp;
      z -= dz;
      if (PetscAbsReal(dz) < 1e-16) break;
    }
    x[i] = z, w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
  }
}

/* Antiderivatives of cos^p sin^q (p + q <= 3) at phi, as F[p][q]. */
static void Antiderivatives(PetscReal phi, PetscReal F[4][4])
{
  PetscReal c = cos(phi), s = sin(phi);
  F[0][0] = phi, F[1][0] = s, F[0][1] = -c;
  F[2][0] = 0.5 * phi + 0.5 * s * c, F[0][2] = 0.5 * phi - 0.5 * s * c, F[1][1] = 0.5 * s * s;
  F[3][0] = s - s * s * s / 3.0, F[0][3] = -c + c * c * c / 3.0, F[2][1] = -c * c * c / 3.0, F[1][2] = s * s * s / 3.0;
}

typedef struct {
  PetscReal a, b;
} Arc;

static int ArcCompare(const void *pa, const void *pb)
{
  const Arc *a = (const Arc *)pa, *b = (const Arc *)pb;
  return a->a < b->a ? -1 : a->a > b->a;
}

/* The azimuthal integrals G[p][q] of cos^p sin^q over the uncovered part
 * of the latitude th; *none when all of it is covered. */
static void Latitude(const Surface *sf, PetscReal th, Arc *arc, PetscReal G[4][4], PetscBool *none)
{
  PetscReal st = sin(th), ct = cos(th);
  PetscInt  na = 0;

  *none = PETSC_FALSE;
  for (int p = 0; p < 4; p++)
    for (int q = 0; q < 4; q++) G[p][q] = 0.0;
  G[0][0] = 2.0 * HDEM_PI, G[2][0] = G[0][2] = HDEM_PI;
  for (PetscInt j = 0; j < sf->ncap; j++) {
    const Cap *cp  = &sf->cap[j];
    PetscReal  rho = sqrt(cp->u[0] * cp->u[0] + cp->u[1] * cp->u[1]), q = cp->h - cp->u[2] * ct, den = st * rho, kappa,
              w, mid, a;
    if (den <= 1e-300) {
      if (q < 0.0) {
        *none = PETSC_TRUE;
        return;
      }
      continue;
    }
    kappa = q / den;
    if (kappa <= -1.0) {
      *none = PETSC_TRUE;
      return;
    }
    if (kappa >= 1.0) continue;
    w   = acos(kappa);
    mid = atan2(cp->u[1], cp->u[0]);
    a   = fmod(mid - w, 2.0 * HDEM_PI);
    if (a < 0.0) a += 2.0 * HDEM_PI;
    if (a + 2.0 * w > 2.0 * HDEM_PI) {
      arc[na].a = a, arc[na++].b = 2.0 * HDEM_PI;
      arc[na].a = 0.0, arc[na++].b = a + 2.0 * w - 2.0 * HDEM_PI;
    } else arc[na].a = a, arc[na++].b = a + 2.0 * w;
  }
  if (!na) return;
  qsort(arc, (size_t)na, sizeof(Arc), ArcCompare);
  for (PetscInt i = 0; i < na;) { /* merged covered arcs, subtracted */
    PetscReal a = arc[i].a, b = arc[i].b, Fa[4][4], Fb[4][4];
    for (i++; i < na && arc[i].a <= b; i++) b = PetscMax(b, arc[i].b);
    if (b - a >= 2.0 * HDEM_PI) {
      *none = PETSC_TRUE;
      return;
    }
    Antiderivatives(a, Fa), Antiderivatives(b, Fb);
    for (int p = 0; p < 4; p++)
      for (int qq = 0; p + qq < 4; qq++) G[p][qq] -= Fb[p][qq] - Fa[p][qq];
  }
}

/* The ten moments' integrands at th (per unit th). */
static void Integrand(const Surface *sf, PetscReal th, Arc *arc, PetscReal f[10])
{
  PetscReal G[4][4], st = sin(th), ct = cos(th), sp[4], cp[4], N1[3], N2[3][3], N3[3][3][3], S, T[3], U[3][3],
                     r = sf->r;
  const PetscReal *c   = sf->c;
  PetscBool        none;
  int              e[3];

  Latitude(sf, th, arc, G, &none);
  if (none) {
    for (int k = 0; k < 10; k++) f[k] = 0.0;
    return;
  }
  sp[0] = cp[0] = 1.0;
  for (int k = 1; k < 4; k++) sp[k] = sp[k - 1] * st, cp[k] = cp[k - 1] * ct;
    /* the moment of n_x^p n_y^q n_z^m over the azimuths: st^(p+q) ct^m G[p][q] */
#define MONO(p, q, m) (sp[(p) + (q)] * cp[m] * G[p][q])
  for (int a = 0; a < 3; a++) {
    e[0] = e[1] = e[2] = 0, e[a]++;
    N1[a]              = MONO(e[0], e[1], e[2]);
    for (int b = 0; b < 3; b++) {
      e[b]++;
      N2[a][b] = MONO(e[0], e[1], e[2]);
      for (int d = 0; d < 3; d++) {
        e[d]++;
        N3[a][b][d] = MONO(e[0], e[1], e[2]);
        e[d]--;
      }
      e[b]--;
    }
  }
  S = (c[0] * N1[0] + c[1] * N1[1] + c[2] * N1[2]) + r * G[0][0];
  for (int a = 0; a < 3; a++) {
    T[a] = (c[0] * N2[a][0] + c[1] * N2[a][1] + c[2] * N2[a][2]) + r * N1[a];
    for (int b = 0; b < 3; b++) U[a][b] = (c[0] * N3[a][b][0] + c[1] * N3[a][b][1] + c[2] * N3[a][b][2]) + r * N2[a][b];
  }
#undef MONO
  {
    const int       pa[6] = {0, 1, 2, 0, 0, 1}, pb[6] = {0, 1, 2, 1, 2, 2};
    const PetscReal dA = r * r * st;
    f[0]               = dA * S / 3.0;
    for (int a = 0; a < 3; a++) f[1 + a] = dA * (c[a] * S + r * T[a]) / 4.0;
    for (int k = 0; k < 6; k++) {
      int a = pa[k], b = pb[k];
      f[4 + k] = dA * (c[a] * c[b] * S + r * c[a] * T[b] + r * c[b] * T[a] + r * r * U[a][b]) / 5.0;
    }
  }
}

typedef struct {
  PetscReal x[GL_HIGH], w[GL_HIGH];
  int       n;
} Rule;

/* One piece [a, b] by the rule after th = a + (b - a)(1 - cos t)/2. */
static void Piece(const Surface *sf, const Rule *ru, PetscReal a, PetscReal b, Arc *arc, PetscReal q[10])
{
  for (int k = 0; k < 10; k++) q[k] = 0.0;
  for (int i = 0; i < ru->n; i++) {
    PetscReal t = 0.5 * HDEM_PI * (1.0 + ru->x[i]), th = a + 0.5 * (b - a) * (1.0 - cos(t)),
              jac = 0.5 * (b - a) * sin(t) * 0.5 * HDEM_PI * ru->w[i], f[10];
    Integrand(sf, th, arc, f);
    for (int k = 0; k < 10; k++) q[k] += jac * f[k];
  }
}

static void Adaptive(const Surface *sf, const Rule ru[2], PetscReal a, PetscReal b, int depth, Arc *arc,
                     PetscReal m[10], PetscReal *err)
{
  PetscReal lo[10], hi[10], d = 0.0;
  Piece(sf, &ru[0], a, b, arc, lo);
  Piece(sf, &ru[1], a, b, arc, hi);
  for (int k = 0; k < 10; k++) d = PetscMax(d, PetscAbsReal(hi[k] - lo[k]) / sf->scale[k]);
  if (d > sf->tol * (b - a) && depth < 40 && b - a > 1e-12) {
    Adaptive(sf, ru, a, 0.5 * (a + b), depth + 1, arc, m, err);
    Adaptive(sf, ru, 0.5 * (a + b), b, depth + 1, arc, m, err);
    return;
  }
  for (int k = 0; k < 10; k++) m[k] += hi[k];
  *err += d;
}

static int RealCompare(const void *pa, const void *pb)
{
  PetscReal a = *(const PetscReal *)pa, b = *(const PetscReal *)pb;
  return a < b ? -1 : a > b;
}

static PetscReal Clamp1(PetscReal x)
{
  return x > 1.0 ? 1.0 : (x < -1.0 ? -1.0 : x);
}

/* A polar angle folded into [0, pi]. */
static PetscReal Fold(PetscReal t)
{
  t = PetscAbsReal(fmod(t, 2.0 * HDEM_PI));
  return t > HDEM_PI ? 2.0 * HDEM_PI - t : t;
}

/* Sphere a inside sphere b (identical ones: the later inside the earlier). */
static PetscBool Inside(const PetscReal *s, PetscInt a, PetscInt b, PetscReal d)
{
  PetscReal ra = s[4 * a + 3], rb = s[4 * b + 3];
  if (d + ra < rb) return PETSC_TRUE;
  if (d + ra > rb) return PETSC_FALSE;
  return (ra < rb || b < a) ? PETSC_TRUE : PETSC_FALSE;
}

/* Sphere k's caps (the parts other spheres cover) into sf->cap; true when
 * another sphere holds all of it. */
static PetscBool SphereCaps(PetscInt n, const PetscReal *s, PetscInt k, Surface *sf)
{
  sf->r = s[4 * k + 3], sf->ncap = 0;
  for (PetscInt j = 0; j < n; j++) {
    PetscReal dx[3], d;
    if (j == k) continue;
    for (int a = 0; a < 3; a++) dx[a] = s[4 * j + a] - s[4 * k + a];
    d = sqrt(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
    if (Inside(s, k, j, d)) return PETSC_TRUE;
    else if (Inside(s, j, k, d) || d >= sf->r + s[4 * j + 3]) continue;
    else {
      Cap *cp = &sf->cap[sf->ncap++];
      for (int a = 0; a < 3; a++) cp->u[a] = dx[a] / d;
      cp->h = (sf->r * sf->r + d * d - s[4 * j + 3] * s[4 * j + 3]) / (2.0 * sf->r * d);
    }
  }
  return PETSC_FALSE;
}

/* Whether two caps' rims cross: the crossings are a1 u1 + a2 u2 +- sqrt(b2) (u1 x u2). */
static PetscBool RimsCross(const Cap *c1, const Cap *c2, PetscReal *g, PetscReal *det, PetscReal *a1, PetscReal *a2,
                           PetscReal *b2)
{
  *g   = c1->u[0] * c2->u[0] + c1->u[1] * c2->u[1] + c1->u[2] * c2->u[2];
  *det = 1.0 - *g * *g;
  if (*det < 1e-14) return PETSC_FALSE;
  *a1 = (c1->h - c2->h * *g) / *det, *a2 = (c2->h - c1->h * *g) / *det;
  *b2 = (1.0 - (*a1 * c1->h + *a2 * c2->h)) / *det;
  return *b2 < 0.0 ? PETSC_FALSE : PETSC_TRUE;
}

/* Integrand evaluations times caps that UnionMoments takes at the least:
 * every piece between break points takes both rules, each evaluation
 * scans the sphere's caps. */
PetscErrorCode UnionMomentsCost(PetscInt n, const PetscReal *s, PetscReal *cost)
{
  Surface sf;

  PetscFunctionBeginUser;
  *cost = 0.0;
  PetscCall(PetscMalloc1((size_t)PetscMax(n, 1), &sf.cap));
  for (PetscInt k = 0; k < n; k++) {
    PetscReal nb, g, det, a1, a2, b2;
    if (SphereCaps(n, s, k, &sf)) continue;
    nb = 2.0 + 2.0 * sf.ncap;
    for (PetscInt j = 0; j < sf.ncap; j++)
      for (PetscInt i = j + 1; i < sf.ncap; i++)
        if (RimsCross(&sf.cap[j], &sf.cap[i], &g, &det, &a1, &a2, &b2)) nb += 2.0;
    *cost += (nb - 1.0) * (GL_LOW + GL_HIGH) * (1.0 + sf.ncap);
  }
  PetscCall(PetscFree(sf.cap));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode UnionMoments(PetscInt n, const PetscReal *s, PetscReal tol, PetscReal m[10], PetscReal *err)
{
  Rule      ru[2];
  Surface   sf;
  PetscReal o[3] = {0, 0, 0}, R = 0.0, vsum = 0.0, mo[10] = {0}, *brk;
  Arc      *arc;
  PetscInt  nb;

  PetscFunctionBeginUser;
  PetscCheck(n > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "a union of no spheres");
  ru[0].n = GL_LOW, ru[1].n = GL_HIGH;
  GaussLegendre(GL_LOW, ru[0].x, ru[0].w);
  GaussLegendre(GL_HIGH, ru[1].x, ru[1].w);
  for (PetscInt k = 0; k < n; k++)
    for (int a = 0; a < 3; a++) o[a] += s[4 * k + a] / (PetscReal)n;
  for (PetscInt k = 0; k < n; k++) {
    PetscReal d2 = 0.0;
    for (int a = 0; a < 3; a++) d2 += (s[4 * k + a] - o[a]) * (s[4 * k + a] - o[a]);
    R = PetscMax(R, sqrt(d2) + s[4 * k + 3]);
    vsum += 4.0 / 3.0 * HDEM_PI * pow(s[4 * k + 3], 3);
  }
  PetscCall(PetscMalloc1((size_t)n, &sf.cap));
  PetscCall(PetscMalloc1(2 * (size_t)n + 2, &arc));
  PetscCall(PetscMalloc1(2, &brk)); /* grown per sphere to its caps' break points */
  for (int k = 0; k < 10; k++) sf.scale[k] = vsum * (k == 0 ? 1.0 : (k < 4 ? R : R * R));
  sf.tol = tol / HDEM_PI / (PetscReal)n;
  *err   = 0.0;
  for (PetscInt k = 0; k < n; k++) {
    for (int a = 0; a < 3; a++) sf.c[a] = s[4 * k + a] - o[a];
    if (SphereCaps(n, s, k, &sf)) continue;
    PetscCall(PetscFree(brk));
    /* the ends, two per cap, two per pair of caps */
    PetscCall(PetscMalloc1(2 + 2 * (size_t)sf.ncap + (size_t)sf.ncap * (size_t)sf.ncap, &brk));
    nb        = 0;
    brk[nb++] = 0.0, brk[nb++] = HDEM_PI;
    for (PetscInt j = 0; j < sf.ncap; j++) { /* a rim touches a latitude */
      PetscReal tu = acos(Clamp1(sf.cap[j].u[2])), al = acos(Clamp1(sf.cap[j].h));
      brk[nb++] = Fold(tu + al), brk[nb++] = Fold(tu - al);
      for (PetscInt i = j + 1; i < sf.ncap; i++) { /* two rims cross */
        const Cap *c1 = &sf.cap[j], *c2 = &sf.cap[i];
        PetscReal  g, det, a1, a2, b2, w[3];
        if (!RimsCross(c1, c2, &g, &det, &a1, &a2, &b2)) continue;
        w[0] = c1->u[1] * c2->u[2] - c1->u[2] * c2->u[1];
        w[1] = c1->u[2] * c2->u[0] - c1->u[0] * c2->u[2];
        w[2] = c1->u[0] * c2->u[1] - c1->u[1] * c2->u[0];
        for (int sg = -1; sg <= 1; sg += 2)
          brk[nb++] = acos(Clamp1(a1 * c1->u[2] + a2 * c2->u[2] + sg * sqrt(b2) * w[2]));
      }
    }
    qsort(brk, (size_t)nb, sizeof(PetscReal), RealCompare);
    for (PetscInt i = 0; i + 1 < nb; i++)
      if (brk[i + 1] - brk[i] > 1e-13) Adaptive(&sf, ru, brk[i], brk[i + 1], 0, arc, mo, err);
  }
  PetscCall(PetscFree(brk));
  PetscCall(PetscFree(arc));
  PetscCall(PetscFree(sf.cap));
  /* back to moments about the origin */
  m[0] = mo[0];
  for (int a = 0; a < 3; a++) m[1 + a] = mo[1 + a] + o[a] * mo[0];
  {
    const int pa[6] = {0, 1, 2, 0, 0, 1}, pb[6] = {0, 1, 2, 1, 2, 2};
    for (int k = 0; k < 6; k++) {
      int a = pa[k], b = pb[k];
      m[4 + k] = mo[4 + k] + o[a] * mo[1 + b] + o[b] * mo[1 + a] + o[a] * o[b] * mo[0];
    }
  }
  *err *= vsum / PetscMax(mo[0], 1e-300); /* relative to the union's volume */
  PetscFunctionReturn(PETSC_SUCCESS);
}
