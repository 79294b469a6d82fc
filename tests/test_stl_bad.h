/* The bad-input tests of the STL reader (test_stl_bad.c). */
#ifndef HDEM_TEST_STL_BAD_H
#define HDEM_TEST_STL_BAD_H

#include <check.h>

/* test_bad_ascii, test_bad_binary, test_bad_transform into tc, in that order. */
void StlBadTestsAdd(TCase *tc);

#endif
