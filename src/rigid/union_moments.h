/* Volume, first and second moments of a union of overlapping spheres, the
 * overlaps counted once: what a multi-sphere body's mass, centre of mass and
 * inertia tensor follow from.
 *
 * By the divergence theorem each moment is an integral over the union's
 * surface, the parts of the spheres no other sphere covers:
 *   V = 1/3 ∮ x.n dA,  ∫ x_a dV = 1/4 ∮ x_a x.n dA,  ∫ x_a x_b dV = 1/5 ∮ x_a x_b x.n dA.
 * On sphere k, at polar angle th about z, the covered azimuths are a union of
 * arcs known in closed form, and the azimuthal integrals of the integrand (a
 * polynomial of degree 3 in the normal) are closed forms over the uncovered
 * ones.  What is left is an integral over th of a function that is analytic
 * between known break points (where a cap's rim touches a latitude, where
 * two rims cross) and has square-root ends there; each piece is integrated
 * by Gauss-Legendre after th = a + (b - a)(1 - cos t)/2, which removes the
 * square roots, at 24 and at 48 nodes, halving a piece until the two agree.
 * The error bound returned is the sum of those differences (the 48-node
 * values are kept, which are far closer). */
#ifndef HDEM_UNION_MOMENTS_H
#define HDEM_UNION_MOMENTS_H

#include "hdem.h"

/* m[0] = V, m[1..3] = ∫x, ∫y, ∫z, m[4..9] = ∫xx, ∫yy, ∫zz, ∫xy, ∫xz, ∫yz
 * about the origin (unit density); s: 4 n numbers x, y, z, r.  tol: the
 * relative accuracy asked.  *err: the estimated error bound, relative: each
 * moment's error is below err V R^p, V the union's volume, R the largest
 * distance from the spheres' mean centre to a sphere's far side, p the
 * moment's order. */
PETSC_EXTERN PetscErrorCode UnionMoments(PetscInt n, const PetscReal *s, PetscReal tol, PetscReal m[10],
                                         PetscReal *err);

/* A lower bound on UnionMoments' work (integrand evaluations times caps
 * scanned): it grows as n^4 for spheres that all overlap, so a template too
 * costly is refused up front rather than computed for minutes. */
PETSC_EXTERN PetscErrorCode UnionMomentsCost(PetscInt n, const PetscReal *s, PetscReal *cost);

#endif
