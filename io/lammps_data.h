/* Reading a LAMMPS data file written for atom_style sphere (by hand or by
 * write_data), for users who bring LAMMPS set-ups.
 *
 * Header: `N atoms`, `N atom types`, `lo hi xlo xhi` (and y, z); a tilt line
 * `xy xz yz` is refused (triclinic boxes are not supported); other LAMMPS
 * count lines are accepted so that their sections can be skipped.
 * Sections: `Atoms` (hint `# sphere` optional) with lines
 *   id type diameter density x y z [ix iy iz] [# comment]
 * and, if present, `Velocities` with lines `id vx vy vz wx wy wz` and
 * `Molecules` with lines `id molecule` (as `fix property/atom mol` writes
 * them: each molecule may be a rigid body, insert_body); Masses,
 * Pair Coeffs and the other count-sized sections are skipped by counting.
 * Image flags are checked to be integers and then ignored: positions are
 * taken as written and must lie in the closed box [lo, hi].
 *
 * Whatever the file holds is an error with its path, line and the offending
 * text quoted, never a crash: every count is checked against what it sizes
 * and against the file's size before anything is allocated (n atoms need at
 * least 14 n - 1 bytes), numbers must be finite, diameters and densities
 * positive, ids unique in [1, 2^53], types in 1..ntypes.  Comments after
 * '#' and CRLF line ends are accepted, as LAMMPS does; a line longer than
 * 4096 characters or a NUL byte is refused (not a text data file).
 *
 * Every rank reads a share: rank 0 the header; the bytes after it split
 * among the ranks at line boundaries, each parsing its lines (the line
 * numbers of its messages from the lines of the shares before it); then
 * each atom, with its Velocities and Molecules lines, on the rank id % size.
 * No rank holds more than about its share; an error any rank finds is
 * every rank's, the one a serial reading would meet first. */
#ifndef HDEM_LAMMPS_DATA_H
#define HDEM_LAMMPS_DATA_H

#include <stdio.h>
#include "io/lammps_atoms.h"

/* Collective: each rank its share (or every rank the error). */
PETSC_EXTERN PetscErrorCode LammpsDataRead(MPI_Comm, const char *path, LammpsData *);
PETSC_EXTERN PetscErrorCode LammpsDataDestroy(LammpsData *);
/* Collective: the box around every atom's sphere (lo = +max, hi = -max without atoms). */
PETSC_EXTERN PetscErrorCode LammpsDataExtent(MPI_Comm, const LammpsData *, PetscReal lo[3], PetscReal hi[3]);
/* LammpsDataRead on one rank from an open stream (a file, or fmemopen'ed
 * bytes for tests and fuzzing); name is for the messages, size the
 * stream's length in bytes (-1: unknown, then only the integer bounds limit
 * the counts).  On error d is left empty. */
PETSC_EXTERN PetscErrorCode LammpsDataParseStream(FILE *, const char *name, PetscInt64 size, LammpsData *d);
#endif
