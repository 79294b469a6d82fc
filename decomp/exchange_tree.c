/* The exchanges on a tree of boxes (grid.h): a particle migrates straight to
 * the rank whose box holds its home, and a row becomes a ghost on every rank
 * (and periodic image) whose box, widened by the ghost cutoff, holds it: the
 * ranks concerned are found from the boxes every rank holds, the ranks
 * that receive from the sends (PetscCommBuildTwoSided).  Each (row, rank,
 * image) goes once, so every ghost is unique, as on a grid of slabs. */
#include "decomp/exchange_tree.h"

/* A row to send: where, which row, which periodic image (offsets in {-1, 0, 1}). */
typedef struct {
  PetscMPIInt rank;
  PetscInt    row;
  signed char shift[3];
} TreeSend;

static int TreeSendCompare(const void *a, const void *b)
{
  const TreeSend *p = (const TreeSend *)a, *q = (const TreeSend *)b;
  if (p->rank != q->rank) return p->rank < q->rank ? -1 : 1;
  for (int d = 0; d < 3; d++)
    if (p->shift[d] != q->shift[d]) return p->shift[d] < q->shift[d] ? -1 : 1;
  return p->row < q->row ? -1 : p->row > q->row;
}

/* The ranks received from, in increasing order, with their counts. */
static PetscErrorCode TreeSortFrom(PetscMPIInt n, PetscMPIInt *from, PetscMPIInt *count)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSortMPIIntWithArray(n, from, count));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Messages: len[j] reals from sbuf + soff[j] to to[j]; the senders and
 * lengths found (sorted by rank) into *from, *rlen; received into ex->rbuf. */
static PetscErrorCode TreeMessages(const Grid *g, Exchange *ex, ExchangeKind k, PetscMPIInt nto, const PetscMPIInt *to,
                                   const PetscMPIInt *len, const PetscInt *soff, PetscMPIInt *nfrom, PetscMPIInt **from,
                                   PetscMPIInt **rlen, PetscInt **roff)
{
  const int    tag = k == EXCHANGE_MIGRATE ? 21 : 22;
  MPI_Request *req;
  PetscInt     total = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscCommBuildTwoSided(g->comm, 1, MPI_INT, nto, to, len, nfrom, from, rlen));
  PetscCall(TreeSortFrom(*nfrom, *from, *rlen));
  PetscCall(PetscMalloc1(*nfrom + 1, roff));
  for (PetscMPIInt j = 0; j < *nfrom; j++) (*roff)[j] = total, total += (*rlen)[j];
  (*roff)[*nfrom] = total;
  PetscCall(ExchangeReserve(&ex->rbuf, &ex->rbuf_cap, total + 1));
  PetscCall(PetscMalloc1(nto + *nfrom + 1, &req));
  for (PetscMPIInt j = 0; j < *nfrom; j++)
    PetscCallMPI(MPI_Irecv(ex->rbuf + (*roff)[j], (*rlen)[j], MPIU_REAL, (*from)[j], tag, g->comm, &req[j]));
  for (PetscMPIInt j = 0; j < nto; j++)
    PetscCallMPI(MPI_Isend(ex->sbuf + soff[j], len[j], MPIU_REAL, to[j], tag, g->comm, &req[*nfrom + j]));
  PetscCallMPI(MPI_Waitall(nto + *nfrom, req, MPI_STATUSES_IGNORE));
  PetscCall(PetscFree(req));
  /* the rendezvous: each length sent ahead as one int */
  for (PetscMPIInt j = 0; j < nto; j++) ExchangeCount(ex, k, PETSC_TRUE, to[j], 1, sizeof(int));
  for (PetscMPIInt j = 0; j < *nfrom; j++) ExchangeCount(ex, k, PETSC_FALSE, (*from)[j], 1, sizeof(int));
  for (PetscMPIInt j = 0; j < nto; j++) ExchangeCount(ex, k, PETSC_TRUE, to[j], len[j], sizeof(PetscReal));
  for (PetscMPIInt j = 0; j < *nfrom; j++) ExchangeCount(ex, k, PETSC_FALSE, (*from)[j], (*rlen)[j], sizeof(PetscReal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExchangeTreeFree(Exchange *ex)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(ex->to));
  PetscCall(PetscFree(ex->to_start));
  PetscCall(PetscFree(ex->from));
  PetscCall(PetscFree(ex->from_start));
  ex->nto = ex->nfrom = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- migration ---------------------------------------------------------- */

/* Per owned row: -1 stays, -2 lost through a wall, else the rank it goes to. */
static void TreeDestinations(const Grid *g, const FieldStore *st, PetscMPIInt *dest)
{
  for (PetscInt i = 0; i < *st->n; i++) {
    const PetscReal *h = FieldStoreHomeOf(st, i);
    PetscMPIInt      r;
    dest[i] = -1;
    for (int a = 0; a < 3; a++)
      if (!g->periodic[a] && (h[a] < g->lo[a] || h[a] > g->hi[a])) dest[i] = -2;
    if (dest[i] == -2) continue;
    r = GridRankAt(g, h);
    if (r != g->rank) dest[i] = r;
  }
}

/* The leavers packed by destination into ex->sbuf (per message: count,
 * record count, rows, records), their records marked, leavers and lost dropped. */
static PetscErrorCode TreeMigratePack(const Grid *g, Exchange *ex, FieldStore *st, RecordStore *rs,
                                      const PetscMPIInt *dest, PetscMPIInt *nto, PetscMPIInt **to, PetscMPIInt **len,
                                      PetscInt **soff, PetscInt *nlost)
{
  const PetscInt64 *id = *st->id;
  PetscInt          n = *st->n, pw = FieldStorePackWidth(st, FIELD_GHOST | FIELD_MIGRATE), nl = 0, *order, *drop;
  PetscInt64        need = 0;
  unsigned char    *mark;
  LocalInt         *rows;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(n + 1, &order, n + 1, &drop, n + 1, &rows));
  PetscCall(PetscCalloc1(rs->n + 1, &mark));
  for (PetscInt i = 0; i < n; i++) {
    drop[i] = dest[i] != -1;
    *nlost += dest[i] == -2;
    if (dest[i] >= 0) order[nl++] = i;
  }
  /* by destination, then row: a stable order */
  {
    PetscMPIInt *key;
    PetscCall(PetscMalloc1(nl + 1, &key));
    for (PetscInt k = 0; k < nl; k++) key[k] = dest[order[k]];
    PetscCall(PetscSortMPIIntWithIntArray((PetscMPIInt)nl, key, order));
    PetscCall(PetscFree(key));
  }
  *nto = 0;
  for (PetscInt k = 0; k < nl; k++) *nto += (k == 0 || dest[order[k]] != dest[order[k - 1]]);
  PetscCall(PetscMalloc3(*nto + 1, to, *nto + 1, len, *nto + 1, soff));
  for (PetscInt k = 0; k < nl; k++) {
    PetscInt i = order[k];
    need += 2 + pw;
    for (PetscInt q = RecordStoreFirst(rs, id[i]); q < rs->n && RecordStoreHead(rs, q)->owner == id[i]; q++)
      need += RecordStorePackWidth(rs);
  }
  PetscCall(ExchangeReserve(&ex->sbuf, &ex->sbuf_cap, need + 1));
  {
    PetscReal *b = ex->sbuf;
    for (PetscInt k = 0, j = 0; k < nl; j++) {
      PetscInt k1 = k, np, nrec = 0;
      while (k1 < nl && dest[order[k1]] == dest[order[k]]) k1++;
      np         = k1 - k;
      (*to)[j]   = dest[order[k]];
      (*soff)[j] = b - ex->sbuf;
      for (PetscInt q = 0; q < np; q++) rows[q] = (LocalInt)order[k + q];
      FieldStorePack(st, FIELD_GHOST | FIELD_MIGRATE, np, rows, b + 2);
      b += 2 + (size_t)np * pw;
      for (PetscInt q = 0; q < np; q++) {
        PetscInt i = order[k + q];
        for (PetscInt r = RecordStoreFirst(rs, id[i]); r < rs->n && RecordStoreHead(rs, r)->owner == id[i]; r++) {
          RecordStorePack(rs, r, b);
          b += RecordStorePackWidth(rs);
          nrec++;
        }
      }
      ex->sbuf[(*soff)[j]] = (PetscReal)np, ex->sbuf[(*soff)[j] + 1] = (PetscReal)nrec;
      PetscCall(PetscMPIIntCast((PetscInt)(b - ex->sbuf) - (*soff)[j], &(*len)[j]));
      k = k1;
    }
  }
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt r = RecordStoreFirst(rs, id[i]); drop[i] && r < rs->n && RecordStoreHead(rs, r)->owner == id[i]; r++)
      mark[r] = 1;
  PetscCall(FieldStoreCompactOwned(st, drop));
  RecordStoreCompact(rs, mark);
  (void)g;
  PetscCall(PetscFree(mark));
  PetscCall(PetscFree3(order, drop, rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One message's arrivals: owned rows at the end, records added. */
static PetscErrorCode TreeMigrateUnpack(const Grid *g, FieldStore *st, RecordStore *rs, const PetscReal *rb)
{
  PetscInt n0, rp, rrec;

  PetscFunctionBeginUser;
  PetscCall(ExchangeArrivals(g, st, rs, rb, &n0, &rp, &rrec));
  for (PetscInt i = n0; i < n0 + rp; i++)
    PetscCheck(GridRankAt(g, FieldStoreHomeOf(st, i)) == g->rank, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "particle %" PetscInt64_FMT " arrived on rank %d, which does not own its home", (*st->id)[i], g->rank);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExchangeTreeMigrate(const Grid *g, Exchange *ex, FieldStore *st, RecordStore *rs, Scratch *sc,
                                   PetscInt *nlost)
{
  PetscMPIInt *dest, nto = 0, *to, *len, nfrom, *from, *rlen;
  PetscInt    *soff, *roff;

  PetscFunctionBeginUser;
  *st->nghost = 0;
  *nlost      = 0;
  PetscCall(ExchangeWrap(g, st));
  PetscCall(RecordStoreSort(rs, sc));
  PetscCall(PetscMalloc1(*st->n + 1, &dest));
  TreeDestinations(g, st, dest);
  PetscCall(TreeMigratePack(g, ex, st, rs, dest, &nto, &to, &len, &soff, nlost));
  PetscCall(PetscFree(dest));
  PetscCall(TreeMessages(g, ex, EXCHANGE_MIGRATE, nto, to, len, soff, &nfrom, &from, &rlen, &roff));
  for (PetscMPIInt j = 0; j < nfrom; j++) PetscCall(TreeMigrateUnpack(g, st, rs, ex->rbuf + roff[j]));
  if (nfrom) PetscCall(RecordStoreSort(rs, sc)); /* RecordStoreFirst needs the order */
  PetscCall(PetscFree3(to, len, soff));
  PetscCall(PetscFree(from));
  PetscCall(PetscFree(rlen));
  PetscCall(PetscFree(roff));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- borders and the forward halo ------------------------------------------ */

/* Rows within the cutoff of this rank's box faces: no other rank's box, nor
 * a periodic image of this one, comes nearer to any other row. */
static PetscErrorCode TreeBorderRows(const Grid *g, const Exchange *ex, const FieldStore *st, PetscInt *nb,
                                     PetscInt **border, PetscReal bb[6])
{
  const PetscReal *x = *st->x;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(*st->n + 1, border));
  *nb = 0;
  for (int a = 0; a < 3; a++) bb[a] = PETSC_MAX_REAL, bb[3 + a] = -PETSC_MAX_REAL;
  for (PetscInt i = 0; i < *st->n; i++) {
    PetscBool near = PETSC_FALSE;
    for (int a = 0; a < 3; a++)
      near = near || !(x[3 * i + a] >= g->sublo[a] + ex->cut && x[3 * i + a] < g->subhi[a] - ex->cut);
    if (!near) continue;
    (*border)[(*nb)++] = i;
    for (int a = 0; a < 3; a++) bb[a] = PetscMin(bb[a], x[3 * i + a]), bb[3 + a] = PetscMax(bb[3 + a], x[3 * i + a]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every (row, rank, image) whose widened box holds the row's image, in (rank, image, row) order. */
static PetscErrorCode TreeGhostSends(const Grid *g, const Exchange *ex, const FieldStore *st, PetscInt *ns,
                                     TreeSend **out)
{
  PetscInt         nb = 0, *border, cap = 0;
  PetscReal        bb[6] = {0}, L[3];
  PetscMPIInt     *ranks;
  const PetscReal *x = *st->x;

  PetscFunctionBeginUser;
  *ns = 0, *out = NULL;
  PetscCall(TreeBorderRows(g, ex, st, &nb, &border, bb));
  PetscCall(PetscMalloc1(g->size, &ranks));
  for (int a = 0; a < 3; a++) L[a] = g->hi[a] - g->lo[a];
  for (int s = 0; nb && s < 27; s++) {
    signed char sh[3] = {(signed char)(s / 9 - 1), (signed char)((s / 3) % 3 - 1), (signed char)(s % 3 - 1)};
    PetscReal   lo[3], hi[3];
    PetscMPIInt nr;
    PetscBool   skip = PETSC_FALSE;
    for (int a = 0; a < 3; a++) {
      skip  = skip || (sh[a] && !g->periodic[a]);
      lo[a] = bb[a] + sh[a] * L[a] - ex->cut, hi[a] = bb[3 + a] + sh[a] * L[a] + ex->cut;
    }
    if (skip) continue;
    nr = GridRanksMeeting(g, lo, hi, ranks);
    for (PetscMPIInt k = 0; k < nr; k++) {
      PetscReal blo[3], bhi[3];
      if (ranks[k] == g->rank && !sh[0] && !sh[1] && !sh[2]) continue;
      GridBoxOf(g, ranks[k], blo, bhi);
      for (PetscInt q = 0; q < nb; q++) {
        PetscInt  i  = border[q];
        PetscBool in = PETSC_TRUE;
        for (int a = 0; a < 3; a++) {
          PetscReal xs = x[3 * i + a] + sh[a] * L[a];
          in           = in && xs >= blo[a] - ex->cut && xs < bhi[a] + ex->cut;
        }
        if (!in) continue;
        if (*ns == cap) {
          cap = PetscMax(1024, 2 * cap);
          PetscCall(PetscRealloc(sizeof(**out) * (size_t)cap, out));
        }
        (*out)[*ns].rank = ranks[k], (*out)[*ns].row = i;
        for (int a = 0; a < 3; a++) (*out)[*ns].shift[a] = sh[a];
        (*ns)++;
      }
    }
  }
  if (*ns) qsort(*out, (size_t)*ns, sizeof(**out), TreeSendCompare);
  PetscCall(PetscFree(ranks));
  PetscCall(PetscFree(border));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's own periodic images, made in place as swap 0's (ExchangeRoots, ExchangeForwardSelf). */
static PetscErrorCode TreeSelfImages(const Grid *g, Exchange *ex, FieldStore *st, PetscInt ns, const TreeSend *s)
{
  PetscInt o0 = *st->n + *st->nghost;

  PetscFunctionBeginUser;
  if (ns > ex->send_cap[0]) {
    ex->send_cap[0] = PetscMax(ns, 2 * ex->send_cap[0]);
    PetscCall(PetscFree(ex->send[0]));
    PetscCall(PetscMalloc1(ex->send_cap[0], &ex->send[0]));
  }
  for (PetscInt k = 0; k < ns; k++) ex->send[0][k] = (LocalInt)s[k].row;
  PetscCall(FieldStoreReserveGhosts(st, o0 + ns));
  FieldStoreGatherRows(st, FIELD_GHOST, o0, ns, ex->send[0]);
  for (PetscInt k = 0; k < ns; k++) {
    PetscInt o = o0 + k;
    for (int a = 0; a < 3; a++) (*st->image)[3 * o + a] = (signed char)((*st->image)[3 * o + a] + s[k].shift[a]);
    (*st->origin)[o] = (LocalInt)s[k].row;
    ExchangeGhostBookkeeping(st, o, g->rank);
  }
  ex->self[0]  = PETSC_TRUE;
  ex->nsend[0] = ex->nrecv[0] = ns;
  ex->recv_start[0]           = o0;
  *st->nghost += ns;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The other ranks' rows, image-shifted, as ghosts here; the lists kept for the forward halo. */
static PetscErrorCode TreeRemoteGhosts(const Grid *g, Exchange *ex, FieldStore *st, PetscInt ns, const TreeSend *s)
{
  PetscInt w    = FieldStorePackWidth(st, FIELD_GHOST), *soff, *roff, o0;
  PetscInt oimg = FieldStorePackOffset(st, FIELD_GHOST, FieldStoreFind(st, "image")),
           oorg = FieldStorePackOffset(st, FIELD_GHOST, FieldStoreFind(st, "origin"));
  PetscMPIInt *len, *rlen, nto = 0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < ns; k++) nto += (k == 0 || s[k].rank != s[k - 1].rank);
  PetscCall(ExchangeTreeFree(ex));
  PetscCall(PetscMalloc1(nto + 1, &ex->to));
  PetscCall(PetscMalloc1(nto + 1, &ex->to_start));
  PetscCall(PetscMalloc2(nto + 1, &len, nto + 1, &soff));
  if (ns > ex->tsend_cap) {
    ex->tsend_cap = PetscMax(ns, 2 * ex->tsend_cap);
    PetscCall(PetscFree(ex->tsend));
    PetscCall(PetscMalloc1(ex->tsend_cap, &ex->tsend));
  }
  PetscCall(ExchangeReserve(&ex->sbuf, &ex->sbuf_cap, (PetscInt64)ns * w + 1));
  ex->nto = 0;
  for (PetscInt k = 0; k < ns; k++) {
    if (k == 0 || s[k].rank != s[k - 1].rank) ex->to[ex->nto] = s[k].rank, ex->to_start[ex->nto++] = k;
    ex->tsend[k] = (LocalInt)s[k].row;
  }
  FieldStorePack(st, FIELD_GHOST, ns, ex->tsend, ex->sbuf);
  for (PetscInt k = 0; k < ns; k++) {
    PetscReal *b = ex->sbuf + (size_t)k * w;
    for (int a = 0; a < 3; a++) b[oimg + a] += (PetscReal)s[k].shift[a];
    b[oorg] = (PetscReal)s[k].row;
  }
  ex->to_start[ex->nto] = ns;
  for (PetscMPIInt j = 0; j < ex->nto; j++) {
    soff[j] = ex->to_start[j] * w;
    PetscCall(PetscMPIIntCast((ex->to_start[j + 1] - ex->to_start[j]) * w, &len[j]));
  }
  PetscCall(TreeMessages(g, ex, EXCHANGE_BORDERS, ex->nto, ex->to, len, soff, &ex->nfrom, &ex->from, &rlen, &roff));
  PetscCall(PetscMalloc1(ex->nfrom + 1, &ex->from_start));
  for (PetscMPIInt j = 0; j <= ex->nfrom; j++) ex->from_start[j] = roff[j] / w;
  o0         = *st->n + *st->nghost;
  ex->ghost0 = o0;
  PetscCall(FieldStoreReserveGhosts(st, o0 + ex->from_start[ex->nfrom]));
  FieldStoreUnpack(st, FIELD_GHOST, o0, ex->from_start[ex->nfrom], ex->rbuf);
  for (PetscInt k = 0; k < ex->from_start[ex->nfrom]; k++) ExchangeGhostBookkeeping(st, o0 + k, g->rank);
  *st->nghost += ex->from_start[ex->nfrom];
  PetscCall(PetscFree2(len, soff));
  PetscCall(PetscFree(rlen));
  PetscCall(PetscFree(roff));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExchangeTreeBorders(const Grid *g, Exchange *ex, FieldStore *st)
{
  PetscInt  ns, nself = 0;
  TreeSend *s;

  PetscFunctionBeginUser;
  *st->nghost = 0;
  for (int sw = 0; sw < 6; sw++) ex->nsend[sw] = ex->nrecv[sw] = 0, ex->self[sw] = PETSC_FALSE;
  PetscCall(TreeGhostSends(g, ex, st, &ns, &s));
  /* this rank's own images: a run of the sorted sends, made first */
  {
    PetscInt k0 = 0;
    while (k0 < ns && s[k0].rank < g->rank) k0++;
    while (k0 + nself < ns && s[k0 + nself].rank == g->rank) nself++;
    PetscCall(TreeSelfImages(g, ex, st, nself, s + k0));
    if (nself) PetscCall(PetscArraymove(s + k0, s + k0 + nself, ns - k0 - nself));
  }
  PetscCall(TreeRemoteGhosts(g, ex, st, ns - nself, s));
  PetscCall(PetscFree(s));
  PetscCall(ExchangeRoots(ex, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExchangeTreeForward(const Grid *g, Exchange *ex, FieldStore *st, PetscBool images)
{
  const PetscInt w  = FieldStorePackWidth(st, FIELD_FORWARD);
  PetscInt       ns = ex->nto ? ex->to_start[ex->nto] : 0, nr = ex->nfrom ? ex->from_start[ex->nfrom] : 0;
  MPI_Request   *req;

  PetscFunctionBeginUser;
  if (images && ex->self[0]) PetscCall(ExchangeForwardSelf(ex, st, 0));
  if (!ex->nto && !ex->nfrom) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ExchangeReserve(&ex->sbuf, &ex->sbuf_cap, (PetscInt64)ns * w + 1));
  PetscCall(ExchangeReserve(&ex->rbuf, &ex->rbuf_cap, (PetscInt64)nr * w + 1));
  PetscCall(PetscMalloc1(ex->nto + ex->nfrom, &req));
  for (PetscMPIInt j = 0; j < ex->nfrom; j++) {
    PetscMPIInt rn;
    PetscCall(PetscMPIIntCast((ex->from_start[j + 1] - ex->from_start[j]) * w, &rn));
    PetscCallMPI(MPI_Irecv(ex->rbuf + ex->from_start[j] * w, rn, MPIU_REAL, ex->from[j], 23, g->comm, &req[j]));
    ExchangeCount(ex, EXCHANGE_HALO, PETSC_FALSE, ex->from[j], rn, sizeof(PetscReal));
  }
  for (PetscMPIInt j = 0; j < ex->nto; j++) {
    PetscMPIInt sn;
    FieldStorePackColumns(st, FIELD_FORWARD, ex->to_start[j + 1] - ex->to_start[j], ex->tsend + ex->to_start[j],
                          ex->sbuf + ex->to_start[j] * w);
    PetscCall(PetscMPIIntCast((ex->to_start[j + 1] - ex->to_start[j]) * w, &sn));
    PetscCallMPI(MPI_Isend(ex->sbuf + ex->to_start[j] * w, sn, MPIU_REAL, ex->to[j], 23, g->comm, &req[ex->nfrom + j]));
    ExchangeCount(ex, EXCHANGE_HALO, PETSC_TRUE, ex->to[j], sn, sizeof(PetscReal));
  }
  PetscCallMPI(MPI_Waitall(ex->nto + ex->nfrom, req, MPI_STATUSES_IGNORE));
  for (PetscMPIInt j = 0; j < ex->nfrom; j++)
    FieldStoreUnpackColumns(st, FIELD_FORWARD, ex->ghost0 + ex->from_start[j],
                            ex->from_start[j + 1] - ex->from_start[j], ex->rbuf + ex->from_start[j] * w);
  PetscCall(PetscFree(req));
  PetscFunctionReturn(PETSC_SUCCESS);
}
