/* Checkpoints: everything a run needs to continue bitwise, on any number of
 * ranks, in one parallel HDF5 file (see io/h5file.h for the tmp+rename rule).
 *
 * Layout, format "hdem checkpoint 4" (N particles, M history records, W walls):
 *   /particles/<name> for every field the particle store marks
 *     FIELD_CHECKPOINT: id int64, type, flags int32, radius, mass, inertia
 *     float64 [N]; position, position_at_build, velocity, angular_velocity,
 *     force, torque float64 [N][3]
 *   /history/owner, kind, partner int64 [M] (kind 0: partner is a particle's
 *     id, 1: a plane wall's index), owner_position_at_build float64 [M][3],
 *     and the record's fields (ContactHistoryFields): spring [M][3],
 *     impact_speed, overlap, normal_force, step float64 [M], touched int64
 *     [M], rolling_torque [M][3], bridge_liquid [M]: each particle's
 *     records, keyed by global ids (in a wet run /particles/liquid too)
 *   (format 1, still read: no /history/kind, a wall's partner -1 - w)
 *   /walls/normal, /walls/point float64 [W][3]
 *   attributes of /: format, hdem_version, options; time, dt, bound, dt_min,
 *     dt_max, dt_sum, energy_initial, work_gravity, skin, rmax, domain_lo_*,
 *     domain_hi_*; step, particles, lost, rebuilds, rebuild_next, warned_fixed.
 * A particle's position_at_build (where the neighbour lists were last built)
 * lets a restart rebuild exactly the lists, ghosts and ownership the
 * uninterrupted run has, whatever the rank count.
 *
 * Every dataset carries a uint64 attribute "checksum" of its rows in file
 * order (io/h5file.h: the same whatever the rank count that wrote it).
 * Reading checks the file as a deck is checked, before any of it is used:
 * the attributes (time finite and >= 0, dt, bound, dt_min, skin, rmax
 * finite and > 0, the other reals finite, step, particles and lost >= 0
 * adding up to particles_initial, flags 0 or 1), each dataset present with
 * the rows the attributes say, every value (reals finite; radius, mass,
 * inertia > 0, radius <= rmax; ids in [0, 2^53]; position_at_build and
 * owner_position_at_build inside the box; history kinds 0 or 1, partners a
 * particle other than the owner or a wall of the deck; wall normals unit
 * vectors; liquid >= 0), each dataset against its checksum, unique ids,
 * and each history record's owner a particle of the file.  With bodies
 * (checkpoint_bodies.c): each member row's body mass and principal moments
 * > 0 and a rigid body's (triangle inequality), its orientation a unit
 * quaternion, its template the deck's; the /bodies datasets (written for readers)
 * finite, one row per body; every member's body in /bodies/id, every body
 * whole.  /flow (checkpoint_flow.c): counts and times >= 0, exact sums
 * canonical, checksums.  The first failure (by
 * check, then by row) is an error naming the file, the dataset or
 * attribute, the row and its id or key, and the value, raised on every
 * rank together.  A file without checksums (written before they were kept)
 * is read with a note on stdout; one where only some datasets have one was
 * rewritten by another tool and is refused. */
#ifndef HDEM_CHECKPOINT_H
#define HDEM_CHECKPOINT_H

#include "engine/engine.h"

PETSC_EXTERN PetscErrorCode CheckpointWrite(Engine *, const char *path, const char *options);
/* Collective: e has its grid, model, step control and walls from the deck and
 * no particles; fills particles, histories and the time-loop state, then
 * resumes the engine (EngineResume). */
PETSC_EXTERN PetscErrorCode CheckpointRead(Engine *, const char *path);

/* ---- between checkpoint.c (writing, loading) and checkpoint_check.c
 * (reading and checking); not for other callers -------------------------- */
#include "io/h5file.h"
#include <string.h>

/* Format 5 keeps gravity's work per particle (particles/gravity_work,
 * without the ledger); format 4 kept it as one total (read into the
 * engine's work_base), and format 4 keys each history record by (owner,
 * kind, partner) and has the rolling spring and the liquid bridge; format 3
 * had no bridge (read as none), format 2 no rolling spring either (read as
 * zero), format 1 no kind either, a wall's partner being -1 - w: read alike. */
#define CHECKPOINT_FORMAT   "hdem checkpoint 5"
#define CHECKPOINT_FORMAT_4 "hdem checkpoint 4"
#define CHECKPOINT_FORMAT_3 "hdem checkpoint 3"
#define CHECKPOINT_FORMAT_2 "hdem checkpoint 2"
#define CHECKPOINT_FORMAT_1 "hdem checkpoint 1"
#define CHECKPOINT_VERSION  5

/* The streams' and outflows' counters (checkpoint_flow.c): removed, the
 * particles the outflows took in all. */
PETSC_INTERN PetscErrorCode CheckpointWriteFlow(H5File, Engine *, PetscInt64 *removed);

static inline H5FileType CkptType(FieldType t)
{
  return t == FIELD_INT64 ? H5FILE_INT64 : t == FIELD_INT32 ? H5FILE_INT32 : H5FILE_REAL;
}

static inline size_t CkptTypeSize(FieldType t)
{
  return t == FIELD_INT64 ? sizeof(PetscInt64) : t == FIELD_INT32 ? sizeof(int32_t) : sizeof(PetscReal);
}

/* The real attributes of / by name, and the engine's members they are. */
PETSC_INTERN const char *const CkptRealName[10];
PETSC_INTERN void              CkptReals(Engine *, PetscReal *v[16]);

/* One dataset of the checkpoint: its shape, this rank's rows of it as read
 * (raw, of its type), its checksum. */
typedef struct {
  char       name[64]; /* particles/<field>, history/<name>, walls/<name> */
  FieldType  type;
  PetscInt   ncomp, field; /* field: the particle store's, or -1 */
  PetscInt64 N, off;       /* its rows, this rank's first */
  PetscInt   n;            /* this rank's rows (all N when replicated) */
  PetscBool  replicated, has_sum;
  uint64_t   stored, sum;
  char      *raw;
} CkptSet;

#define CKPT_SETS_MAX 64
typedef struct {
  CkptSet  s[CKPT_SETS_MAX];
  PetscInt n, particles, history, bodies; /* where each group starts (walls first; bodies: n without) */
  PetscInt version;                       /* the file's format: 1, 2 or 3 */
} CkptSets;

static inline CkptSet *CkptSetFind(CkptSets *ss, const char *name)
{
  for (PetscInt k = 0; k < ss->n; k++)
    if (!strcmp(ss->s[k].name, name)) return &ss->s[k];
  return NULL;
}

/* Element (i, c) of this rank's rows of d, as a real (exact for the integers kept). */
static inline PetscReal CkptReal(const CkptSet *d, PetscInt i, PetscInt c)
{
  size_t k = (size_t)i * (size_t)d->ncomp + (size_t)c;
  return d->type == FIELD_INT64 ? (PetscReal)((const PetscInt64 *)d->raw)[k]
       : d->type == FIELD_INT32 ? (PetscReal)((const int32_t *)d->raw)[k]
                                : ((const PetscReal *)d->raw)[k];
}

static inline PetscInt64 CkptI64(const CkptSet *d, PetscInt i, PetscInt c)
{
  size_t k = (size_t)i * (size_t)d->ncomp + (size_t)c;
  return d->type == FIELD_INT64 ? ((const PetscInt64 *)d->raw)[k]
       : d->type == FIELD_INT32 ? (PetscInt64)((const int32_t *)d->raw)[k]
                                : 0;
}

static inline const char *CkptNum(PetscReal v, char buf[32])
{
  (void)PetscSNPrintf(buf, 32, "%.17g", (double)v);
  return buf;
}

#define CKPT_MSG_LEN 1024

/* What is wrong with a checkpoint: the first fault on this rank by (check,
 * row), the checks numbered alike on every rank, rows the file's (-1: not
 * about a row).  A stage's faults are agreed over the ranks (the first
 * over all), then said together by every rank. */
#define CKPT_NONE ((PetscInt64)1 << 19)
enum { /* the checks' order: the first group that fails is the one said */
  CKPT_CHECK_STATE  = 0,
  CKPT_CHECK_SHAPE  = 100,
  CKPT_CHECK_HASSUM = 200,
  /* + the dataset's index: a bad value says where, before its dataset's checksum */
  CKPT_CHECK_VALUE    = 300,
  CKPT_CHECK_FLOW     = CKPT_CHECK_VALUE + CKPT_SETS_MAX, /* + 0 .. 7: /flow's values, then its checksums */
  CKPT_CHECK_CHECKSUM = 400,
  CKPT_CHECK_IDS      = 500,
  CKPT_CHECK_BODIES   = 510
};

typedef struct {
  PetscInt64 check, row;
  char       msg[CKPT_MSG_LEN];
} CkptFault;

/* ft takes the fault (check, row) when it comes before the one it holds:
 * the message is "checkpoint FILE: " and fmt's. */
PETSC_INTERN PetscErrorCode CkptFail(H5File, CkptFault *ft, PetscInt64 check, PetscInt64 row, const char *fmt, ...)
  PETSC_ATTRIBUTE_FORMAT(5, 6);
/* Who row i of dataset k is, for a message: " (id ...)", a record's key, a body's id. */
PETSC_INTERN PetscErrorCode CkptWho(CkptSets *, PetscInt k, PetscInt i, char *who, size_t len);

/* checkpoint_bodies.c.  The values of this rank's rows of multi-sphere
 * bodies (checkpoint.h's header says which) and liquid. */
PETSC_INTERN PetscErrorCode CkptCheckBodyValues(H5File, const Engine *, CkptSets *, CkptFault *);
/* Collective: ids unique, every record's owner a particle, every body whole
 * and once in /bodies/id, checked where the ids meet. */
PETSC_INTERN PetscErrorCode CkptCheckIds(H5File, const Engine *, CkptSets *, CkptFault *);
/* checkpoint_flow.c.  Collective: /flow read whole by every rank into e's
 * flow state, its shapes, values and checksums checked; then, once the
 * file is agreed, carried on by rank 0 (CkptLoadFlow). */
PETSC_INTERN PetscErrorCode CkptReadFlow(H5File, Engine *, CkptFault *);
PETSC_INTERN PetscErrorCode CkptLoadFlow(Engine *);
/* Collective, on f opened by every rank: the attributes of / into e's
 * time-loop state (*N particles; *version: the file's format), checked.  One
 * that cannot be read (no format, another format, one missing) is an error
 * on every rank; a value at fault sets *failed, msg saying it alike on
 * every rank. */
PETSC_INTERN PetscErrorCode CkptReadAttributes(H5File f, Engine *e, PetscInt64 *N, PetscInt *version, PetscBool *failed,
                                               char msg[CKPT_MSG_LEN]);
/* Collective, after CkptReadAttributes: this rank's rows of every dataset
 * into ss (CkptSetsDestroy frees them), shapes, values, checksums and ids
 * checked, each stage agreed by all ranks; *failed and msg as above.  Other
 * errors (HDF5, memory) are this rank's: the caller abandons the file. */
PETSC_INTERN PetscErrorCode CkptReadDatasets(H5File f, Engine *e, PetscInt64 N, PetscInt version, CkptSets *ss,
                                             PetscBool *failed, char msg[CKPT_MSG_LEN]);
PETSC_INTERN PetscErrorCode CkptSetsDestroy(CkptSets *);

#endif
