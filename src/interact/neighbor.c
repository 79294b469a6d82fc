#include "interact/neighbor.h"
#include <stdint.h>

#define NEIGHBOR_MAX_CLASSES 24

PetscErrorCode NeighborListCreate(PetscReal skin, NeighborList *nl)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(nl, sizeof(*nl)));
  nl->skin = skin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode NeighborListDestroy(NeighborList *nl)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(nl->ij));
  PetscCall(HistorySlotsDestroy(&nl->hs));
  PetscCall(PetscFree(nl->slot));
  PetscCall(PetscFree(nl->flag));
  PetscCall(PetscFree(nl->image));
  PetscCall(PetscFree(nl->body));
  PetscCall(PetscMemzero(nl, sizeof(*nl)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Capacities grow by a quarter: the lists are the largest arrays, and a
 * rebuild holds about as many pairs as the last one. */
/* Room for need of a list's entries, limit at most (their indices are LocalInt). */
static PetscErrorCode NeighborGrow(PetscInt *cap, PetscInt need, PetscInt limit, const char *what)
{
  PetscFunctionBeginUser;
  PetscCheck(need <= limit, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "a rank's neighbour list needs %" PetscInt_FMT
             " %s, more than its 32-bit local indices allow (%" PetscInt_FMT "): run on more ranks",
             need, what, limit);
  *cap = PetscMin(limit, PetscMax(need, PetscMax(1024, *cap + *cap / 4)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Coordinate a of particle i with its periodic image applied: where the
 * binning sees it (computed where needed rather than kept: the build's
 * scratch is the process's largest transient) */
static inline PetscReal NeighborShifted(const Particles *p, const PetscReal L[3], PetscInt i, int a)
{
  return p->x[3 * i + a] + (p->image[3 * i + a] ? (PetscReal)p->image[3 * i + a] * L[a] : 0.0);
}

/* A pair is held on this rank if its lower-id member is owned, or its upper
 * member is owned and the lower one is not a periodic image of an owned
 * particle (then the same contact is already held with the roles swapped).
 * A kept pair's self-image member passes its force to its owned copy. */
static PetscBool NeighborKeep(const Particles *p, PetscInt lo, PetscInt hi)
{
  if (lo < p->n) return PETSC_TRUE;
  return (hi < p->n && !(p->flags[lo] & PARTICLE_SELF_IMAGE)) ? PETSC_TRUE : PETSC_FALSE;
}

/* Dense rank of each local particle's id (a self-image shares its owner's):
 * LSD radix sort, 8 bits a pass, passes with one value skipped, of the
 * particles past the sorted prefix [0, lo), then one merge with it. */
static PetscErrorCode NeighborIdRank(const Particles *p, PetscInt lo, PetscInt ntot, Scratch *sc, LocalInt *rank,
                                     PetscInt *nrank)
{
  PetscInt   m  = ntot - lo;
  uint64_t  *k0 = ScratchTake(sc, m, sizeof(*k0)), *k1 = ScratchTake(sc, m, sizeof(*k1)), *key, *key2;
  LocalInt  *i0 = ScratchTake(sc, m, sizeof(*i0)), *i1 = ScratchTake(sc, m, sizeof(*i1)), *idx, *idx2;
  PetscInt   cnt[256], a = 0, b = 0, r = -1;
  PetscInt64 last = 0;

  PetscFunctionBeginUser;
  key = k0, key2 = k1, idx = i0, idx2 = i1; /* ping-pong between the passes */
  for (PetscInt i = 0; i < m; i++) {
    key[i] = (uint64_t)p->id[lo + i] ^ ((uint64_t)1 << 63); /* signed order as unsigned */
    idx[i] = lo + i;
  }
  for (int sh = 0; sh < 64; sh += 8) {
    PetscInt  pos = 0, skip = 0;
    uint64_t *tk;
    LocalInt *ti;
    for (int c = 0; c < 256; c++) cnt[c] = 0;
    for (PetscInt i = 0; i < m; i++) cnt[(key[i] >> sh) & 255]++;
    for (int c = 0; c < 256; c++) {
      PetscInt q = cnt[c];
      if (q == m) skip = 1;
      cnt[c] = pos;
      pos += q;
    }
    if (skip) continue;
    for (PetscInt i = 0; i < m; i++) {
      PetscInt d = cnt[(key[i] >> sh) & 255]++;
      key2[d]    = key[i];
      idx2[d]    = idx[i];
    }
    tk = key, key = key2, key2 = tk;
    ti = idx, idx = idx2, idx2 = ti;
  }
  while (a < lo || b < m) {
    PetscInt   i  = (b >= m || (a < lo && p->id[a] <= p->id[idx[b]])) ? a++ : idx[b++];
    PetscInt64 id = p->id[i];
    if (r < 0 || id != last) r++;
    rank[i] = r, last = id;
  }
  *nrank = r + 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Particle pairs into the canonical order, (upper id, lower id): counting
 * sort on the upper member's id rank, insertion sort (short runs) on the
 * lower id.  Ids identify a pair: a contact is held through one image only. */
static PetscErrorCode NeighborSortPairs(NeighborList *nl, const Particles *p, PetscInt ntot, Scratch *sc)
{
  LocalInt *rank, *start, *tmp;
  /* all or most owned: EngineRebuild keeps them so */
  PetscInt nrank, n = nl->npair, lo = ParticlesSortedPrefix(p);

  PetscFunctionBeginUser;
  if (n < 2) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ScratchBegin(sc, ScratchBytes(ntot, LocalInt) + 2 * ScratchBytes(ntot - lo, uint64_t) +
                               2 * ScratchBytes(ntot - lo, LocalInt) + ScratchBytes(ntot + 1, LocalInt) +
                               ScratchBytes(2 * n, LocalInt)));
  rank = ScratchTake(sc, ntot, sizeof(*rank));
  PetscCall(NeighborIdRank(p, lo, ntot, sc, rank, &nrank));
  start = ScratchTake(sc, nrank + 1, sizeof(*start));
  tmp   = ScratchTake(sc, 2 * n, sizeof(*tmp));
  PetscCall(PetscArrayzero(start, nrank + 1));
  for (PetscInt k = 0; k < n; k++) start[rank[nl->ij[2 * k + 1]] + 1]++;
  for (PetscInt r = 0; r < nrank; r++) start[r + 1] += start[r];
  for (PetscInt k = 0; k < n; k++) {
    PetscInt d     = start[rank[nl->ij[2 * k + 1]]]++;
    tmp[2 * d]     = nl->ij[2 * k];
    tmp[2 * d + 1] = nl->ij[2 * k + 1];
  }
  /* start[r] now ends bucket r */
  for (PetscInt r = 0, b0 = 0; r < nrank; b0 = start[r], r++)
    for (PetscInt a = b0 + 1; a < start[r]; a++) {
      PetscInt   i = tmp[2 * a], j = tmp[2 * a + 1], b = a - 1;
      PetscInt64 key = p->id[i];
      while (b >= b0 && p->id[tmp[2 * b]] > key) {
        tmp[2 * b + 2] = tmp[2 * b];
        tmp[2 * b + 3] = tmp[2 * b + 1];
        b--;
      }
      tmp[2 * b + 2] = i;
      tmp[2 * b + 3] = j;
    }
  PetscCall(PetscArraycpy(nl->ij, tmp, 2 * n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Body classes for the pair-constant memo: a deck has few distinct bodies
 * (often one), so the force loop can tell a known pair by two integers. */
static PetscErrorCode NeighborBodyClasses(NeighborList *nl, const Particles *p, PetscInt ntot)
{
  PetscReal key[NEIGHBOR_BODY_CLASSES][3];
  LocalInt  ty[NEIGHBOR_BODY_CLASSES];
  PetscInt  fz[NEIGHBOR_BODY_CLASSES], nb = 0;

  PetscFunctionBeginUser;
  if (nl->bcap < ntot) {
    PetscCall(PetscFree(nl->body));
    PetscCall(NeighborGrow(&nl->bcap, ntot, LOCAL_INT_MAX, "particles"));
    PetscCall(PetscMalloc1(nl->bcap, &nl->body));
  }
  for (PetscInt i = 0; i < ntot; i++) {
    PetscInt b, f = p->flags[i] & PARTICLE_FROZEN;
    for (b = 0; b < nb; b++)
      if (key[b][0] == p->radius[i] && key[b][1] == p->mass[i] && key[b][2] == p->inertia[i] && fz[b] == f &&
          ty[b] == p->type[i])
        break;
    if (b == nb && nb < NEIGHBOR_BODY_CLASSES) {
      key[nb][0] = p->radius[i], key[nb][1] = p->mass[i], key[nb][2] = p->inertia[i], fz[nb] = f, ty[nb] = p->type[i];
      nb++;
    }
    nl->body[i] = b < nb ? b : -1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscReal rmax, w[3], iw[3]; /* iw = 1 / w: the stencil's bounds (a superset is enough, see below) */
  PetscInt  count;             /* local particles of the class */
  PetscInt  nc[3];
  LocalInt *start; /* cell k holds the binned slots start[k] .. start[k+1]-1 */
} CellClass;

/* Pair capacity for at least need pairs; slot[] and flag[] are set after the
 * build (HistoryStoreAttach), so they are reallocated, not copied. */
static PetscErrorCode NeighborReserve(NeighborList *nl, PetscInt need)
{
  PetscFunctionBeginUser;
  if (need <= nl->cap) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(NeighborGrow(&nl->cap, need, LOCAL_INT_MAX / 2, "pairs")); /* ij holds two per pair */
  PetscCall(PetscRealloc((size_t)nl->cap * 2 * sizeof(*nl->ij), &nl->ij));
  PetscCall(PetscFree(nl->slot));
  PetscCall(PetscMalloc1(nl->cap, &nl->slot));
  PetscCall(PetscFree(nl->flag));
  PetscCall(PetscMalloc1(nl->cap, &nl->flag));
  PetscCall(PetscFree(nl->image));
  PetscCall(PetscMalloc1(nl->cap, &nl->image));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscErrorCode NeighborAddPair(NeighborList *nl, PetscInt i, PetscInt j)
{
  PetscFunctionBeginUser;
  if (nl->npair == nl->cap) PetscCall(NeighborReserve(nl, nl->npair + 1));
  nl->ij[2 * nl->npair]     = i;
  nl->ij[2 * nl->npair + 1] = j;
  nl->npair++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The exact, canonical test between binned candidates i and j that passed
 * the prefilter: it alone decides membership, so every rank keeps the same
 * pairs whatever the binning. */
static inline PetscErrorCode NeighborTryPair(NeighborList *nl, const Particles *p, const PetscReal L[3], PetscInt i,
                                             PetscInt j)
{
  PetscInt  a, b;
  PetscReal r[3], cut, d2;

  PetscFunctionBeginUser;
  if (p->id[i] == p->id[j]) PetscFunctionReturn(PETSC_SUCCESS);
  a = p->id[i] < p->id[j] ? i : j;
  b = a == i ? j : i;
  if (!NeighborKeep(p, a, b)) PetscFunctionReturn(PETSC_SUCCESS);
  NeighborSeparationInline(p, L, a, b, r);
  cut = p->radius[a] + p->radius[b] + nl->skin;
  d2  = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  /* no contact normal exists between them: the forces would be NaN throughout */
  PetscCheck(d2 > 0.0, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
             "particles %" PetscInt64_FMT " and %" PetscInt64_FMT
             " have the same centre (%g, %g, %g): check the inserted or imported positions",
             p->id[a], p->id[b], (double)p->x[3 * a], (double)p->x[3 * a + 1], (double)p->x[3 * a + 2]);
  if (d2 < cut * cut) PetscCall(NeighborAddPair(nl, a, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A build's binning: the local particles (owned and ghosts) by size class
 * into cells, their shifted positions copied in binned order (bx) so the
 * candidate scan streams through contiguous memory. */
typedef struct {
  PetscInt ntot, ncls, nbin;
  /* per particle: class, cell; per slot: particle; the scan's survivors */
  LocalInt  *cls, *cell, *member, *surv;
  PetscReal *bx, bbmin[3], bbmax[3], rmin, slack;
  CellClass  cc[NEIGHBOR_MAX_CLASSES];
} NeighborBinning;

/* The shifted positions' bounding box, the smallest radius, the size
 * classes (radii within a factor 2 share cells) and each class's largest. */
static void NeighborBounds(const Particles *p, const PetscReal L[3], NeighborBinning *nb)
{
  PetscReal xmag = 0.0;

  for (int a = 0; a < 3; a++) nb->bbmin[a] = PETSC_MAX_REAL, nb->bbmax[a] = PETSC_MIN_REAL;
  nb->rmin = PETSC_MAX_REAL, nb->ncls = 0;
  for (PetscInt i = 0; i < nb->ntot; i++) {
    for (int a = 0; a < 3; a++) {
      PetscReal xa = NeighborShifted(p, L, i, a);
      nb->bbmin[a] = PetscMin(nb->bbmin[a], xa);
      nb->bbmax[a] = PetscMax(nb->bbmax[a], xa);
    }
    nb->rmin = PetscMin(nb->rmin, p->radius[i]);
  }
  for (int a = 0; a < 3; a++) xmag = PetscMax(xmag, PetscMax(PetscAbsReal(nb->bbmin[a]), PetscAbsReal(nb->bbmax[a])));
  nb->slack = 16.0 * PETSC_MACHINE_EPSILON * xmag; /* the prefilter's rounding allowance (NeighborScan) */
  for (PetscInt i = 0; i < nb->ntot; i++) {
    PetscInt k = 0;
    while (k < NEIGHBOR_MAX_CLASSES - 1 && p->radius[i] >= nb->rmin * (PetscReal)(2 << k)) k++;
    nb->cls[i] = k;
    nb->ncls   = PetscMax(nb->ncls, k + 1);
  }
  for (PetscInt c = 0; c < nb->ncls; c++) nb->cc[c].rmax = 0.0, nb->cc[c].count = 0;
  for (PetscInt i = 0; i < nb->ntot; i++)
    nb->cc[nb->cls[i]].rmax = PetscMax(nb->cc[nb->cls[i]].rmax, p->radius[i]), nb->cc[nb->cls[i]].count++;
}

/* Class c's cells, one cutoff of its largest member wide; a class of few
 * particles in a large box (fines among coarse grains) gets wider cells: no
 * more than about two per member, not up to 1024^3.  Returns the count. */
static PetscInt NeighborCells(NeighborBinning *nb, PetscInt c, PetscReal skin)
{
  CellClass *cc    = &nb->cc[c];
  PetscReal  cells = 1.0, shrink;
  PetscInt   ncell = 1;

  for (int a = 0; a < 3; a++) {
    PetscReal ext = PetscMax(nb->bbmax[a] - nb->bbmin[a], 1e-300), h = 2.0 * cc->rmax + skin;
    cc->nc[a] = (PetscInt)PetscMax(1.0, PetscMin(floor(ext / h), 1024.0));
    cells *= cc->nc[a];
  }
  shrink = cells > 2.0 * cc->count + 8.0 ? cbrt((2.0 * cc->count + 8.0) / cells) : 1.0;
  for (int a = 0; a < 3; a++) {
    PetscReal ext = PetscMax(nb->bbmax[a] - nb->bbmin[a], 1e-300);
    cc->nc[a]     = (PetscInt)PetscMax(1.0, floor(cc->nc[a] * shrink));
    cc->w[a]      = ext / cc->nc[a] * (1.0 + 1e-12);
    cc->iw[a]     = 1.0 / cc->w[a];
    ncell *= cc->nc[a];
  }
  return ncell;
}

/* Each class into its cells: the binned slots run class by class, cell by cell. */
static PetscErrorCode NeighborBin(const Particles *p, const PetscReal L[3], PetscReal skin, NeighborBinning *nb)
{
  PetscFunctionBeginUser;
  nb->nbin = 0;
  /* freed by the caller, also after an error */
  for (PetscInt c = 0; c < nb->ncls; c++) nb->cc[c].start = NULL;
  for (PetscInt c = 0; c < nb->ncls; c++) {
    CellClass *cc = &nb->cc[c];
    PetscInt   ncell;
    if (cc->rmax == 0.0) {
      cc->start = NULL;
      continue;
    }
    ncell = NeighborCells(nb, c, skin);
    PetscCall(PetscCalloc1(ncell + 1, &cc->start));
    for (PetscInt i = 0; i < nb->ntot; i++) {
      PetscInt k = 0;
      if (nb->cls[i] != c) continue;
      for (int a = 2; a >= 0; a--)
        k = k * cc->nc[a] +
            PetscMin((PetscInt)((NeighborShifted(p, L, i, a) - nb->bbmin[a]) / cc->w[a]), cc->nc[a] - 1);
      nb->cell[i] = k;
      cc->start[k + 1]++;
    }
    cc->start[0] = nb->nbin;
    for (PetscInt k = 0; k < ncell; k++) cc->start[k + 1] += cc->start[k];
    for (PetscInt i = 0; i < nb->ntot; i++) {
      PetscInt m;
      if (nb->cls[i] != c) continue;
      m             = cc->start[nb->cell[i]]++; /* start[k] now ends cell k */
      nb->member[m] = i;
      for (int a = 0; a < 3; a++) nb->bx[3 * m + a] = NeighborShifted(p, L, i, a);
    }
    for (PetscInt k = ncell; k > 0; k--) cc->start[k] = cc->start[k - 1];
    cc->start[0] = nb->nbin;
    nb->nbin     = cc->start[ncell];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Candidates: each binned particle against its own class's later slots and
 * all of the larger classes' within reach, so every pair is met once.  The
 * prefilter on the binned positions, with the class's largest cutoff, is
 * generous by more than their rounding difference from the canonical
 * separation (a relative 1e-9 of the cutoff plus slack, a few ulps of the
 * coordinates), so it loses no pair the exact test (NeighborTryPair) would
 * accept.  The same 1e-9 keeps every such partner's cell (binned by
 * division) inside the stencil's bounds, taken by multiplication. */
static PetscErrorCode NeighborScan(NeighborList *nl, const Particles *p, const PetscReal L[3],
                                   const NeighborBinning *nb)
{
  const PetscReal *bx = nb->bx;

  PetscFunctionBeginUser;
  for (PetscInt s = 0; s < nb->nbin; s++) {
    PetscInt        i = nb->member[s], ci = nb->cls[i];
    const PetscReal xi = bx[3 * s], yi = bx[3 * s + 1], zi = bx[3 * s + 2], ri = p->radius[i];
    for (PetscInt c = ci; c < nb->ncls; c++) {
      const CellClass *cc = &nb->cc[c];
      PetscInt         lo[3], hi[3];
      PetscReal        reach = (ri + cc->rmax + nl->skin) * (1.0 + 1e-9),
                /* the class's largest cutoff: one bound for the row */
        lim2 = (reach + nb->slack) * (reach + nb->slack);
      if (!cc->start) continue;
      for (int a = 0; a < 3; a++) {
        lo[a] = (PetscInt)PetscMax(0.0, floor((bx[3 * s + a] - reach - nb->bbmin[a]) * cc->iw[a]));
        hi[a] = (PetscInt)PetscMin((PetscReal)(cc->nc[a] - 1),
                                   floor((bx[3 * s + a] + reach - nb->bbmin[a]) * cc->iw[a]));
      }
      for (PetscInt cz = lo[2]; cz <= hi[2]; cz++)
        for (PetscInt cy = lo[1]; cy <= hi[1]; cy++) {
          PetscInt row = (cz * cc->nc[1] + cy) * cc->nc[0];
          /* the row's cells are contiguous slots */
          PetscInt m0 = cc->start[row + lo[0]], m1 = cc->start[row + hi[0] + 1];
          PetscInt nsurv = 0;
          if (c == ci) m0 = PetscMax(m0, s + 1);
          /* branch-free: most candidates fail, unpredictably */
          for (PetscInt m = m0; m < m1; m++) {
            PetscReal dx = bx[3 * m] - xi, dy = bx[3 * m + 1] - yi, dz = bx[3 * m + 2] - zi;
            nb->surv[nsurv] = m;
            nsurv += dx * dx + dy * dy + dz * dz < lim2;
          }
          for (PetscInt q = 0; q < nsurv; q++) PetscCall(NeighborTryPair(nl, p, L, i, nb->member[nb->surv[q]]));
        }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The table of periodic shifts, and each pair's flag (its members' body
 * classes, whether imaged) and image difference. */
static PetscErrorCode NeighborFlags(NeighborList *nl, const Particles *p, const PetscReal L[3])
{
  PetscFunctionBeginUser;
  for (int d0 = -2; d0 <= 2; d0++)
    for (int d1 = -2; d1 <= 2; d1++)
      for (int d2 = -2; d2 <= 2; d2++) {
        PetscReal *t = nl->shift[NEIGHBOR_IMAGE_INDEX(d0, d1, d2)];
        t[0] = d0 ? (PetscReal)d0 * L[0] : 0.0, t[1] = d1 ? (PetscReal)d1 * L[1] : 0.0,
        t[2] = d2 ? (PetscReal)d2 * L[2] : 0.0;
      }
  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt i = nl->ij[2 * k], j = nl->ij[2 * k + 1], bi = nl->body[i], bj = nl->body[j], di[3] = {0, 0, 0};
    nl->flag[k] = (unsigned char)((bi >= 0 && bj >= 0 ? NEIGHBOR_PAIR_CLASS(bi, bj) : NEIGHBOR_CLASS_NONE)
                                  << NEIGHBOR_CLASS_SHIFT);
    for (int a = 0; a < 3; a++) {
      di[a] = p->image[3 * i + a] - p->image[3 * j + a];
      PetscCheck(di[a] >= -2 && di[a] <= 2, PETSC_COMM_SELF, PETSC_ERR_PLIB,
                 "particles %" PetscInt64_FMT " and %" PetscInt64_FMT ": images %" PetscInt_FMT " box lengths apart",
                 p->id[i], p->id[j], di[a]);
      if (di[a]) nl->flag[k] |= NEIGHBOR_IMAGED;
    }
    nl->image[k] = (unsigned char)NEIGHBOR_IMAGE_INDEX(di[0], di[1], di[2]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode NeighborListBuild(NeighborList *nl, const Particles *p, const PetscReal L[3], Scratch *sc)
{
  NeighborBinning nb;
  PetscInt        ntot = p->n + p->nghost;

  PetscFunctionBeginUser;
  /* the histories were gathered into records before the build: drop them
   * (their room stays for the next ones) */
  nl->hs.n = 0;
  /* a rebuild holds about as many pairs as the last one: reserve once */
  PetscCall(NeighborReserve(nl, nl->npair + nl->npair / 8 + 1));
  nl->npair = 0;
  nl->builds++;
  nb.ntot = ntot;
  PetscCall(ScratchBegin(sc, ScratchBytes(3 * ntot, PetscReal) + 3 * ScratchBytes(ntot, LocalInt) +
                               ScratchBytes(ntot + 1, LocalInt)));
  nb.bx     = ScratchTake(sc, 3 * ntot, sizeof(*nb.bx));
  nb.cls    = ScratchTake(sc, ntot, sizeof(*nb.cls));
  nb.cell   = ScratchTake(sc, ntot, sizeof(*nb.cell));
  nb.member = ScratchTake(sc, ntot, sizeof(*nb.member));
  nb.surv   = ScratchTake(sc, ntot + 1, sizeof(*nb.surv));
  NeighborBounds(p, L, &nb);
  {
    PetscErrorCode ierr = NeighborBin(p, L, nl->skin, &nb);
    if (!ierr) ierr = NeighborScan(nl, p, L, &nb); /* an error (coincident centres) frees the bins too */
    for (PetscInt c = 0; c < nb.ncls; c++) PetscCall(PetscFree(nb.cc[c].start));
    PetscCall(ierr);
  }
  PetscCall(NeighborSortPairs(nl, p, ntot, sc)); /* the binning's scratch is free again */
  if (p->body) { /* the spheres of one rigid body never meet (in the pairs' order: it stays) */
    PetscInt q = 0;
    for (PetscInt k = 0; k < nl->npair; k++) {
      LocalInt i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
      if (p->body[i] == p->body[j]) continue;
      nl->ij[2 * q] = i, nl->ij[2 * q + 1] = j, q++;
    }
    nl->npair = q;
  }
  PetscCall(NeighborBodyClasses(nl, p, ntot));
  PetscCall(NeighborFlags(nl, p, L));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void NeighborListAlias(NeighborList *nl, const LocalInt *root)
{
  for (PetscInt k = 0; k < nl->npair; k++) {
    LocalInt *m = nl->ij + 2 * k;
    m[0] = root[m[0]], m[1] = root[m[1]];
  }
}
