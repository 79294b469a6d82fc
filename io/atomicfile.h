/* Files that appear under their final name only once complete: written to
 * "<path>.tmp", every write checked, flushed (and with sync, fsync'd, file
 * and directory), then renamed.  A crash, a kill or a full disk at any
 * moment leaves the previous file, or none, never a truncated one under the
 * final name; a failed write removes the temporary.  One process writes
 * (rank 0's files: summary.json, thermo.csv, the XDMF indexes); parallel
 * HDF5 files rename through AtomicFileRename once every rank has closed. */
#ifndef HDEM_ATOMICFILE_H
#define HDEM_ATOMICFILE_H

#include "hdem.h"
#include <stdio.h>

typedef struct {
  FILE *fp; /* write to it with stdio; errors are caught at the commit */
  char  path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 8];
} AtomicFile;

PETSC_EXTERN PetscErrorCode AtomicFileOpen(const char *path, AtomicFile *);
/* Checks the stream, flushes, with sync fsyncs, closes and renames; on any
 * failure the temporary is removed and the error names the file. */
PETSC_EXTERN PetscErrorCode AtomicFileCommit(AtomicFile *, PetscBool sync);
PETSC_EXTERN void           AtomicFileAbandon(AtomicFile *); /* closes and removes the temporary */
/* tmp to path, with sync the directory's entry made durable too. */
PETSC_EXTERN PetscErrorCode AtomicFileRename(const char *tmp, const char *path, PetscBool sync);
/* errno's words, a full disk or quota said as the HDF5 files say it: "no space left on device" */
PETSC_EXTERN const char *FileErrorString(int err);
/* The error of a stream whose errno is gone (a buffered write failed before):
 * ENOSPC when its file system has no block left, else EIO. */
PETSC_EXTERN int FileLostError(FILE *);

#endif
