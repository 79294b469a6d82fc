#include "rigid/clump_template.h"
#include "rigid/union_moments.h"
#include "rigid/sieve_size.h"
#include "io/options.h"
#include "io/table.h"
#include <stdio.h>

void ClumpJacobi(int n, PetscReal *a, PetscReal *V)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) V[n * i + j] = i == j ? 1.0 : 0.0;
  for (int sweep = 0; sweep < 60; sweep++) {
    PetscReal off = 0.0, dia = 0.0;
    for (int p = 0; p < n - 1; p++)
      for (int q = p + 1; q < n; q++) off += PetscAbsReal(a[n * p + q]);
    for (int i = 0; i < n; i++) dia += PetscAbsReal(a[n * i + i]);
    if (off <= 1e-300 || off < 1e-17 * dia) break;
    for (int p = 0; p < n - 1; p++)
      for (int q = p + 1; q < n; q++) {
        PetscReal th, t, c, s;
        if (a[n * p + q] == 0.0) continue;
        th = (a[n * q + q] - a[n * p + p]) / (2.0 * a[n * p + q]);
        t  = (th >= 0 ? 1.0 : -1.0) / (PetscAbsReal(th) + sqrt(th * th + 1.0));
        c = 1.0 / sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < n; k++) { /* a = J^T a J */
          PetscReal akp = a[n * k + p], akq = a[n * k + q];
          a[n * k + p] = c * akp - s * akq, a[n * k + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; k++) {
          PetscReal apk = a[n * p + k], aqk = a[n * q + k];
          a[n * p + k] = c * apk - s * aqk, a[n * q + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < n; k++) {
          PetscReal vkp = V[n * k + p], vkq = V[n * k + q];
          V[n * k + p] = c * vkp - s * vkq, V[n * k + q] = s * vkp + c * vkq;
        }
      }
  }
}

void ClumpSymmetricEigen(const PetscReal a0[9], PetscReal lam[3], PetscReal v[9])
{
  PetscReal a[9], V[9];
  int       ord[3] = {0, 1, 2};

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) a[3 * i + j] = 0.5 * (a0[3 * i + j] + a0[3 * j + i]);
  ClumpJacobi(3, a, V);
  for (int i = 0; i < 3; i++) /* ascending */
    for (int j = i + 1; j < 3; j++)
      if (a[4 * ord[j]] < a[4 * ord[i]]) {
        int t  = ord[i];
        ord[i] = ord[j], ord[j] = t;
      }
  for (int i = 0; i < 3; i++) {
    lam[i] = a[4 * ord[i]];
    for (int k = 0; k < 3; k++) v[3 * k + i] = V[3 * k + ord[i]];
  }
  { /* a right-handed frame */
    PetscReal det = v[0] * (v[4] * v[8] - v[5] * v[7]) - v[1] * (v[3] * v[8] - v[5] * v[6]) +
                    v[2] * (v[3] * v[7] - v[4] * v[6]);
    if (det < 0)
      for (int k = 0; k < 3; k++) v[3 * k + 2] = -v[3 * k + 2];
  }
}

static PetscErrorCode ClumpCheckSpheres(MPI_Comm comm, const char *name, PetscInt n, const PetscReal *s)
{
  PetscFunctionBeginUser;
  PetscCheck(n > 0, comm, PETSC_ERR_USER_INPUT, "%s: no spheres (a template needs at least one: x y z r)", name);
  for (PetscInt k = 0; k < n; k++) {
    for (int a = 0; a < 4; a++)
      PetscCheck(isfinite(s[4 * k + a]), comm, PETSC_ERR_USER_INPUT,
                 "%s: sphere %" PetscInt_FMT ": %g is not a finite number", name, k + 1, (double)s[4 * k + a]);
    PetscCheck(s[4 * k + 3] > 0.0, comm, PETSC_ERR_USER_INPUT,
               "%s: sphere %" PetscInt_FMT " has radius %g; allowed: (0, inf) m", name, k + 1, (double)s[4 * k + 3]);
  }
  { /* two spheres on one centre: the smaller adds nothing to the body, a slip in the list (a line given twice);
     * sorted by x, only spheres as close in x are compared (files hold up to CLUMP_FILE_SPHERES_MAX) */
    PetscReal size = 0.0, span = 0.0, tol, *x;
    PetscInt *idx;
    for (PetscInt k = 0; k < n; k++) {
      PetscReal d = sqrt(PetscSqr(s[4 * k] - s[0]) + PetscSqr(s[4 * k + 1] - s[1]) + PetscSqr(s[4 * k + 2] - s[2]));
      size        = PetscMax(size, s[4 * k + 3]);
      span        = PetscMax(span, d);
    }
    size += 2.0 * span;
    tol = 1e-12 * size;
    PetscCall(PetscMalloc2(n, &x, n, &idx));
    for (PetscInt k = 0; k < n; k++) x[k] = s[4 * k], idx[k] = k;
    PetscCall(PetscSortRealWithPermutation(n, x, idx));
    for (PetscInt a = 0; a < n; a++)
      for (PetscInt b = a + 1; b < n && s[4 * idx[b]] - s[4 * idx[a]] <= tol; b++) {
        PetscInt  i = PetscMin(idx[a], idx[b]), j = PetscMax(idx[a], idx[b]);
        PetscReal d = sqrt(PetscSqr(s[4 * j] - s[4 * i]) + PetscSqr(s[4 * j + 1] - s[4 * i + 1]) +
                           PetscSqr(s[4 * j + 2] - s[4 * i + 2]));
        if (d <= tol) {
          char c[96];
          snprintf(c, sizeof(c), "(%g, %g, %g)", (double)s[4 * i], (double)s[4 * i + 1],
                   (double)s[4 * i + 2]); /* PETSc's %g would print 0 as "0." */
          PetscCall(PetscFree2(x, idx));
          SETERRQ(comm, PETSC_ERR_USER_INPUT,
                  "%s: spheres %" PetscInt_FMT " and %" PetscInt_FMT " have the same centre %s"
                  " (closer than 1e-12 of the template's size %g m)",
                  name, i + 1, j + 1, c, (double)size);
        }
      }
    PetscCall(PetscFree2(x, idx));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The union's mass properties cost about n^4 for spheres that all overlap:
 * a template beyond CLUMP_COST_MAX is refused before they are computed. */
static PetscErrorCode ClumpCheckCost(MPI_Comm comm, const char *name, PetscInt n, const PetscReal *s)
{
  PetscReal cost;

  PetscFunctionBeginUser;
  PetscCall(UnionMomentsCost(n, s, &cost));
  PetscCheck(cost <= CLUMP_COST_MAX, comm, PETSC_ERR_USER_INPUT,
             "%s: its %" PetscInt_FMT " spheres overlap so much that the mass properties of their union"
             " would take %.3g units of work (cap tests, about %.0f s), more than the limit %.3g (about %.0f s):"
             " give fewer spheres, or spheres that overlap less",
             name, n, (double)cost, (double)(cost / CLUMP_COST_PER_SECOND), (double)CLUMP_COST_MAX,
             (double)(CLUMP_COST_MAX / CLUMP_COST_PER_SECOND));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ClumpTemplateSetUp(MPI_Comm comm, const char *name, PetscInt n, const PetscReal *s, ClumpTemplate *t)
{
  PetscReal m[10], err, V, C[9], J[9], tr;

  PetscFunctionBeginUser;
  PetscCall(ClumpCheckSpheres(comm, name, n, s));
  PetscCall(ClumpCheckCost(comm, name, n, s));
  PetscCall(UnionMoments(n, s, CLUMP_TOLERANCE, m, &err));
  PetscCheck(err <= CLUMP_ERROR_MAX, comm, PETSC_ERR_USER_INPUT,
             "%s: the mass properties of its %" PetscInt_FMT
             " spheres reach a relative error bound of only %g (at most %g is accepted)",
             name, n, (double)err, (double)CLUMP_ERROR_MAX);
  V = m[0];
  for (int a = 0; a < 3; a++) t->com[a] = m[1 + a] / V;
  {
    const int pa[6] = {0, 1, 2, 0, 0, 1}, pb[6] = {0, 1, 2, 1, 2, 2};
    for (int k = 0; k < 6; k++) { /* second moments about the centre of mass */
      int a = pa[k], b = pb[k];
      C[3 * a + b] = C[3 * b + a] = m[4 + k] - V * t->com[a] * t->com[b];
    }
  }
  tr = C[0] + C[4] + C[8];
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) J[3 * a + b] = (a == b ? tr : 0.0) - C[3 * a + b];
  ClumpSymmetricEigen(J, t->inertia_unit, t->axes);
  PetscCall(PetscFree(t->s));
  PetscCall(PetscMalloc1(4 * n, &t->s));
  t->n = n, t->volume = V, t->error = err, t->extent = 0.0;
  t->r_equiv = cbrt(3.0 * V / (4.0 * HDEM_PI));
  for (PetscInt k = 0; k < n; k++) { /* s' = A^T (s - com) */
    PetscReal d[3], e2 = 0.0;
    for (int a = 0; a < 3; a++) d[a] = s[4 * k + a] - t->com[a];
    for (int b = 0; b < 3; b++) {
      t->s[4 * k + b] = t->axes[0 + b] * d[0] + t->axes[3 + b] * d[1] + t->axes[6 + b] * d[2];
      e2 += t->s[4 * k + b] * t->s[4 * k + b];
    }
    t->s[4 * k + 3] = s[4 * k + 3];
    t->extent       = PetscMax(t->extent, sqrt(e2) + s[4 * k + 3]);
  }
  t->on = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void ClumpTemplateMass(const ClumpTemplate *t, PetscReal rho, PetscReal l, PetscReal *mass, PetscReal inertia[3])
{
  PetscReal l3 = l * l * l, l5 = l3 * l * l, d = t->density > 0.0 ? t->density : rho;
  *mass = t->given ? t->mass_given * l3 : d * t->volume * l3;
  for (int a = 0; a < 3; a++) inertia[a] = t->given ? t->inertia_given[a] * l5 : d * t->inertia_unit[a] * l5;
}

/* The spheres as given with mass and inertia: the principal frame is theirs. */
static PetscErrorCode ClumpTemplateGiven(MPI_Comm comm, const char *name, PetscInt n, const PetscReal *s,
                                         PetscReal mass, const PetscReal in[3], ClumpTemplate *t)
{
  PetscReal m[10];

  PetscFunctionBeginUser;
  PetscCall(ClumpCheckSpheres(comm, name, n, s));
  PetscCall(ClumpCheckCost(comm, name, n, s));
  PetscCall(UnionMoments(n, s, CLUMP_TOLERANCE, m, &t->error));
  PetscCheck(t->error <= CLUMP_ERROR_MAX, comm, PETSC_ERR_USER_INPUT,
             "%s: the volume of its %" PetscInt_FMT
             " spheres reaches a relative error bound of only %g (at most %g is accepted)",
             name, n, (double)t->error, (double)CLUMP_ERROR_MAX);
  PetscCall(PetscFree(t->s));
  PetscCall(PetscMalloc1(4 * n, &t->s));
  PetscCall(PetscArraycpy(t->s, s, 4 * n));
  t->n = n, t->volume = m[0], t->given = PETSC_TRUE, t->mass_given = mass, t->extent = 0.0;
  t->r_equiv = cbrt(3.0 * m[0] / (4.0 * HDEM_PI));
  for (int a = 0; a < 3; a++) t->inertia_given[a] = in[a], t->com[a] = 0.0, t->inertia_unit[a] = 0.0;
  for (int a = 0; a < 9; a++) t->axes[a] = (a % 4 == 0) ? 1.0 : 0.0;
  for (PetscInt k = 0; k < n; k++)
    t->extent = PetscMax(t->extent,
                         sqrt(s[4 * k] * s[4 * k] + s[4 * k + 1] * s[4 * k + 1] + s[4 * k + 2] * s[4 * k + 2]) +
                           s[4 * k + 3]);
  t->on = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ClumpKeys(MPI_Comm comm, PetscInt k, ClumpTemplate *t)
{
  char      name[16], key[48], file[PETSC_MAX_PATH_LEN] = "";
  PetscReal list[4 * CLUMP_SPHERES_MAX], mass = 0.0, in[3] = {0, 0, 0}, *s = NULL;
  PetscInt  nl = 0, ni = 0, n = 0;
  PetscBool lset = PETSC_FALSE, fset = PETSC_FALSE, mset = PETSC_FALSE, iset = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, sizeof(name), "clump%" PetscInt_FMT, k));
  OptionsQuiet(k > 0 ? PETSC_TRUE : PETSC_FALSE);
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_spheres", name));
  PetscCall(OptionsRealArray(key, "clumpN (N = 0..15): a rigid body's spheres in its frame, x, y, z, r for each", "[m]",
                             1, 4 * CLUMP_SPHERES_MAX, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, list, &nl, &lset));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_file", name));
  PetscCall(
    OptionsPath(key,
                "clumpN: the spheres from a file, lines \"x y z r\" (# comments; relative: from the deck's folder)",
                file, sizeof(file), &fset));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_density", name));
  t->density = 0.0;
  PetscCall(OptionsReal(key, "clumpN: density of the body (0: the material's of the type it is inserted with)",
                        "[kg/m^3]", 0.0, HDEM_DENSITY_MAX, RANGE_CLOSED, &t->density, NULL));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_mass", name));
  PetscCall(OptionsReal(key, "clumpN: the body's mass, given with its inertia (0: from the spheres and the density)",
                        "[kg]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &mass, &mset));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_inertia", name));
  PetscCall(OptionsRealArray(key,
                             "clumpN: principal moments of inertia, given with the mass: the spheres are then in the "
                             "principal frame",
                             "[kg*m^2]", 3, 3, 0.0, PETSC_MAX_REAL, RANGE_OPEN_LO, in, &ni, &iset));
  OptionsQuiet(PETSC_FALSE);
  if (k == 0) {
    PetscCall(OptionsDefaultText("-clump0_spheres", "none"));
    PetscCall(OptionsDefaultText("-clump0_file", "none"));
    PetscCall(OptionsDefaultText("-clump0_inertia", "none"));
  }
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  if (!lset && !fset) {
    char pre[16];
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "-%s_", name));
    char need[48];
    PetscCall(PetscSNPrintf(need, sizeof(need), "-%s_spheres or -%s_file", name, name));
    PetscCall(OptionsCheckSectionNeeds(comm, pre, need));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(!(lset && fset), comm, PETSC_ERR_USER_INPUT, "%s: give %s_spheres or %s_file, not both", name, name, name);
  PetscCheck(!lset || nl % 4 == 0, comm, PETSC_ERR_USER_INPUT,
             "-%s_spheres: %" PetscInt_FMT " numbers, not a multiple of 4 (x, y, z, r for each sphere)", name, nl);
  PetscCheck(t->density == 0.0 || t->density >= HDEM_DENSITY_MIN, comm, PETSC_ERR_USER_INPUT,
             "-%s_density = %g is out of range: allowed 0 (the material's) or [%g, %g] kg/m^3", name,
             (double)t->density, HDEM_DENSITY_MIN, HDEM_DENSITY_MAX);
  PetscCheck(mset == iset && (!mset || mass > 0.0), comm, PETSC_ERR_USER_INPUT,
             "%s: give %s_mass (> 0) and %s_inertia together, or neither (the mass properties then follow from the "
             "spheres)",
             name, name, name);
  if (fset) PetscCall(TableReadRows(comm, file, 4, "four finite numbers, x y z r", CLUMP_FILE_SPHERES_MAX, &n, &s));
  else n = nl / 4, s = list;
  {
    char what[PETSC_MAX_PATH_LEN + 32];
    if (fset) PetscCall(PetscSNPrintf(what, sizeof(what), "-%s_file %s", name, file));
    else PetscCall(PetscSNPrintf(what, sizeof(what), "-%s_spheres", name));
    PetscErrorCode ierr = mset ? ClumpTemplateGiven(comm, what, n, s, mass, in, t)
                               : ClumpTemplateSetUp(comm, what, n, s, t);
    if (!ierr) ierr = SieveSize(t->n, t->s, &t->sieve, NULL);
    if (fset) PetscCall(PetscFree(s));
    PetscCall(ierr);
  }
  /* given mass properties a body of its spheres could have: a density in range, moments within m extent^2 */
  if (mset) {
    PetscReal rho = mass / t->volume, ref = mass * t->extent * t->extent;
    PetscCheck(rho >= HDEM_DENSITY_MIN && rho <= HDEM_DENSITY_MAX, comm, PETSC_ERR_USER_INPUT,
               "-%s_mass = %g over the volume %g m^3 of its spheres is a density of %g kg/m^3: allowed [%g, %g]", name,
               (double)mass, (double)t->volume, (double)rho, HDEM_DENSITY_MIN, HDEM_DENSITY_MAX);
    for (int a = 0; a < 3; a++)
      PetscCheck(in[a] >= 1e-9 * ref && in[a] <= 10.0 * ref, comm, PETSC_ERR_USER_INPUT,
                 "-%s_inertia: moment %d = %g kg*m^2 is out of range: allowed [1e-9, 10] times the mass times its "
                 "extent squared, [%g, %g]",
                 name, a + 1, (double)in[a], 1e-9 * (double)ref, 10.0 * (double)ref);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ClumpTemplatesSetFromOptions(MPI_Comm comm, ClumpTemplates *ts)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(ts, sizeof(*ts)));
  PetscCall(OptionsSection("Multi-sphere bodies"));
  for (PetscInt k = 0; k < CLUMP_TEMPLATES_MAX; k++) {
    PetscCall(ClumpKeys(comm, k, &ts->t[k]));
    if (ts->t[k].on) ts->n++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

void ClumpTemplateDescribe(const ClumpTemplate *t, PetscReal rho, char *buf, size_t len)
{
  PetscReal mass, in[3];
  ClumpTemplateMass(t, rho, 1.0, &mass, in);
  snprintf(buf, len,
           "%d spheres, volume %.6g m^3 (volume-equivalent radius %.6g m), mass %.6g kg%s, principal inertia %.6g %.6g "
           "%.6g kg m^2%s, extent %.6g m from the "
           "centre of mass, sieve size %.6g m (%.4g volume-equivalent diameters), error bound %.2g",
           (int)t->n, (double)t->volume, (double)t->r_equiv, (double)mass, t->given ? " (given)" : "", (double)in[0],
           (double)in[1], (double)in[2], t->given ? " (given)" : "", (double)t->extent, (double)t->sieve,
           (double)(t->sieve / (2.0 * t->r_equiv)), (double)t->error);
}

PetscErrorCode ClumpTemplatesDestroy(ClumpTemplates *ts)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < CLUMP_TEMPLATES_MAX; k++) PetscCall(PetscFree(ts->t[k].s));
  PetscFunctionReturn(PETSC_SUCCESS);
}
