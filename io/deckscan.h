/* Strict reading of a YAML deck before PETSc takes its keys. */
#ifndef HDEM_DECKSCAN_H
#define HDEM_DECKSCAN_H

#include <stddef.h>

/* Nonzero, with the message in msg, if the deck at path cannot be read, is
 * not valid YAML, holds a NUL byte, a second document or a key given twice
 * in one mapping (file and line named).  No MPI: every rank may call it. */
int DeckScanFile(const char *path, char *msg, size_t len);

#endif
