/* Multi-sphere bodies: the templates' mass properties against closed forms
 * (one sphere; two overlapping spheres and a symmetric trimer, whose unions
 * are the spheres less their lenses, integrated exactly slice by slice; a
 * tetrahedral clump with triple overlaps against a fine voxel sum), and the
 * NO_SQUISH rotation of a torque-free asymmetric top: the world angular
 * momentum conserved to round-off, the energy bounded over 10^5 steps, and
 * the period of rotation near the intermediate axis against the
 * elliptic-integral value (Landau & Lifshitz, Mechanics, section 37). */
#include <math.h>
#include "check_main.h"
#include "rigid/clump_template.h"
#include "rigid/union_moments.h"
#include "rigid/rotation.h"
#include "rigid/body_contact.h"
#include "particles/random.h"
#include "geometry/mesh.h"
#include "rigid/rigid_impact.h"
#include "contact/contact_options.h"
#include <stdio.h>

/* Moments (as UnionMoments') of the part of sphere (c, r) whose axial
 * coordinate t = (x - c).u lies in [t0, t1], added with sign sg: every
 * integrand is a polynomial of degree <= 4 in t, exact by 5-point Gauss. */
static void SlabAdd(const PetscReal c[3], PetscReal r, const PetscReal u[3], PetscReal t0, PetscReal t1, PetscReal sg,
                    PetscReal m[10])
{
  const PetscReal x5[5] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831, 0.9061798459386640};
  const PetscReal w5[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665,
                           0.2369268850561891};
  const int       pa[6] = {0, 1, 2, 0, 0, 1}, pb[6] = {0, 1, 2, 1, 2, 2};
  PetscReal       V = 0, S1 = 0, S2 = 0, T = 0;
  for (int i = 0; i < 5; i++) {
    PetscReal t = 0.5 * (t0 + t1) + 0.5 * (t1 - t0) * x5[i], w = 0.5 * (t1 - t0) * w5[i], A = HDEM_PI * (r * r - t * t);
    V += w * A, S1 += w * t * A, S2 += w * t * t * A, T += w * HDEM_PI * (r * r - t * t) * (r * r - t * t) / 4.0;
  }
  m[0] += sg * V;
  for (int a = 0; a < 3; a++) m[1 + a] += sg * (c[a] * V + u[a] * S1);
  for (int k = 0; k < 6; k++) {
    int a = pa[k], b = pb[k];
    m[4 + k] += sg *
                (c[a] * c[b] * V + (c[a] * u[b] + u[a] * c[b]) * S1 + u[a] * u[b] * S2 + ((a == b) - u[a] * u[b]) * T);
  }
}

static void SphereAdd(const PetscReal *s, PetscReal m[10])
{
  const PetscReal u[3] = {0, 0, 1};
  SlabAdd(s, s[3], u, -s[3], s[3], 1.0, m);
}

/* less the lens two overlapping spheres share */
static void LensSubtract(const PetscReal *s1, const PetscReal *s2, PetscReal m[10])
{
  PetscReal u[3], d = 0, x0;
  for (int a = 0; a < 3; a++) u[a] = s2[a] - s1[a], d += u[a] * u[a];
  d = sqrt(d);
  for (int a = 0; a < 3; a++) u[a] /= d;
  x0 = (d * d + s1[3] * s1[3] - s2[3] * s2[3]) / (2 * d);
  SlabAdd(s1, s1[3], u, x0, s1[3], -1.0, m);
  SlabAdd(s2, s2[3], u, -s2[3], x0 - d, -1.0, m);
}

/* The centre of mass, volume and principal moments per unit density of moments m. */
static void MassProperties(const PetscReal m[10], PetscReal *V, PetscReal com[3], PetscReal lam[3])
{
  const int pa[6] = {0, 1, 2, 0, 0, 1}, pb[6] = {0, 1, 2, 1, 2, 2};
  PetscReal C[9], J[9], v[9], tr;
  *V = m[0];
  for (int a = 0; a < 3; a++) com[a] = m[1 + a] / m[0];
  for (int k = 0; k < 6; k++) C[3 * pa[k] + pb[k]] = C[3 * pb[k] + pa[k]] = m[4 + k] - m[0] * com[pa[k]] * com[pb[k]];
  tr = C[0] + C[4] + C[8];
  for (int a = 0; a < 9; a++) J[a] = (a % 4 == 0 ? tr : 0.0) - C[a];
  ClumpSymmetricEigen(J, lam, v);
}

/* The template of n spheres against moments m: volume, centre of mass,
 * principal moments, and the spheres re-expressed about it. */
static void CheckTemplate(PetscInt n, const PetscReal *s, const PetscReal m[10], PetscReal tol)
{
  ClumpTemplate t;
  PetscReal     V, com[3], lam[3], scale;
  PetscCallAbort(PETSC_COMM_SELF, PetscMemzero(&t, sizeof(t)));
  PetscCallAbort(PETSC_COMM_SELF, ClumpTemplateSetUp(PETSC_COMM_SELF, "test", n, s, &t));
  MassProperties(m, &V, com, lam);
  scale = cbrt(V);
  ck_assert_rel(t.volume, V, tol);
  for (int a = 0; a < 3; a++)
    ck_assert_msg(fabs(t.com[a] - com[a]) <= tol * scale, "com %d: %.15g against %.15g", a, t.com[a], com[a]);
  for (int a = 0; a < 3; a++) ck_assert_rel(t.inertia_unit[a], lam[a], tol);
  ck_assert_msg(t.error <= 1e-4, "error bound %g", t.error);
  ck_assert_rel(t.r_equiv, cbrt(3 * V / (4 * HDEM_PI)), tol);
  for (PetscInt k = 0; k < n; k++) { /* distances from the centre of mass are kept */
    PetscReal d0 = 0, d1 = 0;
    for (int a = 0; a < 3; a++)
      d0 += (s[4 * k + a] - com[a]) * (s[4 * k + a] - com[a]), d1 += t.s[4 * k + a] * t.s[4 * k + a];
    ck_assert_msg(fabs(sqrt(d0) - sqrt(d1)) <= PetscMax(1e-9, tol) * scale,
                  "sphere %d at %.15g from the centre, template %.15g", (int)k, sqrt(d0), sqrt(d1));
  }
  PetscCallAbort(PETSC_COMM_SELF, PetscFree(t.s));
}

START_TEST(test_union_one_sphere)
{
  const PetscReal s[4]  = {0.3, -0.2, 1.5, 0.7};
  PetscReal       m[10] = {0};
  SphereAdd(s, m);
  CheckTemplate(1, s, m, 1e-12);
}
END_TEST

START_TEST(test_union_two_spheres)
{
  /* a dumbbell along a generic direction, unequal radii */
  PetscReal u[3] = {0.48, -0.6, 0.64}, s[8], m[10] = {0}, d = 1.3;
  s[0] = 0.1, s[1] = 0.2, s[2] = -0.3, s[3] = 1.0;
  for (int a = 0; a < 3; a++) s[4 + a] = s[a] + d * u[a];
  s[7] = 0.7;
  SphereAdd(s, m), SphereAdd(s + 4, m), LensSubtract(s, s + 4, m);
  CheckTemplate(2, s, m, 1e-12);
}
END_TEST

START_TEST(test_union_trimer)
{
  /* three equal spheres at an equilateral triangle's corners, side 1.8 r:
   * pairs overlap, no point is in all three */
  PetscReal s[12], m[10] = {0}, r = 1.0, side = 1.8 * r;
  for (int k = 0; k < 3; k++) {
    PetscReal ang = 2 * HDEM_PI * k / 3 + 0.3;
    s[4 * k] = side / sqrt(3.0) * cos(ang), s[4 * k + 1] = side / sqrt(3.0) * sin(ang), s[4 * k + 2] = 0.25,
          s[4 * k + 3] = r;
    SphereAdd(s + 4 * k, m);
  }
  for (int k = 0; k < 3; k++) LensSubtract(s + 4 * k, s + 4 * ((k + 1) % 3), m);
  CheckTemplate(3, s, m, 1e-12);
  { /* symmetric: two equal moments in the triangle's plane */
    ClumpTemplate t;
    PetscCallAbort(PETSC_COMM_SELF, PetscMemzero(&t, sizeof(t)));
    PetscCallAbort(PETSC_COMM_SELF, ClumpTemplateSetUp(PETSC_COMM_SELF, "trimer", 3, s, &t));
    ck_assert_rel(t.inertia_unit[0], t.inertia_unit[1], 1e-9);
    PetscCallAbort(PETSC_COMM_SELF, PetscFree(t.s));
  }
}
END_TEST

START_TEST(test_union_nested)
{
  /* a sphere inside another, and a duplicate: the outer sphere's moments (the union's; a template
   * refuses the duplicate, as its smaller sphere would add nothing) */
  const PetscReal s[12] = {0, 0, 0, 1.0, 0.2, 0.1, 0.0, 0.5, 0, 0, 0, 1.0};
  PetscReal       m[10] = {0}, mu[10], err;
  ClumpTemplate   t;
  PetscErrorCode  ierr;
  SphereAdd(s, m);
  CheckTemplate(2, s, m, 1e-12);
  PetscCallAbort(PETSC_COMM_SELF, UnionMoments(3, s, 1e-10, mu, &err));
  for (int k = 0; k < 10; k++)
    ck_assert_msg(fabs(mu[k] - m[k]) <= 1e-12 * m[0], "moment %d: %.15g against %.15g", k, mu[k], m[k]);
  PetscCallAbort(PETSC_COMM_SELF, PetscMemzero(&t, sizeof(t)));
  PetscCallAbort(PETSC_COMM_SELF, PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = ClumpTemplateSetUp(PETSC_COMM_SELF, "test", 3, s, &t);
  PetscCallAbort(PETSC_COMM_SELF, PetscPopErrorHandler());
  ck_assert_int_eq(ierr, PETSC_ERR_USER_INPUT);
  PetscCallAbort(PETSC_COMM_SELF, PetscFree(t.s));
}
END_TEST

START_TEST(test_union_tetrahedral)
{
  /* four spheres at a tetrahedron's corners, 0.6 r from its centre: every
   * pair, triple and the four overlap; against a 240^3 midpoint sum */
  const PetscReal c[4][3] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  PetscReal       s[16], m[10] = {0}, me[10], err, lo = -1.6, h;
  const int       N = 240, pa[6] = {0, 1, 2, 0, 0, 1}, pb[6] = {0, 1, 2, 1, 2, 2};
  for (int k = 0; k < 4; k++) {
    for (int a = 0; a < 3; a++) s[4 * k + a] = 0.6 / sqrt(3.0) * c[k][a] + 0.05 * a;
    s[4 * k + 3] = 1.0;
  }
  h = -2 * lo / N;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int l = 0; l < N; l++) {
        PetscReal x[3] = {lo + (i + 0.5) * h + 0.05 * 1.5, lo + (j + 0.5) * h + 0.05 * 1.5,
                          lo + (l + 0.5) * h + 0.05 * 1.5};
        PetscBool in   = PETSC_FALSE;
        for (int k = 0; k < 4 && !in; k++) {
          PetscReal d2 = 0;
          for (int a = 0; a < 3; a++) d2 += (x[a] - s[4 * k + a]) * (x[a] - s[4 * k + a]);
          in = d2 < 1.0 ? PETSC_TRUE : PETSC_FALSE;
        }
        if (!in) continue;
        m[0] += h * h * h;
        for (int a = 0; a < 3; a++) m[1 + a] += h * h * h * x[a];
        for (int k = 0; k < 6; k++) m[4 + k] += h * h * h * x[pa[k]] * x[pb[k]];
      }
  CheckTemplate(4, s, m, 2e-3);
  PetscCallAbort(PETSC_COMM_SELF, UnionMoments(4, s, 1e-10, me, &err));
  ck_assert_msg(err <= 1e-8, "error bound %g", err);
}
END_TEST

/* A torque-free top of principal moments I, from body angular velocity wb,
 * over nstep steps of dt: the largest relative changes of |L_world| and of
 * the energy over the first and the second half, and the mean period of
 * the body-frame w[1]'s rising zero crossings. */
static void TopRun(const PetscReal Ip[3], const PetscReal wb[3], PetscReal dt, PetscInt nstep, PetscReal *dL,
                   PetscReal dE[2], PetscReal *period)
{
  PetscReal q[4] = {1, 0, 0, 0}, p[4], Lb[3], R[9], L0[3], E0 = 0, prev = 0, tprev = -1, first = -1, last = -1;
  PetscInt  ncross = 0;
  for (int a = 0; a < 3; a++) Lb[a] = Ip[a] * wb[a], E0 += 0.5 * Ip[a] * wb[a] * wb[a];
  { /* a generic start orientation */
    PetscReal r[4] = {0.9, 0.3, -0.2, 0.4};
    QuatNormalize(r);
    for (int a = 0; a < 4; a++) q[a] = r[a];
  }
  RigidMomentumSet(q, Lb, p);
  QuatToMatrix(q, R);
  for (int a = 0; a < 3; a++) L0[a] = R[3 * a] * Lb[0] + R[3 * a + 1] * Lb[1] + R[3 * a + 2] * Lb[2];
  *dL = 0, dE[0] = dE[1] = 0;
  for (PetscInt n = 1; n <= nstep; n++) {
    PetscReal L[3], E = 0, d = 0, t = n * dt;
    RigidRotate(Ip, dt, q, p);
    RigidMomentumBody(q, p, Lb);
    QuatToMatrix(q, R);
    for (int a = 0; a < 3; a++) {
      L[a] = R[3 * a] * Lb[0] + R[3 * a + 1] * Lb[1] + R[3 * a + 2] * Lb[2];
      d += (L[a] - L0[a]) * (L[a] - L0[a]);
      E += 0.5 * Lb[a] * Lb[a] / Ip[a];
    }
    *dL               = PetscMax(*dL, sqrt(d) / sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]));
    dE[2 * n > nstep] = PetscMax(dE[2 * n > nstep], fabs(E - E0) / E0);
    if (prev < 0 && Lb[1] >= 0 && n > 1) {
      PetscReal tc = tprev + dt * (-prev) / (Lb[1] - prev);
      if (first < 0) first = tc;
      else ncross++;
      last = tc;
    }
    prev = Lb[1], tprev = t;
  }
  *period = ncross ? (last - first) / ncross : -1;
}

/* Landau & Lifshitz section 37: the period of the body-frame angular
 * velocity, 4 K(k) / sqrt((I3 - I2)(L^2 - 2 E I1) / (I1 I2 I3)) when
 * L^2 > 2 E I2 (I1 < I2 < I3). */
static PetscReal TopPeriod(const PetscReal Ip[3], const PetscReal wb[3])
{
  PetscReal E = 0, L2 = 0, k2, a = 1, b, K;
  for (int c = 0; c < 3; c++) E += 0.5 * Ip[c] * wb[c] * wb[c], L2 += Ip[c] * Ip[c] * wb[c] * wb[c];
  ck_assert(L2 > 2 * E * Ip[1]);
  k2 = (Ip[1] - Ip[0]) * (2 * E * Ip[2] - L2) / ((Ip[2] - Ip[1]) * (L2 - 2 * E * Ip[0]));
  b  = sqrt(1 - k2);
  for (int it = 0; it < 60; it++) { /* K = pi / (2 AGM(1, k')) */
    PetscReal an = 0.5 * (a + b);
    b = sqrt(a * b), a = an;
  }
  K = HDEM_PI / (2 * a);
  return 4 * K / sqrt((Ip[2] - Ip[1]) * (L2 - 2 * E * Ip[0]) / (Ip[0] * Ip[1] * Ip[2]));
}

START_TEST(test_top_conservation)
{
  const PetscReal Ip[3] = {1.0, 2.0, 3.0}, wb[3] = {0.4, 1.0, 0.6};
  PetscReal       dL, dE[2], T;
  TopRun(Ip, wb, 1e-2, 100000, &dL, dE, &T);
  fprintf(stderr, "top: |dL| %g, dE %g %g\n", dL, dE[0], dE[1]);
  ck_assert_msg(dL < 1e-11, "world angular momentum changed by %g (relative)", dL);
  ck_assert_msg(dE[0] < 1e-4 && dE[1] < 1e-4, "energy off by %g, %g", dE[0], dE[1]);
  ck_assert_msg(dE[1] < 1.5 * dE[0] + 1e-12, "energy error grows: %g then %g", dE[0], dE[1]);
}
END_TEST

START_TEST(test_top_flip_period)
{
  /* close to the intermediate axis: w[1] flips sign every half period */
  const PetscReal Ip[3] = {1.0, 2.0, 3.0}, wb[3] = {0.01, 1.0, 0.02};
  PetscReal       dL, dE[2], T, T0 = TopPeriod(Ip, wb);
  TopRun(Ip, wb, 2e-3, 100000, &dL, dE, &T);
  ck_assert_msg(T > 0, "no period measured");
  fprintf(stderr, "flip period %.9g against %.9g; |dL| %g, dE %g %g\n", T, T0, dL, dE[0], dE[1]);
  ck_assert_rel(T, T0, 5e-3);
  ck_assert_msg(dL < 1e-11, "world angular momentum changed by %g (relative)", dL);
}
END_TEST

START_TEST(test_kick)
{
  /* a constant world torque along a principal axis of a body at rest:
   * w = torque t / I, the body turning about that fixed axis */
  const PetscReal Ip[3] = {1.0, 2.0, 3.0}, tq[3] = {0.3, 0.0, 0.0};
  PetscReal       q[4] = {1, 0, 0, 0}, p[4] = {0, 0, 0, 0}, w[3], dt = 1e-3;
  for (int n = 0; n < 1000; n++) {
    RigidKick(q, tq, 0.5 * dt, p);
    RigidRotate(Ip, dt, q, p);
    RigidKick(q, tq, 0.5 * dt, p);
  }
  RigidOmegaWorld(q, p, Ip, w);
  ck_assert_rel(w[0], 0.3 * 1.0 / Ip[0], 1e-12);
  ck_assert(fabs(w[1]) < 1e-14 && fabs(w[2]) < 1e-14);
  ck_assert_rel(2 * acos(q[0]), 0.5 * 0.3 / Ip[0] * 1.0 * 1.0, 1e-6);
}
END_TEST

START_TEST(test_momentum_roundtrip)
{
  PetscReal q[4] = {0.5, -0.1, 0.7, 0.2}, Ip[3] = {0.2, 0.5, 0.9}, w[3] = {1.0, -2.0, 0.5}, p[4], w2[3];
  QuatNormalize(q);
  RigidMomentumFromOmega(q, Ip, w, p);
  RigidOmegaWorld(q, p, Ip, w2);
  for (int a = 0; a < 3; a++) ck_assert_rel(w2[a], w[a], 1e-13);
}
END_TEST

/* A frictionless dumbbell (two 1 mm spheres 1.2 mm apart) tilted by 30 deg
 * strikes a rigid wall at 1 m/s with 0.3 m/s across, one sphere first,
 * harmonic damping e 0.7 (RigidImpactRun: NO_SQUISH around ContactEvaluate,
 * each contact's mass the body's projected on its normal; total_mass: the
 * body's total mass, what codes that damp with it do). */
typedef struct {
  PetscReal e, V[3], W[3], Vref[3], Wref[3];
} DumbbellOut;

/* the mesh floor: its one surface's contact, the normal from the closest feature */
static PetscErrorCode MeshWall(void *ctx, const PetscReal x[3], PetscReal r, PetscReal *d, PetscReal n[3])
{
  const Mesh *mesh = (const Mesh *)ctx;
  PetscInt    cand[8], pick[8], near[8], np = 0, nn = 0;
  MeshFeature f[8];

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < mesh->nt; c++) cand[c] = c;
  MeshContactsSelect(mesh, cand, mesh->nt, x, r, f, pick, &np, near, &nn);
  PetscCheck(np <= 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a flat floor gave %d contacts", (int)np);
  *d   = -r;
  n[0] = n[1] = 0.0, n[2] = 1.0;
  if (np) {
    const MeshFeature *g = &f[pick[0]];
    *d                   = r - g->dist;
    for (int a = 0; a < 3; a++) n[a] = (x[a] - g->c[a]) / g->dist;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void DumbbellImpact(PetscBool projected, const Mesh *mesh, DumbbellOut *o)
{
  const PetscReal   s0[8] = {-0.6e-3, 0, 0, 1e-3, 0.6e-3, 0, 0, 1e-3};
  ContactModel      md;
  StepControl       ctl;
  ClumpTemplate     t;
  RigidImpactSetup  set;
  RigidImpactResult r;
  ck_assert(!PetscOptionsClear(NULL));
  ck_assert(!PetscOptionsInsertString(NULL, "-material1_E 7e10 -material1_nu 0.3 -material1_density 2500 -material2_E "
                                            "inf -contact_damping harmonic "
                                            "-contact_e 0.7 -contact_mu 0 -timestep_steps_per_contact 400"));
  ck_assert(!ContactModelSetFromOptions(PETSC_COMM_SELF, &md));
  ck_assert(!StepControlSetFromOptions(PETSC_COMM_SELF, &ctl));
  ck_assert(!PetscMemzero(&t, sizeof(t)));
  ck_assert(!PetscMemzero(&set, sizeof(set)));
  ck_assert(!ClumpTemplateSetUp(PETSC_COMM_SELF, "dumbbell", 2, s0, &t));
  set.tmpl = &t, set.density = 2500.0, set.type = 1, set.type2 = 2;
  set.v0 = sqrt(1.09), set.angle = atan2(0.3, 1.0) * 180.0 / HDEM_PI;
  set.q[0] = cos(HDEM_PI / 12), set.q[2] = sin(HDEM_PI / 12); /* 30 deg about y */
  set.phase = 0.5, set.max_steps = 100000, set.total_mass = projected ? PETSC_FALSE : PETSC_TRUE;
  set.wall = mesh ? MeshWall : NULL, set.wall_ctx = (void *)mesh;
  ck_assert(!RigidImpactRun(&md, &ctl, &set, &r));
  o->e = r.e;
  for (int a = 0; a < 3; a++)
    o->V[a] = r.v_out[a], o->W[a] = r.w_out[a], o->Vref[a] = r.v_ref[a], o->Wref[a] = r.w_ref[a];
  ck_assert(r.spheres == 1);
  ck_assert(!ContactModelDestroy(&md));
  ck_assert(!PetscFree(t.s));
}

/* the floor as a mesh: two triangles whose shared edge runs under the
 * first touch (the contact starts on the edge and moves onto a face) */
static void DumbbellFloor(Mesh *m)
{
  const PetscReal y0    = -0.6e-3 * cos(HDEM_PI / 6),
                  x[12] = {-5e-3, -5e-3 + y0, 0, 5e-3, -5e-3 + y0, 0, 5e-3, 5e-3 + y0, 0, -5e-3, 5e-3 + y0, 0};
  const PetscInt tri[6] = {0, 1, 2, 0, 2, 3};
  ck_assert(!MeshCreateFromArrays("floor", 4, x, 2, tri, 1.0, NULL, m));
}

START_TEST(test_dumbbell_restitution)
{
  DumbbellOut o, m;
  PetscReal   wn = 0.0;
  Mesh        floor;
  DumbbellImpact(PETSC_TRUE, NULL, &o);
  fprintf(stderr, "dumbbell: e %.6f; V %.6g %.6g %.6g (%.6g %.6g %.6g); W %.6g %.6g %.6g (%.6g %.6g %.6g)\n", o.e,
          o.V[0], o.V[1], o.V[2], o.Vref[0], o.Vref[1], o.Vref[2], o.W[0], o.W[1], o.W[2], o.Wref[0], o.Wref[1],
          o.Wref[2]);
  ck_assert_rel(o.e, 0.7, 5e-3);
  for (int a = 0; a < 3; a++) wn += o.Wref[a] * o.Wref[a];
  for (int a = 0; a < 3; a++) {
    ck_assert_msg(fabs(o.V[a] - o.Vref[a]) <= 0.01 * 1.0, "V[%d] %.6g, the impulse solution %.6g", a, o.V[a],
                  o.Vref[a]);
    ck_assert_msg(fabs(o.W[a] - o.Wref[a]) <= 0.01 * sqrt(wn), "W[%d] %.6g, the impulse solution %.6g", a, o.W[a],
                  o.Wref[a]);
  }
  { /* the same on a mesh floor */
    DumbbellOut om;
    DumbbellFloor(&floor);
    DumbbellImpact(PETSC_TRUE, &floor, &om);
    ck_assert(!MeshDestroy(&floor));
    ck_assert_rel(om.e, 0.7, 5e-3);
    for (int a = 0; a < 3; a++) {
      ck_assert_msg(fabs(om.V[a] - om.Vref[a]) <= 0.01 * 1.0, "mesh: V[%d] %.6g, the impulse solution %.6g", a, om.V[a],
                    om.Vref[a]);
      ck_assert_msg(fabs(om.W[a] - om.Wref[a]) <= 0.01 * sqrt(wn), "mesh: W[%d] %.6g, the impulse solution %.6g", a,
                    om.W[a], om.Wref[a]);
    }
  }
  /* damped with the body's total mass instead, the contact point's restitution is not the target */
  DumbbellImpact(PETSC_FALSE, NULL, &m);
  fprintf(stderr, "dumbbell with the total mass: e %.6f\n", m.e);
  ck_assert_msg(fabs(m.e - 0.7) > 0.02, "restitution %.4f with the total mass: the test does not tell the masses apart",
                m.e);
}
END_TEST

START_TEST(test_uniform_rotations)
{
  /* Shoemake's rotations keyed by id: unit quaternions, and uniform on SO(3):
   * the rotated x axis is uniform on the sphere (each of its components has
   * mean 0 and mean square 1/3) and the angle of rotation follows
   * (t - sin t) / pi (its mean is pi/2 + 2/pi) */
  const PetscInt n     = 200000;
  PetscReal      mx[3] = {0, 0, 0}, m2[3] = {0, 0, 0}, ang = 0.0;
  for (PetscInt id = 0; id < n; id++) {
    PetscReal q[4], R[9], nq = 0.0;
    QuatUniform(RandomUniform(7, id, 11, 0), RandomUniform(7, id, 11, 1), RandomUniform(7, id, 11, 2), q);
    for (int a = 0; a < 4; a++) nq += q[a] * q[a];
    ck_assert(fabs(nq - 1.0) < 1e-14);
    QuatToMatrix(q, R);
    for (int a = 0; a < 3; a++) mx[a] += R[3 * a] / n, m2[a] += R[3 * a] * R[3 * a] / n;
    ang += 2.0 * acos(PetscMin(1.0, fabs(q[0]))) / n;
  }
  for (int a = 0; a < 3; a++) {
    ck_assert_msg(fabs(mx[a]) < 5e-3, "mean of the rotated x's component %d: %g", a, mx[a]);
    ck_assert_msg(fabs(m2[a] - 1.0 / 3.0) < 5e-3, "mean square of component %d: %g", a, m2[a]);
  }
  ck_assert_msg(fabs(ang - (HDEM_PI / 2 + 2 / HDEM_PI)) < 5e-3, "mean rotation angle %g, uniform gives %g", ang,
                HDEM_PI / 2 + 2 / HDEM_PI);
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("clump");
  TCase *tc = tcase_create("clump");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_union_one_sphere);
  tcase_add_test(tc, test_union_two_spheres);
  tcase_add_test(tc, test_union_trimer);
  tcase_add_test(tc, test_union_nested);
  tcase_add_test(tc, test_union_tetrahedral);
  tcase_add_test(tc, test_top_conservation);
  tcase_add_test(tc, test_top_flip_period);
  tcase_add_test(tc, test_kick);
  tcase_add_test(tc, test_momentum_roundtrip);
  tcase_add_test(tc, test_dumbbell_restitution);
  tcase_add_test(tc, test_uniform_rotations);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
