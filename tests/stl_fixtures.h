/* What the STL tests (test_stl.c, test_stl_bad.c) make: meshes as ASCII
 * and binary bytes, files of rank 0's in one folder, parses from memory. */
#ifndef HDEM_STL_FIXTURES_H
#define HDEM_STL_FIXTURES_H

#include <stdint.h>
#include <stdio.h>
#include "io/stl.h"

/* One ASCII facet of corners a, b, c (each "x y z"). */
#define FACET(a, b, c) "facet normal 0 0 1\nouter loop\nvertex " a "\nvertex " b "\nvertex " c "\nendloop\nendfacet\n"

/* The folder of FileOf's files ("" until the first). */
extern char tmpdir[64];
/* The unit cube's triangles by corner. */
extern const int cube_tri[12][3];

/* The bytes as a file of rank 0's (only rank 0 reads), in one folder made on first use. */
void FileOf(const char *name, const void *bytes, size_t n, char *path, size_t len);
/* StlParseStream on n bytes in memory; size as the reader is told (-1: unknown). */
PetscErrorCode ParseBytes(const char *name, const void *bytes, size_t n, PetscInt64 size, const StlTransform *tr,
                          StlMesh *m);
/* The cube of edge size, two triangles a face, corners in file order. */
void Cube(double c[12 * 9], double size);
/* ASCII STL of nt triangles: a solid, or two split at triangle `split`;
 * lines end in nl; keywords in lower or mixed case. */
char *Ascii(const double *c, int nt, int split, const char *nl, int mixed);
/* u as four bytes, least significant first. */
void PutLe32(unsigned char *b, uint32_t u);
/* Binary STL of nt triangles with this header text (padded with pad) and count. */
unsigned char *Binary(const double *c, int nt, const char *header, char pad, uint32_t count, size_t *n);

#endif
