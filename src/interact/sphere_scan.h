/* The sphere-sphere forces, fused (sphere_scan.c): every contact model. */
#ifndef HDEM_SPHERE_SCAN_H
#define HDEM_SPHERE_SCAN_H

#include "interact/sphere_pair.h"

PETSC_EXTERN PetscErrorCode SphereScanFused(SphereSphere *, const InteractionContext *, InteractionStep *);

#endif
