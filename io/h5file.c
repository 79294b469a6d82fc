/* The checksums of rows and the blocks of rows each rank reads
 * (io/h5file.h): arithmetic on buffers, no file. */
#include "io/h5file.h"
#include "decomp/collective.h"
#include <string.h>

static inline uint64_t H5FileFmix(uint64_t h)
{
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

/* Element i of buf (memory type t) as its on-disk value in 64 bits. */
static inline uint64_t H5FileElement(H5FileType t, const void *buf, size_t i)
{
  uint64_t u;
  switch (t) {
  case H5FILE_INT64:
    return (uint64_t)((const PetscInt64 *)buf)[i];
  case H5FILE_INT:
    return (uint64_t)(uint32_t)(int32_t)((const PetscInt *)buf)[i];
  case H5FILE_INT32:
    return (uint64_t)(uint32_t)((const int32_t *)buf)[i];
  default:
    memcpy(&u, (const double *)buf + i, sizeof(u));
    return u;
  }
}

PetscErrorCode H5FileChecksumRows(H5FileType t, PetscInt ncomp, PetscInt64 row0, PetscInt n, const void *buf,
                                  uint64_t *sum)
{
  uint64_t s = *sum;

  PetscFunctionBeginUser;
  PetscCheck(ncomp > 0 && n >= 0 && row0 >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "checksum of %" PetscInt_FMT " rows of %" PetscInt_FMT " values", n, ncomp);
  for (PetscInt i = 0; i < n; i++) {
    uint64_t h = H5FileFmix((uint64_t)(row0 + i) * 0x9e3779b97f4a7c15ULL + (uint64_t)ncomp);
    for (PetscInt c = 0; c < ncomp; c++)
      h = H5FileFmix(h ^ H5FileElement(t, buf, (size_t)i * (size_t)ncomp + (size_t)c));
    s += h;
  }
  *sum = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each rank's 64-bit partial sums as four 16-bit limbs: their sums over the
 * ranks are whole numbers below 2^53, exact in any order. */
PetscErrorCode H5FileChecksumCombine(MPI_Comm comm, PetscInt k, const PetscInt64 N[], uint64_t sum[])
{
  PetscReal *limb;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(4 * (size_t)k + 1, &limb));
  for (PetscInt j = 0; j < k; j++)
    for (int q = 0; q < 4; q++) limb[4 * j + q] = (PetscReal)((sum[j] >> (16 * q)) & 0xffffu);
  PetscCall(CollectiveSumAll(comm, limb, 4 * k));
  for (PetscInt j = 0; j < k; j++) {
    uint64_t s = H5FileFmix((uint64_t)N[j] + 0x5851f42d4c957f2dULL);
    for (int q = 0; q < 4; q++) s += (uint64_t)limb[4 * j + q] << (16 * q);
    sum[j] = s;
  }
  PetscCall(PetscFree(limb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileBlock(MPI_Comm comm, PetscInt64 N, PetscInt64 *off, PetscInt *n)
{
  PetscMPIInt rank, size;
  PetscInt64  base, cnt;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, &size));
  base = N / size;
  cnt  = base + (rank < N % size ? 1 : 0);
  *off = rank * base + PetscMin((PetscInt64)rank, N % size);
  PetscCheck(cnt <= PETSC_MAX_INT / 16, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW,
             "%" PetscInt64_FMT " rows on one rank do not fit PetscInt: read on more ranks", cnt);
  *n = (PetscInt)cnt;
  PetscFunctionReturn(PETSC_SUCCESS);
}
