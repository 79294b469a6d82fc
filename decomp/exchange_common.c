#include "decomp/exchange_common.h"
#include <math.h>

const char *const ExchangeKindNames[] = {"halo", "borders", "migration"};

/* need is counted in 64 bits: a message of many particles with their
 * histories can pass what a PetscInt (and an MPI count) holds. */
PetscErrorCode ExchangeReserve(PetscReal **buf, PetscInt *cap, PetscInt64 need)
{
  PetscFunctionBeginUser;
  PetscCheck(need <= PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "a halo message of %" PetscInt64_FMT " reals is more than one exchange can carry (%d): use more ranks",
             need, (int)PETSC_MPI_INT_MAX);
  if (need > *cap) {
    *cap = (PetscInt)PetscMax(need, PetscMin((PetscInt64)PETSC_MPI_INT_MAX, 2 * (PetscInt64)*cap));
    PetscCall(PetscFree(*buf));
    PetscCall(PetscMalloc1(*cap, buf));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Periodic coordinates into the box, by whole box lengths: a particle
 * migrates at most one hop.  One that went more than a box length (a
 * blow-up; the caller's health scan names it) is wrapped all the same, so
 * the run can stop with its state; a non-finite one is an error. */
PetscErrorCode ExchangeWrap(const Grid *g, FieldStore *st)
{
  PetscReal *xs = *st->x;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < *st->n; i++) {
    PetscReal *hx = (PetscReal *)FieldStoreHomeOf(st, i);
    for (int a = 0; a < 3; a++) {
      PetscReal L = g->hi[a] - g->lo[a], *x = &hx[a], x0 = *x, shift = 0.0;
      if (!g->periodic[a]) continue;
      if (x0 >= g->hi[a]) shift = -L;
      else if (x0 < g->lo[a]) shift = L;
      if (x0 + shift >= g->hi[a] || x0 + shift < g->lo[a]) shift = -L * floor((x0 - g->lo[a]) / L);
      *x = x0 + shift;
      /* a hair below lo wraps to hi by rounding, and a hair above hi to just
       * below lo: either is the box's start */
      if (*x == g->hi[a] ||
          (*x < g->lo[a] &&
           *x > g->lo[a] - 4.0 * PETSC_MACHINE_EPSILON * PetscMax(PetscAbsReal(g->lo[a]), PetscAbsReal(g->hi[a]))))
        *x = g->lo[a];
      PetscCheck(*x >= g->lo[a] && *x < g->hi[a], PETSC_COMM_SELF, PETSC_ERR_FP,
                 "particle %" PetscInt64_FMT " has the non-finite coordinate %g along axis %d", (*st->id)[i],
                 (double)x0, a);
      /* a row with a home moves by the whole box lengths its home moved */
      if (hx != xs + 3 * i && shift != 0.0) xs[3 * i + a] += shift;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each image made in place repeats the motion of the particle it was made
 * from, and that one's root before it (sweeps run in order).  The send
 * lists then name roots: a later swap may send an image made in place,
 * whose motion is its root's (and, forwarded without images, only there). */
PetscErrorCode ExchangeRoots(Exchange *ex, const FieldStore *st)
{
  PetscInt ntot = *st->n + *st->nghost;

  PetscFunctionBeginUser;
  if (ntot > ex->root_cap) {
    ex->root_cap = PetscMax(ntot, 2 * ex->root_cap);
    PetscCall(PetscFree(ex->root));
    PetscCall(PetscMalloc1(ex->root_cap, &ex->root));
  }
  for (PetscInt i = 0; i < ntot; i++) ex->root[i] = i;
  for (int sw = 0; sw < 6; sw++)
    for (PetscInt k = 0; ex->self[sw] && k < ex->nrecv[sw]; k++)
      ex->root[ex->recv_start[sw] + k] = ex->root[ex->send[sw][k]];
  for (int sw = 0; sw < 6; sw++)
    for (PetscInt k = 0; k < ex->nsend[sw]; k++) ex->send[sw][k] = ex->root[ex->send[sw][k]];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A rank's own periodic images along sweep sw: copied straight, no buffer. */
PetscErrorCode ExchangeForwardSelf(Exchange *ex, FieldStore *st, PetscInt sw)
{
  PetscFunctionBeginUser;
  PetscCheck(ex->nsend[sw] == ex->nrecv[sw], PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "self forward of %" PetscInt_FMT " particles, expected %" PetscInt_FMT, ex->nsend[sw], ex->nrecv[sw]);
  for (PetscInt k = 0; k < ex->nsend[sw]; k++)
    FieldStoreCopyFields(st, FIELD_FORWARD, ex->recv_start[sw] + k, ex->send[sw][k]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExchangeArrivals(const Grid *g, FieldStore *st, RecordStore *rs, const PetscReal *rb, PetscInt *n0,
                                PetscInt *rp, PetscInt *rrec)
{
  const PetscReal *c = rb + 2;

  PetscFunctionBeginUser;
  *rp = (PetscInt)rb[0], *rrec = (PetscInt)rb[1], *n0 = *st->n;
  PetscCall(FieldStoreReserve(st, *n0 + *rp));
  FieldStoreZero(st, FIELD_OWNED, *n0, *rp); /* force sums and build positions start afresh */
  FieldStoreUnpack(st, FIELD_GHOST | FIELD_MIGRATE, *n0, *rp, c);
  c += (size_t)*rp * FieldStorePackWidth(st, FIELD_GHOST | FIELD_MIGRATE);
  for (PetscInt i = *n0; i < *n0 + *rp; i++) {
    (*st->owner)[i]  = g->rank;
    (*st->origin)[i] = -1;
    (*st->flags)[i] &= ~FIELD_SELF_IMAGE;
    for (int d = 0; d < 3; d++) (*st->image)[3 * i + d] = 0;
  }
  *st->n = *n0 + *rp;
  for (PetscInt k = 0; k < *rrec; k++, c += RecordStorePackWidth(rs)) PetscCall(RecordStoreAddPacked(rs, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
