/* Fixed-point sums in a window (decomp/fixedsum.h). */
#include "decomp/fixedsum.h"
#include "decomp/collective.h"
#include "decomp/exactsum.h"
#include <math.h>

static void FixedSumNegate(FixedSum *q)
{
  uint64_t c = 1;
  for (int k = 0; k < FIXEDSUM_LIMBS; k++) {
    uint64_t a = ~q->l[k] + c;
    c          = (c && a == 0) ? 1 : 0;
    q->l[k]    = a;
  }
}

PetscBool FixedSumFrom(PetscReal x, FixedSum *q)
{
  int      e, s;
  uint64_t M;

  for (int k = 0; k < FIXEDSUM_LIMBS; k++) q->l[k] = 0;
  if (x == 0.0) return PETSC_TRUE;
  if (!isfinite(x) || !(fabs(x) < ldexp(1.0, FIXEDSUM_MAX_EXP))) return PETSC_FALSE;
  /* |x| = M 2^(e - 53) with M a 53-bit integer, exactly; in units of the resolution M 2^s */
  M = (uint64_t)ldexp(frexp(fabs(x), &e), 53);
  s = e - 53 - FIXEDSUM_LSB_EXP;
  if (s >= 0) {
    int limb = s / 64, off = s % 64;
    q->l[limb] = M << off;
    if (off && limb + 1 < FIXEDSUM_LIMBS) q->l[limb + 1] = M >> (64 - off);
  } else if (-s <= 54) { /* to nearest, ties to even; M < 2^53, so beyond 54 bits it rounds to 0 */
    int      sh = -s;
    uint64_t r = M & (((uint64_t)1 << sh) - 1), half = (uint64_t)1 << (sh - 1), v = M >> sh;
    if (r > half || (r == half && (v & 1))) v++;
    q->l[0] = v;
  }
  if (x < 0.0) FixedSumNegate(q);
  return PETSC_TRUE;
}

PetscBool FixedSumAdd(FixedSum *s, PetscReal x)
{
  FixedSum q;
  if (!FixedSumFrom(x, &q)) return PETSC_FALSE;
  FixedSumAddSum(s, &q);
  return PETSC_TRUE;
}

PetscReal FixedSumValue(const FixedSum *s)
{
  FixedSum  m   = *s;
  PetscBool neg = (m.l[FIXEDSUM_LIMBS - 1] >> 63) ? PETSC_TRUE : PETSC_FALSE;
  ExactSum  e;
  PetscReal v;

  if (neg) FixedSumNegate(&m);
  ExactSumZero(&e);
  /* 32-bit pieces are exact doubles: their exact sum, rounded once */
  for (int k = 0; k < 2 * FIXEDSUM_LIMBS; k++) {
    uint64_t piece = (m.l[k / 2] >> (32 * (k % 2))) & 0xffffffffu;
    if (piece) ExactSumAdd(&e, ldexp((double)piece, 32 * k + FIXEDSUM_LSB_EXP));
  }
  v = ExactSumValue(&e);
  return neg ? -v : v;
}

PetscErrorCode FixedSumRoute(MPI_Comm comm, PetscInt n, PetscInt width, const PetscInt64 *items,
                             const PetscMPIInt *dest, PetscInt *nout, PetscInt64 **out)
{
  PetscFunctionBeginUser;
  PetscCall(CollectiveRouteInt64(comm, n, width, items, dest, nout, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}
