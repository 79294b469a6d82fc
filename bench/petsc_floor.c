/* The least a process on hdem's libraries (Debian's PETSc, parallel HDF5,
 * Open MPI) peaks at: it initialises PETSc (and with it MPI) and HDF5, holds
 * no particle and exits.  bench/run.sh measures its peak RSS as it measures
 * the runs', to show how much of LAMMPS's whole peak memory per particle is
 * left for particles once these libraries are loaded. */
#include <petscsys.h>
#include <hdf5.h>

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCheck(H5open() >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "H5open failed");
  PetscCall(PetscFinalize());
  return 0;
}
