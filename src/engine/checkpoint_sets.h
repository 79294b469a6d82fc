/* What the checkpoint's writer and its readers share (checkpoint.c, checkpoint_check.c, checkpoint_bodies.c,
 * checkpoint_flow.c): the format, the datasets as read, what is at fault and how it is said. */
#ifndef HDEM_CHECKPOINT_SETS_H
#define HDEM_CHECKPOINT_SETS_H

#include "engine/state.h"
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

PETSC_INTERN PetscErrorCode CkptSetsDestroy(CkptSets *);

#endif
