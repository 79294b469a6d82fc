#include "rigid/body_insert.h"
#include "rigid/body_step.h"
#include "rigid/rotation.h"
#include "particles/random.h"
#include "io/options.h"
#include <string.h>
#include <stdio.h>

const char *const BodyOrientations[] = {"random", "fixed", "BodyOrientation", "BODY_ORIENTATION_", NULL};

/* draw channels, apart from the insertion's and the streams' */
#define BODY_RANDOM_CHOICE      40
#define BODY_RANDOM_ORIENTATION 41 /* 41, 42, 43 */

PetscErrorCode BodyChoiceSetFromOptions(MPI_Comm comm, const char *prefix, BodyChoice *bc)
{
  char      key[64], list[512] = "", *tok, *save = NULL;
  PetscBool set[4] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
  PetscInt  nw = BODY_CHOICES_MAX, n3 = 3;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(bc, sizeof(*bc)));
  bc->orientation = BODY_ORIENTATION_RANDOM;
  PetscCall(PetscSNPrintf(key, sizeof(key), "%s_body", prefix));
  PetscCall(OptionsString(key,
                          "what each particle is: sphere, clump0 .. clump15, or a list of them drawn by _body_weights",
                          list, sizeof(list), &set[0]));
  PetscCall(OptionsDefaultText(key, "sphere"));
  if (set[0]) {
    for (tok = strtok_r(list, ", []", &save); tok; tok = strtok_r(NULL, ", []", &save)) {
      PetscInt t = -2;
      int      c = 0;
      PetscCheck(bc->n < BODY_CHOICES_MAX, comm, PETSC_ERR_USER_INPUT, "%s: at most %d choices", key, BODY_CHOICES_MAX);
      if (!strcmp(tok, "sphere")) t = -1;
      else if (sscanf(tok, "clump%" PetscInt_FMT "%n", &t, &c) != 1 || tok[c] != '\0' || t < 0 ||
               t >= CLUMP_TEMPLATES_MAX)
        t = -2;
      PetscCheck(t >= -1, comm, PETSC_ERR_USER_INPUT, "%s: \"%s\" is neither sphere nor clump0 .. clump%d", key, tok,
                 CLUMP_TEMPLATES_MAX - 1);
      bc->tmpl[bc->n]   = t;
      bc->weight[bc->n] = 1.0;
      bc->n++;
    }
    PetscCheck(bc->n > 0, comm, PETSC_ERR_USER_INPUT, "%s: no body named", key);
  }
  PetscCall(PetscSNPrintf(key, sizeof(key), "%s_body_weights", prefix));
  PetscCall(OptionsRealArray(key, "number fractions of the _body list (normalised)", "[-]", 1, BODY_CHOICES_MAX, 0.0,
                             PETSC_MAX_REAL, RANGE_CLOSED, bc->weight, &nw, &set[1]));
  PetscCall(OptionsDefaultText(key, "equal"));
  if (set[1]) {
    PetscReal sum = 0.0;
    PetscCheck(set[0] && nw == bc->n, comm, PETSC_ERR_USER_INPUT,
               "%s: %" PetscInt_FMT " weights for the %" PetscInt_FMT " bodies of %s_body", key, nw, bc->n, prefix);
    for (PetscInt k = 0; k < nw; k++) sum += bc->weight[k];
    PetscCheck(sum > 0.0, comm, PETSC_ERR_USER_INPUT, "%s: the weights sum to zero", key);
  } else
    for (PetscInt k = 0; k < bc->n; k++) bc->weight[k] = 1.0;
  PetscCall(PetscSNPrintf(key, sizeof(key), "%s_orientation", prefix));
  PetscCall(OptionsEnum(key,
                        "a body's orientation: random (uniform on SO(3), keyed by id) or fixed (the template's, as its "
                        "spheres were given)",
                        BodyOrientations, (PetscEnum *)&bc->orientation, &set[2]));
  PetscCall(PetscSNPrintf(key, sizeof(key), "%s_angular_velocity", prefix));
  PetscCall(OptionsRealArray(key, "initial angular velocity of each body, world frame", "[rad/s]", 3, 3, -HDEM_SPIN_MAX,
                             HDEM_SPIN_MAX, RANGE_CLOSED, bc->omega, &n3, &set[3]));
  bc->given = set[0] || set[1] || set[2] || set[3] ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BodyChoiceCheck(MPI_Comm comm, const char *prefix, const BodyChoice *bc, const ClumpTemplates *ct)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < bc->n; k++)
    PetscCheck(bc->tmpl[k] < 0 || ct->t[bc->tmpl[k]].on, comm, PETSC_ERR_USER_INPUT,
               "%s_body names clump%" PetscInt_FMT ", which the deck does not define", prefix, bc->tmpl[k]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool BodyChoiceHasBodies(const BodyChoice *bc)
{
  for (PetscInt k = 0; k < bc->n; k++)
    if (bc->tmpl[k] >= 0) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscInt BodyChoiceDraw(const BodyChoice *bc, PetscInt64 seed, PetscInt64 key)
{
  PetscReal sum = 0.0, u, acc = 0.0;
  if (bc->n == 0) return -1;
  if (bc->n == 1) return bc->tmpl[0];
  for (PetscInt k = 0; k < bc->n; k++) sum += bc->weight[k];
  u = RandomUniform(seed, key, BODY_RANDOM_CHOICE, 0) * sum;
  for (PetscInt k = 0; k < bc->n; k++) {
    acc += bc->weight[k];
    if (u < acc && bc->weight[k] > 0.0) return bc->tmpl[k];
  }
  for (PetscInt k = bc->n - 1; k >= 0; k--)
    if (bc->weight[k] > 0.0) return bc->tmpl[k];
  return bc->tmpl[bc->n - 1];
}

PetscBool BodyIsSphere(const ClumpTemplates *ct, PetscInt c)
{
  return c < 0 || (ct->t[c].n == 1 && !ct->t[c].given) ? PETSC_TRUE : PETSC_FALSE;
}

PetscInt BodyChoiceSpheres(const ClumpTemplates *ct, PetscInt c)
{
  return BodyIsSphere(ct, c) ? 1 : ct->t[c].n;
}

PetscInt BodyChoiceSpheresEach(const BodyChoice *bc, const ClumpTemplates *ct)
{
  PetscInt n = 1;
  for (PetscInt k = 0; k < bc->n; k++) {
    PetscInt s = BodyChoiceSpheres(ct, bc->tmpl[k]);
    if (k == 0) n = s;
    else if (s != n) return 0;
  }
  return n;
}

void BodyChoiceSizes(const ClumpTemplates *ct, PetscInt c, PetscReal r, PetscReal *bound, PetscReal *rmember,
                     PetscReal *reach)
{
  const ClumpTemplate *t;
  PetscReal            l;
  if (BodyIsSphere(ct, c)) {
    *bound = *rmember = r, *reach = 0.0;
    return;
  }
  t      = &ct->t[c];
  l      = r / t->r_equiv;
  *bound = l * t->extent, *rmember = 0.0, *reach = 0.0;
  for (PetscInt k = 0; k < t->n; k++) {
    const PetscReal *s = t->s + 4 * k;
    *rmember           = PetscMax(*rmember, l * s[3]);
    *reach             = PetscMax(*reach, l * sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]));
  }
}

void BodyChoiceSizesMax(const BodyChoice *bc, const ClumpTemplates *ct, PetscReal rmax, PetscReal *bound,
                        PetscReal *rmember, PetscReal *reach)
{
  *bound = *rmember = *reach = 0.0;
  if (bc->n == 0) *bound = *rmember = rmax;
  for (PetscInt k = 0; k < bc->n; k++) {
    PetscReal b, m, r;
    BodyChoiceSizes(ct, bc->tmpl[k], rmax, &b, &m, &r);
    *bound = PetscMax(*bound, b), *rmember = PetscMax(*rmember, m), *reach = PetscMax(*reach, r);
  }
}

/* Rows id0 .. id0 + n - 1 of template c scaled by l, centre X, velocity V,
 * orientation q, spin w (world). */
PetscErrorCode BodyAppendAt(Particles *p, const ClumpTemplates *ct, PetscInt c, PetscInt64 id0, PetscInt type,
                            PetscReal l, PetscReal density, const PetscReal X[3], const PetscReal V[3],
                            const PetscReal q[4], const PetscReal w[3])
{
  const ClumpTemplate *t = &ct->t[c];
  PetscReal            M, in[3], imin, rho;
  PetscInt             i0 = p->n;
  LocalInt            *rows;

  PetscFunctionBeginUser;
  PetscCheck(p->body, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a body without the body fields");
  ClumpTemplateMass(t, density, l, &M, in);
  imin = PetscMin(in[0], PetscMin(in[1], in[2]));
  PetscCall(PetscMalloc1(t->n, &rows));
  for (PetscInt k = 0; k < t->n; k++) {
    const PetscReal *s = t->s + 4 * k, zero[3] = {0, 0, 0};
    PetscInt         i;
    PetscCall(ParticlesAppend(p, id0 + k, type, PARTICLE_MEMBER, l * s[3], 1.0, X, zero, zero));
    i = p->n - 1;
    /* the sphere's own mass and inertia stand for the least mass the body
     * can put against a contact on it (the approach bound's, before the
     * contact's own projected mass takes over) */
    rho           = l * (sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]) + s[3]);
    p->mass[i]    = imin > 0.0 ? 1.0 / (1.0 / M + rho * rho / imin) : M;
    p->inertia[i] = 0.4 * p->mass[i] * l * s[3] * l * s[3];
    p->body[i]    = id0;
    p->btmpl[i]   = (LocalInt)c;
    for (int a = 0; a < 3; a++) p->bd[3 * i + a] = l * s[a], p->bx[3 * i + a] = X[a];
    p->bm[i] = M;
    for (int a = 0; a < 3; a++) p->bI[4 * i + a] = in[a];
    p->bI[4 * i + 3] = l * t->r_equiv;
    rows[k]          = (LocalInt)i;
  }
  for (int a = 0; a < 4; a++) p->bq[4 * i0 + a] = q[a];
  for (int a = 0; a < 3; a++) p->bv[3 * i0 + a] = V[a];
  RigidMomentumFromOmega(q, in, w, p->bp + 4 * i0);
  BodyMembersPlace(p, rows, t->n);
  for (PetscInt k = 0; k < t->n; k++)
    for (int a = 0; a < 3; a++) p->x0[3 * rows[k] + a] = p->x[3 * rows[k] + a];
  PetscCall(PetscFree(rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BodyAppend(Particles *p, const ClumpTemplates *ct, const BodyChoice *bc, PetscInt c, PetscInt64 id0,
                          PetscInt type, PetscReal r, PetscReal density, const PetscReal x[3], const PetscReal v[3],
                          PetscInt64 seed, PetscInt64 key)
{
  const ClumpTemplate *t;
  PetscReal            q[4];

  PetscFunctionBeginUser;
  if (BodyIsSphere(ct, c)) {
    PetscReal w[3] = {bc->omega[0], bc->omega[1], bc->omega[2]};
    PetscCall(
      ParticlesAppend(p, id0, type, 0, r, c >= 0 && ct->t[c].density > 0.0 ? ct->t[c].density : density, x, v, w));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  t = &ct->t[c];
  if (bc->orientation == BODY_ORIENTATION_RANDOM)
    QuatUniform(RandomUniform(seed, key, BODY_RANDOM_ORIENTATION, 0),
                RandomUniform(seed, key, BODY_RANDOM_ORIENTATION + 1, 0),
                RandomUniform(seed, key, BODY_RANDOM_ORIENTATION + 2, 0), q);
  else {
    PetscReal A[9]; /* the principal axes as columns in the frame the spheres were given in: body to world */
    for (int a = 0; a < 9; a++) A[a] = t->given ? (a % 4 == 0 ? 1.0 : 0.0) : t->axes[a];
    QuatFromMatrix(A, q);
  }
  PetscCall(BodyAppendAt(p, ct, c, id0, type, r / t->r_equiv, density, x, v, q, bc->omega));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The eigenvector of the largest eigenvalue of a symmetric 4 x 4 matrix. */
static void SymmetricLargest4(const PetscReal a0[16], PetscReal v[4])
{
  PetscReal a[16], V[16];
  int       best = 0;

  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) a[4 * i + j] = 0.5 * (a0[4 * i + j] + a0[4 * j + i]);
  ClumpJacobi(4, a, V);
  for (int i = 1; i < 4; i++)
    if (a[5 * i] > a[5 * best]) best = i;
  for (int k = 0; k < 4; k++) v[k] = V[4 * k + best];
}

/* Horn's closed form (J. Opt. Soc. Am. A 4, 629, 1987): the rotation taking
 * the template's spheres, scaled by the mean of the atoms' radii over
 * theirs, closest onto the atoms in the least-squares sense is the
 * eigenvector of the largest eigenvalue of a 4 x 4 matrix of their
 * correlations; a line of spheres leaves the turn about it free (any is
 * as good). */
void BodyFit(const ClumpTemplate *t, const PetscReal *x, const PetscReal *r, PetscReal *l, PetscReal X[3],
             PetscReal q[4], PetscReal *resid)
{
  PetscReal xc[3] = {0, 0, 0}, dc[3] = {0, 0, 0}, S[3][3] = {{0}}, N[16], R[9];
  PetscInt  n = t->n;

  *l = 0.0;
  for (PetscInt k = 0; k < n; k++) *l += r[k] / t->s[4 * k + 3];
  *l /= (PetscReal)n;
  for (PetscInt k = 0; k < n; k++)
    for (int a = 0; a < 3; a++) xc[a] += x[3 * k + a] / (PetscReal)n, dc[a] += *l * t->s[4 * k + a] / (PetscReal)n;
  for (PetscInt k = 0; k < n; k++)
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) S[a][b] += (*l * t->s[4 * k + a] - dc[a]) * (x[3 * k + b] - xc[b]);
  N[0] = S[0][0] + S[1][1] + S[2][2], N[1] = S[1][2] - S[2][1], N[2] = S[2][0] - S[0][2], N[3] = S[0][1] - S[1][0];
  N[5] = S[0][0] - S[1][1] - S[2][2], N[6] = S[0][1] + S[1][0], N[7] = S[2][0] + S[0][2];
  N[10] = -S[0][0] + S[1][1] - S[2][2], N[11] = S[1][2] + S[2][1];
  N[15] = -S[0][0] - S[1][1] + S[2][2];
  N[4] = N[1], N[8] = N[2], N[12] = N[3], N[9] = N[6], N[13] = N[7], N[14] = N[11];
  SymmetricLargest4(N, q);
  if (q[0] < 0.0)
    for (int a = 0; a < 4; a++) q[a] = -q[a];
  QuatNormalize(q);
  QuatToMatrix(q, R);
  for (int a = 0; a < 3; a++) X[a] = xc[a] - (R[3 * a] * dc[0] + R[3 * a + 1] * dc[1] + R[3 * a + 2] * dc[2]);
  *resid = 0.0;
  for (PetscInt k = 0; k < n; k++) {
    PetscReal e2 = 0.0;
    for (int a = 0; a < 3; a++) {
      PetscReal y = X[a] +
                  *l * (R[3 * a] * t->s[4 * k] + R[3 * a + 1] * t->s[4 * k + 1] + R[3 * a + 2] * t->s[4 * k + 2]) -
                    x[3 * k + a];
      e2 += y * y;
    }
    *resid = PetscMax(*resid, sqrt(e2));
    *resid = PetscMax(*resid, PetscAbsReal(*l * t->s[4 * k + 3] - r[k]));
  }
}
