/* The movers hdem has (mover.h): the spheres' velocity Verlet and the
 * multi-sphere bodies' step. */
#ifndef HDEM_MOVERS_H
#define HDEM_MOVERS_H

#include "movers/mover.h"
#include "rigid/body_step.h"

PETSC_EXTERN PetscErrorCode MoverCreateSpheres(Mover *);
/* The owned bodies of templates ct (kept, not copied), indexed again at each migration. */
PETSC_EXTERN PetscErrorCode MoverCreateRigid(const ClumpTemplates *ct, Mover *);
/* The rigid mover's index of the owned bodies' member rows. */
PETSC_EXTERN const BodyIndex *MoverRigidIndex(const Mover *);

#endif
