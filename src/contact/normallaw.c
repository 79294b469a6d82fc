#include "contact/normallaw.h"

const char *const NormalLawTypes[] = {"linear", "hertz",         "power",       "poly",
                                      "table",  "NormalLawType", "NORMAL_LAW_", NULL};

/* 16-point Gauss-Legendre nodes and weights on [0, 1]. */
static const PetscReal gl_x[16] = {0.0052995325041750, 0.0277124884633837, 0.0671843988060841, 0.1222977958224985,
                                   0.1910618777986781, 0.2709916111713863, 0.3591982246103705, 0.4524937450811813,
                                   0.5475062549188188, 0.6408017753896295, 0.7290083888286137, 0.8089381222013219,
                                   0.8777022041775016, 0.9328156011939159, 0.9722875115366163, 0.9947004674958250};
static const PetscReal gl_w[16] = {0.0135762297058770, 0.0311267619693240, 0.0475792558412464, 0.0623144856277670,
                                   0.0747979944082884, 0.0845782596975013, 0.0913017075224618, 0.0947253052275342,
                                   0.0947253052275342, 0.0913017075224618, 0.0845782596975013, 0.0747979944082884,
                                   0.0623144856277670, 0.0475792558412464, 0.0311267619693240, 0.0135762297058770};

/* Elastic power-law duration factor: T = 2 (d_max/v0) sqrt(pi) G(1+a)/G(1/2+a), a = 1/(p+1). */
static PetscReal PowerDurationCoeff(PetscReal p)
{
  PetscReal a = 1.0 / (p + 1.0);
  return sqrt(HDEM_PI) * tgamma(1.0 + a) / tgamma(0.5 + a);
}

PetscErrorCode NormalLawCreatePoly(NormalLawType type, PetscInt n, const PetscReal k[], const PetscReal p[],
                                   NormalLaw *law)
{
  PetscFunctionBeginUser;
  PetscCheck(type != NORMAL_LAW_TABLE, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "use NormalLawCreateTable for tabulated laws");
  PetscCheck(n >= 1 && n <= NORMAL_LAW_MAX_TERMS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "a polynomial law needs 1 to %d terms, got %" PetscInt_FMT, NORMAL_LAW_MAX_TERMS, n);
  PetscCall(PetscMemzero(law, sizeof(*law)));
  law->type  = type;
  law->nterm = n;
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(k[i] > 0.0 && isfinite(k[i]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "law coefficient k[%" PetscInt_FMT "] = %g must be finite and > 0", i, (double)k[i]);
    PetscCheck(p[i] >= 1.0 && isfinite(p[i]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "law exponent p[%" PetscInt_FMT "] = %g must be >= 1", i, (double)p[i]);
    law->k[i] = k[i];
    law->p[i] = p[i];
  }
  law->duration_coeff = (n == 1) ? PowerDurationCoeff(p[0]) : 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fritsch-Carlson slopes (the PCHIP weighted harmonic mean): the cubic
 * Hermite interpolant of increasing data is increasing. */
static void TableSlopes(PetscInt n, const PetscReal *d, const PetscReal *f, PetscReal *m)
{
  for (PetscInt i = 1; i < n - 1; i++) {
    PetscReal h0 = d[i] - d[i - 1], h1 = d[i + 1] - d[i];
    PetscReal s0 = (f[i] - f[i - 1]) / h0, s1 = (f[i + 1] - f[i]) / h1;
    PetscReal w1 = 2.0 * h1 + h0, w2 = h1 + 2.0 * h0;
    m[i] = (w1 + w2) / (w1 / s0 + w2 / s1);
  }
  m[0]     = (f[1] - f[0]) / (d[1] - d[0]);
  m[n - 1] = (f[n - 1] - f[n - 2]) / (d[n - 1] - d[n - 2]);
}

/* Integral of the Hermite cubic over [d_i, d_i + t h]. */
static PetscReal TableSegmentIntegral(const NormalTable *t, PetscInt i, PetscReal tt)
{
  PetscReal h = t->d[i + 1] - t->d[i], t2 = tt * tt, t3 = t2 * tt, t4 = t3 * tt;
  PetscReal i00 = 0.5 * t4 - t3 + tt, i10 = 0.25 * t4 - (2.0 / 3.0) * t3 + 0.5 * t2;
  PetscReal i01 = -0.5 * t4 + t3, i11 = 0.25 * t4 - t3 / 3.0;
  return h * (i00 * t->f[i] + i10 * h * t->m[i] + i01 * t->f[i + 1] + i11 * h * t->m[i + 1]);
}

PetscErrorCode NormalLawCreateTable(PetscInt n, const PetscReal d[], const PetscReal f[], NormalLaw *law)
{
  NormalTable *t;

  PetscFunctionBeginUser;
  PetscCheck(n >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "a tabulated law needs at least 2 points, got %" PetscInt_FMT, n);
  PetscCheck(d[0] == 0.0 && f[0] == 0.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "a tabulated law must start at overlap 0 with force 0 (got %g, %g)", (double)d[0], (double)f[0]);
  for (PetscInt i = 1; i < n; i++) {
    PetscCheck(d[i] > d[i - 1], PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "tabulated overlaps must increase strictly: point %" PetscInt_FMT " (%g) <= point %" PetscInt_FMT
               " (%g)",
               i, (double)d[i], i - 1, (double)d[i - 1]);
    PetscCheck(f[i] > f[i - 1], PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "tabulated forces must increase strictly (a monotone law): point %" PetscInt_FMT
               " (%g) <= point %" PetscInt_FMT " (%g)",
               i, (double)f[i], i - 1, (double)f[i - 1]);
  }
  PetscCall(PetscMemzero(law, sizeof(*law)));
  PetscCall(PetscNew(&t));
  t->n = n;
  PetscCall(PetscMalloc4(n, &t->d, n, &t->f, n, &t->m, n, &t->u));
  for (PetscInt i = 0; i < n; i++) {
    t->d[i] = d[i];
    t->f[i] = f[i];
  }
  TableSlopes(n, t->d, t->f, t->m);
  t->u[0] = 0.0;
  for (PetscInt i = 0; i < n - 1; i++) t->u[i + 1] = t->u[i] + TableSegmentIntegral(t, i, 1.0);
  law->type  = NORMAL_LAW_TABLE;
  law->table = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode NormalLawDestroy(NormalLaw *law)
{
  PetscFunctionBeginUser;
  if (law->table) {
    PetscCall(PetscFree4(law->table->d, law->table->f, law->table->m, law->table->u));
    PetscCall(PetscFree(law->table));
  }
  PetscCall(PetscMemzero(law, sizeof(*law)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool NormalLawIsMonomial(const NormalLaw *law)
{
  return (law->type != NORMAL_LAW_TABLE && law->nterm == 1) ? PETSC_TRUE : PETSC_FALSE;
}

/* Segment holding d (the last segment for d beyond the table). */
static PetscInt TableFind(const NormalTable *t, PetscReal d)
{
  PetscInt lo = 0, hi = t->n - 1;
  if (d >= t->d[hi]) return hi; /* extrapolation */
  while (hi - lo > 1) {
    PetscInt mid = (lo + hi) / 2;
    if (t->d[mid] <= d) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* Beyond the last point the force continues with the last secant slope,
 * so the law stays monotone and U stays its integral. */
static void TableEval(const NormalTable *t, PetscReal d, PetscReal *U, PetscReal *F, PetscReal *dF)
{
  PetscInt i = TableFind(t, d);
  if (i == t->n - 1) {
    PetscReal x = d - t->d[i], sl = t->m[i];
    *U  = t->u[i] + t->f[i] * x + 0.5 * sl * x * x;
    *F  = t->f[i] + sl * x;
    *dF = sl;
    return;
  }
  PetscReal h = t->d[i + 1] - t->d[i], tt = (d - t->d[i]) / h, t2 = tt * tt, t3 = t2 * tt;
  PetscReal h00 = 2.0 * t3 - 3.0 * t2 + 1.0, h10 = t3 - 2.0 * t2 + tt, h01 = -2.0 * t3 + 3.0 * t2, h11 = t3 - t2;
  *F  = h00 * t->f[i] + h10 * h * t->m[i] + h01 * t->f[i + 1] + h11 * h * t->m[i + 1];
  *dF = ((6.0 * t2 - 6.0 * tt) * (t->f[i] - t->f[i + 1])) / h + (3.0 * t2 - 4.0 * tt + 1.0) * t->m[i] +
        (3.0 * t2 - 2.0 * tt) * t->m[i + 1];
  *U = t->u[i] + TableSegmentIntegral(t, i, tt);
}

void NormalLawEval(const NormalLaw *law, PetscReal s, PetscReal d, PetscReal *U, PetscReal *F, PetscReal *dF)
{
  if (d <= 0.0) {
    *U = *F = 0.0;
    *dF     = NormalLawMaxStiffness(law, s, 0.0);
    return;
  }
  if (law->type == NORMAL_LAW_TABLE) {
    TableEval(law->table, d, U, F, dF);
    return;
  }
  PetscReal u = 0.0, f = 0.0, df = 0.0;
  for (PetscInt i = 0; i < law->nterm; i++) {
    PetscReal k = law->k[i], p = law->p[i];
    PetscReal dp = (p == 1.0) ? d : (p == 1.5 ? d * sqrt(d) : pow(d, p));
    f += k * dp;
    u += k * dp * d / (p + 1.0);
    df += k * p * dp / d;
  }
  *U  = s * u;
  *F  = s * f;
  *dF = s * df;
}

PetscReal NormalLawForce(const NormalLaw *law, PetscReal s, PetscReal d)
{
  PetscReal U, F, dF;
  NormalLawEval(law, s, d, &U, &F, &dF);
  return F;
}

PetscReal NormalLawForceOverSqrtU(const NormalLaw *law, PetscReal s, PetscReal d)
{
  if (law->type == NORMAL_LAW_TABLE) {
    if (d <= 0.0) return sqrt(2.0 * law->table->m[0]);
    PetscReal U, F, dF;
    TableEval(law->table, d, &U, &F, &dF);
    return U > 0.0 ? F / sqrt(U) : sqrt(2.0 * law->table->m[0]);
  }
  if (law->nterm == 1) { /* sqrt(s k (p+1)) d^((p-1)/2), exact at d = 0 too */
    PetscReal k = law->k[0], p = law->p[0], c = sqrt(s * k * (p + 1.0));
    if (p == 1.0) return c;
    if (d <= 0.0) return 0.0;
    return c * (p == 1.5 ? sqrt(sqrt(d)) : pow(d, 0.5 * (p - 1.0)));
  }
  if (d <= 0.0) { /* only the linear terms survive the limit */
    PetscReal klin = 0.0;
    for (PetscInt i = 0; i < law->nterm; i++)
      if (law->p[i] == 1.0) klin += law->k[i];
    return sqrt(2.0 * s * klin);
  }
  PetscReal U, F, dF;
  NormalLawEval(law, s, d, &U, &F, &dF);
  return F / sqrt(U);
}

/* U is convex for p_i >= 1 and for the extrapolated table, so Newton from
 * above converges monotonically; a bracket keeps it safe regardless. */
PetscReal NormalLawOverlapAtEnergy(const NormalLaw *law, PetscReal s, PetscReal E)
{
  if (E <= 0.0) return 0.0;
  if (law->type != NORMAL_LAW_TABLE && law->nterm == 1)
    return pow((law->p[0] + 1.0) * E / (s * law->k[0]), 1.0 / (law->p[0] + 1.0));
  PetscReal lo = 0.0, hi;
  if (law->type == NORMAL_LAW_TABLE) {
    const NormalTable *t = law->table;
    hi                   = t->d[t->n - 1];
    while (t->u[t->n - 1] + t->f[t->n - 1] * (hi - t->d[t->n - 1]) < E) hi = 2.0 * hi + t->d[t->n - 1];
  } else { /* each term alone reaches E at a larger overlap than the sum */
    hi = PETSC_MAX_REAL;
    for (PetscInt i = 0; i < law->nterm; i++)
      hi = PetscMin(hi, pow((law->p[i] + 1.0) * E / (s * law->k[i]), 1.0 / (law->p[i] + 1.0)));
  }
  PetscReal d = hi;
  for (int it = 0; it < 200; it++) {
    PetscReal U, F, dF, dn;
    NormalLawEval(law, s, d, &U, &F, &dF);
    if (U > E) hi = d;
    else lo = d;
    dn = (F > 0.0) ? d - (U - E) / F : 0.5 * (lo + hi);
    if (!(dn > lo && dn < hi)) dn = 0.5 * (lo + hi);
    if (fabs(dn - d) <= 1e-15 * d) return dn;
    d = dn;
  }
  return d;
}

PetscReal NormalLawMaxStiffness(const NormalLaw *law, PetscReal s, PetscReal dmax)
{
  if (law->type != NORMAL_LAW_TABLE) { /* U'' is non-decreasing for p_i >= 1 */
    PetscReal df = 0.0;
    for (PetscInt i = 0; i < law->nterm; i++) {
      if (law->p[i] == 1.0) df += law->k[i];
      else if (dmax > 0.0) df += law->k[i] * law->p[i] * (law->p[i] == 1.5 ? sqrt(dmax) : pow(dmax, law->p[i] - 1.0));
    }
    return s * df;
  }
  const NormalTable *t    = law->table;
  PetscReal          kmax = t->m[0];
  PetscInt           last = TableFind(t, dmax);
  for (PetscInt i = 0; i <= last && i < t->n - 1; i++) {
    /* dF/dd on a segment is a quadratic in t: check the ends and the vertex */
    PetscReal h = t->d[i + 1] - t->d[i], tend = (i == last) ? (dmax - t->d[i]) / h : 1.0;
    PetscReal A       = 12.0 * (t->f[i] - t->f[i + 1]) + 6.0 * h * (t->m[i] + t->m[i + 1]);
    PetscReal B       = -6.0 * (t->f[i] - t->f[i + 1]) - 4.0 * h * t->m[i] - 2.0 * h * t->m[i + 1];
    PetscReal cand[3] = {0.0, tend, (A != 0.0) ? -B / A : -1.0};
    for (int c = 0; c < 3; c++) {
      PetscReal U, F, dF;
      if (cand[c] < 0.0 || cand[c] > tend) continue;
      TableEval(t, t->d[i] + cand[c] * h, &U, &F, &dF);
      kmax = PetscMax(kmax, dF);
    }
  }
  if (dmax >= t->d[t->n - 1]) kmax = PetscMax(kmax, t->m[t->n - 1]);
  return kmax;
}

/* Elastic contact duration T(E) = 2 int_0^dmax dd / sqrt(2 (E - U)/m).
 * Closed form for monomials; otherwise the same integral after d = dmax (1 - u^2),
 * which removes the turning-point singularity, by a 16-point Gauss rule. */
PetscReal NormalLawElasticDuration(const NormalLaw *law, PetscReal s, PetscReal m, PetscReal E)
{
  if (E <= 0.0) return PETSC_MAX_REAL;
  PetscReal dmax = NormalLawOverlapAtEnergy(law, s, E);
  if (NormalLawIsMonomial(law)) return 2.0 * dmax / sqrt(2.0 * E / m) * law->duration_coeff;
  PetscReal sum = 0.0;
  for (int q = 0; q < 16; q++) {
    PetscReal u = gl_x[q], U, F, dF, gap;
    NormalLawEval(law, s, dmax * (1.0 - u * u), &U, &F, &dF);
    gap = E - U;
    if (gap <= 0.0) { /* rounding at the turning point: use the local expansion */
      gap = F * dmax * u * u;
      if (gap <= 0.0) continue;
    }
    sum += gl_w[q] * 2.0 * dmax * u / sqrt(2.0 * gap / m);
  }
  return 2.0 * sum;
}
