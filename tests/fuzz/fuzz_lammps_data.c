/* libFuzzer harness: bytes as a LAMMPS data file (io/lammps_data.c), read
 * from memory by LammpsDataParseStream, the reader LammpsDataRead runs on
 * rank 0.  Any input must end in success or a PETSc error, never a crash,
 * a sanitizer report or a leak; and what is accepted must hold what the
 * reader promises (lammps_data.h): else abort(), which the fuzzer reports. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fuzz_init.h"
#include "io/lammps_data.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc, (void)argv;
  return HdemFuzzInit();
}

static void CheckAccepted(const LammpsData *d)
{
  if (d->n < 0 || d->ntypes < 1) abort();
  for (int j = 0; j < 3; j++)
    if (!(isfinite(d->lo[j]) && isfinite(d->hi[j]) && d->lo[j] < d->hi[j])) abort();
  for (PetscInt i = 0; i < d->n; i++) {
    if (d->id[i] < 1 || d->id[i] > 9007199254740992LL) abort();
    if (d->type[i] < 1 || d->type[i] > d->ntypes) abort();
    if (!(isfinite(d->diameter[i]) && d->diameter[i] > 0 && isfinite(d->density[i]) && d->density[i] > 0)) abort();
    for (int j = 0; j < 3; j++) {
      PetscReal x = d->x[3 * i + j];
      if (!(x >= d->lo[j] && x <= d->hi[j])) abort();
      if (!isfinite(d->v[3 * i + j]) || !isfinite(d->w[3 * i + j])) abort();
      if (!d->has_velocities && (d->v[3 * i + j] != 0 || d->w[3 * i + j] != 0)) abort();
    }
    if (d->n <= 2000)
      for (PetscInt k = 0; k < i; k++)
        if (d->id[k] == d->id[i]) abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static char    empty[1];
  LammpsData     d;
  PetscErrorCode ierr;
  FILE          *fp = fmemopen(size ? (void *)data : (void *)empty, size ? size : 1, "r");

  if (!fp) abort();
  if (!size) (void)getc(fp); /* an empty file: fmemopen wants a buffer of at least one byte */
  ierr = LammpsDataParseStream(fp, "fuzz.data", (PetscInt64)size, &d);
  HdemFuzzReport(ierr);
  if (!ierr) {
    CheckAccepted(&d);
    if (LammpsDataDestroy(&d)) abort();
  } else if (d.x || d.id || d.v || d.n) abort(); /* refused: left empty */
  fclose(fp);
  return 0;
}
