/* A store of per-particle data described by a table of fields: structure of
 * arrays, owned rows first, then ghosts.  The table says of each field its
 * name, element type, components and what it does (FIELD_* flags); growing,
 * copying, sorting, migration, the halo, checkpoints and snapshots iterate
 * the table, so a new field is one FieldStoreAdd.
 *
 * The arrays belong to the store's owner (e.g. Particles' named members):
 * a field is registered with the address of the owner's pointer, which the
 * store reallocates in place.  An owner therefore never moves (no copies by
 * value) once its store is created.  The counts of owned and ghost rows are
 * the owner's too, reached through pointers.
 *
 * Six fields are the decomposition's own and every store has them: id (its
 * global id), position, image (a ghost's periodic shift in box lengths),
 * owner (rank), origin (a rank's own periodic image: the local row it copies)
 * and flags (bits; FIELD_SELF_IMAGE is the halo's). */
#ifndef HDEM_FIELDS_H
#define HDEM_FIELDS_H

#include "hdem.h"

typedef enum {
  FIELD_INT64, /* PetscInt64 */
  FIELD_INT32, /* int32_t (LocalInt) */
  FIELD_INT8,  /* signed char */
  FIELD_REAL   /* PetscReal */
} FieldType;

/* What a field does */
#define FIELD_OWNED      (1u << 0) /* owned rows only: ghosts have none (force sums, build positions) */
#define FIELD_GHOST      (1u << 1) /* copied to ghosts at the borders, carried by migration */
#define FIELD_FORWARD    (1u << 2) /* refreshed on ghosts every step (PetscReal only) */
#define FIELD_CHECKPOINT (1u << 3) /* in checkpoints, to continue bitwise */
#define FIELD_SNAPSHOT   (1u << 4) /* may be written to snapshots and final states */
#define FIELD_PAD        (1u << 5) /* one zero element after the last row (vector loads of 3 + 1 reals) */
#define FIELD_STEPPING   (1u << 6) /* only the time loop needs it: released when a run ends */
#define FIELD_MIGRATE \
  (1u << 7) /* with FIELD_OWNED: owned rows only, but carried by migration (a state only the owner reads) */

#define FIELD_SELF_IMAGE 2 /* flags bit: a ghost whose owner is this rank (a periodic image) */

#define FIELD_MAX      48
#define FIELD_NAME_LEN 32

typedef struct {
  char      name[FIELD_NAME_LEN]; /* dataset name in checkpoints and snapshots */
  FieldType type;
  PetscInt  ncomp;
  unsigned  flags;
  void    **data; /* the owner's pointer to the array */
} Field;

typedef struct {
  PetscInt *n, *nghost; /* the owner's counts of owned and ghost rows */
  PetscInt  cap, ocap;  /* rows allocated: all fields, and the owned-only ones */
  PetscInt  nfield;
  Field     field[FIELD_MAX];
  /* the decomposition's fields, as the owner holds them */
  PetscInt64  **id;
  PetscReal   **x;
  signed char **image;
  LocalInt    **owner, **origin, **flags;
  /* rows whose flags have a bit of home_flag belong where their home
   * position (a 3-real field) is, not their position: migration and the
   * periodic wrap go by it, and a wrap shifts both (FieldStoreSetHome) */
  PetscReal **home;
  LocalInt    home_flag;
} FieldStore;

/* The decomposition's fields (all but flags travel as FIELD_GHOST; position
 * also FIELD_FORWARD | FIELD_CHECKPOINT | FIELD_SNAPSHOT, id and flags
 * FIELD_CHECKPOINT, id FIELD_SNAPSHOT), then the owner adds its own. */
PETSC_EXTERN PetscErrorCode FieldStoreCreate(FieldStore *, PetscInt *n, PetscInt *nghost, PetscInt64 **id,
                                             PetscReal **x, signed char **image, LocalInt **owner, LocalInt **origin,
                                             LocalInt **flags);
PETSC_EXTERN PetscErrorCode FieldStoreAdd(FieldStore *, const char *name, FieldType, PetscInt ncomp, unsigned flags,
                                          void **data);
PETSC_EXTERN PetscErrorCode FieldStoreDestroy(FieldStore *);
/* Rows with a flags bit of flag go by the 3-real field home (registered). */
PETSC_EXTERN void FieldStoreSetHome(FieldStore *, PetscReal **home, LocalInt flag);
/* Where row i belongs: its home or its position. */
static inline const PetscReal *FieldStoreHomeOf(const FieldStore *st, PetscInt i)
{
  return (st->home && ((*st->flags)[i] & st->home_flag)) ? *st->home + 3 * i : *st->x + 3 * i;
}
/* Frees the fields with any of the flags (FIELD_STEPPING at a run's end). */
PETSC_EXTERN PetscErrorCode FieldStoreRelease(FieldStore *, unsigned flags);
PETSC_EXTERN PetscInt       FieldStoreFind(const FieldStore *, const char *name); /* -1: none */

/* Room for cap rows of every field (owned and ghosts); FieldStoreReserve
 * also for cap owned rows of the owned-only fields.  Contents are kept. */
PETSC_EXTERN PetscErrorCode FieldStoreReserveGhosts(FieldStore *, PetscInt cap);
PETSC_EXTERN PetscErrorCode FieldStoreReserve(FieldStore *, PetscInt cap);
/* A new owned row at the end (no ghosts may exist), every field zero but
 * owner and origin (-1); returns its index. */
PETSC_EXTERN PetscErrorCode FieldStoreAppend(FieldStore *, PetscInt *row);
/* Row from into row to, every field (owned-only ones where both rows have them). */
PETSC_EXTERN void FieldStoreCopyRow(FieldStore *, PetscInt to, PetscInt from);
/* The owned rows whose drop is 0 moved down, in order, over those dropped;
 * the owned count becomes theirs. */
PETSC_EXTERN PetscErrorCode FieldStoreCompactOwned(FieldStore *, const PetscInt *drop);
/* Rows to .. to + nrows - 1 take rows from[0 .. nrows-1], the fields with
 * any of the flags mask (images made in place). */
PETSC_EXTERN void FieldStoreGatherRows(FieldStore *, unsigned mask, PetscInt to, PetscInt nrows, const LocalInt *from);
/* Owned rows into the order perm (row k takes row perm[k]); buf: room for
 * n elements of the largest field. */
PETSC_EXTERN void   FieldStorePermuteOwned(FieldStore *, const LocalInt *perm, void *buf);
PETSC_EXTERN size_t FieldStoreElementSize(const Field *);

/* Rows as reals (integers are exact below 2^53, which ids are checked
 * against): the fields with any of the flags mask, in table order, each
 * row's values together.  A row of the pack is PackWidth reals. */
PETSC_EXTERN PetscInt FieldStorePackWidth(const FieldStore *, unsigned mask);
/* Where field f starts in such a row, or -1 if it is not packed. */
PETSC_EXTERN PetscInt FieldStorePackOffset(const FieldStore *, unsigned mask, PetscInt f);
/* Rows rows[0 .. nrows-1] into consecutive packed rows of buf. */
PETSC_EXTERN void FieldStorePack(const FieldStore *, unsigned mask, PetscInt nrows, const LocalInt *rows,
                                 PetscReal *buf);
/* Consecutive packed rows of buf into rows start .. start + nrows - 1. */
PETSC_EXTERN void FieldStoreUnpack(FieldStore *, unsigned mask, PetscInt start, PetscInt nrows, const PetscReal *buf);
/* The same values field after field: each field's values of all nrows rows
 * together (nrows * PackWidth reals in all), so a receiver's consecutive
 * rows take each field in one copy (the halo's every-step messages). */
PETSC_EXTERN void FieldStorePackColumns(const FieldStore *, unsigned mask, PetscInt nrows, const LocalInt *rows,
                                        PetscReal *buf);
/* Such columns of buf into rows start .. start + nrows - 1. */
PETSC_EXTERN void FieldStoreUnpackColumns(FieldStore *, unsigned mask, PetscInt start, PetscInt nrows,
                                          const PetscReal *buf);
/* Zero the fields with any of the flags mask in rows start .. start + nrows - 1. */
PETSC_EXTERN void FieldStoreZero(FieldStore *, unsigned mask, PetscInt start, PetscInt nrows);
/* The fields with any of the flags mask of row from into row to (an image made in place). */
PETSC_EXTERN void FieldStoreCopyFields(FieldStore *, unsigned mask, PetscInt to, PetscInt from);

#endif
