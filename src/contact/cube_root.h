/* The cube root the contact kernels take (the Mindlin-Deresiewicz slip
 * fraction), once per scalar and once per four lanes, with the same IEEE
 * operations in the same order, so a lane gives the scalar's bits; libm's
 * cbrt is a call per lane.  The method is glibc's (dbl-64 s_cbrt.c): the
 * mantissa m in [0.5, 1) and exponent e of |x|, a degree-6 start u on m, one
 * Halley step u (u^3 + 2 m) / (2 u^3 + m), the factor 2^((e mod 3) / 3) and
 * 2^(e / 3) (C's truncating division and remainder), the sign of x.  On glibc
 * the same bits as its cbrt (tests/test_contact_batch.c), and on every libm
 * the same bits as each other.  Zeros, infinities and NaNs give x + x. */
#ifndef HDEM_CUBE_ROOT_H
#define HDEM_CUBE_ROOT_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#define CUBE_ROOT_2  1.2599210498948731648 /* 2^(1/3) */
#define CUBE_ROOT_4  1.5874010519681994748 /* 2^(2/3) */
#define CUBE_ROOT_P0 0.354895765043919860
#define CUBE_ROOT_P1 1.50819193781584896
#define CUBE_ROOT_P2 (-2.11499494167371287)
#define CUBE_ROOT_P3 2.44693122563534430
#define CUBE_ROOT_P4 (-1.83469277483613086)
#define CUBE_ROOT_P5 0.784932344976639262
#define CUBE_ROOT_P6 0.145263899385486377

/* 2^(r / 3) for r = e mod 3 in -2 .. 2 */
static inline double CubeRootFactor(int r)
{
  static const double f[5] = {1.0 / CUBE_ROOT_4, 1.0 / CUBE_ROOT_2, 1.0, CUBE_ROOT_2, CUBE_ROOT_4};
  return f[2 + r];
}

/* The start u on the mantissa m in [0.5, 1) and its Halley step into y, on a real or on four lanes (T) with the same
 * operations */
#define CUBE_ROOT_MANTISSA(T, m, y) \
  do { \
    const T u_ = CUBE_ROOT_P0 + \
                 (CUBE_ROOT_P1 + \
                  (CUBE_ROOT_P2 + \
                   (CUBE_ROOT_P3 + (CUBE_ROOT_P4 + (CUBE_ROOT_P5 - CUBE_ROOT_P6 * (m)) * (m)) * (m)) * (m)) * \
                    (m)) * \
                   (m), \
            t_ = u_ * u_ * u_; \
    (y)        = u_ * (t_ + 2.0 * (m)) / (2.0 * t_ + (m)); \
  } while (0)

/* The root of the mantissa m in [0.5, 1), times the exponent's factor */
static inline double CubeRootMantissa(double m, int e)
{
  double y;
  CUBE_ROOT_MANTISSA(double, m, y);
  return y * CubeRootFactor(e % 3);
}

static inline double CubeRoot(double x)
{
  int    e;
  double m, y;
  if (!isfinite(x) || x == 0.0) return x + x;
  m = frexp(fabs(x), &e);
  y = CubeRootMantissa(m, e);
  return ldexp(x > 0.0 ? y : -y, e / 3); /* exact: the root of a double is a normal number */
}

/* Four lanes (GCC / clang vector extensions; any type of four doubles), inlined: no vector crosses a call */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
typedef double         CubeRootV __attribute__((vector_size(32)));
typedef long long      CubeRootI __attribute__((vector_size(32)));

static inline __attribute__((always_inline)) CubeRootV CubeRootLanes(CubeRootV x)
{
  const CubeRootI frac = {0x000fffffffffffffLL, 0x000fffffffffffffLL, 0x000fffffffffffffLL, 0x000fffffffffffffLL},
                  mag  = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
  const CubeRootI half = {0x3fe0000000000000LL, 0x3fe0000000000000LL, 0x3fe0000000000000LL, 0x3fe0000000000000LL};
  const CubeRootV tiny = {0x1p-1022, 0x1p-1022, 0x1p-1022, 0x1p-1022}, lift = {0x1p54, 0x1p54, 0x1p54, 0x1p54};
  const CubeRootV zero = {0, 0, 0, 0}, inf = {INFINITY, INFINITY, INFINITY, INFINITY};
  CubeRootV       a = (CubeRootV)((CubeRootI)x & mag), m, y, s; /* |x| */
  CubeRootI       bits, e, sub, special;

  special = (a == zero) | ~(a < inf); /* zeros, infinities, NaNs */
  sub     = a < tiny;                 /* subnormals: lifted into the normal range first, as frexp does */
  a       = a * (CubeRootV)((sub & (CubeRootI)lift) | (~sub & (CubeRootI)(CubeRootV){1, 1, 1, 1}));
  bits    = (CubeRootI)a;
  e       = ((bits >> 52) & 0x7ff) - 1022 - (sub & 54);
  m       = (CubeRootV)((bits & frac) | half);
  CUBE_ROOT_MANTISSA(CubeRootV, m, y);
  for (int l = 0; l < 4; l++) {
    int64_t q = e[l] / 3, bq = (q + 1023) << 52;
    double  p;
    memcpy(&p, &bq, sizeof(p));
    y[l] = y[l] * CubeRootFactor((int)(e[l] % 3));
    s[l] = p; /* 2^q, q in -358 .. 341 */
  }
  y = (CubeRootV)(((CubeRootI)(x > zero) & (CubeRootI)y) | (~(CubeRootI)(x > zero) & (CubeRootI)(-y))) * s;
  return (CubeRootV)((special & (CubeRootI)(x + x)) | (~special & (CubeRootI)y));
}
#pragma GCC diagnostic pop

#endif
