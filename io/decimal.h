/* A plain decimal read without strtod where that is exact (Clinger's fast
 * path, "How to read floating point numbers accurately", PLDI 1990): a
 * significand w below 2^53 and a power of ten 10^k with |k| <= 22 are both
 * exact doubles, so w * 10^k or w / 10^-k, one IEEE operation, is the
 * correctly rounded value strtod returns.  glibc's strtod takes its
 * multi-precision path for every number; a data file's short decimals need
 * none of it. */
#ifndef HDEM_DECIMAL_H
#define HDEM_DECIMAL_H

#include <stdint.h>

/* Whether the whole of s is [+-]digits[.digits][(e|E)[+-]digits] with at
 * least one digit before the exponent, a significand below 2^53 and a
 * power of ten within 10^+-22; then its value (strtod's, bit for bit) in
 * *x.  Otherwise (hex, inf, nan, blanks, more digits, larger exponents, a
 * trailing character) 0, *x untouched: the caller asks strtod. */
static inline int DecimalFast(const char *s, double *x)
{
  static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const char         *c       = s;
  uint64_t            w       = 0;
  int                 neg = 0, digits = 0, sig = 0, k = 0, e = 0, eneg = 0, edig = 0;
  double              v;

  if (*c == '+' || *c == '-') neg = *c++ == '-';
  for (; *c >= '0' && *c <= '9'; c++, digits++) {
    if (w || *c != '0') sig++;
    if (sig > 19) return 0;
    w = 10 * w + (uint64_t)(*c - '0');
  }
  if (*c == '.')
    for (c++; *c >= '0' && *c <= '9'; c++, digits++, k--) {
      if (w || *c != '0') sig++;
      if (sig > 19) return 0;
      w = 10 * w + (uint64_t)(*c - '0');
    }
  if (!digits) return 0;
  if (*c == 'e' || *c == 'E') {
    c++;
    if (*c == '+' || *c == '-') eneg = *c++ == '-';
    for (; *c >= '0' && *c <= '9'; c++, edig++)
      if ((e = 10 * e + (*c - '0')) > 100) return 0;
    if (!edig) return 0;
  }
  if (*c) return 0;
  k += eneg ? -e : e;
  if (w >> 53 || k < -22 || k > 22) return 0;
  v  = k < 0 ? (double)w / p10[-k] : (double)w * p10[k];
  *x = neg ? -v : v;
  return 1;
}

#endif
