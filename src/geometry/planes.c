#include "geometry/planes.h"
#include "io/options.h"

PetscErrorCode PlanesSetFromOptions(MPI_Comm comm, const Grid *g, PetscBool faces, Planes *pl)
{
  PetscFunctionBeginUser;
  pl->n = 0;
  if (faces)
    for (int a = 0; a < 3; a++) {
      if (g->periodic[a]) continue;
      for (int s = 0; s < 2; s++) {
        PlaneWall *w = &pl->w[pl->n++];
        for (int c = 0; c < 3; c++) w->n[c] = w->p[c] = 0.0;
        w->n[a] = s == 0 ? 1.0 : -1.0;
        w->p[a] = s == 0 ? g->lo[a] : g->hi[a];
      }
    }
  for (PetscInt k = 0; k < PLANES_DECK_MAX; k++) {
    char      kn[64], kp[64];
    PetscReal nrm[3], pt[3] = {0, 0, 0}, len;
    PetscInt  nn, np;
    PetscBool nset, pset;
    PetscCall(PetscSNPrintf(kn, sizeof(kn), "-wall%" PetscInt_FMT "_normal", k));
    PetscCall(PetscSNPrintf(kp, sizeof(kp), "-wall%" PetscInt_FMT "_point", k));
    for (int c = 0; c < 3; c++) nrm[c] = 0.0;
    PetscCall(OptionsSection("Walls"));
    PetscCall(
      OptionsRealArray(kn, "normal of a plane wall, pointing into the particles", "[-]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, nrm, &nn, &nset));
    PetscCall(OptionsRealArray(kp, "a point on the plane wall", "[m]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, pt, &np, &pset));
    if (!nset && !pset) continue;
    PetscCheck(nset, comm, PETSC_ERR_USER_INPUT, "%s is given without %s", kp, kn);
    len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    PetscCheck(len > 0.0, comm, PETSC_ERR_USER_INPUT, "%s must not be zero", kn);
    PetscCheck(pl->n < PLANES_MAX, comm, PETSC_ERR_USER_INPUT, "at most %d walls", PLANES_MAX);
    for (int c = 0; c < 3; c++) {
      pl->w[pl->n].n[c] = nrm[c] / len;
      pl->w[pl->n].p[c] = pt[c];
    }
    pl->n++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
