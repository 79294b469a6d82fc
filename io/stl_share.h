/* An STL file read by share on many ranks (io/stl_share.c, the vertex merge
 * io/stl_merge.c): no rank holds more than its block of the triangles and
 * of the vertices, plus tables of a few entries a rank, and the result is
 * StlRead's (io/stl.h), cut in blocks: the same vertex numbers (equal file
 * coordinates merged, numbered by first appearance), the same corners'
 * bits after the transform, the same errors with the same messages.
 *
 * Blocks: rank r of P holds items [n r / P, n (r + 1) / P) of n.
 *   Binary: every rank opens the file and reads its block of triangles.
 *   ASCII: every rank parses a range of the file's bytes, from a line
 *   that starts with 'facet' (io/stl_ascii.c), twice: to count its
 *   triangles and lines, then to keep its triangles, which are sent to
 *   their blocks.
 * Vertices: each corner goes to a rank chosen by a hash of its file
 * coordinates, where equal ones meet; each vertex's first corner then goes
 * to the owner of its triangle, where the vertices are numbered by a
 * prefix sum over the ranks in the order of their first corners. */
#ifndef HDEM_STL_SHARE_H
#define HDEM_STL_SHARE_H

#include "io/stl_block.h"

/* Collective; a NULL transform is the default one; warns as StlRead does. */
PETSC_EXTERN PetscErrorCode StlReadShare(MPI_Comm, const char *path, const StlTransform *, StlShare *);
PETSC_EXTERN PetscErrorCode StlShareDestroy(StlShare *);

#endif
