/* A run's engine from the deck and command line. */
#ifndef HDEM_SETUP_H
#define HDEM_SETUP_H

#include "engine/engine.h"
#include "insert/insert.h"

/* The domain's keys, read before the grid is made. */
typedef struct {
  PetscReal lo[3], hi[3];
  PetscBool periodic[3], faces;
  PetscInt  grid[3];
} DomainKeys;

/* What EngineSetFromOptions read for EngineCreate. */
typedef struct {
  DomainKeys dk;
  Insertion  ins;
  PetscReal  skin;
  PetscBool  skinset, fill;
} EngineKeys;

/* Reads and checks the keys (collecting: every key, the walls', meshes' and templates' too); builds nothing. */
PETSC_EXTERN PetscErrorCode EngineSetFromOptions(MPI_Comm, Engine *, EngineKeys *);
/* The grid (shaped by where the particles will be), walls, meshes, templates and particles from the keys read;
 * insert: PETSC_FALSE for a restart (the particles come from the checkpoint).  Collecting: nothing. */
PETSC_EXTERN PetscErrorCode EngineCreate(MPI_Comm, PetscBool insert, EngineKeys *, Engine *);

#endif
