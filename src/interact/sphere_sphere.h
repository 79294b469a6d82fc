/* The sphere-sphere interaction: every pair of particles within the skin of
 * contact, listed by link cells (neighbor.h) in the canonical summation
 * order, each contact evaluated by the contact kernel.  Under every model a
 * fused scan takes the pairs (sphere_scan.c): a sieve passes over pairs that
 * give nothing, contacts that touched at the last step go through the
 * kernel's lanes four at a time; separations, pairs a liquid bridge holds
 * apart and steps that sample the contacts go through the generic pair path
 * (sphere_pair.c).  Internal to
 * interact/: the engine sees an Interaction. */
#ifndef HDEM_SPHERE_SPHERE_H
#define HDEM_SPHERE_SPHERE_H

#include "interact/sphere_pair.h"

PETSC_EXTERN PetscErrorCode SphereSphereCreate(PetscReal skin, Interaction *);

#endif
