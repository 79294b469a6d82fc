#include "decomp/exchange.h"
#include "decomp/exchange_tree.h"

PetscErrorCode ExchangeCreate(const Grid *g, PetscReal cut, PetscReal slack, Exchange *ex)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(ex, sizeof(*ex)));
  ex->cut   = cut;
  ex->slack = slack;
  ex->wmin  = cut + slack;
  for (int a = 0; a < 3; a++) {
    PetscReal width = PETSC_MAX_REAL, L = g->hi[a] - g->lo[a];
    /* the narrowest slab from the cuts every rank holds, not this rank's own:
     * slabs equal but for rounding must not pass on some ranks and fail on others */
    for (PetscMPIInt c = 0; c < g->dims[a]; c++) width = PetscMin(width, g->cuts[a][c + 1] - g->cuts[a][c]);
    PetscCheck(g->dims[a] == 1 || g->tree || ex->wmin <= width, g->comm, PETSC_ERR_USER_INPUT,
               "the ghost cutoff %.12g m (largest diameter + skin) exceeds the narrowest subdomain width %.12g m along "
               "axis %d: use fewer ranks along that "
               "axis (-domain_grid) or a larger box",
               (double)ex->wmin, (double)width, a);
    PetscCheck(!g->periodic[a] || 2.0 * cut < L, g->comm, PETSC_ERR_USER_INPUT,
               "the periodic box length %g m along axis %d must exceed twice the ghost cutoff %g m", (double)L, a,
               (double)cut);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExchangeDestroy(Exchange *ex)
{
  PetscFunctionBeginUser;
  for (int s = 0; s < 6; s++) PetscCall(PetscFree(ex->send[s]));
  PetscCall(PetscFree(ex->root));
  PetscCall(ExchangeTreeFree(ex));
  PetscCall(PetscFree(ex->tsend));
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

/* Send ns reals to dest while receiving from src; returns the count received
 * and where: ex->rbuf, or for a swap with this rank itself (its own periodic
 * images) ex->sbuf, with no copy. */
static PetscErrorCode ExchangeSwap(const Grid *g, Exchange *ex, ExchangeKind k, PetscMPIInt dest, PetscMPIInt src,
                                   PetscInt ns, PetscInt *nr, const PetscReal **rb)
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
  PetscCallMPI(
    MPI_Sendrecv(ex->sbuf, sn, MPIU_REAL, dest, 12, ex->rbuf, rn, MPIU_REAL, src, 12, g->comm, MPI_STATUS_IGNORE));
  ExchangeCount(ex, k, PETSC_TRUE, dest, 1, sizeof(sn));
  ExchangeCount(ex, k, PETSC_FALSE, src, 1, sizeof(rn));
  ExchangeCount(ex, k, PETSC_TRUE, dest, sn, sizeof(PetscReal));
  ExchangeCount(ex, k, PETSC_FALSE, src, rn, sizeof(PetscReal));
  *nr = rn;
  *rb = ex->rbuf;
  PetscFunctionReturn(PETSC_SUCCESS);
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

/* The leavers of one side of axis a into ex->sbuf (count, record count,
 * particle rows, then their records), their records marked, the stayers
 * compacted and the lost counted.  dest: per owned row, 0 stays, 1 leaves
 * across this side, 2 is lost through a wall. */
static PetscErrorCode ExchangeMigratePack(Exchange *ex, FieldStore *st, RecordStore *rs, const PetscInt *dest,
                                          PetscInt np, PetscInt nrec, PetscInt nleave, PetscInt *nlost, PetscInt *len)
{
  const PetscInt64 *id = *st->id;
  PetscInt          pw = FieldStorePackWidth(st, FIELD_GHOST | FIELD_MIGRATE), q = 0;
  PetscReal        *b;
  LocalInt         *rows;
  unsigned char    *mark;

  PetscFunctionBeginUser;
  PetscCall(
    ExchangeReserve(&ex->sbuf, &ex->sbuf_cap, 2 + (PetscInt64)np * pw + (PetscInt64)nrec * RecordStorePackWidth(rs)));
  ex->sbuf[0] = (PetscReal)np;
  ex->sbuf[1] = (PetscReal)nrec;
  b           = ex->sbuf + 2;
  *len        = 2;
  if (!nleave) PetscFunctionReturn(PETSC_SUCCESS); /* most sides of most rebuilds: nobody leaves */
  PetscCall(PetscMalloc1(np + 1, &rows));
  PetscCall(PetscCalloc1(rs->n + 1, &mark));
  for (PetscInt i = 0; i < *st->n; i++)
    if (dest[i] == 1) rows[q++] = (LocalInt)i;
  FieldStorePack(st, FIELD_GHOST | FIELD_MIGRATE, np, rows, b);
  b += (size_t)np * pw;
  for (PetscInt i = 0; i < *st->n; i++) {
    if (!dest[i]) continue;
    for (PetscInt k = RecordStoreFirst(rs, id[i]); k < rs->n && RecordStoreHead(rs, k)->owner == id[i]; k++) {
      if (dest[i] == 1) {
        RecordStorePack(rs, k, b);
        b += RecordStorePackWidth(rs);
      }
      mark[k] = 1;
    }
  }
  for (PetscInt i = 0; i < *st->n; i++) *nlost += dest[i] == 2;
  PetscCall(FieldStoreCompactOwned(st, dest));
  RecordStoreCompact(rs, mark);
  *len = (PetscInt)(b - ex->sbuf);
  PetscCall(PetscFree(mark));
  PetscCall(PetscFree(rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The arrivals of one side of axis a: owned rows at the end, records added. */
static PetscErrorCode ExchangeMigrateUnpack(const Grid *g, int a, FieldStore *st, RecordStore *rs, Scratch *sc,
                                            const PetscReal *rb)
{
  PetscInt n0, rp, rrec;

  PetscFunctionBeginUser;
  PetscCall(ExchangeArrivals(g, st, rs, rb, &n0, &rp, &rrec));
  for (PetscInt i = n0; i < n0 + rp; i++) {
    PetscReal xa = FieldStoreHomeOf(st, i)[a];
    PetscCheck(ExchangeDirection(g, a, xa) == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "particle %" PetscInt64_FMT " jumped past a whole subdomain along axis %d between neighbour builds (at "
               "%g, subdomain [%g, %g)): more than the "
               "exchange can carry; the step is too long for its speed",
               (*st->id)[i], a, (double)xa, (double)g->sublo[a], (double)g->subhi[a]);
  }
  if (rrec) PetscCall(RecordStoreSort(rs, sc)); /* RecordStoreFirst needs the order */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExchangeMigrate(const Grid *g, Exchange *ex, FieldStore *st, RecordStore *rs, Scratch *sc,
                               PetscInt *nlost)
{
  PetscInt *dest;

  PetscFunctionBeginUser;
  if (g->tree) {
    PetscCall(ExchangeTreeMigrate(g, ex, st, rs, sc, nlost));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *st->nghost = 0;
  *nlost      = 0;
  PetscCall(ExchangeWrap(g, st));
  PetscCall(PetscMalloc1(*st->n + 1, &dest));
  PetscCall(RecordStoreSort(rs, sc));
  for (int a = 0; a < 3; a++) {
    for (int s = 0; s < 2; s++) {
      PetscMPIInt      to = g->nbr[a][s], from = g->nbr[a][1 - s];
      PetscInt         np = 0, nrec = 0, nr, nleave = 0, len = 0;
      const PetscReal *rb;

      /* who leaves across this side (dest 1), or through a wall (dest 2: lost) */
      for (PetscInt i = 0; i < *st->n; i++) {
        const PetscInt64 id  = (*st->id)[i];
        const PetscReal  xa  = FieldStoreHomeOf(st, i)[a];
        int              dir = ExchangeDirection(g, a, xa);
        PetscCheck(dir >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                   "particle %" PetscInt64_FMT " jumped past a whole subdomain along axis %d between neighbour builds "
                   "(at %g, subdomain [%g, %g)): more than the exchange can carry",
                   id, a, (double)xa, (double)g->sublo[a], (double)g->subhi[a]);
        dest[i] = (dir == 3 && s == 0) ? 2 : (dir == 1 + s ? 1 : 0);
        if (dest[i] == 1 && to == MPI_PROC_NULL) dest[i] = 2;
        if (dest[i]) nleave++;
        if (dest[i] == 1) {
          np++;
          for (PetscInt k = RecordStoreFirst(rs, id); k < rs->n && RecordStoreHead(rs, k)->owner == id; k++) nrec++;
        }
      }
      PetscCall(ExchangeMigratePack(ex, st, rs, dest, np, nrec, nleave, nlost, &len));
      PetscCall(ExchangeSwap(g, ex, EXCHANGE_MIGRATE, to, from, to == MPI_PROC_NULL ? 0 : len, &nr, &rb));
      if (nr) PetscCall(ExchangeMigrateUnpack(g, a, st, rs, sc, rb));
      PetscCall(PetscRealloc(sizeof(*dest) * (size_t)(*st->n + 1), &dest));
    }
  }
  PetscCall(PetscFree(dest));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Send list sw's particles, image-shifted, as ghosts on this rank (its own
 * periodic images): copied in place, no message. */
static PetscErrorCode ExchangeBordersSelf(const Grid *g, Exchange *ex, FieldStore *st, PetscInt sw,
                                          const PetscInt shift[3])
{
  PetscInt ns = ex->nsend[sw], o0 = *st->n + *st->nghost;

  PetscFunctionBeginUser;
  PetscCall(FieldStoreReserveGhosts(st, o0 + ns));
  ex->recv_start[sw] = o0;
  ex->nrecv[sw]      = ns;
  FieldStoreGatherRows(st, FIELD_GHOST, o0, ns, ex->send[sw]);
  for (PetscInt k = 0; k < ns; k++) {
    PetscInt i = ex->send[sw][k], o = o0 + k;
    for (int a = 0; a < 3; a++) (*st->image)[3 * o + a] = (signed char)((*st->image)[3 * o + a] + shift[a]);
    (*st->origin)[o] = (LocalInt)(i < *st->n ? i : (*st->origin)[i]);
    ExchangeGhostBookkeeping(st, o, g->rank);
  }
  *st->nghost += ns;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Send list sw's particles, image-shifted, to its neighbour, and the
 * neighbour's as ghosts here. */
static PetscErrorCode ExchangeBordersSwap(const Grid *g, Exchange *ex, FieldStore *st, PetscInt sw,
                                          const PetscInt shift[3], PetscMPIInt to, PetscMPIInt from)
{
  PetscInt ns = ex->nsend[sw], w = FieldStorePackWidth(st, FIELD_GHOST), nr, o0;
  PetscInt oimg = FieldStorePackOffset(st, FIELD_GHOST, FieldStoreFind(st, "image")),
           oorg = FieldStorePackOffset(st, FIELD_GHOST, FieldStoreFind(st, "origin"));
  const PetscReal *rb;

  PetscFunctionBeginUser;
  PetscCall(ExchangeReserve(&ex->sbuf, &ex->sbuf_cap, (PetscInt64)ns * w + 1));
  FieldStorePack(st, FIELD_GHOST, ns, ex->send[sw], ex->sbuf);
  for (PetscInt k = 0; k < ns; k++) {
    PetscReal *b = ex->sbuf + (size_t)k * w;
    PetscInt   i = ex->send[sw][k];
    for (int a = 0; a < 3; a++) b[oimg + a] += (PetscReal)shift[a];
    b[oorg] = (PetscReal)(i < *st->n ? i : (*st->origin)[i]);
  }
  PetscCall(ExchangeSwap(g, ex, EXCHANGE_BORDERS, to, from, ns * w, &nr, &rb));
  nr /= w;
  o0 = *st->n + *st->nghost;
  PetscCall(FieldStoreReserveGhosts(st, o0 + nr));
  ex->recv_start[sw] = o0;
  ex->nrecv[sw]      = nr;
  FieldStoreUnpack(st, FIELD_GHOST, o0, nr, rb);
  for (PetscInt k = 0; k < nr; k++) ExchangeGhostBookkeeping(st, o0 + k, g->rank);
  *st->nghost += nr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExchangeBorders(const Grid *g, Exchange *ex, FieldStore *st)
{
  PetscFunctionBeginUser;
  if (g->tree) {
    PetscCall(ExchangeTreeBorders(g, ex, st));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *st->nghost = 0;
  for (int a = 0; a < 3; a++) {
    PetscInt  nlast = *st->n + *st->nghost;
    PetscReal L     = g->hi[a] - g->lo[a];
    for (int s = 0; s < 2; s++) {
      PetscInt           sw = 2 * a + s, ns = 0, shift[3] = {0, 0, 0};
      PetscMPIInt        to = g->nbr[a][s], from = g->nbr[a][1 - s];
      const PetscReal   *x   = *st->x; /* again each side: the last one's ghosts may have moved the arrays */
      const signed char *img = *st->image;
      if (g->periodic[a] && s == 0 && g->coords[a] == 0) shift[a] = 1;
      if (g->periodic[a] && s == 1 && g->coords[a] == g->dims[a] - 1) shift[a] = -1;
      if (to != MPI_PROC_NULL)
        for (PetscInt i = 0; i < nlast; i++) {
          PetscReal xs = x[3 * i + a] + (img[3 * i + a] ? (PetscReal)img[3 * i + a] * L : 0.0);
          if (!((s == 0 && xs < g->sublo[a] + ex->cut) || (s == 1 && xs >= g->subhi[a] - ex->cut))) continue;
          if (ns == ex->send_cap[sw]) { /* a border layer, not the subdomain: grown as found */
            ex->send_cap[sw] = PetscMax(1024, 2 * ex->send_cap[sw]);
            PetscCall(PetscRealloc((size_t)ex->send_cap[sw] * sizeof(*ex->send[sw]), &ex->send[sw]));
          }
          ex->send[sw][ns++] = (LocalInt)i;
        }
      ex->nsend[sw] = ns;
      ex->self[sw]  = to == g->rank && from == g->rank ? PETSC_TRUE : PETSC_FALSE;
      if (ex->self[sw]) PetscCall(ExchangeBordersSelf(g, ex, st, sw, shift));
      else PetscCall(ExchangeBordersSwap(g, ex, st, sw, shift, to, from));
    }
  }
  PetscCall(ExchangeRoots(ex, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Both sides of an axis at once: their send lists hold only particles that
 * were local before the axis (ExchangeBorders), so neither side's message
 * depends on the other's; one wait instead of two, the same unpacking order. */
PetscErrorCode ExchangeForward(const Grid *g, Exchange *ex, FieldStore *st, PetscBool images)
{
  const PetscInt w = FieldStorePackWidth(st, FIELD_FORWARD);

  PetscFunctionBeginUser;
  if (g->tree) {
    PetscCall(ExchangeTreeForward(g, ex, st, images));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
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
    /* one subdomain along the axis: both sides are this rank's own images */
    if (to[0] == g->rank) {
      for (int s = 0; s < 2 && images; s++) PetscCall(ExchangeForwardSelf(ex, st, 2 * a + s));
      continue;
    }
    PetscCall(ExchangeReserve(&ex->sbuf, &ex->sbuf_cap, ((PetscInt64)ns[0] + ns[1]) * w + 1));
    PetscCall(ExchangeReserve(&ex->rbuf, &ex->rbuf_cap, ((PetscInt64)nr[0] + nr[1]) * w + 1));
    FieldStorePackColumns(st, FIELD_FORWARD, ns[0], ex->send[2 * a], ex->sbuf);
    FieldStorePackColumns(st, FIELD_FORWARD, ns[1], ex->send[2 * a + 1], ex->sbuf + ns[0] * w);
    for (int s = 0; s < 2; s++) {
      PetscMPIInt rn, sn;
      PetscCall(PetscMPIIntCast(nr[s] * w, &rn));
      PetscCall(PetscMPIIntCast(ns[s] * w, &sn));
      PetscCallMPI(MPI_Irecv(ex->rbuf + (s ? nr[0] * w : 0), rn, MPIU_REAL, from[s], 13 + s, g->comm, &req[s]));
      PetscCallMPI(MPI_Isend(ex->sbuf + (s ? ns[0] * w : 0), sn, MPIU_REAL, to[s], 13 + s, g->comm, &req[2 + s]));
      ExchangeCount(ex, EXCHANGE_HALO, PETSC_FALSE, from[s], rn, sizeof(PetscReal));
      ExchangeCount(ex, EXCHANGE_HALO, PETSC_TRUE, to[s], sn, sizeof(PetscReal));
    }
    PetscCallMPI(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
    FieldStoreUnpackColumns(st, FIELD_FORWARD, ex->recv_start[2 * a], nr[0], ex->rbuf);
    FieldStoreUnpackColumns(st, FIELD_FORWARD, ex->recv_start[2 * a + 1], nr[1], ex->rbuf + nr[0] * w);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
