/* What the slab grid's exchange (exchange.c) and the tree's (exchange_tree.c) share: the exchange's state and
 * the helpers both use.  Callers use decomp/exchange.h. */
#ifndef HDEM_EXCHANGE_COMMON_H
#define HDEM_EXCHANGE_COMMON_H

#include "decomp/grid.h"
#include "decomp/fields.h"
#include "decomp/records.h"

/* What the exchanges send, counted where the messages go: the halo of every step (ExchangeForward), the ghosts
 * made at a rebuild (ExchangeBorders) and the migration (ExchangeMigrate).  A message's size sent ahead of it
 * (a slab's swap, a tree's rendezvous) is a message of its own; copies a rank makes of its own periodic images
 * are no messages. */
typedef enum {
  EXCHANGE_HALO,
  EXCHANGE_BORDERS,
  EXCHANGE_MIGRATE,
  EXCHANGE_KINDS
} ExchangeKind;
PETSC_EXTERN const char *const ExchangeKindNames[];

typedef struct {
  PetscInt64 sent, received;             /* messages */
  PetscInt64 bytes_sent, bytes_received; /* their payloads */
} ExchangeTally;

typedef struct {
  PetscInt   nsend[6], nrecv[6], recv_start[6];
  LocalInt  *send[6]; /* local indices sent in each swap */
  PetscInt   send_cap[6];
  PetscReal *sbuf, *rbuf; /* persistent buffers */
  PetscInt   sbuf_cap, rbuf_cap;
  PetscReal  cut;     /* ghost cutoff */
  PetscReal  slack;   /* how far a row may lie from its home (fields.h), hence outside its subdomain */
  PetscReal  wmin;    /* the narrowest subdomain the exchange works with: cut + slack (ghosts go one hop) */
  PetscBool  self[6]; /* the swap is this rank's own periodic images, made in place */
  LocalInt  *root;
  PetscInt   root_cap; /* per local particle at the last borders: itself, or for an image made in
                                place the particle whose motion it copies (followed to one that is not) */
  /* a tree's halo: ranks sent to (to, their rows tsend[to_start[j], to_start[j + 1])) and received
   * from (from, their ghosts from ghost0 + from_start[j]); its own images are swap 0's, self[0] */
  PetscMPIInt    nto, nfrom, *to, *from;
  PetscInt      *to_start, *from_start, ghost0;
  LocalInt      *tsend;
  PetscInt       tsend_cap;
  ExchangeTally *tally; /* the caller's, EXCHANGE_KINDS of them, where the messages are counted (NULL: none) */
} Exchange;

/* A message of n items of size bytes each to (sent) or from (received) rank peer: none when peer is
 * MPI_PROC_NULL. */
static inline void ExchangeCount(Exchange *ex, ExchangeKind k, PetscBool sent, PetscMPIInt peer, PetscInt64 n,
                                 size_t size)
{
  ExchangeTally *t;
  if (!ex->tally || peer == MPI_PROC_NULL) return;
  t = &ex->tally[k];
  if (sent) t->sent++, t->bytes_sent += n * (PetscInt64)size;
  else t->received++, t->bytes_received += n * (PetscInt64)size;
}

PETSC_INTERN PetscErrorCode ExchangeReserve(PetscReal **buf, PetscInt *cap, PetscInt64 need);
PETSC_INTERN PetscErrorCode ExchangeWrap(const Grid *, FieldStore *);
PETSC_INTERN PetscErrorCode ExchangeRoots(Exchange *, const FieldStore *);
PETSC_INTERN PetscErrorCode ExchangeForwardSelf(Exchange *, FieldStore *, PetscInt sw);
/* One message's migrating particles (rb: count, record count, rows, records) as owned rows at the end (rows n0 ..
 * n0 + rp), their records added. */
PETSC_INTERN PetscErrorCode ExchangeArrivals(const Grid *, FieldStore *, RecordStore *, const PetscReal *rb,
                                             PetscInt *n0, PetscInt *rp, PetscInt *rrec);

/* Ghost row o: what its image, owner and origin say on this rank.  A ghost
 * whose owner is this rank is a periodic self-image: origin names its owned
 * copy (as sent: the sender's own row, or the row its origin named). */
static inline void ExchangeGhostBookkeeping(FieldStore *st, PetscInt o, PetscMPIInt rank)
{
  PetscBool self = (*st->owner)[o] == rank ? PETSC_TRUE : PETSC_FALSE;
  if (!self) (*st->origin)[o] = -1;
  (*st->flags)[o] = ((*st->flags)[o] & ~FIELD_SELF_IMAGE) | (self ? FIELD_SELF_IMAGE : 0);
}

#endif
