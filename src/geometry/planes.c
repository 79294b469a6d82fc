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
    PetscInt  nn = 3, np = 3;
    PetscBool nset, pset;
    PetscCall(PetscSNPrintf(kn, sizeof(kn), "-wall%" PetscInt_FMT "_normal", k));
    PetscCall(PetscSNPrintf(kp, sizeof(kp), "-wall%" PetscInt_FMT "_point", k));
    PetscOptionsBegin(comm, NULL, "Walls", NULL);
    PetscCall(OptionsCheckList(kn, PETSC_FALSE, 3, 3));
    PetscCall(OptionsCheckList(kp, PETSC_FALSE, 3, 3));
    PetscCall(PetscOptionsRealArray(kn, "normal of plane wall k, pointing into the particles", NULL, nrm, &nn, &nset));
    PetscCall(PetscOptionsRealArray(kp, "a point on plane wall k [m]", NULL, pt, &np, &pset));
    PetscOptionsEnd();
    if (!nset && !pset) continue;
    PetscCheck(nset && nn == 3 && (!pset || np == 3), comm, PETSC_ERR_USER_INPUT, "%s needs 3 values (and %s 3 values, default the origin)", kn, kp);
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
