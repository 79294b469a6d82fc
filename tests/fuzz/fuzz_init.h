/* PETSc for a fuzz harness: MPI as one process (no mpiexec), no signal
 * handler of PETSc's (the sanitizers and libFuzzer report crashes, with
 * their stacks), and errors returned to the harness, never printed nor
 * aborting: a PETSc error is a valid outcome for a bad input. */
#ifndef HDEM_FUZZ_INIT_H
#define HDEM_FUZZ_INIT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "hdem.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline int HdemFuzzInit(void)
{
  static int  argc   = 1;
  static char name[] = "hdem_fuzz", *args[] = {name, NULL}, **argv = args;

  /* one process on one node, root allowed (CI containers) */
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  setenv("OMPI_MCA_pml", "ob1", 0);
  setenv("OMPI_MCA_btl", "self", 0);
  setenv("OMPI_MCA_io", "romio321", 0);
  if (PetscOptionsSetValue(NULL, "-no_signal_handler", NULL)) abort();
  if (PetscInitialize(&argc, &argv, NULL, NULL)) abort();
  if (PetscPushErrorHandler(PetscReturnErrorHandler, NULL)) abort();
  return 0;
}

/* HDEM_FUZZ_VERBOSE=1 in the environment: why each input was refused. */
static inline void HdemFuzzReport(PetscErrorCode ierr)
{
  static int verbose = -1;
  char      *msg     = NULL;

  if (verbose < 0) verbose = getenv("HDEM_FUZZ_VERBOSE") ? 1 : 0;
  if (!verbose) return;
  if (!ierr) fprintf(stderr, "accepted\n");
  else {
    PetscErrorMessage(0, NULL, &msg);
    fprintf(stderr, "refused (%d): %s\n", (int)ierr, msg ? msg : "");
  }
}

static inline void HdemFuzzFinalize(void)
{
  (void)PetscPopErrorHandler();
  (void)PetscFinalize();
}

#endif
