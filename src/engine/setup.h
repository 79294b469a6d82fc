/* A run's engine from the deck and command line. */
#ifndef HDEM_SETUP_H
#define HDEM_SETUP_H

#include "engine/engine.h"

/* insert: PETSC_FALSE for a restart */
PETSC_EXTERN PetscErrorCode EngineSetFromOptions(MPI_Comm, PetscBool insert, Engine *);

#endif
