/* Reading STL surface meshes (walls, hoppers, drums) into a vertex table and
 * triangles whose shared edges share vertex indices.
 *
 * The format is told from the content, not the extension: binary when the
 * size is 84 + 50 n for the little-endian uint32 n at byte 80 (binary files
 * often begin with "solid" too); else ASCII when the first word is "solid";
 * else an error.  On a stream of unknown size (a pipe) the first 84 bytes
 * decide: binary when they hold a NUL or do not start with "solid", and the
 * stream must then end after the n triangles.
 *   ASCII: solid [name] / facet normal nx ny nz / outer loop / vertex x y z
 *   (three) / endloop / endfacet ... endsolid [name], several solids in a
 *   file concatenated; keywords in any case, words separated by any blanks,
 *   CRLF accepted; a line longer than 4096 characters or a NUL byte refused.
 *   Binary: float32 little-endian, the attribute byte count ignored.
 * Facet normals are read and ignored: orientation is not used.
 *
 * Corners are merged into one vertex when their file coordinates are equal
 * (before the transform), vertices numbered in order of first appearance:
 * the result depends on the file's bytes only.  Whatever the file holds is
 * a result or an error naming the file, the triangle (from 1) and its line
 * (ASCII) or byte (binary): non-finite coordinates, degenerate triangles
 * (two corners one vertex, or zero area after the transform), no
 * triangles, truncation; counts are checked against the file's size and the
 * integer ranges before anything is allocated for them. */
#ifndef HDEM_STL_H
#define HDEM_STL_H

#include <stdint.h>
#include <stdio.h>
#include "hdem.h"

typedef struct {
  PetscReal scale;        /* file units to metres (1: none) */
  PetscReal axis[3];      /* rotation about the origin, after scale: axis (need not be unit) */
  PetscReal angle;        /* and angle [deg] (0: none) */
  PetscReal translate[3]; /* [m], after scale and rotate */
} StlTransform;           /* applied x -> R (scale x) + translate */

typedef struct {
  PetscInt   nv, nt;       /* vertices (unique), triangles */
  PetscReal *x;            /* 3 nv: vertex coordinates [m] after the transform */
  PetscInt  *tri;          /* 3 nt: vertex indices, triangles in file order, corners in file order */
  PetscReal  lo[3], hi[3]; /* bounding box of the vertices [m] */
  PetscBool  binary;       /* the format the file was read as */
} StlMesh;                 /* x and tri are PetscMalloc'ed apart: a caller may take either and PetscFree it */

/* Scale 1, no rotation (angle 0, axis z, so that an angle alone turns about
 * z), no translation. */
PETSC_EXTERN void StlTransformDefault(StlTransform *);
/* Collective: rank 0 reads and parses, every rank gets the mesh (or every
 * rank the same error).  A NULL transform is the default one.  Warns when
 * the mesh spans less than 1e-4 m or more than 1e4 m (a wrong scale). */
PETSC_EXTERN PetscErrorCode StlRead(MPI_Comm, const char *path, const StlTransform *, StlMesh *);
/* Not collective: the parse on an open stream (fmemopen'ed bytes in
 * tests/fuzzing); name for messages; size in bytes (-1 unknown). On error m
 * is left empty. */
PETSC_EXTERN PetscErrorCode StlParseStream(FILE *, const char *name, PetscInt64 size, const StlTransform *, StlMesh *);
PETSC_EXTERN PetscErrorCode StlMeshDestroy(StlMesh *);

/* Internal to io/ (io/stl_share.c, io/stl_merge.c): the steps of a read
 * that a read by share takes apart; the reading state is io/stl_reader.h's. */
struct StlReader_;
/* The transform as a matrix: x -> R (s x) + t. */
typedef struct {
  PetscReal s, R[3][3], t[3];
  PetscBool rotate;
} StlXform;

/* The transform's fields checked (an error naming the file and the field) and made a matrix. */
PETSC_INTERN PetscErrorCode StlXformSet(const char *path, const StlTransform *, StlXform *);
PETSC_INTERN void           StlXformApply(const StlXform *, const PetscReal *x, PetscReal *y);
/* The first STL_HEADER bytes read and the format decided (rd->size set). */
PETSC_INTERN PetscErrorCode StlDetect(struct StlReader_ *rd);
/* A binary file's triangle count (at byte 80), checked: not 0, not more than hdem reads. */
PETSC_INTERN PetscErrorCode StlBinaryCount(struct StlReader_ *rd, uint32_t *n);
/* The warning of a span that suggests a wrong scale. Collective. */
PETSC_INTERN PetscErrorCode StlWarnSpan(MPI_Comm, const char *path, const PetscReal lo[3], const PetscReal hi[3]);
/* An ASCII file's solids and facets, every check of the format. */
PETSC_INTERN PetscErrorCode StlReadAscii(struct StlReader_ *rd);
/* Vertex (first) corner k's transform y of its file coordinates c is finite. */
PETSC_INTERN PetscErrorCode StlCheckVertex(struct StlReader_ *rd, PetscInt k, const PetscReal *c, const PetscReal *y);
/* Triangle t (vertices v, corners p, q, r after the transform) is not degenerate. */
PETSC_INTERN PetscErrorCode StlCheckTriangle(struct StlReader_ *rd, PetscInt t, const PetscInt v[3], const PetscReal *p,
                                             const PetscReal *q, const PetscReal *r);

#endif
