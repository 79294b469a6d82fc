/* Contact model and step controller from the options database. */
#ifndef HDEM_CONTACT_OPTIONS_H
#define HDEM_CONTACT_OPTIONS_H

#include "contact/stepbound.h"

/* Chosen by the restitution sweep in tests/ (see README): e stays within
 * 0.5 % of target for every law, speed and e in [0.1, 1]. */
#define HDEM_DEFAULT_STEPS_PER_CONTACT 80

PETSC_EXTERN PetscErrorCode ContactModelSetFromOptions(MPI_Comm, ContactModel *);
PETSC_EXTERN PetscErrorCode StepControlSetFromOptions(MPI_Comm, StepControl *);

#endif
