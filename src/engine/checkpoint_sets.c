#include "engine/checkpoint_sets.h"
#include <stdarg.h>

const char *const CkptRealName[10] = {"time",           "dt",           "bound", "dt_min", "dt_max", "dt_sum",
                                      "energy_initial", "work_gravity", "skin",  "rmax"};

void CkptReals(Engine *e, PetscReal *v[16])
{
  v[0] = &e->clock.t, v[1] = &e->clock.dt, v[2] = &e->clock.bound, v[3] = &e->clock.dt_min, v[4] = &e->clock.dt_max,
  v[5] = &e->clock.dt_sum;
  v[6] = &e->health.e_initial, v[7] = &e->work_gravity, v[8] = &e->skin, v[9] = &e->rmax;
}

PetscErrorCode CkptFail(H5File f, CkptFault *ft, PetscInt64 check, PetscInt64 row, const char *fmt, ...)
{
  va_list        ap;
  size_t         len;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  if (check > ft->check || (check == ft->check && row >= ft->row)) PetscFunctionReturn(PETSC_SUCCESS);
  ft->check = check, ft->row = row;
  PetscCall(PetscSNPrintf(ft->msg, sizeof(ft->msg), "checkpoint %s: ", H5FilePath(f)));
  PetscCall(PetscStrlen(ft->msg, &len));
  va_start(ap, fmt);
  ierr = PetscVSNPrintf(ft->msg + len, sizeof(ft->msg) - len, fmt, NULL, ap);
  va_end(ap);
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CkptSetsDestroy(CkptSets *ss)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < ss->n; k++) PetscCall(PetscFree(ss->s[k].raw));
  ss->n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CkptWho(CkptSets *ss, PetscInt k, PetscInt i, char *who, size_t len)
{
  const CkptSet *id = CkptSetFind(ss, "particles/id"), *owner = CkptSetFind(ss, "history/owner"),
                *partner = CkptSetFind(ss, "history/partner"), *kind = CkptSetFind(ss, "history/kind");

  PetscFunctionBeginUser;
  who[0] = 0;
  if (k >= ss->bodies)
    PetscCall(PetscSNPrintf(who, len, " (body %" PetscInt64_FMT ")", CkptI64(CkptSetFind(ss, "bodies/id"), i, 0)));
  else if (k >= ss->history) {
    PetscInt64 pa = CkptI64(partner, i, 0), pk = kind   ? CkptI64(kind, i, 0)
                                               : pa < 0 ? HISTORY_KIND_PLANE
                                                        : HISTORY_KIND_SPHERE;
    PetscCall(PetscSNPrintf(who, len,
                            " (owner %" PetscInt64_FMT ", kind %" PetscInt64_FMT ", partner %" PetscInt64_FMT ")",
                            CkptI64(owner, i, 0), pk, pa));
  } else if (k >= ss->particles) PetscCall(PetscSNPrintf(who, len, " (id %" PetscInt64_FMT ")", CkptI64(id, i, 0)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
