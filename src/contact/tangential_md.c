#include "contact/tangential_md.h"
#include "contact/kernel_scalar.h"

/* The kernel's scalar instantiation of the spring (kernel_md.h) on the memory as it is kept. */
void ContactTangentialMD(ContactTurning *tn, PetscReal T[3], const PetscReal n[3], const PetscReal vt[3],
                         const PetscReal vtp[3], PetscReal dt, PetscReal kt0, PetscReal gt, PetscReal mu, PetscReal Fn,
                         PetscReal Ft[3])
{
  ContactScalarTurning s;

  for (int a = 0; a < 3; a++) s.ts[a] = tn->ts[a], s.tss[a] = tn->tss[a], s.dlast[a] = tn->dlast[a];
  s.mun = tn->mun, s.phase = tn->phase;
  ContactScalarTangentialMD(&s, T, n, vt, vtp, dt, kt0, gt, mu, Fn, Ft);
  for (int a = 0; a < 3; a++) tn->ts[a] = s.ts[a], tn->tss[a] = s.tss[a], tn->dlast[a] = s.dlast[a];
  tn->mun = s.mun, tn->phase = s.phase;
}
