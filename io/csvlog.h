/* CSV logs that a run appends a row to at a cadence (thermo.csv, walls.csv,
 * flow.csv): started whole (header, and on a restart the rows up to the
 * checkpoint's step, an interrupted run having maybe written past it) by an
 * atomic replace, then appended to.  Rank 0's. */
#ifndef HDEM_CSVLOG_H
#define HDEM_CSVLOG_H

#include "hdem.h"
#include <stdio.h>

/* header: the first line, with its newline; fresh: a new run (else the rows
 * whose first column, the step, is at most step are kept).  *fp is open for
 * appending. */
PETSC_EXTERN PetscErrorCode CsvLogStart(const char *path, const char *header, PetscBool fresh, PetscInt64 step,
                                        FILE **fp);
/* After a row: flushed and checked; the error names the file and the step. */
PETSC_EXTERN PetscErrorCode CsvLogFlush(FILE *fp, const char *path, PetscInt64 step);
/* Closed (NULL: nothing to do), the error names the file. */
PETSC_EXTERN PetscErrorCode CsvLogClose(FILE **fp, const char *path);

#endif
