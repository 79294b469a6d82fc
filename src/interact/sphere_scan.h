/* The sphere-sphere forces under the Hertz-harmonic model, fused
 * (sphere_scan.c): the models SphereFusable covers. */
#ifndef HDEM_SPHERE_SCAN_H
#define HDEM_SPHERE_SCAN_H

#include "interact/sphere_pair.h"

PETSC_EXTERN PetscErrorCode SphereScanFused(SphereSphere *, const InteractionContext *, InteractionStep *);

#endif
