/* Validation helpers over PETSc's options database (collective: every rank
 * checks the same options and raises the same error): ranges named by key,
 * the deck the options came from, and keys nobody used. */
#ifndef HDEM_OPTIONS_H
#define HDEM_OPTIONS_H

#include "hdem.h"

typedef enum {
  RANGE_CLOSED,   /* [lo, hi] */
  RANGE_OPEN_LO,  /* (lo, hi] */
  RANGE_OPEN_HI,  /* [lo, hi) */
  RANGE_OPEN      /* (lo, hi) */
} OptionRange;

PETSC_EXTERN PetscErrorCode OptionsSetDeck(const char *);
PETSC_EXTERN const char    *OptionsDeck(void);
PETSC_EXTERN PetscErrorCode OptionsCheckReal(const char *key, PetscReal v, PetscReal lo, PetscReal hi, OptionRange, const char *units);
PETSC_EXTERN PetscErrorCode OptionsCheckInt(const char *key, PetscInt v, PetscInt lo, PetscInt hi);
PETSC_EXTERN PetscErrorCode OptionsCheckUnused(MPI_Comm);
/* The option, where given, is a finite number (an integer) or a comma list
 * of them: OptionsCheckList with lo .. hi of them, OptionsCheckSyntax with
 * any number; OptionsCheckCount counts the values only (booleans). */
PETSC_EXTERN PetscErrorCode OptionsCheckList(const char *key, PetscBool integer, PetscInt lo, PetscInt hi);
PETSC_EXTERN PetscErrorCode OptionsCheckSyntax(const char *key, PetscBool integer);
PETSC_EXTERN PetscErrorCode OptionsCheckCount(const char *key, PetscInt lo, PetscInt hi);

#endif
