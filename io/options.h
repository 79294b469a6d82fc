/* Reading options from PETSc's options database (the deck's keys and the
 * command line's), one call per key: the raw text is parsed here, so a value
 * that is not of the key's type, or outside its range, is an error that
 * names the key, quotes the value whole and says what is allowed.  Every
 * rank reads the same options and raises the same error (collective).
 *
 * Each key read is also recorded, with its section, help, units, range,
 * default, effective value and where that came from (default, deck,
 * command line), for the command's help, for hdem check and for the check
 * for unknown keys (optionsview.c).
 *
 * A command reads its keys twice: first collecting (OptionsSetCollect):
 * every key is recorded, no value is parsed or checked and the readers
 * return right after reading their keys, so that unknown keys are reported
 * before any other problem and -help lists every key without a deck; then
 * for real.
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

/* The deck into the options database, and the command line over it; the
 * deck's own keys are kept apart to tell where a value came from, and its
 * folder to resolve the relative paths it names (OptionsPath).  Collective. */
PETSC_EXTERN PetscErrorCode OptionsReadDeck(MPI_Comm, const char *deck, int argc, char **argv);
PETSC_EXTERN const char    *OptionsDeck(void); /* "" without one */
PETSC_EXTERN void           OptionsSetCollect(PetscBool);
PETSC_EXTERN PetscBool      OptionsCollecting(void);
/* The section the keys read next belong to (help lists them so grouped);
 * title: a string constant. */
PETSC_EXTERN PetscErrorCode OptionsSection(const char *title);
/* While quiet, a key is recorded only if it is given (repeated keys such as
 * wall1_normal .. wall7_normal, which help shows once). */
PETSC_EXTERN void OptionsQuiet(PetscBool);

/* help and units: string constants, kept by pointer. */
PETSC_EXTERN PetscErrorCode OptionsReal(const char *key, const char *help, const char *units, PetscReal lo,
                                        PetscReal hi, OptionRange, PetscReal *value, PetscBool *set);
PETSC_EXTERN PetscErrorCode OptionsInt(const char *key, const char *help, PetscInt lo, PetscInt hi, PetscInt *value,
                                       PetscBool *set);
PETSC_EXTERN PetscErrorCode OptionsInt64(const char *key, const char *help, PetscInt64 lo, PetscInt64 hi,
                                         PetscInt64 *value, PetscBool *set);
PETSC_EXTERN PetscErrorCode OptionsBool(const char *key, const char *help, PetscBool *value, PetscBool *set);
/* names: a PETSc enum list (the names, then the type's name, its prefix, NULL). */
PETSC_EXTERN PetscErrorCode OptionsEnum(const char *key, const char *help, const char *const *names, PetscEnum *value,
                                        PetscBool *set);
PETSC_EXTERN PetscErrorCode OptionsString(const char *key, const char *help, char *value, size_t len, PetscBool *set);
/* A file name: relative and given in the deck, it is taken from the deck's
 * folder; given on the command line, from the working directory. */
PETSC_EXTERN PetscErrorCode OptionsPath(const char *key, const char *help, char *value, size_t len, PetscBool *set);
/* Comma lists (a YAML list is one) of nmin .. nmax values, each in range;
 * n: how many were given (on entry unused). */
PETSC_EXTERN PetscErrorCode OptionsRealArray(const char *key, const char *help, const char *units, PetscInt nmin,
                                             PetscInt nmax, PetscReal lo, PetscReal hi, OptionRange, PetscReal *value,
                                             PetscInt *n, PetscBool *set);
PETSC_EXTERN PetscErrorCode OptionsIntArray(const char *key, const char *help, PetscInt nmin, PetscInt nmax,
                                            PetscInt lo, PetscInt hi, PetscInt *value, PetscInt *n, PetscBool *set);
PETSC_EXTERN PetscErrorCode OptionsBoolArray(const char *key, const char *help, PetscInt nmin, PetscInt nmax,
                                             PetscBool *value, PetscInt *n, PetscBool *set);
/* The default of a key read just before, when it is not a value of its
 * own (derived from others, required, or none): text says what it is
 * ("0.2 of the largest radius", "required"); hdem check's deck leaves the
 * key out unless it is set. */
PETSC_EXTERN PetscErrorCode OptionsDefaultText(const char *key, const char *text);

/* " (deck FILE)", " (command line)" or " (given)": where key's value raw
 * came from, for messages. */
PETSC_EXTERN const char *OptionsWhere(const char *key, const char *raw, char *buf, size_t len);

/* A value derived from options, checked against a range: the error names key. */
PETSC_EXTERN PetscErrorCode OptionsCheckReal(const char *key, PetscReal v, PetscReal lo, PetscReal hi, OptionRange,
                                             const char *units);
PETSC_EXTERN PetscErrorCode OptionsCheckInt(const char *key, PetscInt v, PetscInt lo, PetscInt hi);

/* The keys read (optionsview.c). */
typedef enum {
  OPTION_FROM_DEFAULT,
  OPTION_FROM_DECK,
  OPTION_FROM_COMMAND_LINE
} OptionSource;
typedef enum {
  OPTION_KIND_NUMBER, /* reals, integers and their lists */
  OPTION_KIND_BOOL,
  OPTION_KIND_WORD, /* an enum's name */
  OPTION_KIND_TEXT  /* strings and paths */
} OptionKind;
typedef struct {
  const char  *section, *help, *units;
  char         key[64];
  char         range[256];
  char         dflt[96];    /* as help shows it */
  PetscBool    has_default; /* dflt is the key's value when not set (not OptionsDefaultText's) */
  OptionKind   kind;
  PetscBool    list;  /* a comma list */
  char        *value; /* as given (a path: resolved), when set */
  PetscBool    set;
  OptionSource source;
} OptionRecord;
/* Keys of a numbered section (prefix "-mesh3_") given without the key that
 * makes it exist (needed, "-mesh3_file") are an error naming the first of
 * them, not ignored.  Collective. */
PETSC_EXTERN PetscErrorCode      OptionsCheckSectionNeeds(MPI_Comm, const char *prefix, const char *needed);
PETSC_EXTERN PetscInt            OptionsRecorded(void);
PETSC_EXTERN const OptionRecord *OptionsRecord(PetscInt);
PETSC_EXTERN void                OptionsRecordsClear(void);

/* Unknown keys (misspelt, or another command's), all of them, each with the
 * nearest known key: an error.  Collective. */
PETSC_EXTERN PetscErrorCode OptionsCheckUnused(MPI_Comm);
/* Rank 0 prints every key read, by section: key, default, units, range, help. */
PETSC_EXTERN PetscErrorCode OptionsPrintHelp(MPI_Comm);
typedef enum {
  OPTIONS_VIEW_TEXT, /* key, value and where it came from, by section */
  OPTIONS_VIEW_YAML  /* a deck that reproduces the run: every key with a value */
} OptionsViewFormat;
PETSC_EXTERN const char *const OptionsViewFormats[];
PETSC_EXTERN PetscErrorCode    OptionsView(MPI_Comm, OptionsViewFormat, FILE *);

#endif
