/* Particle exchange between subdomains, in the LAMMPS manner and one axis at
 * a time (26 neighbours in 6 messages) on a grid of slabs, or straight to
 * every rank concerned on a tree (grid.h: LAMMPS's tiled communication),
 * over a field store (fields.h) whose table says what travels:
 *   ExchangeMigrate  owned particles that left their subdomain move, with
 *                    their records (records.h: contact histories), to the
 *                    rank that owns them now (periodic coordinates wrapped
 *                    first); the records are left sorted by owner;
 *   ExchangeBorders  ghost copies of border particles (FIELD_GHOST), images
 *                    included, with an integer image shift; the send lists
 *                    are kept;
 *   ExchangeForward  every step, refresh the ghosts' FIELD_FORWARD fields
 *                    (positions and velocities) over the kept lists. */
#ifndef HDEM_EXCHANGE_H
#define HDEM_EXCHANGE_H

#include "decomp/grid.h"
#include "decomp/fields.h"
#include "decomp/records.h"

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
  PetscMPIInt nto, nfrom, *to, *from;
  PetscInt   *to_start, *from_start, ghost0;
  LocalInt   *tsend;
  PetscInt    tsend_cap;
} Exchange;

/* cut: the ghost cutoff (counted from a row's position); slack: how far a
 * row may lie from its home, so outside its subdomain (0 without homes):
 * a neighbour's neighbour never needs a ghost while every subdomain is at
 * least cut + slack wide. */
PETSC_EXTERN PetscErrorCode ExchangeCreate(const Grid *, PetscReal cut, PetscReal slack, Exchange *);
PETSC_EXTERN PetscErrorCode ExchangeDestroy(Exchange *);
/* Frees the message buffers (the next exchange makes its own): a rebuild's
 * migration and borders need larger ones than the steps' forward halo. */
PETSC_EXTERN PetscErrorCode ExchangeReleaseBuffers(Exchange *);
PETSC_EXTERN PetscErrorCode ExchangeMigrate(const Grid *, Exchange *, FieldStore *, RecordStore *, Scratch *,
                                            PetscInt *nlost); /* Scratch: for the records' sorts */
PETSC_EXTERN PetscErrorCode ExchangeBorders(const Grid *, Exchange *, FieldStore *);
/* The ghosts' motion from their owners.  With images, a rank's own periodic
 * images too; without, they are left as they are: for lists aliased to
 * their roots (NeighborListAlias with root), nothing reads them. */
PETSC_EXTERN PetscErrorCode ExchangeForward(const Grid *, Exchange *, FieldStore *, PetscBool images);

#endif
