/* The sphere-plane interaction (sphere_plane.c): owned particles against
 * the plane walls. */
#ifndef HDEM_SPHERE_PLANE_H
#define HDEM_SPHERE_PLANE_H

#include "interact/interaction.h"
#include "interact/history.h"
#include "geometry/planes.h"

typedef struct {
  const Planes  *planes; /* the engine's: may be replaced by a checkpoint's, not moved */
  PetscInt       npair, cap;
  LocalInt      *ij;      /* 2 per pair: an owned particle, a wall */
  LocalInt      *slot;    /* per pair: its history in hs, or -1 */
  unsigned char *touched; /* per pair: its history is in contact */
  HistorySlots   hs;
  WallPose       pose[PLANES_MAX][2]; /* a moving wall's at the step's start and end */
} SpherePlane;

/* planes: the engine's walls, read at every build and step (not copied). */
PETSC_EXTERN PetscErrorCode SpherePlaneCreate(const Planes *planes, Interaction *);

#endif
