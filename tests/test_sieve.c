/* Sieve sizes of unions of spheres (rigid/sieve_size.h) against closed
 * forms: a sphere passes a square of its diameter; a dumbbell (touching or
 * overlapping) and a straight trimer the square of their largest sphere
 * (travelling along their axis); an equilateral trimer of touching spheres
 * of radius r the square of side r (2 + sqrt(3/2)) (its plane tilted 45
 * degrees to the square's sides, travelling along one of its edges: the
 * shadow is two discs sqrt(3) r apart along the square's diagonal); a
 * regular tetrahedron of touching spheres r (2 + sqrt(2)) (the square's
 * sides along two of the axes through its opposite edges' midpoints, where
 * both widths are its least).  Each also turned and moved. */
#include <math.h>
#include "check_main.h"
#include "rigid/sieve_size.h"
#include "rigid/rotation.h"
#include "particles/random.h"

/* The sieve size of n spheres s, and of them turned by a random rotation and moved. */
static void SieveBoth(PetscInt n, const PetscReal *s, PetscReal *a, PetscReal *b)
{
  PetscReal t[4 * 8], q[4], R[9];
  ck_assert(n <= 8);
  QuatUniform(RandomUniform(3, n, 5, 0), RandomUniform(3, n, 5, 1), RandomUniform(3, n, 5, 2), q);
  QuatToMatrix(q, R);
  for (PetscInt k = 0; k < n; k++) {
    for (int i = 0; i < 3; i++)
      t[4 * k + i] = 0.37 + R[3 * i] * s[4 * k] + R[3 * i + 1] * s[4 * k + 1] + R[3 * i + 2] * s[4 * k + 2];
    t[4 * k + 3] = s[4 * k + 3];
  }
  ck_assert(SieveSize(n, s, a, NULL) == PETSC_SUCCESS);
  ck_assert(SieveSize(n, t, b, NULL) == PETSC_SUCCESS);
}

START_TEST(test_sieve_sphere)
{
  PetscReal s[4] = {0.1, -0.2, 0.3, 0.7e-3}, a, b;
  SieveBoth(1, s, &a, &b);
  ck_assert_rel(a, 1.4e-3, 1e-12);
  ck_assert_rel(b, 1.4e-3, 1e-12);
}
END_TEST

START_TEST(test_sieve_dumbbell)
{
  const PetscReal r        = 1e-3;
  PetscReal       touch[8] = {-r, 0, 0, r, r, 0, 0, r}, lap[8] = {0, 0, 0, 1.0, 1.2, 0, 0, 0.5}, a, b;
  SieveBoth(2, touch, &a, &b);
  ck_assert_rel(a, 2 * r, 1e-9);
  ck_assert_rel(b, 2 * r, 1e-9);
  SieveBoth(2, lap, &a, &b);
  ck_assert_rel(a, 2.0, 1e-9);
  ck_assert_rel(b, 2.0, 1e-9);
}
END_TEST

START_TEST(test_sieve_trimers)
{
  const PetscReal r = 2e-3, h = sqrt(3.0) * r;
  PetscReal       line[12] = {-2 * r, 0, 0, r, 0, 0, 0, r, 2 * r, 0, 0, r};
  PetscReal       tri[12]  = {-r, 0, 0, r, r, 0, 0, r, 0, h, 0, r}, a, b;
  SieveBoth(3, line, &a, &b);
  ck_assert_rel(a, 2 * r, 1e-9);
  ck_assert_rel(b, 2 * r, 1e-9);
  SieveBoth(3, tri, &a, &b);
  ck_assert_rel(a, r * (2.0 + sqrt(1.5)), 1e-9);
  ck_assert_rel(b, r * (2.0 + sqrt(1.5)), 1e-9);
}
END_TEST

START_TEST(test_sieve_tetrahedron)
{
  const PetscReal r = 1.0, c = r / sqrt(2.0); /* vertices (+-1, +-1, +-1), even, edge 2 r */
  PetscReal       s[16] = {c, c, c, r, c, -c, -c, r, -c, c, -c, r, -c, -c, c, r}, a, b;
  SieveBoth(4, s, &a, &b);
  ck_assert_rel(a, r * (2.0 + sqrt(2.0)), 1e-9);
  ck_assert_rel(b, r * (2.0 + sqrt(2.0)), 1e-9);
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("sieve");
  TCase *tc = tcase_create("sieve");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_sieve_sphere);
  tcase_add_test(tc, test_sieve_dumbbell);
  tcase_add_test(tc, test_sieve_trimers);
  tcase_add_test(tc, test_sieve_tetrahedron);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
