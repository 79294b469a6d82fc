/* A checkpoint's contents in memory for the checkpoint fuzzer
 * (fuzz_checkpoint.c): its datasets and the attributes of /, each as the
 * file had it, with what an edit changed. */
#ifndef HDEM_CKPT_MODEL_H
#define HDEM_CKPT_MODEL_H

#include <stdint.h>
#include <hdf5.h>
#include "hdem.h"

#define MAX_SETS  64
#define MAX_ATTRS 64
#define MAX_ROWS  4096 /* what duplications may grow a dataset to */

typedef enum {
  K_REAL,
  K_I64,
  K_I32
} Kind;

enum {
  SUM_AUTO, /* recomputed if edited (or left, by the flags) */
  SUM_RECOMPUTE,
  SUM_STALE,
  SUM_DELETE,
  SUM_SET
};

typedef struct {
  char           name[128];
  Kind           kind;
  int            ncomp;
  PetscInt64     rows;
  unsigned char *data;
  int            present, dirty, recreate; /* recreate: its shape or class changed */
  int            has_sum, sum;
  uint64_t       stored, value; /* the template's checksum; SUM_SET's */
} Set;

typedef enum {
  A_REAL,
  A_I64,
  A_STR
} AKind;

typedef struct {
  char    name[64];
  AKind   kind;
  int     npoints; /* 1; 2 after ATTR_RETYPE made it an array */
  double  r;
  int64_t i;
  char    s[2048];
  int     present, dirty;
} Attr;

typedef struct {
  Set  s[MAX_SETS];
  int  ns;
  Attr a[MAX_ATTRS];
  int  na;
} Ckpt;

#define CHECK(c) \
  do { \
    if (!(c)) Die("harness: %s failed (%s:%d)", #c, __FILE__, __LINE__); \
  } while (0)

void   Die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
size_t ESize(Kind k);
hid_t  MemType(Kind k);
hid_t  DiskType(Kind k);
Attr  *AttrFind(Ckpt *c, const char *name);
Set   *SetFind(Ckpt *c, const char *name);
void   Copy(Ckpt *to, const Ckpt *from);

#endif
