/* Fixed-point sums in a window (decomp/fixedsum.h). */
#include "decomp/fixedsum.h"
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
  PetscMPIInt size, *scnt, *sdsp, *rcnt, *rdsp, *fill;
  PetscInt64 *sbuf, total = 0;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscCalloc5(size, &scnt, size + 1, &sdsp, size, &rcnt, size + 1, &rdsp, size, &fill));
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(dest[i] >= 0 && dest[i] < size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "route: destination rank %d of item %" PetscInt_FMT " is not in [0, %d)", dest[i], i, size);
    scnt[dest[i]]++;
  }
  PetscCallMPI(MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, comm));
  for (PetscMPIInt r = 0; r < size; r++) {
    total += rcnt[r];
    PetscCheck((PetscInt64)sdsp[r] + (PetscInt64)scnt[r] * width < PETSC_MPI_INT_MAX &&
                 total * width < PETSC_MPI_INT_MAX,
               PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "route: too much data for one rank; use more ranks");
    sdsp[r + 1] = sdsp[r] + scnt[r] * (PetscMPIInt)width;
    rdsp[r + 1] = rdsp[r] + rcnt[r] * (PetscMPIInt)width;
    scnt[r] *= (PetscMPIInt)width;
    rcnt[r] *= (PetscMPIInt)width;
  }
  PetscCall(PetscMalloc1((size_t)n * width + 1, &sbuf));
  PetscCall(PetscMalloc1((size_t)total * width + 1, out));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(PetscArraycpy(sbuf + sdsp[dest[i]] + fill[dest[i]], items + (size_t)i * width, width));
    fill[dest[i]] += (PetscMPIInt)width;
  }
  PetscCallMPI(MPI_Alltoallv(sbuf, scnt, sdsp, MPI_INT64_T, *out, rcnt, rdsp, MPI_INT64_T, comm));
  *nout = (PetscInt)total;
  PetscCall(PetscFree(sbuf));
  PetscCall(PetscFree5(scnt, sdsp, rcnt, rdsp, fill));
  PetscFunctionReturn(PETSC_SUCCESS);
}
