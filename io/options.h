/* Reading options from PETSc's options database (the deck's keys and the
 * command line's), one call per key: the raw text is parsed here, so a value
 * that is not of the key's type, or outside its range, is an error that
 * names the key, quotes the value whole and says what is allowed.  Every
 * rank reads the same options and raises the same error (collective).
 *
 * Each key read is also recorded, with its section, help, units, range,
 * default and effective value, for the command's help and for hdem check.
 *
 * Keys are given with their dash ("-contact_e"); on entry the value holds
 * the default, which stays when the key is not set. */
#ifndef HDEM_OPTIONS_H
#define HDEM_OPTIONS_H

#include "hdem.h"

typedef enum {
  RANGE_CLOSED,  /* [lo, hi] */
  RANGE_OPEN_LO, /* (lo, hi] */
  RANGE_OPEN_HI, /* [lo, hi) */
  RANGE_OPEN     /* (lo, hi) */
} OptionRange;

PETSC_EXTERN PetscErrorCode OptionsSetDeck(const char *);
PETSC_EXTERN const char    *OptionsDeck(void);
/* The section the keys read next belong to (help lists them so grouped). */
PETSC_EXTERN PetscErrorCode OptionsSection(const char *title);

PETSC_EXTERN PetscErrorCode OptionsReal(const char *key, const char *help, const char *units, PetscReal lo, PetscReal hi, OptionRange, PetscReal *value,
                                        PetscBool *set);
PETSC_EXTERN PetscErrorCode OptionsInt(const char *key, const char *help, PetscInt lo, PetscInt hi, PetscInt *value, PetscBool *set);
PETSC_EXTERN PetscErrorCode OptionsInt64(const char *key, const char *help, PetscInt64 lo, PetscInt64 hi, PetscInt64 *value, PetscBool *set);
PETSC_EXTERN PetscErrorCode OptionsBool(const char *key, const char *help, PetscBool *value, PetscBool *set);
/* names: a PETSc enum list (the names, then the type's name, its prefix, NULL). */
PETSC_EXTERN PetscErrorCode OptionsEnum(const char *key, const char *help, const char *const *names, PetscEnum *value, PetscBool *set);
PETSC_EXTERN PetscErrorCode OptionsString(const char *key, const char *help, char *value, size_t len, PetscBool *set);
/* Comma lists (a YAML list is one) of nmin .. nmax values, each in range;
 * n: how many were given (on entry unused). */
PETSC_EXTERN PetscErrorCode OptionsRealArray(const char *key, const char *help, const char *units, PetscInt nmin, PetscInt nmax, PetscReal lo, PetscReal hi,
                                             OptionRange, PetscReal *value, PetscInt *n, PetscBool *set);
PETSC_EXTERN PetscErrorCode OptionsIntArray(const char *key, const char *help, PetscInt nmin, PetscInt nmax, PetscInt lo, PetscInt hi, PetscInt *value,
                                            PetscInt *n, PetscBool *set);
PETSC_EXTERN PetscErrorCode OptionsBoolArray(const char *key, const char *help, PetscInt nmin, PetscInt nmax, PetscBool *value, PetscInt *n, PetscBool *set);

/* A value derived from options, checked against a range: the error names key. */
PETSC_EXTERN PetscErrorCode OptionsCheckReal(const char *key, PetscReal v, PetscReal lo, PetscReal hi, OptionRange, const char *units);
PETSC_EXTERN PetscErrorCode OptionsCheckInt(const char *key, PetscInt v, PetscInt lo, PetscInt hi);
/* A key that nothing read is an error (misspelt, or another command's). */
PETSC_EXTERN PetscErrorCode OptionsCheckUnused(MPI_Comm);

/* The keys read, for help and hdem check.  Section, help and units are
 * kept by pointer: callers pass string constants. */
typedef struct {
  const char *section, *help, *units;
  char        key[64];
  char        range[128];
  char        dflt[96];
  char       *value; /* as given, when set */
  PetscBool   set;
} OptionRecord;
PETSC_EXTERN PetscInt            OptionsRecorded(void);
PETSC_EXTERN const OptionRecord *OptionsRecord(PetscInt);
PETSC_EXTERN void                OptionsRecordsClear(void);
/* Rank 0 prints every key read, by section: key, default, units, range, help. */
PETSC_EXTERN PetscErrorCode OptionsPrintHelp(MPI_Comm);

#endif
