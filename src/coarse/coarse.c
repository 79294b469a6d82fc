#include "coarse/coarse.h"

const char *const CoarseKernels[] = {"lucy", "gaussian", "bins", "CoarseKernel", "COARSE_", NULL};

/* Gauss-Legendre on [-1, 1] */
static const PetscReal GaussX[COARSE_GAUSS_POINTS] = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563,
                                                      0.8611363115940526};
static const PetscReal GaussW[COARSE_GAUSS_POINTS] = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461,
                                                      0.3478548451374538};

/* The kernel's integral over R^d (gaussian: over its cut at 3 w), for the
 * normalisation: Lucy 2c 2/5, pi c^2 / 5, 16 pi c^3 / 105; Gauss in d = 1,
 * 2, 3 the chi distribution's mass within 3 w. */
static PetscReal CoarseMass(CoarseKernel k, PetscInt d, PetscReal c)
{
  const PetscReal e = exp(-4.5), erf3 = erf(3.0 / sqrt(2.0));
  if (d == 0) return 1.0;
  if (k == COARSE_LUCY) return d == 1 ? 0.8 * c : d == 2 ? HDEM_PI * c * c / 5.0 : 16.0 * HDEM_PI * c * c * c / 105.0;
  if (d == 1) return sqrt(2.0 * HDEM_PI) * c * erf3;
  if (d == 2) return 2.0 * HDEM_PI * c * c * (1.0 - e);
  return pow(2.0 * HDEM_PI, 1.5) * c * c * c * (erf3 - sqrt(2.0 / HDEM_PI) * 3.0 * e);
}

PetscErrorCode CoarseGridSetUp(CoarseGrid *g, const PetscInt n[3], const PetscReal lo[3], const PetscReal hi[3],
                               const PetscBool wrap[3], CoarseKernel kernel, PetscReal width)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(g, sizeof(*g)));
  g->kernel = kernel;
  g->width  = width;
  g->reach  = kernel == COARSE_LUCY ? width : kernel == COARSE_GAUSSIAN ? 3.0 * width : 0.0;
  g->ncell  = 1;
  g->norm   = 1.0;
  for (int a = 0; a < 3; a++) {
    g->n[a] = n[a], g->lo[a] = lo[a], g->hi[a] = hi[a], g->wrap[a] = wrap[a];
    g->h[a]      = (hi[a] - lo[a]) / (PetscReal)n[a];
    g->smooth[a] = kernel != COARSE_BINS && n[a] > 1 ? PETSC_TRUE : PETSC_FALSE;
    g->ncell *= n[a];
    if (g->smooth[a]) g->d++;
    else g->norm /= g->h[a];
  }
  g->norm /= CoarseMass(kernel, g->d, width);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The kernel's shape at squared distance r2 < reach^2 (1 at 0). */
static inline PetscReal CoarseShape(const CoarseGrid *g, PetscReal r2)
{
  if (g->kernel == COARSE_GAUSSIAN) return exp(-r2 / (2.0 * g->width * g->width));
  if (g->kernel == COARSE_LUCY) {
    PetscReal u = sqrt(r2) / g->width, q = 1.0 - u;
    return (1.0 + 3.0 * u) * (q * q * q);
  }
  return 1.0;
}

static inline PetscInt CoarseCell(const CoarseGrid *g, int a, PetscInt k)
{
  return g->wrap[a] ? ((k % g->n[a]) + g->n[a]) % g->n[a] : k;
}

static inline PetscReal CoarseCentre(const CoarseGrid *g, int a, PetscInt k)
{
  return g->lo[a] + ((PetscReal)k + 0.5) * g->h[a];
}

/* The cells (unwrapped) along axis a that what lies in [xmin, xmax] may reach: k0 > k1 if none. */
static void CoarseRange(const CoarseGrid *g, int a, PetscReal xmin, PetscReal xmax, PetscInt *k0, PetscInt *k1)
{
  PetscReal lo = g->lo[a], h = g->h[a];
  if (g->smooth[a]) {
    *k0 = (PetscInt)ceil((xmin - g->reach - lo) / h - 0.5);
    *k1 = (PetscInt)floor((xmax + g->reach - lo) / h - 0.5);
  } else if (g->n[a] == 1) {
    *k0 = *k1 = 0;
    if (!g->wrap[a] && (xmax < lo || !(xmin < g->hi[a]))) *k1 = -1;
    return;
  } else {
    *k0 = (PetscInt)floor((xmin - lo) / h);
    *k1 = (PetscInt)floor((xmax - lo) / h);
  }
  if (!g->wrap[a]) {
    if (*k0 < 0) *k0 = 0;
    if (*k1 > g->n[a] - 1) *k1 = g->n[a] - 1;
  }
}

void CoarsePoint(const CoarseGrid *g, const PetscReal x[3], CoarseVisit visit, void *ctx)
{
  PetscInt  k0[3], k1[3];
  PetscReal r2max = g->reach * g->reach;

  for (int a = 0; a < 3; a++) {
    CoarseRange(g, a, x[a], x[a], &k0[a], &k1[a]);
    if (k0[a] > k1[a]) return;
  }
  for (PetscInt k = k0[2]; k <= k1[2]; k++) {
    PetscReal dz = g->smooth[2] ? CoarseCentre(g, 2, k) - x[2] : 0.0;
    PetscInt  cz = CoarseCell(g, 2, k);
    for (PetscInt j = k0[1]; j <= k1[1]; j++) {
      PetscReal dy  = g->smooth[1] ? CoarseCentre(g, 1, j) - x[1] : 0.0;
      PetscInt  row = g->n[0] * (CoarseCell(g, 1, j) + g->n[1] * cz);
      for (PetscInt i = k0[0]; i <= k1[0]; i++) {
        PetscReal dx = g->smooth[0] ? CoarseCentre(g, 0, i) - x[0] : 0.0, r2 = (dx * dx + dy * dy) + dz * dz;
        if (g->d && !(r2 < r2max)) continue;
        visit(ctx, row + CoarseCell(g, 0, i), g->norm * CoarseShape(g, r2));
      }
    }
  }
}

/* [s0, s1] narrowed to where a + s e lies in [slo, shi) along one axis. */
static inline void CoarseClip(PetscReal a, PetscReal e, PetscReal slo, PetscReal shi, PetscReal *s0, PetscReal *s1)
{
  PetscReal t0, t1;
  if (e == 0.0) {
    if (!(a >= slo && a < shi)) *s1 = *s0 - 1.0;
    return;
  }
  t0 = (slo - a) / e, t1 = (shi - a) / e;
  if (t0 > t1) {
    PetscReal t = t0;
    t0 = t1, t1 = t;
  }
  if (t0 > *s0) *s0 = t0;
  if (t1 < *s1) *s1 = t1;
}

/* An indicator axis' slab of unwrapped cell k (none: the whole period). */
static inline void CoarseSlab(const CoarseGrid *g, int a, PetscInt k, PetscReal ai, PetscReal ei, PetscReal *s0,
                              PetscReal *s1)
{
  if (g->smooth[a] || (g->n[a] == 1 && g->wrap[a])) return;
  if (g->n[a] == 1) CoarseClip(ai, ei, g->lo[a], g->hi[a], s0, s1);
  else CoarseClip(ai, ei, g->lo[a] + (PetscReal)k * g->h[a], g->lo[a] + (PetscReal)(k + 1) * g->h[a], s0, s1);
}

/* The weight of the branch's part [s0, s1] at the cell whose centre is c on the smooth axes. */
static PetscReal CoarseBranch(const CoarseGrid *g, const PetscReal a[3], const PetscReal e[3], const PetscReal c[3],
                              PetscReal s0, PetscReal s1)
{
  PetscReal mid = 0.5 * (s0 + s1), half = 0.5 * (s1 - s0), sum = 0.0, r2max = g->reach * g->reach;
  if (!g->d) return g->norm * (s1 - s0);
  for (int q = 0; q < COARSE_GAUSS_POINTS; q++) {
    PetscReal s = mid + half * GaussX[q], r2 = 0.0;
    for (int x = 0; x < 3; x++)
      if (g->smooth[x]) {
        PetscReal dx = c[x] - (a[x] + s * e[x]);
        r2 += dx * dx;
      }
    if (r2 < r2max) sum += GaussW[q] * CoarseShape(g, r2);
  }
  return g->norm * half * sum;
}

void CoarseSegment(const CoarseGrid *g, const PetscReal a[3], const PetscReal b[3], CoarseVisit visit, void *ctx)
{
  PetscInt  k0[3], k1[3];
  PetscReal e[3], c[3] = {0.0, 0.0, 0.0};

  for (int x = 0; x < 3; x++) {
    e[x] = b[x] - a[x];
    CoarseRange(g, x, PetscMin(a[x], b[x]), PetscMax(a[x], b[x]), &k0[x], &k1[x]);
    if (k0[x] > k1[x]) return;
  }
  for (PetscInt k = k0[2]; k <= k1[2]; k++) {
    PetscReal sz0 = 0.0, sz1 = 1.0;
    CoarseSlab(g, 2, k, a[2], e[2], &sz0, &sz1);
    if (!(sz1 > sz0)) continue;
    c[2] = CoarseCentre(g, 2, k);
    for (PetscInt j = k0[1]; j <= k1[1]; j++) {
      PetscReal sy0 = sz0, sy1 = sz1;
      PetscInt  row = g->n[0] * (CoarseCell(g, 1, j) + g->n[1] * CoarseCell(g, 2, k));
      CoarseSlab(g, 1, j, a[1], e[1], &sy0, &sy1);
      if (!(sy1 > sy0)) continue;
      c[1] = CoarseCentre(g, 1, j);
      for (PetscInt i = k0[0]; i <= k1[0]; i++) {
        PetscReal s0 = sy0, s1 = sy1, w;
        CoarseSlab(g, 0, i, a[0], e[0], &s0, &s1);
        if (!(s1 > s0)) continue;
        c[0] = CoarseCentre(g, 0, i);
        w    = CoarseBranch(g, a, e, c, s0, s1);
        if (w != 0.0) visit(ctx, row + CoarseCell(g, 0, i), w);
      }
    }
  }
}
