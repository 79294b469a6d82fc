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
    ck_assert_msg(fabs(_a - _b) <= _t * fabs(_b), "%s = %.12g, expected %s = %.12g within %.3g relative (off by %.3g)", #a, _a, #b, _b, _t, fabs(_a - _b) / fabs(_b)); \
  } while (0)

#endif
