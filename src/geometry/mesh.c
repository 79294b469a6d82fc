/* The deck's meshes: their keys, their files read (by share on more than one rank) and distributed, their
 * bins set up and freed (geometry/mesh.h). */
#include "geometry/mesh.h"
#include "io/options.h"
#include "io/stl.h"
#include "geometry/mesh_share.h"
#include "decomp/collective.h"
#include "geometry/wear.h"

/* Keys meshK_*: help shows mesh0's; the others are recorded when given. */
static PetscErrorCode MeshKeys(MPI_Comm comm, PetscInt k, Mesh *m, StlTransform *tf, PetscBool *given)
{
  char      key[80];
  PetscReal rot[4] = {0, 0, 1, 0};
  PetscInt  n;
  PetscBool set;

  PetscFunctionBeginUser;
  StlTransformDefault(tf);
  PetscCall(PetscSNPrintf(m->name, sizeof(m->name), "mesh%" PetscInt_FMT, k));
  m->deck = k;
  OptionsQuiet(k > 0 ? PETSC_TRUE : PETSC_FALSE);
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_file", m->name));
  m->file[0] = 0;
  PetscCall(OptionsPath(key, "meshN (N = 0..15): an STL surface, ASCII or binary (relative: from the deck's folder)",
                        m->file, sizeof(m->file), given));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_scale", m->name));
  PetscCall(
    OptionsReal(key, "meshN: file units to metres", "[m/unit]", 0.0, PETSC_MAX_REAL, RANGE_OPEN_LO, &tf->scale, NULL));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_rotate", m->name));
  PetscCall(OptionsRealArray(key, "meshN: axis x, y, z and angle [deg] of a rotation about the origin, after scale",
                             "[-,deg]", 4, 4, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, rot, &n, &set));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_translate", m->name));
  PetscCall(OptionsRealArray(key, "meshN: translation after scale and rotate", "[m]", 3, 3, PETSC_MIN_REAL,
                             PETSC_MAX_REAL, RANGE_CLOSED, tf->translate, &n, NULL));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_type", m->name));
  m->type = 0;
  PetscCall(OptionsInt(key, "meshN: material type of the surface (materialK)", 0, LOCAL_INT_MAX, &m->type, NULL));
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s_curvature", m->name));
  m->curvature = 1.0;
  PetscCall(OptionsReal(key, "meshN: neighbouring faces closer than this to coplanar are one surface (one contact)",
                        "[deg]", 0.0, 90.0, RANGE_CLOSED, &m->curvature, NULL));
  PetscCall(MeshWearKeys(comm, m));
  OptionsQuiet(PETSC_FALSE);
  if (k == 0) {
    PetscCall(OptionsDefaultText("-mesh0_file", "none"));
    PetscCall(OptionsDefaultText("-mesh0_rotate", "none"));
  }
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s", m->name));
  PetscCall(WallMotionSetFromOptions(comm, key, k > 0 ? PETSC_TRUE : PETSC_FALSE, &m->motion));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  for (int a = 0; a < 3; a++) tf->axis[a] = rot[a];
  tf->angle = rot[3];
  if (set && rot[3] != 0.0)
    PetscCheck(rot[0] != 0.0 || rot[1] != 0.0 || rot[2] != 0.0, comm, PETSC_ERR_USER_INPUT,
               "-%s_rotate: the axis must not be zero", m->name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshesSetFromOptions(MPI_Comm comm, Meshes *ms)
{
  StlTransform tf[MESHES_MAX];
  PetscBool    given[MESHES_MAX];
  PetscMPIInt  size;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, NULL, &size));
  PetscCall(PetscMemzero(ms, sizeof(*ms)));
  PetscCall(OptionsSection("Meshes"));
  for (PetscInt k = 0; k < MESHES_MAX; k++) PetscCall(MeshKeys(comm, k, &ms->m[k], &tf[k], &given[k]));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < MESHES_MAX; k++) {
    Mesh   *m = &ms->m[ms->n];
    StlMesh sm;
    if (!given[k]) {
      char pre[16], file[24];
      PetscCall(PetscSNPrintf(pre, sizeof(pre), "-mesh%" PetscInt_FMT "_", k));
      PetscCall(PetscSNPrintf(file, sizeof(file), "-mesh%" PetscInt_FMT "_file", k));
      PetscCall(OptionsCheckSectionNeeds(comm, pre, file));
      continue;
    }
    if (ms->n != k) { /* meshes keep their deck names; slots are packed */
      ms->m[ms->n] = ms->m[k];
      PetscCall(PetscMemzero(&ms->m[k], sizeof(ms->m[k])));
    }
    ms->n++;
    if (size > 1) { /* read by share: no rank holds the whole mesh */
      StlShare sh;
      PetscCall(StlReadShare(comm, m->file, &tf[k], &sh));
      PetscCall(MeshSetUpShare(comm, m, &sh));
      PetscCall(StlShareDestroy(&sh));
      continue;
    }
    PetscCall(StlRead(comm, m->file, &tf[k], &sm));
    m->nv = sm.nv, m->nt = sm.nt, m->x = sm.x, m->tri = sm.tri;
    sm.x = NULL, sm.tri = NULL;
    PetscCall(StlMeshDestroy(&sm));
    PetscCall(MeshSetUpWhole(m));
    PetscCall(MeshDistribute(comm, m));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshesCheckDomain(MPI_Comm comm, const Meshes *ms, const PetscReal lo[3], const PetscReal hi[3])
{
  PetscFunctionBeginUser;
  for (PetscInt q = 0; q < ms->n; q++) {
    const Mesh *m = &ms->m[q];
    if (WallMotionMoves(&m->motion)) continue; /* it may move in */
    for (int a = 0; a < 3; a++)
      PetscCheck(m->hi[a] >= lo[a] && m->lo[a] <= hi[a], comm, PETSC_ERR_USER_INPUT,
                 "-%s_file %s: the mesh, at %c in [%g, %g] m (after -%s_scale, _rotate, _translate),"
                 " lies wholly outside the domain's [%g, %g] m (-domain_lo, -domain_hi) and does not move:"
                 " it would never touch a particle",
                 m->name, m->file, "xyz"[a], (double)m -> lo[a], (double)m -> hi[a], m -> name, (double)lo[a],
                 (double)hi[a]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshesSetUp(Meshes *ms, PetscReal reach)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < ms->n; k++) {
    ms->m[k].reach = reach;
    if (ms->m[k].whole) PetscCall(MeshSetUp(&ms->m[k], reach));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshesDestroy(Meshes *ms)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < MESHES_MAX; k++) PetscCall(MeshWearDestroy(&ms->m[k].wear));
  for (PetscInt k = 0; k < MESHES_MAX; k++) PetscCall(MeshDestroy(&ms->m[k]));
  ms->n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
