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

#include "decomp/exchange_common.h"

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
