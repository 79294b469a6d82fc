#include "check_main.h"
#include <mpi.h>
#include <stdlib.h>

int HdemCheckRun(int argc, char **argv, Suite *suite)
{
  SRunner *sr;
  int      failed, total = 0, rank = 0;

  setenv("OMPI_MCA_io", "romio321", 0); /* see src/main.c */
  if (PetscInitialize(&argc, &argv, NULL, NULL)) return 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  sr = srunner_create(suite);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, rank == 0 ? CK_NORMAL : CK_SILENT);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  MPI_Allreduce(&failed, &total, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  if (PetscFinalize()) return 1;
  return total ? 1 : 0;
}
