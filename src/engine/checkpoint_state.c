/* Reading a checkpoint's attributes of /: its format, the time loop's state and counts, each value checked.
 * The attributes are read alike on every rank: their faults are too. */
#include "engine/checkpoint_state.h"
#include "decomp/collective.h"
#include <math.h>

/* The format attribute: which of the formats this hdem reads (an error otherwise). */
static PetscErrorCode CkptReadFormat(H5File f, PetscInt *version)
{
  char     *fmt, got[256] = "";
  PetscBool has, known;

  PetscFunctionBeginUser;
  PetscCall(H5FileReadAttrString(f, "format", &fmt, &has));
  PetscCheck(has, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s is not an hdem checkpoint (no format attribute: a snapshot or final.h5?); checkpoints are "
             "DIR/checkpoints/step_*.h5",
             H5FilePath(f));
  *version = !strcmp(fmt, CHECKPOINT_FORMAT)   ? CHECKPOINT_VERSION
           : !strcmp(fmt, CHECKPOINT_FORMAT_4) ? 4
           : !strcmp(fmt, CHECKPOINT_FORMAT_3) ? 3
           : !strcmp(fmt, CHECKPOINT_FORMAT_2) ? 2
           : !strcmp(fmt, CHECKPOINT_FORMAT_1) ? 1
                                               : 0;
  known    = *version > 0 ? PETSC_TRUE : PETSC_FALSE;
  if (!known) PetscCall(PetscStrncpy(got, fmt, sizeof(got))); /* fmt is freed before the error */
  PetscCall(PetscFree(fmt));
  PetscCheck(known, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s is not a checkpoint this hdem reads (format '%s'; it reads '%s', '%s', '%s', '%s' and '%s')",
             H5FilePath(f), got, CHECKPOINT_FORMAT, CHECKPOINT_FORMAT_4, CHECKPOINT_FORMAT_3, CHECKPOINT_FORMAT_2,
             CHECKPOINT_FORMAT_1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reals of / (CkptRealName), the domain, the drift and the lists' build time, from check on. */
static PetscErrorCode CkptReadTimes(H5File f, Engine *e, PetscInt64 check, CkptFault *ft)
{
  PetscReal *v[16];
  PetscInt64 i64;
  char       b[32];
  PetscBool  has;

  PetscFunctionBeginUser;
  CkptReals(e, v);
  for (int k = 0; k < 10; k++) {
    PetscReal x;
    PetscCall(H5FileReadAttrReal(f, CkptRealName[k], v[k], NULL));
    x = *v[k];
    /* time, dt, bound, dt_min, dt_max, dt_sum, energy_initial, work_gravity, skin, rmax */
    if (!isfinite(x))
      PetscCall(
        CkptFail(f, ft, check + k, -1, "attribute /%s is %s: it must be finite", CkptRealName[k], CkptNum(x, b)));
    else if ((k == 1 || k == 2 || k == 3 || k == 8 || k == 9) && !(x > 0.0))
      PetscCall(CkptFail(f, ft, check + k, -1, "attribute /%s is %s: it must be > 0", CkptRealName[k], CkptNum(x, b)));
    else if ((k == 0 || k == 4 || k == 5) && !(x >= 0.0))
      PetscCall(CkptFail(f, ft, check + k, -1, "attribute /%s is %s: it must be >= 0", CkptRealName[k], CkptNum(x, b)));
  }
  check += 10;
  for (int a = 0; a < 3; a++) {
    char      name[32];
    PetscReal lo, hi;
    PetscCall(PetscSNPrintf(name, sizeof(name), "domain_lo_%c", "xyz"[a]));
    PetscCall(H5FileReadAttrReal(f, name, &lo, NULL));
    PetscCall(PetscSNPrintf(name, sizeof(name), "domain_hi_%c", "xyz"[a]));
    PetscCall(H5FileReadAttrReal(f, name, &hi, NULL));
    PetscCheck(lo == e->grid.lo[a] && hi == e->grid.hi[a], PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
               "checkpoint %s: domain [%g, %g] on axis %c, the deck says [%g, %g]: restart with the deck that wrote it",
               H5FilePath(f), (double)lo, (double)hi, "xyz"[a], (double)e -> grid.lo[a], (double)e->grid.hi[a]);
    PetscCall(PetscSNPrintf(name, sizeof(name), "domain_periodic_%c", "xyz"[a]));
    PetscCall(H5FileReadAttrInt64(f, name, &i64, &has)); /* absent from checkpoints before it was kept */
    PetscCheck(!has || (i64 != 0) == (e->grid.periodic[a] ? PETSC_TRUE : PETSC_FALSE), PETSC_COMM_SELF,
               PETSC_ERR_USER_INPUT,
               "checkpoint %s: axis %c was %s, the deck makes it %s (-domain_periodic): restart with the deck that "
               "wrote it",
               H5FilePath(f), "xyz"[a], i64 ? "periodic" : "not periodic",
               e->grid.periodic[a] ? "periodic" : "not periodic");
  }
  for (int a = 0; a < 3; a++) {
    char name[32];
    PetscCall(PetscSNPrintf(name, sizeof(name), "drift_%c", "xyz"[a]));
    /* absent from checkpoints before it was kept: none */
    PetscCall(H5FileReadAttrReal(f, name, &e->drift[a], &has));
    if (!has) e->drift[a] = 0.0;
    if (!isfinite(e->drift[a]))
      PetscCall(
        CkptFail(f, ft, check + a, -1, "attribute /%s is %s: it must be finite", name, CkptNum(e->drift[a], b)));
  }
  check += 3;
  /* the lists' build time: where moving walls were when they were made (absent before walls moved: the time) */
  PetscCall(H5FileReadAttrReal(f, "time_at_build", &e->t_build, &has));
  if (!has) e->t_build = e->clock.t;
  if (!(isfinite(e->t_build) && e->t_build >= 0.0 && e->t_build <= e->clock.t))
    PetscCall(
      CkptFail(f, ft, check, -1, "attribute /time_at_build is %s: it must lie in [0, /time]", CkptNum(e->t_build, b)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The counts: step, particles present, lost and removed against the initial, from check on. */
static PetscErrorCode CkptReadCounts(H5File f, Engine *e, PetscInt64 *N, PetscInt64 check, CkptFault *ft)
{
  PetscInt64 nini, lost, removed;
  PetscBool  has;

  PetscFunctionBeginUser;
  PetscCall(H5FileReadAttrInt64(f, "step", &e->clock.step, NULL));
  PetscCall(H5FileReadAttrInt64(f, "particles", N, NULL));
  PetscCall(H5FileReadAttrInt64(f, "particles_initial", &nini, NULL));
  PetscCall(H5FileReadAttrInt64(f, "lost", &lost, NULL));
  /* by outflows; absent before there were any */
  PetscCall(H5FileReadAttrInt64(f, "removed", &removed, &has));
  if (!has) removed = 0;
  if (e->clock.step < 0)
    PetscCall(CkptFail(f, ft, check, -1, "attribute /step is %" PetscInt64_FMT ": it must be >= 0", e->clock.step));
  if (*N < 0)
    PetscCall(CkptFail(f, ft, check + 1, -1, "attribute /particles is %" PetscInt64_FMT ": it must be >= 0", *N));
  if (lost < 0)
    PetscCall(CkptFail(f, ft, check + 2, -1, "attribute /lost is %" PetscInt64_FMT ": it must be >= 0", lost));
  if (removed < 0)
    PetscCall(CkptFail(f, ft, check + 2, -1, "attribute /removed is %" PetscInt64_FMT ": it must be >= 0", removed));
  if (*N + lost + removed != nini)
    PetscCall(CkptFail(f, ft, check + 3, -1,
                       "attributes /particles (%" PetscInt64_FMT "), /lost (%" PetscInt64_FMT
                       ") and /removed (%" PetscInt64_FMT ") do not add up to /particles_initial (%" PetscInt64_FMT ")",
                       *N, lost, removed, nini));
  e->nglobal = nini, e->lost = lost;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CkptReadState(H5File f, Engine *e, PetscInt64 *N, PetscInt *version, CkptFault *ft)
{
  PetscInt64  i64, check = CKPT_CHECK_STATE + 18;
  char        b[32];
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCall(CkptReadFormat(f, version));
  PetscCall(CkptReadTimes(f, e, CKPT_CHECK_STATE, ft));
  PetscCall(CkptReadCounts(f, e, N, CKPT_CHECK_STATE + 14, ft));
  PetscCall(CollectiveRank(e->grid.comm, &rank, NULL));
  if (rank) e->work_gravity = 0.0, e->lost = 0; /* the totals are kept once */
  e->work_base = 0.0;
  if (*version >= 5) PetscCall(H5FileReadAttrReal(f, "work_gravity_base", &e->work_base, NULL));
  /* less the flow's energy it held: CheckpointRead */
  else if (!e->model.ledger) e->work_base = e->work_gravity;
  if (rank) e->work_base = 0.0;
  if (!isfinite(e->work_base))
    PetscCall(CkptFail(f, ft, check + 3, -1, "attribute /work_gravity_base is %s: it must be finite",
                       CkptNum(e->work_base, b)));
  PetscCall(H5FileReadAttrInt64(f, "rebuilds", &i64, NULL));
  if (i64 < 0 || i64 > PETSC_MAX_INT)
    PetscCall(CkptFail(f, ft, check, -1,
                       "attribute /rebuilds is %" PetscInt64_FMT ": it must be in [0, %" PetscInt_FMT "]", i64,
                       PETSC_MAX_INT));
  e->clock.rebuilds = (PetscInt)i64;
  PetscCall(H5FileReadAttrInt64(f, "rebuild_next", &i64, NULL));
  if (i64 != 0 && i64 != 1)
    PetscCall(CkptFail(f, ft, check + 1, -1, "attribute /rebuild_next is %" PetscInt64_FMT ": it must be 0 or 1", i64));
  e->rebuild_next = i64 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(H5FileReadAttrInt64(f, "warned_fixed", &i64, NULL));
  if (i64 != 0 && i64 != 1)
    PetscCall(CkptFail(f, ft, check + 2, -1, "attribute /warned_fixed is %" PetscInt64_FMT ": it must be 0 or 1", i64));
  e->health.warned_fixed = i64 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
