#include "decomp/exchange.h"

#define FORWARD_REALS 15

PetscErrorCode ExchangeCreate(const Grid *g, PetscReal cut, Exchange *ex)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(ex, sizeof(*ex)));
  ex->cut = cut;
  for (int a = 0; a < 3; a++) {
    PetscReal width = PETSC_MAX_REAL, L = g->hi[a] - g->lo[a];
    /* the narrowest slab from the cuts every rank holds, not this rank's own:
     * slabs equal but for rounding must not pass on some ranks and fail on others */
    for (PetscMPIInt c = 0; c < g->dims[a]; c++) width = PetscMin(width, g->cuts[a][c + 1] - g->cuts[a][c]);
    PetscCheck(g->dims[a] == 1 || cut <= width, g->comm, PETSC_ERR_USER_INPUT, "the ghost cutoff %.12g m (largest diameter + skin) exceeds the narrowest subdomain width %.12g m along axis %d: use fewer ranks along that axis (-domain_grid) or a larger box", (double)cut, (double)width, a);
    PetscCheck(!g->periodic[a] || 2.0 * cut < L, g->comm, PETSC_ERR_USER_INPUT, "the periodic box length %g m along axis %d must exceed twice the ghost cutoff %g m", (double)L, a, (double)cut);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExchangeDestroy(Exchange *ex)
{
  PetscFunctionBeginUser;
  for (int s = 0; s < 6; s++) PetscCall(PetscFree(ex->send[s]));
  PetscCall(PetscFree(ex->root));
  PetscCall(PetscFree(ex->sbuf));
  PetscCall(PetscFree(ex->rbuf));
  PetscCall(PetscMemzero(ex, sizeof(*ex)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExchangeReleaseBuffers(Exchange *ex)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(ex->sbuf));
  PetscCall(PetscFree(ex->rbuf));
  ex->sbuf_cap = ex->rbuf_cap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* need is counted in 64 bits: a message of many particles with their
 * histories can pass what a PetscInt (and an MPI count) holds. */
static PetscErrorCode ExchangeReserve(PetscReal **buf, PetscInt *cap, PetscInt64 need)
{
  PetscFunctionBeginUser;
  PetscCheck(need <= PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "a halo message of %" PetscInt64_FMT " reals is more than one exchange can carry (%d): use more ranks", need, (int)PETSC_MPI_INT_MAX);
  if (need > *cap) {
    *cap = (PetscInt)PetscMax(need, PetscMin((PetscInt64)PETSC_MPI_INT_MAX, 2 * (PetscInt64)*cap));
    PetscCall(PetscFree(*buf));
    PetscCall(PetscMalloc1(*cap, buf));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Send ns reals to dest while receiving from src; returns the count received
 * and where: ex->rbuf, or for a swap with this rank itself (its own periodic
 * images) ex->sbuf, with no copy. */
static PetscErrorCode ExchangeSwap(const Grid *g, Exchange *ex, PetscMPIInt dest, PetscMPIInt src, PetscInt ns, PetscInt *nr, const PetscReal **rb)
{
  PetscMPIInt sn, rn = 0;

  PetscFunctionBeginUser;
  if (dest == g->rank && src == g->rank) {
    *nr = ns;
    *rb = ex->sbuf;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMPIIntCast(ns, &sn));
  PetscCallMPI(MPI_Sendrecv(&sn, 1, MPI_INT, dest, 11, &rn, 1, MPI_INT, src, 11, g->comm, MPI_STATUS_IGNORE));
  PetscCall(ExchangeReserve(&ex->rbuf, &ex->rbuf_cap, rn + 1));
  PetscCallMPI(MPI_Sendrecv(ex->sbuf, sn, MPIU_REAL, dest, 12, ex->rbuf, rn, MPIU_REAL, src, 12, g->comm, MPI_STATUS_IGNORE));
  *nr = rn;
  *rb = ex->rbuf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void HistoryPack(const HistoryRecord *r, PetscReal *b)
{
  b[0] = (PetscReal)r->owner;
  b[1] = (PetscReal)r->partner;
  for (int a = 0; a < 3; a++) b[2 + a] = r->h.xi[a];
  b[5] = r->h.v_imp;
  b[6] = r->h.d_last;
  b[7] = r->h.Fn_last;
  b[8] = r->h.dt_last;
  b[9] = (PetscReal)r->h.touched;
}

static void HistoryUnpack(const PetscReal *b, HistoryRecord *r)
{
  r->owner   = (PetscInt64)b[0];
  r->partner = (PetscInt64)b[1];
  for (int a = 0; a < 3; a++) r->h.xi[a] = b[2 + a];
  r->h.v_imp   = b[5];
  r->h.d_last  = b[6];
  r->h.Fn_last = b[7];
  r->h.dt_last = b[8];
  r->h.touched = (PetscInt)b[9];
}

/* Where a particle at x goes along axis a: 0 stays, 1 to the low side, 2 to
 * the high side, 3 out through a wall (lost), -1 further than one hop. */
static int ExchangeDirection(const Grid *g, int a, PetscReal x)
{
  PetscMPIInt n = g->dims[a], me = g->coords[a], c, delta;
  if (!g->periodic[a] && (x < g->lo[a] || x > g->hi[a])) return 3;
  if (x >= g->sublo[a] && (x < g->subhi[a] || (!g->periodic[a] && me == n - 1 && x <= g->hi[a]))) return 0;
  c     = GridSlabOf(g, a, x);
  delta = g->periodic[a] ? ((c - me) % n + n) % n : c - me;
  if (delta == 0) return 0;
  if (delta == 1) return 2;
  if (delta == -1 || (g->periodic[a] && delta == n - 1)) return 1;
  return -1;
}

PetscErrorCode ExchangeMigrate(const Grid *g, Exchange *ex, Particles *p, HistoryStore *hs, Scratch *sc, PetscInt *nlost)
{
  PetscMPIInt rank = g->rank;
  PetscInt   *dest;

  PetscFunctionBeginUser;
  p->nghost = 0;
  *nlost    = 0;
  for (PetscInt i = 0; i < p->n; i++)
    for (int a = 0; a < 3; a++) {
      PetscReal L = g->hi[a] - g->lo[a], *x = &p->x[3 * i + a];
      if (!g->periodic[a]) continue;
      if (*x >= g->hi[a]) *x -= L;
      else if (*x < g->lo[a]) *x += L;
      /* a hair below lo wraps to hi by rounding, and a hair above hi to just
       * below lo: either is the box's start */
      if (*x == g->hi[a] || (*x < g->lo[a] && *x > g->lo[a] - 4.0 * PETSC_MACHINE_EPSILON * PetscMax(PetscAbsReal(g->lo[a]), PetscAbsReal(g->hi[a])))) *x = g->lo[a];
      PetscCheck(*x >= g->lo[a] && *x < g->hi[a], PETSC_COMM_SELF, PETSC_ERR_PLIB, "particle %" PetscInt64_FMT " moved more than a box length along axis %d between neighbour builds", p->id[i], a);
    }
  PetscCall(PetscMalloc1(p->n + 1, &dest));
  PetscCall(HistoryStoreSort(hs, sc));
  for (int a = 0; a < 3; a++) {
    for (int s = 0; s < 2; s++) {
      PetscMPIInt to = g->nbr[a][s], from = g->nbr[a][1 - s];
      PetscInt         np = 0, nrec = 0, nr, keep = 0, kr = 0, nleave = 0, *mark = NULL;
      const PetscReal *rb;
      PetscReal  *b;

      /* who leaves across this side (dest 1), or through a wall (dest 2: lost) */
      for (PetscInt i = 0; i < p->n; i++) {
        int dir = ExchangeDirection(g, a, p->x[3 * i + a]);
        PetscCheck(dir >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "particle %" PetscInt64_FMT " jumped past a whole subdomain along axis %d between neighbour builds (at %g, subdomain [%g, %g)): more than the exchange can carry", p->id[i], a, (double)p->x[3 * i + a], (double)g->sublo[a], (double)g->subhi[a]);
        dest[i] = (dir == 3 && s == 0) ? 2 : (dir == 1 + s ? 1 : 0);
        if (dest[i] == 1 && to == MPI_PROC_NULL) dest[i] = 2;
        if (dest[i]) nleave++;
        if (dest[i] == 1) {
          PetscInt k = HistoryStoreFirst(hs, p->id[i]);
          np++;
          while (k < hs->n && hs->r[k].owner == p->id[i]) nrec++, k++;
        }
      }
      PetscCall(ExchangeReserve(&ex->sbuf, &ex->sbuf_cap, 2 + (PetscInt64)np * PARTICLE_PACK_REALS + (PetscInt64)nrec * HISTORY_PACK_REALS));
      ex->sbuf[0] = (PetscReal)np;
      ex->sbuf[1] = (PetscReal)nrec;
      b           = ex->sbuf + 2;
      if (nleave) { /* most sides of most rebuilds: nobody leaves */
        PetscCall(PetscCalloc1(hs->n + 1, &mark));
        for (PetscInt i = 0; i < p->n; i++) {
          const PetscInt zero[3] = {0, 0, 0};
          if (dest[i] != 1) continue;
          ParticlesPack(p, i, zero, b);
          b += PARTICLE_PACK_REALS;
        }
        for (PetscInt i = 0; i < p->n; i++) {
          PetscInt k;
          if (!dest[i]) continue;
          for (k = HistoryStoreFirst(hs, p->id[i]); k < hs->n && hs->r[k].owner == p->id[i]; k++) {
            if (dest[i] == 1) {
              HistoryPack(&hs->r[k], b);
              b += HISTORY_PACK_REALS;
            }
            mark[k] = 1;
          }
        }
        for (PetscInt i = 0; i < p->n; i++) {
          if (dest[i] == 2) (*nlost)++;
          if (!dest[i]) {
            if (keep != i) ParticlesCopy(p, keep, i);
            keep++;
          }
        }
        p->n = keep;
        for (PetscInt k = 0; k < hs->n; k++)
          if (!mark[k]) {
            if (kr != k) hs->r[kr] = hs->r[k];
            kr++;
          }
        hs->n = kr;
        PetscCall(PetscFree(mark));
      }
      PetscCall(ExchangeSwap(g, ex, to, from, to == MPI_PROC_NULL ? 0 : (PetscInt)(b - ex->sbuf), &nr, &rb));
      if (nr) {
        PetscInt         rp = (PetscInt)rb[0], rrec = (PetscInt)rb[1];
        const PetscReal *c  = rb + 2;
        PetscCall(ParticlesReserve(p, p->n + rp));
        for (PetscInt k = 0; k < rp; k++, c += PARTICLE_PACK_REALS) {
          PetscInt i = p->n++;
          ParticlesUnpack(p, i, c, rank);
          p->owner[i] = rank;
          p->origin[i] = -1;
          p->flags[i] &= ~PARTICLE_SELF_IMAGE;
          for (int d = 0; d < 3; d++) p->image[3 * i + d] = 0;
          PetscCheck(ExchangeDirection(g, a, p->x[3 * i + a]) == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "particle %" PetscInt64_FMT " jumped past a whole subdomain along axis %d between neighbour builds (at %g, subdomain [%g, %g)): more than the exchange can carry; the step is too long for its speed", p->id[i], a, (double)p->x[3 * i + a], (double)g->sublo[a], (double)g->subhi[a]);
        }
        for (PetscInt k = 0; k < rrec; k++, c += HISTORY_PACK_REALS) {
          HistoryRecord r;
          HistoryUnpack(c, &r);
          PetscCall(HistoryStoreAdd(hs, r.owner, r.partner, &r.h));
        }
        if (rrec) PetscCall(HistoryStoreSort(hs, sc)); /* HistoryStoreFirst needs the order */
      }
      PetscCall(PetscRealloc(sizeof(*dest) * (size_t)(p->n + 1), &dest));
    }
  }
  PetscCall(PetscFree(dest));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each image made in place repeats the motion of the particle it was made
 * from, and that one's root before it (sweeps run in order).  The send
 * lists then name roots: a later swap may send an image made in place,
 * whose motion is its root's (and, forwarded without images, only there). */
static PetscErrorCode ExchangeRoots(Exchange *ex, const Particles *p)
{
  PetscInt ntot = p->n + p->nghost;

  PetscFunctionBeginUser;
  if (ntot > ex->root_cap) {
    ex->root_cap = PetscMax(ntot, 2 * ex->root_cap);
    PetscCall(PetscFree(ex->root));
    PetscCall(PetscMalloc1(ex->root_cap, &ex->root));
  }
  for (PetscInt i = 0; i < ntot; i++) ex->root[i] = i;
  for (int sw = 0; sw < 6; sw++)
    for (PetscInt k = 0; ex->self[sw] && k < ex->nrecv[sw]; k++) ex->root[ex->recv_start[sw] + k] = ex->root[ex->send[sw][k]];
  for (int sw = 0; sw < 6; sw++)
    for (PetscInt k = 0; k < ex->nsend[sw]; k++) ex->send[sw][k] = ex->root[ex->send[sw][k]];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExchangeBorders(const Grid *g, Exchange *ex, Particles *p)
{
  PetscFunctionBeginUser;
  p->nghost = 0;
  for (int a = 0; a < 3; a++) {
    PetscInt  nlast = p->n + p->nghost;
    PetscReal L     = g->hi[a] - g->lo[a];
    for (int s = 0; s < 2; s++) {
      PetscInt         sw = 2 * a + s, ns = 0, nr, shift[3] = {0, 0, 0};
      const PetscReal *rb;
      PetscMPIInt to = g->nbr[a][s], from = g->nbr[a][1 - s];
      if (g->periodic[a] && s == 0 && g->coords[a] == 0) shift[a] = 1;
      if (g->periodic[a] && s == 1 && g->coords[a] == g->dims[a] - 1) shift[a] = -1;
      if (to != MPI_PROC_NULL)
        for (PetscInt i = 0; i < nlast; i++) {
          PetscReal xs = p->x[3 * i + a] + (p->image[3 * i + a] ? (PetscReal)p->image[3 * i + a] * L : 0.0);
          if (!((s == 0 && xs < g->sublo[a] + ex->cut) || (s == 1 && xs >= g->subhi[a] - ex->cut))) continue;
          if (ns == ex->send_cap[sw]) { /* a border layer, not the subdomain: grown as found */
            ex->send_cap[sw] = PetscMax(1024, 2 * ex->send_cap[sw]);
            PetscCall(PetscRealloc((size_t)ex->send_cap[sw] * sizeof(*ex->send[sw]), &ex->send[sw]));
          }
          ex->send[sw][ns++] = i;
        }
      ex->nsend[sw] = ns;
      ex->self[sw]  = to == g->rank && from == g->rank ? PETSC_TRUE : PETSC_FALSE;
      if (ex->self[sw]) { /* this rank's own periodic images: made in place, no message */
        PetscCall(ParticlesReserveGhosts(p, p->n + p->nghost + ns));
        ex->recv_start[sw] = p->n + p->nghost;
        ex->nrecv[sw]      = ns;
        for (PetscInt k = 0; k < ns; k++) ParticlesImage(p, p->n + p->nghost + k, ex->send[sw][k], shift, g->rank);
        p->nghost += ns;
        continue;
      }
      PetscCall(ExchangeReserve(&ex->sbuf, &ex->sbuf_cap, (PetscInt64)ns * PARTICLE_PACK_REALS + 1));
      for (PetscInt k = 0; k < ns; k++) ParticlesPack(p, ex->send[sw][k], shift, ex->sbuf + k * PARTICLE_PACK_REALS);
      PetscCall(ExchangeSwap(g, ex, to, from, ns * PARTICLE_PACK_REALS, &nr, &rb));
      nr /= PARTICLE_PACK_REALS;
      PetscCall(ParticlesReserveGhosts(p, p->n + p->nghost + nr));
      ex->recv_start[sw] = p->n + p->nghost;
      ex->nrecv[sw]      = nr;
      for (PetscInt k = 0; k < nr; k++) ParticlesUnpack(p, p->n + p->nghost + k, rb + k * PARTICLE_PACK_REALS, g->rank);
      p->nghost += nr;
    }
  }
  PetscCall(ExchangeRoots(ex, p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void ForwardPack(const Particles *p, const LocalInt *send, PetscInt n, PetscReal *buf)
{
  for (PetscInt k = 0; k < n; k++) {
    PetscInt   i = send[k];
    PetscReal *b = buf + k * FORWARD_REALS;
    for (int d = 0; d < 3; d++) {
      b[d]      = p->x[3 * i + d];
      b[3 + d]  = p->v[3 * i + d];
      b[6 + d]  = p->w[3 * i + d];
      b[9 + d]  = p->vp[3 * i + d];
      b[12 + d] = p->wp[3 * i + d];
    }
  }
}

static void ForwardUnpack(Particles *p, PetscInt start, PetscInt n, const PetscReal *buf)
{
  for (PetscInt k = 0; k < n; k++) {
    PetscInt         i = start + k;
    const PetscReal *b = buf + k * FORWARD_REALS;
    for (int d = 0; d < 3; d++) {
      p->x[3 * i + d]  = b[d];
      p->v[3 * i + d]  = b[3 + d];
      p->w[3 * i + d]  = b[6 + d];
      p->vp[3 * i + d] = b[9 + d];
      p->wp[3 * i + d] = b[12 + d];
    }
  }
}

/* A rank's own periodic images along sweep sw: copied straight, no buffer. */
static PetscErrorCode ForwardSelf(Exchange *ex, Particles *p, PetscInt sw)
{
  PetscFunctionBeginUser;
  PetscCheck(ex->nsend[sw] == ex->nrecv[sw], PETSC_COMM_SELF, PETSC_ERR_PLIB, "self forward of %" PetscInt_FMT " particles, expected %" PetscInt_FMT, ex->nsend[sw], ex->nrecv[sw]);
  for (PetscInt k = 0; k < ex->nsend[sw]; k++) ParticlesCopyMotion(p, ex->recv_start[sw] + k, ex->send[sw][k]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Both sides of an axis at once: their send lists hold only particles that
 * were local before the axis (ExchangeBorders), so neither side's message
 * depends on the other's; one wait instead of two, the same unpacking order. */
PetscErrorCode ExchangeForward(const Grid *g, Exchange *ex, Particles *p, PetscBool images)
{
  PetscFunctionBeginUser;
  for (int a = 0; a < 3; a++) {
    PetscMPIInt to[2], from[2];
    PetscInt    ns[2], nr[2];
    MPI_Request req[4];
    for (int s = 0; s < 2; s++) {
      to[s] = g->nbr[a][s], from[s] = g->nbr[a][1 - s];
      ns[s] = to[s] == MPI_PROC_NULL ? 0 : ex->nsend[2 * a + s];
      nr[s] = from[s] == MPI_PROC_NULL ? 0 : ex->nrecv[2 * a + s];
    }
    if (to[0] == MPI_PROC_NULL && from[0] == MPI_PROC_NULL) continue; /* walls on both sides */
    if (to[0] == g->rank) { /* one subdomain along the axis: both sides are this rank's own images */
      for (int s = 0; s < 2 && images; s++) PetscCall(ForwardSelf(ex, p, 2 * a + s));
      continue;
    }
    PetscCall(ExchangeReserve(&ex->sbuf, &ex->sbuf_cap, ((PetscInt64)ns[0] + ns[1]) * FORWARD_REALS + 1));
    PetscCall(ExchangeReserve(&ex->rbuf, &ex->rbuf_cap, ((PetscInt64)nr[0] + nr[1]) * FORWARD_REALS + 1));
    ForwardPack(p, ex->send[2 * a], ns[0], ex->sbuf);
    ForwardPack(p, ex->send[2 * a + 1], ns[1], ex->sbuf + ns[0] * FORWARD_REALS);
    for (int s = 0; s < 2; s++) {
      PetscMPIInt rn, sn;
      PetscCall(PetscMPIIntCast(nr[s] * FORWARD_REALS, &rn));
      PetscCall(PetscMPIIntCast(ns[s] * FORWARD_REALS, &sn));
      PetscCallMPI(MPI_Irecv(ex->rbuf + (s ? nr[0] * FORWARD_REALS : 0), rn, MPIU_REAL, from[s], 13 + s, g->comm, &req[s]));
      PetscCallMPI(MPI_Isend(ex->sbuf + (s ? ns[0] * FORWARD_REALS : 0), sn, MPIU_REAL, to[s], 13 + s, g->comm, &req[2 + s]));
    }
    PetscCallMPI(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
    ForwardUnpack(p, ex->recv_start[2 * a], nr[0], ex->rbuf);
    ForwardUnpack(p, ex->recv_start[2 * a + 1], nr[1], ex->rbuf + nr[0] * FORWARD_REALS);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
