/* Opening a file the user names as an input (a deck, a data file, an STL
 * mesh, a table, a checkpoint): opened without blocking and refused unless
 * it is a regular file, so that a FIFO, a device or a folder given by
 * mistake is an error naming it rather than a read that never returns. */
#ifndef HDEM_INPUTFILE_H
#define HDEM_INPUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* The open stream (mode "r" or "rb"), or NULL with the reason in msg:
 * "cannot open KEY PATH: ..." or "KEY PATH is a FIFO (named pipe), not a
 * regular file", KEY the option whose value is path, or else what ("deck"). */
FILE *InputFileOpen(const char *path, const char *mode, const char *what, char *msg, size_t len);
/* Only the check, for readers that open the file themselves (HDF5): 0 when
 * path is a regular file, else 1 with the reason in msg. */
int InputFileCheck(const char *path, const char *what, char *msg, size_t len);
/* Who names input paths in messages: namer(path) is the key whose value path is, or NULL (io/options.c sets it;
 * the files do not know the options). */
void InputFileSetNamer(const char *(*namer)(const char *path));

#include "hdem.h"
/* A reader run on rank 0 alone (under PetscReturnErrorHandler, so that it
 * says nothing): its error code, root on rank 0, becomes one error raised on
 * comm by every rank with rank 0's message, said once, no rank aborting. */
PETSC_EXTERN PetscErrorCode InputRootStatus(MPI_Comm comm, PetscErrorCode root);

#endif
