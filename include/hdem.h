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

/* Bounds of the deck's speeds and densities: wide enough for SI and reduced units (d = 1, density 1) and for
 * mass scaling, narrow enough that 1e300 or 1e-300 is an error naming its key, not a failed step later. */
#define HDEM_SPEED_MAX   1.0e4  /* [m/s], each component of a velocity given to particles or walls */
#define HDEM_SPIN_MAX    1.0e8  /* [rad/s], each component of an angular velocity given to particles or walls */
#define HDEM_DENSITY_MIN 1.0e-3 /* [kg/m^3] */
#define HDEM_DENSITY_MAX 1.0e9  /* [kg/m^3] */
#define HDEM_RADIUS_MIN  1.0e-9 /* [m], of particles and the radius distributions' bounds */
#define HDEM_RADIUS_MAX  1.0e3  /* [m] */

/* Exit codes beyond 0 (success) and 1 (an error, said on stderr). */
#define HDEM_EXIT_FAILED \
  3 /* the run failed (a blow-up, a particle through a wall, a step below its floor): failed.h5 holds the state */
#define HDEM_EXIT_CHECKPOINTED \
  75 /* sysexits' EX_TEMPFAIL: stopped by a signal after a checkpoint; continue with -restart */

/* Stored local indices and per-particle tags (pair members, history slots,
 * send lists, types, flags): 32 bits whatever PetscInt's width.  Debian's
 * PETSc64 makes PetscInt 64-bit, which is kept for counts, loops and global
 * sizes; a rank's particles and pairs stay below 2^31 (checked where the
 * arrays grow), and halved lists are less memory and bandwidth. */
typedef int32_t LocalInt;
#define LOCAL_INT_MAX INT32_MAX

#endif
