/* The LAMMPS reader's decimal fast path (io/decimal.h): strtod's bits on
 * 400,000 random decimals it takes, and the strings it must leave to
 * strtod. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_main.h"
#include "io/decimal.h"

/* xorshift64: the test's strings, the same on every run */
static uint64_t Rnd(uint64_t *st)
{
  *st ^= *st << 13, *st ^= *st >> 7, *st ^= *st << 17;
  return *st;
}

/* The reader's decimal fast path (io/decimal.h) gives strtod's bits, and
 * declines (leaving the number to strtod) where it could not. */
START_TEST(test_decimal_fast)
{
  const char *decline[] = {"1e23",
                           "9007199254740992",
                           "1.00000000000000000000",
                           "4.9e-324",
                           "0x10",
                           "inf",
                           "nan",
                           " 1",
                           "1 ",
                           "1e",
                           "1e+",
                           ".",
                           "-",
                           "e5",
                           "1d5",
                           "1e-23",
                           "123456789012345678e-3"};
  uint64_t    st        = 88172645463325252ull;
  long        fast      = 0;
  for (size_t i = 0; i < sizeof(decline) / sizeof(decline[0]); i++) {
    double x = -7.0;
    ck_assert_msg(!DecimalFast(decline[i], &x) && x == -7.0, "\"%s\" is left to strtod", decline[i]);
  }
  for (long it = 0; it < 400000; it++) { /* signs, 1-20 digits, a point anywhere, exponents to +-29 */
    char   buf[64], *b = buf, *end;
    int    nd = 1 + (int)(Rnd(&st) % 20), dot = (int)(Rnd(&st) % (uint64_t)(nd + 2));
    double x, y;
    if (Rnd(&st) % 3 == 0) *b++ = (Rnd(&st) & 1) ? '-' : '+';
    for (int i = 0; i < nd; i++) {
      if (i == dot) *b++ = '.';
      *b++ = (char)(Rnd(&st) % 4 == 0 ? '0' : '0' + Rnd(&st) % 10);
    }
    if (dot == nd) *b++ = '.';
    if (Rnd(&st) & 1) {
      char e = (Rnd(&st) & 1) ? 'e' : 'E', sg = (Rnd(&st) & 1) ? '-' : '+';
      b += sprintf(b, "%c%c%d", e, sg, (int)(Rnd(&st) % 30));
    }
    *b = 0;
    if (!DecimalFast(buf, &x)) continue;
    fast++;
    y = strtod(buf, &end);
    ck_assert_msg(!memcmp(&x, &y, sizeof(x)) && !*end, "\"%s\": %.17g, strtod %.17g", buf, x, y);
  }
  ck_assert_msg(fast > 200000, "the fast path took %ld of 400000", fast);
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("decimal");
  TCase *tc = tcase_create("fast path");
  tcase_add_test(tc, test_decimal_fast);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
