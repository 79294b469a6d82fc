/* Running a Check suite under PETSc and MPI: no fork, MPI initialised once,
 * the failure count reduced over ranks so one failing rank fails them all. */
#ifndef HDEM_CHECK_MAIN_H
#define HDEM_CHECK_MAIN_H

#include <check.h>
#include "hdem.h"

int HdemCheckRun(int argc, char **argv, Suite *suite);

/* |a - b| <= tol * |b| */
#define ck_assert_rel(a, b, tol) \
  do { \
    double _a = (a), _b = (b), _t = (tol); \
    ck_assert_msg(fabs(_a - _b) <= _t * fabs(_b), \
                  "%s = %.12g, expected %s = %.12g within %.3g relative (off by %.3g)", #a, _a, #b, _b, _t, \
                  fabs(_a - _b) / fabs(_b)); \
  } while (0)

/* Checks counted per rank (EXPECT, detail on stderr) and asserted once,
 * together, by ASSERT_ALL_RANKS: under CK_NOFORK a failed ck_assert leaves
 * only its own rank's test, and the others would wait in the next collective. */
static int nbad PETSC_UNUSED;

static inline PetscMPIInt WorldRank(void)
{
  PetscMPIInt r = 0;
  (void)MPI_Comm_rank(PETSC_COMM_WORLD, &r);
  return r;
}

#define EXPECT(cond, ...) \
  do { \
    if (!(cond)) { \
      nbad++; \
      fprintf(stderr, "[rank %d] %s:%d: %s: ", WorldRank(), __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__); \
      fputc('\n', stderr); \
    } \
  } while (0)

#define ASSERT_ALL_RANKS() \
  do { \
    int _n = nbad; \
    nbad   = 0; \
    ck_assert(MPI_Allreduce(MPI_IN_PLACE, &_n, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD) == MPI_SUCCESS); \
    ck_assert_msg(_n == 0, "%d failed checks over the ranks (details on stderr)", _n); \
  } while (0)

#endif
