/* Records sent between ranks that know their partners, without a
 * collective: a rank talks only to the ranks it sends to and receives from
 * (decomp/route.c).  CollectiveRoute (collective.h) is the all-to-all one,
 * for when the partners are not known. */
#ifndef HDEM_ROUTE_H
#define HDEM_ROUTE_H

#include "hdem.h"

/* This rank sends nto[i] records of width reals to rank to[i] (i < nsend,
 * each rank at most once), the blocks one after the other in items, and
 * receives from every rank in from[] (nrecv, each at most once) what it
 * sends: both sides must agree, a rank s listing r in to[] exactly when r
 * lists s in from[] (a block may be empty; a rank may be its own partner).
 * *out (PetscFree it) holds what arrived, in from[] order then each
 * sender's order.  Not collective: only the partners take part. */
PETSC_EXTERN PetscErrorCode RouteSparse(MPI_Comm, PetscInt width, PetscInt nsend, const PetscMPIInt to[],
                                        const PetscInt nto[], const PetscReal *items, PetscInt nrecv,
                                        const PetscMPIInt from[], PetscInt *nout, PetscReal **out);

#endif
