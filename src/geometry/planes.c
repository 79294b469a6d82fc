#include "geometry/planes.h"
#include <math.h>
#include "io/options.h"

/* What the deck gives for wallK. */
typedef struct {
  PetscReal  nrm[3], pt[3];
  PetscBool  nset, pset;
  WallMotion mot;
  PetscInt   type;
} PlaneKeys;

/* Keys wallK_*: help shows wall0's, the others are recorded when given. */
static PetscErrorCode PlaneKeysRead(MPI_Comm comm, PetscInt k, PlaneKeys *d)
{
  char     kn[64], kp[64];
  PetscInt nn, np;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(kn, sizeof(kn), "-wall%" PetscInt_FMT "_normal", k));
  PetscCall(PetscSNPrintf(kp, sizeof(kp), "-wall%" PetscInt_FMT "_point", k));
  for (int c = 0; c < 3; c++) d->nrm[c] = d->pt[c] = 0.0;
  OptionsQuiet(k > 0 ? PETSC_TRUE : PETSC_FALSE);
  PetscCall(OptionsRealArray(kn,
                             "wallN (N = 0..7): normal of a plane wall, pointing into the particles (the wall is "
                             "infinite and one-sided)",
                             "[-]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, d->nrm, &nn, &d->nset));
  PetscCall(OptionsRealArray(kp, "wallN (N = 0..7): a point on the plane wall", "[m]", 3, 3, PETSC_MIN_REAL,
                             PETSC_MAX_REAL, RANGE_CLOSED, d->pt, &np, &d->pset));
  PetscCall(PetscSNPrintf(kp, sizeof(kp), "-wall%" PetscInt_FMT "_type", k));
  d->type = 0;
  PetscCall(OptionsInt(kp, "wallN: material type of the wall (materialK)", 0, LOCAL_INT_MAX, &d->type, NULL));
  PetscCall(PetscSNPrintf(kp, sizeof(kp), "-wall%" PetscInt_FMT "_point", k));
  OptionsQuiet(PETSC_FALSE);
  {
    char pre[32];
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "-wall%" PetscInt_FMT, k));
    PetscCall(WallMotionSetFromOptions(comm, pre, k > 0 ? PETSC_TRUE : PETSC_FALSE, &d->mot));
  }
  if (k == 0) {
    PetscCall(OptionsDefaultText(kn, "none"));
    PetscCall(OptionsDefaultText(kp, "0,0,0"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Walls on both faces of every walled axis of the grid's box. */
static PetscErrorCode PlanesAddFaces(const Grid *g, PetscInt face_type, Planes *pl)
{
  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++) {
    if (g->periodic[a]) continue;
    for (int s = 0; s < 2; s++) {
      PlaneWall *w = &pl->w[pl->n++];
      PetscCall(PetscMemzero(w, sizeof(*w)));
      w->motion.stop = w->motion.remove = INFINITY;
      w->type                           = face_type;
      PetscCall(PetscSNPrintf(w->name, sizeof(w->name), "%c%s", "xyz"[a], s == 0 ? "lo" : "hi"));
      w->n[a] = s == 0 ? 1.0 : -1.0;
      w->p[a] = s == 0 ? g->lo[a] : g->hi[a];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* wallK, when the deck gives it, checked and appended. */
static PetscErrorCode PlanesAddDeck(MPI_Comm comm, PetscInt k, const PlaneKeys *d, Planes *pl)
{
  PetscReal len;

  PetscFunctionBeginUser;
  if (!d->nset && !d->pset) {
    char pre[16], normal[24];
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "-wall%" PetscInt_FMT "_", k));
    PetscCall(PetscSNPrintf(normal, sizeof(normal), "-wall%" PetscInt_FMT "_normal", k));
    PetscCall(OptionsCheckSectionNeeds(comm, pre, normal));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(d->nset, comm, PETSC_ERR_USER_INPUT,
             "-wall%" PetscInt_FMT "_point is given without -wall%" PetscInt_FMT "_normal", k, k);
  len = sqrt(d->nrm[0] * d->nrm[0] + d->nrm[1] * d->nrm[1] + d->nrm[2] * d->nrm[2]);
  PetscCheck(len > 0.0, comm, PETSC_ERR_USER_INPUT, "-wall%" PetscInt_FMT "_normal must not be zero", k);
  PetscCheck(pl->n < PLANES_MAX, comm, PETSC_ERR_USER_INPUT, "at most %d walls", PLANES_MAX);
  PetscCall(PetscMemzero(&pl->w[pl->n], sizeof(pl->w[pl->n])));
  for (int c = 0; c < 3; c++) {
    pl->w[pl->n].n[c] = d->nrm[c] / len;
    pl->w[pl->n].p[c] = d->pt[c];
  }
  pl->w[pl->n].motion = d->mot;
  pl->w[pl->n].type   = d->type;
  PetscCall(PetscSNPrintf(pl->w[pl->n].name, sizeof(pl->w[pl->n].name), "wall%" PetscInt_FMT, k));
  {
    const PetscReal *s = d->mot.surface_velocity;
    pl->w[pl->n].moves = WallMotionMoves(&d->mot) || s[0] != 0.0 || s[1] != 0.0 || s[2] != 0.0 ? PETSC_TRUE
                                                                                               : PETSC_FALSE;
  }
  pl->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Keys wall0_* .. wall7_*: read first (help shows wall0's, the others only
 * when given); then the faces' walls and the deck's, in that order. */
PetscErrorCode PlanesSetFromOptions(MPI_Comm comm, const Grid *g, PetscBool faces, Planes *pl)
{
  PlaneKeys d[PLANES_DECK_MAX];
  PetscInt  face_type = 0;

  PetscFunctionBeginUser;
  PetscCall(OptionsSection("Walls"));
  PetscCall(OptionsInt("-domain_walls_type", "material type of the box's face walls (materialK)", 0, LOCAL_INT_MAX,
                       &face_type, NULL));
  for (PetscInt k = 0; k < PLANES_DECK_MAX; k++) PetscCall(PlaneKeysRead(comm, k, &d[k]));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  pl->n = 0;
  if (faces) PetscCall(PlanesAddFaces(g, face_type, pl));
  for (PetscInt k = 0; k < PLANES_DECK_MAX; k++) PetscCall(PlanesAddDeck(comm, k, &d[k], pl));
  for (PetscInt k = 0; k < pl->n; k++) {
    PlaneWall *w = &pl->w[k];
    for (int c = 0; c < 3; c++) w->n0[c] = w->n[c], w->p0[c] = w->p[c];
    w->present = PETSC_TRUE;
  }
  PlanesMove(pl, 0.0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

void PlanesMove(Planes *pl, PetscReal t)
{
  for (PetscInt k = 0; k < pl->n; k++) {
    PlaneWall *w = &pl->w[k];
    w->present   = WallMotionPresent(&w->motion, t);
    if (WallMotionMoves(&w->motion)) {
      WallPose ps;
      WallMotionPose(&w->motion, t, &ps);
      WallPoseRotate(&ps, w->n0, w->n);
      WallPoseApply(&ps, w->p0, w->p);
    }
  }
}

PetscBool PlanesMoving(const Planes *pl)
{
  for (PetscInt k = 0; k < pl->n; k++)
    if (WallMotionMoves(&pl->w[k].motion)) return PETSC_TRUE;
  return PETSC_FALSE;
}
