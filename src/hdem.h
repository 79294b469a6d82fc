/* Common definitions shared by every hdem translation unit. */
#ifndef HDEM_H
#define HDEM_H

#include <petscsys.h>
#include <math.h>

#define HDEM_VERSION "0.1.0"

/* PETSc 3.18 (Debian 12) predates PETSC_SUCCESS. */
#if PETSC_VERSION_LT(3, 19, 0)
  #ifndef PETSC_SUCCESS
    #define PETSC_SUCCESS 0
  #endif
#endif

#define HDEM_PI 3.14159265358979323846

#endif
