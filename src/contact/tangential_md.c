#include "contact/tangential_md.h"
#include "contact/kernel_scalar.h"

/* The kernel's scalar instantiation of the spring (kernel_md.h) on the memory as it is kept. */
void ContactTangentialMD(ContactTurning *tn, PetscReal T[3], const PetscReal n[3], const PetscReal vt[3],
                         const PetscReal vtp[3], PetscReal dt, PetscReal kt0, PetscReal gt, PetscReal mu, PetscReal Fn,
                         PetscReal Ft[3])
{
  ContactScalarTurning s;

  ContactScalarTurningFrom(tn, &s);
  ContactScalarTangentialMD(&s, T, n, vt, vtp, dt, kt0, gt, mu, Fn, Ft);
  ContactScalarTurningTo(&s, tn);
}
