#include "rigid/sieve_size.h"

#define SIEVE_GRID_MAX   32000 /* frames of the grid for small templates */
#define SIEVE_GRID_MIN   2000  /* ... and for the largest */
#define SIEVE_WORK       1.0e8 /* sphere widths the grid may take */
#define SIEVE_PSI        32    /* turns of the square about the passage direction, over a quarter turn */
#define SIEVE_STARTS     4     /* best grid frames the compass search starts from */
#define SIEVE_STEP_FINAL 1e-10 /* [rad] */
#define SIEVE_SWEEPS     4000  /* of the compass search, from each start */

/* The width of the spheres along the unit vector e. */
static PetscReal SieveWidth(PetscInt n, const PetscReal *s, const PetscReal e[3])
{
  PetscReal hi = PETSC_NINFINITY, lo = PETSC_INFINITY;
  for (PetscInt k = 0; k < n; k++) {
    const PetscReal *q = s + 4 * k;
    PetscReal        c = q[0] * e[0] + q[1] * e[1] + q[2] * e[2];
    hi                 = PetscMax(hi, c + q[3]);
    lo                 = PetscMin(lo, c - q[3]);
  }
  return hi - lo;
}

/* The square's side for frame R (columns e1, e2, e3; row-major 3 x 3). */
static PetscReal SieveSide(PetscInt n, const PetscReal *s, const PetscReal R[9])
{
  PetscReal e1[3] = {R[0], R[3], R[6]}, e2[3] = {R[1], R[4], R[7]};
  return PetscMax(SieveWidth(n, s, e1), SieveWidth(n, s, e2));
}

/* R turned by angle h about the unit axis u (Rodrigues), into out. */
static void SieveRotate(const PetscReal R[9], const PetscReal u[3], PetscReal h, PetscReal out[9])
{
  PetscReal c = cos(h), sn = sin(h), Q[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) Q[3 * i + j] = (i == j ? c : 0.0) + (1.0 - c) * u[i] * u[j];
  Q[1] -= sn * u[2], Q[2] += sn * u[1], Q[3] += sn * u[2], Q[5] -= sn * u[0], Q[6] -= sn * u[1], Q[7] += sn * u[0];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) out[3 * i + j] = Q[3 * i] * R[j] + Q[3 * i + 1] * R[3 + j] + Q[3 * i + 2] * R[6 + j];
}

/* Frame of grid point g: passage direction i of m on a Fibonacci hemisphere, the square turned by psi. */
static void SieveGridFrame(PetscInt i, PetscInt m, PetscReal psi, PetscReal R[9])
{
  PetscReal z = ((PetscReal)i + 0.5) / (PetscReal)m, rho = sqrt(PetscMax(0.0, 1.0 - z * z));
  PetscReal phi = (PetscReal)i * HDEM_PI * (3.0 - sqrt(5.0)), e3[3] = {rho * cos(phi), rho * sin(phi), z};
  PetscReal a[3], b[3], na, c = cos(psi), sn = sin(psi);
  /* a: e3 x (x or y axis), whichever is farther from e3 */
  if (PetscAbsReal(e3[0]) < 0.9) a[0] = 0.0, a[1] = e3[2], a[2] = -e3[1];
  else a[0] = -e3[2], a[1] = 0.0, a[2] = e3[0];
  na = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  for (int k = 0; k < 3; k++) a[k] /= na;
  b[0] = e3[1] * a[2] - e3[2] * a[1], b[1] = e3[2] * a[0] - e3[0] * a[2], b[2] = e3[0] * a[1] - e3[1] * a[0];
  for (int k = 0; k < 3; k++) {
    R[3 * k]     = c * a[k] + sn * b[k];
    R[3 * k + 1] = -sn * a[k] + c * b[k];
    R[3 * k + 2] = e3[k];
  }
}

/* Compass search from R (improved in place, *f its side): rotations by +-h
 * about 13 world axes and the frame's own 3; the best move taken and h
 * doubled (up to its start), else h halved, so that a descent along a
 * crease of the max-of-widths takes long steps.  At most SIEVE_SWEEPS. */
static void SieveCompass(PetscInt n, const PetscReal *s, PetscReal h, PetscReal R[9], PetscReal *f)
{
  const PetscReal h0 = h;
  PetscReal       axes[13][3];
  PetscInt        na = 0;
  for (int x = -1; x <= 1; x++)
    for (int y = -1; y <= 1; y++)
      for (int z = -1; z <= 1; z++) {
        PetscReal l = sqrt((PetscReal)(x * x + y * y + z * z));
        if (!(x > 0 || (x == 0 && y > 0) || (x == 0 && y == 0 && z > 0))) continue; /* one of each +- pair */
        axes[na][0] = x / l, axes[na][1] = y / l, axes[na][2] = z / l, na++;
      }
  for (PetscInt sweep = 0; sweep < SIEVE_SWEEPS && h > SIEVE_STEP_FINAL; sweep++) {
    PetscReal B[9] = {0}, fb = *f;
    for (PetscInt q = 0; q < na + 3; q++)
      for (int sg = -1; sg <= 1; sg += 2) {
        PetscReal u[3], T[9], ft;
        for (int k = 0; k < 3; k++) u[k] = q < na ? axes[q][k] : R[3 * k + (q - na)];
        SieveRotate(R, u, sg * h, T);
        ft = SieveSide(n, s, T);
        if (ft < fb) {
          fb = ft;
          for (int k = 0; k < 9; k++) B[k] = T[k];
        }
      }
    if (fb < *f) {
      *f = fb, h = PetscMin(2.0 * h, h0);
      for (int k = 0; k < 9; k++) R[k] = B[k];
    } else h *= 0.5;
  }
}

PetscErrorCode SieveSize(PetscInt n, const PetscReal *s, PetscReal *size, PetscReal axis[3])
{
  PetscReal best[SIEVE_STARTS], frame[SIEVE_STARTS][9], grid, h, *c;
  PetscInt  m, nb = 0;
  PetscReal o[3] = {0.0, 0.0, 0.0};

  PetscFunctionBeginUser;
  PetscCheck(n > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "a sieve size needs spheres");
  /* about their mean: the widths do not depend on the origin, their rounding does */
  PetscCall(PetscMalloc1(4 * n, &c));
  for (PetscInt k = 0; k < n; k++)
    for (int a = 0; a < 3; a++) o[a] += s[4 * k + a] / (PetscReal)n;
  for (PetscInt k = 0; k < n; k++) {
    for (int a = 0; a < 3; a++) c[4 * k + a] = s[4 * k + a] - o[a];
    c[4 * k + 3] = s[4 * k + 3];
  }
  grid = PetscMax(SIEVE_GRID_MIN, PetscMin(SIEVE_GRID_MAX, SIEVE_WORK / (2.0 * (PetscReal)n)));
  m    = PetscMax(1, (PetscInt)(grid / SIEVE_PSI));
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt j = 0; j < SIEVE_PSI; j++) {
      PetscReal R[9], f;
      PetscInt  q;
      SieveGridFrame(i, m, 0.5 * HDEM_PI * (PetscReal)j / SIEVE_PSI, R);
      f = SieveSide(n, c, R);
      if (nb == SIEVE_STARTS && !(f < best[nb - 1])) continue;
      if (nb < SIEVE_STARTS) nb++;
      for (q = nb - 1; q > 0 && best[q - 1] > f; q--) { /* sorted, least first */
        best[q] = best[q - 1];
        for (int k = 0; k < 9; k++) frame[q][k] = frame[q - 1][k];
      }
      best[q] = f;
      for (int k = 0; k < 9; k++) frame[q][k] = R[k];
    }
  /* from about the grid's spacing */
  h = PetscMax(sqrt(2.0 * HDEM_PI / (PetscReal)m), 0.5 * HDEM_PI / SIEVE_PSI);
  for (PetscInt q = 0; q < nb; q++) SieveCompass(n, c, h, frame[q], &best[q]);
  {
    PetscInt qb = 0;
    for (PetscInt q = 1; q < nb; q++)
      if (best[q] < best[qb]) qb = q;
    *size = best[qb];
    if (axis)
      for (int k = 0; k < 3; k++) axis[k] = frame[qb][3 * k + 2];
  }
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
