/* Plane walls: infinite, one-sided planes that particles meet from the
 * side their normal points to.  Walls on the faces of the box's walled axes
 * (domain: walls) and up to eight more of any orientation (wall0..wall7). */
#ifndef HDEM_PLANES_H
#define HDEM_PLANES_H

#include "decomp/grid.h"
#include "geometry/motion.h"

typedef struct {
  PetscReal  n[3], p[3];   /* unit normal into the domain, a point on the plane: now (PlanesMove) */
  PetscReal  n0[3], p0[3]; /* as the deck places them */
  WallMotion motion;       /* the faces' walls: none */
  PetscBool  moves;        /* the motion moves it, or its surface slides */
  PetscBool  present;      /* not removed (remove_time) */
  PetscInt   type;         /* its material type */
  char       name[8];      /* xlo .. zhi (the box's faces), wall0 .. wall7 */
} PlaneWall;

#define PLANES_MAX      16 /* the faces' (at most 6) and the deck's */
#define PLANES_DECK_MAX 8  /* wall0 .. wall7 */

typedef struct {
  PetscInt  n;
  PlaneWall w[PLANES_MAX];
} Planes;

/* faces: walls on both faces of every walled axis of the grid's box, first;
 * then the deck's wallK_normal, wallK_point. */
PETSC_EXTERN PetscErrorCode PlanesSetFromOptions(MPI_Comm, const Grid *, PetscBool faces, Planes *);
/* Every wall where its motion has it at time t. */
PETSC_EXTERN void PlanesMove(Planes *, PetscReal t);
/* Whether some wall moves or slides between t0 and t1 (the rebuild test counts its travel). */
PETSC_EXTERN PetscBool PlanesMoving(const Planes *);

#endif
