/* The sieve size of a union of spheres: the side of the smallest square
 * aperture it passes through, in any orientation.
 *
 * A body passes a square of side a, travelling along the square's normal
 * e3, when its shadow on the square's plane fits in the square: when its
 * widths along the square's sides e1 and e2 are at most a.  The width of a
 * union of spheres along a unit vector e is
 *   W(e) = max_k (c_k . e + r_k) - min_k (c_k . e - r_k),
 * so the sieve size is the least over orthonormal pairs (e1, e2) of
 * max(W(e1), W(e2)): a minimum over rotations.  It is found by a grid of
 * frames (passage directions e3 on a Fibonacci hemisphere, the square's
 * turn about e3 in steps over a quarter turn) and a compass search on
 * rotations about the world's and the frame's axes from the best frames of
 * the grid, the step halved down to 1e-10 rad.  The result is the exact
 * side of a square the body passes in the orientation found: never below
 * the true minimum, and equal to it where the search reached it (tests:
 * a sphere, dumbbells and trimers to 1e-9 relative). */
#ifndef HDEM_SIEVE_SIZE_H
#define HDEM_SIEVE_SIZE_H

#include "hdem.h"

/* The sieve size [m] of n spheres s (x, y, z, r each); a sphere's is its
 * diameter.  The passage direction of the orientation found into axis (may
 * be NULL). */
PETSC_EXTERN PetscErrorCode SieveSize(PetscInt n, const PetscReal *s, PetscReal *size, PetscReal axis[3]);

#endif
