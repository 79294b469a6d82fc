/* libFuzzer harness: bytes as a two-column table file (io/table.c, the
 * tabulated force law's reader), written to a file of this process and read
 * by TableRead on one rank.  Any input must end in success or a PETSc error,
 * never a crash, a sanitizer report or a leak; what is accepted holds only
 * finite numbers (else abort(), which the fuzzer reports). */
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include "fuzz_init.h"
#include "io/table.h"

static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc, (void)argv;
  snprintf(path, sizeof(path), "/tmp/hdem_fuzz_table_%ld.txt", (long)getpid());
  return HdemFuzzInit();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  FILE          *fp = fopen(path, "wb");
  PetscInt       n  = -1;
  PetscReal     *x = NULL, *y = NULL;
  PetscErrorCode ierr;

  if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp)) abort();
  ierr = TableRead(PETSC_COMM_SELF, path, &n, &x, &y);
  HdemFuzzReport(ierr);
  if (!ierr) {
    if (n < 0) abort();
    for (PetscInt i = 0; i < n; i++)
      if (!isfinite(x[i]) || !isfinite(y[i])) abort();
    if (PetscFree2(x, y)) abort();
  }
  (void)remove(path);
  return 0;
}
