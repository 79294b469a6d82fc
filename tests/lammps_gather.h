/* For tests of the LAMMPS data reader: every rank's atoms (each rank holds
 * those of ids id % size == rank) on every rank, in file order, in d. */
#ifndef HDEM_TEST_LAMMPS_GATHER_H
#define HDEM_TEST_LAMMPS_GATHER_H

#include "io/lammps_data.h"

void LammpsDataGatherAll(LammpsData *d);

#endif
