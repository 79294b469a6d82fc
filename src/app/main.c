/* hdem: the driver.  hdem COMMAND [options]; see hdem -help. */
#include <signal.h>
#include <stdlib.h>
#if defined(__GLIBC__)
  #include <malloc.h>
#endif
#include "app/commands.h"
#include "decomp/collective.h"
#include "io/inputfile.h"

static const char
  usage[] = "hdem " HDEM_VERSION ": distributed DEM with harmonic-regularised contacts\n"
            "usage: hdem run DECK.yaml [-key value ...]    a simulation (mpirun -np N for N ranks)\n"
            "       hdem check DECK.yaml [-key value ...]  validate and print the effective configuration\n"
            "       hdem impact [options]   one calibration impact, JSON on stdout\n"
            "       hdem diff A.h5 B.h5     compare two particle states by id, bitwise\n"
            "       hdem version\n"
            "       hdem COMMAND -help      the options of a command, with units and defaults\n";

static PetscBool error_collective = PETSC_FALSE;

/* Print a user's error once, plainly; -hdem_traceback adds where it arose.
 * An error raised on a communicator of several ranks is raised by all of
 * them (input checks): rank 0 says it and every rank exits cleanly; one
 * raised by a rank alone is said by that rank, which then aborts the run. */
static PetscErrorCode ErrorHandler(MPI_Comm comm, int line, const char *func, const char *file, PetscErrorCode n,
                                   PetscErrorType p, const char *mess, void *ctx)
{
  PetscBool  *trace = (PetscBool *)ctx;
  PetscMPIInt rank = 0, size = 1;
  if (p == PETSC_ERROR_INITIAL) {
    CollectiveRank(comm, &rank, &size);
    error_collective = size > 1 ? PETSC_TRUE : PETSC_FALSE;
  }
  if (p == PETSC_ERROR_INITIAL && rank == 0) {
    const char *generic = NULL;
    PetscErrorMessage(n, &generic, NULL);
    fprintf(stderr, "hdem: error: %s\n", mess && mess[0] ? mess : (generic ? generic : "unknown error"));
  }
  if (p == PETSC_ERROR_INITIAL) CommandRunFailed(mess && mess[0] ? mess : "error", error_collective);
  if (*trace) fprintf(stderr, "hdem:   at %s() %s:%d\n", func, file, line);
  return n;
}

int main(int argc, char **argv)
{
  PetscErrorCode   ierr;
  PetscBool        help   = PETSC_FALSE;
  int              status = 0;
  static PetscBool trace  = PETSC_FALSE;
  const char      *cmd;

  /* PETSc reads decks given with -options_file_yaml while it starts; a
   * missing one is the user's error, said plainly before that. */
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "-options_file_yaml") || !strcmp(argv[i], "-options_file")) {
      char  msg[PETSC_MAX_PATH_LEN + 128];
      FILE *fp = InputFileOpen(argv[i + 1], "r", "deck", msg, sizeof(msg));
      if (!fp) {
        fprintf(stderr, "hdem: error: %s (%s)\n", msg, argv[i]);
        return 1;
      }
      fclose(fp);
    }
  /* Open MPI 4.1's default MPI-IO (ompio) loses data in collective HDF5 writes
   * on this platform (3 in 12 four-rank snapshots incomplete); ROMIO does not.
   * A user's own choice of OMPI_MCA_io is kept. */
  setenv("OMPI_MCA_io", "romio321", 0);
#if defined(__GLIBC__)
  /* Large arrays (particles, pairs, buffers) always in their own mappings:
   * glibc otherwise raises its mmap threshold after the first big free and
   * serves later big blocks from a heap that never shrinks, so freed and
   * grown arrays would stay resident (peak memory), and realloc copies
   * instead of remapping. */
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  /* and undo what a library's constructor may have set: Debian's
   * libsuperlu_dist (loaded with PETSc) turns mmap off (M_MMAP_MAX 0) and
   * the heap's trimming off, so every array ever grown would stay resident */
  mallopt(M_MMAP_MAX, 65536);
  mallopt(M_TRIM_THRESHOLD, 128 * 1024);
#endif
  /* help is hdem's own: PETSc's generic help is not shown */
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-help") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      help = PETSC_TRUE;
      for (int j = i; j + 1 < argc; j++) argv[j] = argv[j + 1];
      argv[--argc] = NULL, i--;
    }
  cmd = argc > 1 ? argv[1] : "";
  if (!strcmp(cmd, "help")) help = PETSC_TRUE, cmd = "";
  ierr = PetscInitialize(&argc, &argv, NULL, NULL);
  if (ierr) return 1;
  /* output piped into head: end quietly, as any command-line tool, not as PETSc's crash */
  signal(SIGPIPE, SIG_DFL);
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-hdem_traceback", &trace, NULL));
  PetscCall(PetscPushErrorHandler(ErrorHandler, &trace));
  if (!strcmp(cmd, "impact")) ierr = CommandImpact(PETSC_COMM_WORLD, help);
  else if (!strcmp(cmd, "run") || !strcmp(cmd, "check"))
    ierr = CommandRun(PETSC_COMM_WORLD, argc > 2 && argv[2][0] != '-' ? argv[2] : NULL, help,
                      cmd[0] == 'c' ? PETSC_TRUE : PETSC_FALSE, argc, argv, &status);
  else if (!strcmp(cmd, "diff") && help)
    ierr = PetscPrintf(PETSC_COMM_WORLD, "usage: hdem diff A.h5 B.h5\nCompares two particle states (final.h5, "
                                         "snapshots, checkpoints) by particle id, bitwise;\n"
                                         "prints a JSON report; exit 0 when identical, 1 when not (or on an error).\n");
  else if (!strcmp(cmd, "diff"))
    ierr = CommandDiff(PETSC_COMM_WORLD, argc > 2 ? argv[2] : NULL, argc > 3 ? argv[3] : NULL, &status);
  else if (!strcmp(cmd, "version")) ierr = PetscPrintf(PETSC_COMM_WORLD, "hdem %s\n", HDEM_VERSION);
  else {
    ierr = PetscPrintf(PETSC_COMM_WORLD, "%s", usage);
    if (cmd[0]) {
      fprintf(stderr, "hdem: error: unknown command '%s'\n", cmd);
      ierr = PETSC_ERR_USER_INPUT;
    }
  }
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    if (!error_collective) CollectiveAbort(PETSC_COMM_WORLD, 1);
    PetscFinalize();
    return 1;
  }
  ierr = PetscFinalize();
  return ierr ? 1 : status;
}
