/* The blocks of an STL file read by share (io/stl_share.h): what a rank
 * holds, and the merge of its vertices (io/stl_merge.c). */
#ifndef HDEM_STL_BLOCK_H
#define HDEM_STL_BLOCK_H

#include "io/stl.h"

typedef struct {
  PetscInt   nt, nv;       /* the whole mesh's triangles and vertices */
  PetscInt   t0, n;        /* this rank's triangles [t0, t0 + n) */
  PetscInt  *tri;          /* 3 n: their vertices' numbers in the whole mesh */
  PetscReal *x;            /* 9 n: their corners after the transform [m] */
  PetscInt   v0, nvl;      /* this rank's vertices [v0, v0 + nvl) */
  PetscReal *vx;           /* 3 nvl: their coordinates after the transform [m] */
  PetscReal  lo[3], hi[3]; /* the whole mesh's bounding box [m] */
  PetscBool  binary;
} StlShare; /* tri, x and vx PetscMalloc'ed apart: a caller may take any and PetscFree it */

/* Where block r of n items over size ranks starts: n r / size. */
static inline PetscInt StlBlockStart(PetscInt n, PetscMPIInt r, PetscMPIInt size)
{
  return (PetscInt)((PetscInt64)n * r / size);
}
/* The rank whose block of n items holds item i. */
static inline PetscMPIInt StlBlockOwner(PetscInt n, PetscInt i, PetscMPIInt size)
{
  PetscMPIInt r = n > 0 ? (PetscMPIInt)((PetscInt64)i * size / n) : 0;
  while (r + 1 < size && StlBlockStart(n, r + 1, size) <= i) r++;
  while (r > 0 && StlBlockStart(n, r, size) > i) r--;
  return r;
}
/* Collective (io/stl_merge.c): the file coordinates c (9 s->n) of the
 * triangles s->t0 .. of s->nt, and their lines (ASCII; NULL: binary), made
 * the rest of share s: vertices merged, numbered and checked. */
PETSC_INTERN PetscErrorCode StlMergeShare(MPI_Comm, const char *path, const StlXform *, const PetscReal *c,
                                          const PetscInt *tline, StlShare *s);
/* Collective (io/stl_ascii.c): an ASCII file of size bytes read by ranges,
 * s->nt, t0 and n set, the file coordinates (*c, 9 n) and lines (*tline, n)
 * of this rank's block (PetscFree2(*c, *tline)); errors as a serial read's. */
PETSC_INTERN PetscErrorCode StlAsciiShare(MPI_Comm, const char *path, PetscInt64 size, StlShare *s, PetscReal **c,
                                          PetscInt **tline);

#endif
