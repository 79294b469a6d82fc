/* The name of a wall as messages give it.  Walls are numbered planes first
 * (the box's faces, then the deck's wall0 .. wall7), then meshes (from
 * e->meshes.wall0 = e->planes.n, forces.c's mesh_wall0); a contact with
 * wall w has the partner -1 - w. */
#ifndef HDEM_WALLS_NAME_H
#define HDEM_WALLS_NAME_H

#include "engine/state.h"

/* "wall3" (the deck's), "the box's zlo wall" (a face), "mesh2 (drum.stl)";
 * "wall 17" for an index that is none of them. */
PETSC_EXTERN PetscErrorCode EngineWallName(const Engine *, PetscInt wall, char *buf, size_t len);

#endif
