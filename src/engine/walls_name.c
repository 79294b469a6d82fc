#include "engine/walls_name.h"
#include <string.h>

PetscErrorCode EngineWallName(const Engine *e, PetscInt wall, char *buf, size_t len)
{
  PetscInt q = wall - e->planes.n;

  PetscFunctionBeginUser;
  if (wall >= 0 && wall < e->planes.n) {
    const char *name = e->planes.w[wall].name;
    if (!strncmp(name, "wall", 4)) PetscCall(PetscSNPrintf(buf, len, "%s", name));
    else PetscCall(PetscSNPrintf(buf, len, "the box's %s wall", name)); /* a face: xlo .. zhi */
  } else if (q >= 0 && q < e->meshes.n) {
    const Mesh *m    = &e->meshes.m[q];
    const char *base = strrchr(m->file, '/');
    /* the file's own name: a mesh is known by it, the folder would only make the message long */
    PetscCall(PetscSNPrintf(buf, len, "%s (%s)", m->name, base ? base + 1 : m->file));
  } else PetscCall(PetscSNPrintf(buf, len, "wall %" PetscInt_FMT, wall));
  PetscFunctionReturn(PETSC_SUCCESS);
}
