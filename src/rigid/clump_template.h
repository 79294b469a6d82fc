/* Multi-sphere body templates (deck sections clump0 .. clump15): the
 * spheres of a rigid body in its own frame, and the mass properties of
 * their union, overlaps counted once (union_moments.h).
 *
 * A template is re-expressed in its principal frame: the centre of mass at
 * the origin, the principal axes along x, y, z with the moments ascending.
 * Mass and inertia are kept per unit density (the density is the
 * template's, or the material's of the type a body is inserted with), or
 * as given (mass and inertia keys: the spheres are then taken as given in
 * the principal frame).  A body of the template scaled by l has l^3 its
 * mass and l^5 its inertia. */
#ifndef HDEM_CLUMP_TEMPLATE_H
#define HDEM_CLUMP_TEMPLATE_H

#include "hdem.h"

#define CLUMP_TEMPLATES_MAX    16
#define CLUMP_SPHERES_MAX      256    /* in the deck's list */
#define CLUMP_FILE_SPHERES_MAX 100000 /* in a file */
#define CLUMP_TOLERANCE        1e-10  /* asked of the union's moments */
#define CLUMP_ERROR_MAX        1e-4   /* the error bound a template must meet */
#define CLUMP_COST_MAX         2.5e8  /* UnionMomentsCost a template may take */
#define CLUMP_COST_PER_SECOND  2.5e7  /* of that work, for messages (one core of 2024) */

typedef struct {
  PetscBool  on;
  PetscInt   n;       /* spheres */
  PetscReal *s;       /* 4 n: x, y, z, r in the principal frame */
  PetscReal  density; /* [kg/m^3], 0: the material's */
  PetscBool  given;   /* mass and inertia given, not computed */
  PetscReal  volume;  /* of the union [m^3] */
  PetscReal  mass_given, inertia_given[3];
  PetscReal  inertia_unit[3]; /* principal moments per unit density [m^5], ascending */
  PetscReal  com[3];          /* the centre of mass in the frame the spheres were given in */
  PetscReal  axes[9];         /* the principal axes there, as columns (det +1) */
  PetscReal  r_equiv;         /* volume-equivalent radius (3 V / 4 pi)^(1/3) */
  PetscReal  extent;          /* the farthest sphere surface from the centre of mass */
  PetscReal  sieve;           /* the smallest square aperture it passes (rigid/sieve_size.h) [m] */
  PetscReal  error;           /* bound on the moments' relative error */
} ClumpTemplate;

typedef struct {
  ClumpTemplate t[CLUMP_TEMPLATES_MAX]; /* by the deck's number */
  PetscInt      n;                      /* templates given */
} ClumpTemplates;

/* The mass properties of n spheres s (4 n numbers, radii > 0); on error
 * the template is left empty.  name: for messages (the key, or the file).
 * Collective on comm (every rank has the same spheres). */
PETSC_EXTERN PetscErrorCode ClumpTemplateSetUp(MPI_Comm comm, const char *name, PetscInt n, const PetscReal *s,
                                               ClumpTemplate *);
/* The mass and principal moments at density rho (the template's if it has
 * one), for a body scaled by l. */
PETSC_EXTERN void ClumpTemplateMass(const ClumpTemplate *, PetscReal rho, PetscReal l, PetscReal *mass,
                                    PetscReal inertia[3]);
/* clump0 .. clump15 from the options; collective. */
PETSC_EXTERN PetscErrorCode ClumpTemplatesSetFromOptions(MPI_Comm, ClumpTemplates *);
/* hdem check's (and hdem run's) line of a template, at density rho where it has none. */
PETSC_EXTERN void           ClumpTemplateDescribe(const ClumpTemplate *, PetscReal rho, char *buf, size_t len);
PETSC_EXTERN PetscErrorCode ClumpTemplatesDestroy(ClumpTemplates *);
/* Cyclic Jacobi rotations of the symmetric n x n matrix a (row-major) to
 * its eigenvalues on the diagonal, the eigenvectors the columns of V. */
PETSC_EXTERN void ClumpJacobi(int n, PetscReal *a, PetscReal *V);
/* Eigenvalues (ascending) and eigenvectors (columns of v, det +1) of the
 * symmetric 3 x 3 matrix a (row-major), by cyclic Jacobi rotations. */
PETSC_EXTERN void ClumpSymmetricEigen(const PetscReal a[9], PetscReal lam[3], PetscReal v[9]);

#endif
