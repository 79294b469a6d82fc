/* The Cartesian process grid at the run's rank count: the shape chosen for the
 * box, subdomains that tile it with bitwise-shared faces, ownership of points
 * on and beside the cuts, face/edge/corner neighbours, and refused requests
 * (checks per rank, asserted together: check_main.h). */
#include "check_main.h"
#include "decomp/grid.h"
#include <petscviewer.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static PetscMPIInt WorldSize(void)
{
  PetscMPIInt s = 1;
  (void)MPI_Comm_size(PETSC_COMM_WORLD, &s);
  return s;
}

static PetscBool SameBits(PetscReal a, PetscReal b)
{
  return memcmp(&a, &b, sizeof(a)) == 0 ? PETSC_TRUE : PETSC_FALSE;
}

/* MPI numbers a Cartesian grid row-major; reorder = 0 keeps the parent's ranks. */
static PetscMPIInt RowMajor(const PetscMPIInt d[3], const PetscMPIInt c[3])
{
  return (c[0] * d[1] + c[1]) * d[2] + c[2];
}

/* A silent handler (as PetscReturnErrorHandler) that also keeps the first
 * message, to check what the user would read. */
static char           last_error[4096];
static PetscErrorCode CaptureErrorHandler(MPI_Comm comm, int line, const char *func, const char *file, PetscErrorCode n,
                                          PetscErrorType p, const char *mess, void *ctx)
{
  (void)comm, (void)line, (void)func, (void)file, (void)ctx;
  if (p == PETSC_ERROR_INITIAL) snprintf(last_error, sizeof(last_error), "%s", mess ? mess : "");
  return n;
}

#define QUIETLY(ierr, call) \
  do { \
    (void)PetscPushErrorHandler(CaptureErrorHandler, NULL); \
    ierr = (call); \
    (void)PetscPopErrorHandler(); \
  } while (0)

typedef struct {
  PetscReal lo[3], hi[3];
  PetscBool per[3];
  PetscInt  req[3];
} Config;

/* Awkward bounds (inexact cuts), the 40 x 20 x 10 box and forced cut axes. */
static const Config configs[] = {
  {{-0.3, 0.1, 1e-3}, {0.7, 1.0 / 3.0, 2.0}, {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE}, {0, 0, 0}},
  {{-0.3, 0.1, 1e-3}, {0.7, 1.0 / 3.0, 2.0}, {PETSC_TRUE, PETSC_FALSE, PETSC_TRUE}, {1, 0, 0}},
  {{-0.3, 0.1, 1e-3}, {0.7, 1.0 / 3.0, 2.0}, {PETSC_FALSE, PETSC_TRUE, PETSC_FALSE}, {1, 1, 0}},
  {{0.0, 0.0, 0.0}, {40.0, 20.0, 10.0}, {PETSC_TRUE, PETSC_TRUE, PETSC_TRUE}, {0, 0, 0}},
  {{0.0, 0.0, 0.0}, {40.0, 20.0, 10.0}, {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE}, {0, 1, 1}},
  {{-1e3, 5.0, -7.25}, {1e-3, 5.5, 3.1}, {PETSC_FALSE, PETSC_TRUE, PETSC_TRUE}, {1, 0, 1}},
};
#define NCONFIGS ((int)(sizeof(configs) / sizeof(configs[0])))

/* Per rank: sublo, subhi, coords, as gathered by every rank. */
typedef struct {
  PetscReal sublo[3], subhi[3], coords[3];
} Record;

static void Gather(const Grid *g, Record *all)
{
  Record mine;
  for (int a = 0; a < 3; a++) mine.sublo[a] = g->sublo[a], mine.subhi[a] = g->subhi[a], mine.coords[a] = g->coords[a];
  EXPECT(MPI_Allgather(&mine, 9, MPIU_REAL, all, 9, MPIU_REAL, PETSC_COMM_WORLD) == MPI_SUCCESS, "MPI_Allgather");
}

START_TEST(test_dims_product)
{
  static const PetscReal boxes[][3] = {{40, 20, 10}, {1, 1, 1}, {10, 20, 40}, {1, 3, 7}};
  static const PetscInt  reqs[][3]  = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 1}, {1, 1, 0}};
  PetscReal              lo[3]      = {0, 0, 0};
  PetscMPIInt            size = WorldSize(), rank = WorldRank();

  for (size_t b = 0; b < sizeof(boxes) / sizeof(boxes[0]); b++)
    for (size_t q = 0; q < sizeof(reqs) / sizeof(reqs[0]); q++) {
      Grid        g;
      PetscMPIInt choose[3], cd[3], cp[3], cc[3], topo;
      EXPECT(GridCreate(PETSC_COMM_WORLD, lo, boxes[b], NULL, reqs[q], &g) == 0, "box %zu req %zu", b, q);
      EXPECT(g.dims[0] * g.dims[1] * g.dims[2] == size, "dims %d x %d x %d for %d ranks", g.dims[0], g.dims[1],
             g.dims[2], size);
      EXPECT(g.size == size && g.rank == rank, "grid rank %d/%d, world %d/%d", g.rank, g.size, rank, size);
      for (int a = 0; a < 3; a++)
        EXPECT(!reqs[q][a] || g.dims[a] == reqs[q][a], "axis %d: dims %d, asked %d", a, g.dims[a], (int)reqs[q][a]);
      {
        PetscReal len[3] = {boxes[b][0], boxes[b][1], boxes[b][2]};
        EXPECT(GridChooseDims(size, len, reqs[q], choose) == 0, "GridChooseDims");
        for (int a = 0; a < 3; a++)
          EXPECT(choose[a] == g.dims[a], "GridCreate and GridChooseDims disagree on axis %d", a);
      }
      EXPECT(MPI_Topo_test(g.comm, &topo) == MPI_SUCCESS, "MPI_Topo_test");
      EXPECT(topo == MPI_CART, "not a Cartesian communicator");
      EXPECT(MPI_Cart_get(g.comm, 3, cd, cp, cc) == MPI_SUCCESS, "MPI_Cart_get");
      for (int a = 0; a < 3; a++)
        EXPECT(cd[a] == g.dims[a] && cc[a] == g.coords[a] && cp[a] == 0, "MPI_Cart_get axis %d", a);
      EXPECT(GridDestroy(&g) == 0 && g.comm == MPI_COMM_NULL, "GridDestroy");
      EXPECT(GridDestroy(&g) == 0, "a second GridDestroy is harmless");
    }
  {
    Grid z;
    memset(&z, 0, sizeof(z));
    EXPECT(GridDestroy(&z) == 0, "GridDestroy of a zero-filled Grid");
  }
  ASSERT_ALL_RANKS();
}
END_TEST

START_TEST(test_shape_choice)
{
  static const struct {
    PetscReal   len[3];
    PetscMPIInt size;
    PetscInt    req[3];
    PetscMPIInt dims[3];
  } tab[] = {
    {{40, 20, 10}, 1, {0, 0, 0}, {1, 1, 1}},
    {{40, 20, 10}, 2, {0, 0, 0}, {2, 1, 1}},
    /* ties 2 x 2 x 1: more cuts along x */
    {{40, 20, 10}, 3, {0, 0, 0}, {3, 1, 1}},
    {{40, 20, 10}, 4, {0, 0, 0}, {4, 1, 1}},
    {{40, 20, 10}, 8, {0, 0, 0}, {4, 2, 1}},
    {{10, 20, 40}, 2, {0, 0, 0}, {1, 1, 2}},
    {{10, 20, 40}, 4, {0, 0, 0}, {1, 2, 2}}, /* ties 1 x 1 x 4: more cuts along y */
    {{1, 1, 1}, 2, {0, 0, 0}, {2, 1, 1}},
    {{1, 1, 1}, 4, {0, 0, 0}, {2, 2, 1}},
    {{1, 1, 1}, 6, {0, 0, 0}, {3, 2, 1}},
    {{1, 1, 1}, 8, {0, 0, 0}, {2, 2, 2}},
    {{1, 1, 1}, 12, {0, 0, 0}, {3, 2, 2}},
    {{1, 1, 1}, 27, {0, 0, 0}, {3, 3, 3}},
    {{0.1, 0.1, 0.1}, 4, {0, 0, 0}, {2, 2, 1}}, /* inexact edges: the tie still goes to x, y */
    {{1, 100, 1}, 4, {0, 0, 0}, {1, 4, 1}},
    {{1, 1, 1}, 4, {0, 0, 4}, {1, 1, 4}},
    {{1, 1, 1}, 4, {1, 0, 0}, {1, 2, 2}},
    {{1, 1, 1}, 4, {0, 2, 0}, {2, 2, 1}},
    {{40, 20, 10}, 4, {0, 0, 2}, {2, 1, 2}},
    {{1, 1, 1}, 4, {2, 2, 1}, {2, 2, 1}},
    {{1, 1, 1}, 7, {0, 0, 0}, {7, 1, 1}},
  };
  for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
    PetscMPIInt d[3] = {0, 0, 0};
    EXPECT(GridChooseDims(tab[i].size, tab[i].len, tab[i].req, d) == 0, "case %zu", i);
    EXPECT(d[0] == tab[i].dims[0] && d[1] == tab[i].dims[1] && d[2] == tab[i].dims[2],
           "case %zu: %d x %d x %d, expected %d x %d x %d", i, d[0], d[1], d[2], tab[i].dims[0], tab[i].dims[1],
           tab[i].dims[2]);
  }
  /* The run's own grid for the 40 x 20 x 10 box never cuts z (at 1 to 4 ranks). */
  {
    Grid      g;
    PetscReal lo[3] = {0, 0, 0}, hi[3] = {40, 20, 10};
    EXPECT(GridCreate(PETSC_COMM_WORLD, lo, hi, NULL, NULL, &g) == 0, "GridCreate");
    EXPECT(g.dims[2] == 1 && g.dims[0] == WorldSize(), "40 x 20 x 10 on %d ranks: %d x %d x %d", WorldSize(), g.dims[0],
           g.dims[1], g.dims[2]);
    EXPECT(GridDestroy(&g) == 0, "GridDestroy");
  }
  ASSERT_ALL_RANKS();
}
END_TEST

/* GridChooseDims against brute force: least surface, ties to the most cuts along x, then y. */
START_TEST(test_shape_brute_force)
{
  {
    static const PetscReal boxes[][3] = {{40, 20, 10},    {1, 1, 1},   {10, 20, 40},
                                         {0.3, 0.7, 1.1}, {1, 100, 1}, {5, 5, 1}};
    static const PetscInt  reqs[][3]  = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {0, 2, 0}};
    for (size_t b = 0; b < sizeof(boxes) / sizeof(boxes[0]); b++)
      for (size_t q = 0; q < sizeof(reqs) / sizeof(reqs[0]); q++)
        for (PetscMPIInt P = 1; P <= 64; P++) {
          PetscMPIInt    d[3], want[3] = {0, 0, 0};
          PetscReal      best = PETSC_MAX_REAL;
          PetscBool      any  = PETSC_FALSE;
          PetscErrorCode ierr;
          for (PetscMPIInt x = 1; x <= P; x++)
            for (PetscMPIInt y = 1; x * y <= P; y++) {
              PetscMPIInt z = P / (x * y);
              if (x * y * z != P || (reqs[q][0] && reqs[q][0] != x) || (reqs[q][1] && reqs[q][1] != y) ||
                  (reqs[q][2] && reqs[q][2] != z))
                continue;
              any  = PETSC_TRUE;
              best = PetscMin(best, x / boxes[b][0] + y / boxes[b][1] + z / boxes[b][2]);
            }
          for (PetscMPIInt x = P; x >= 1 && !want[0]; x--)
            for (PetscMPIInt y = P; y >= 1 && !want[0]; y--) {
              PetscMPIInt z = P / (x * y);
              if (x * y > P || x * y * z != P || (reqs[q][0] && reqs[q][0] != x) || (reqs[q][1] && reqs[q][1] != y) ||
                  (reqs[q][2] && reqs[q][2] != z))
                continue;
              if (x / boxes[b][0] + y / boxes[b][1] + z / boxes[b][2] <= best * (1 + 1e-12))
                want[0] = x, want[1] = y, want[2] = z;
            }
          QUIETLY(ierr, GridChooseDims(P, boxes[b], reqs[q], d));
          if (!any) {
            EXPECT(ierr != 0, "box %zu req %zu P %d: no fit, yet accepted", b, q, P);
            continue;
          }
          EXPECT(ierr == 0, "box %zu req %zu P %d: %s", b, q, P, last_error);
          EXPECT(d[0] == want[0] && d[1] == want[1] && d[2] == want[2],
                 "box %zu req %zu P %d: %d x %d x %d, brute force %d x %d x %d", b, q, P, d[0], d[1], d[2], want[0],
                 want[1], want[2]);
        }
  }
  ASSERT_ALL_RANKS();
}
END_TEST

START_TEST(test_tiling)
{
  PetscMPIInt size = WorldSize();
  Record     *all;

  ck_assert(PetscMalloc1(size, &all) == 0);
  for (int k = 0; k < NCONFIGS; k++) {
    const Config *cf = &configs[k];
    Grid          g;
    PetscInt      seen[64] = {0};
    PetscReal     vol = 0.0, boxvol = 1.0;

    EXPECT(GridCreate(PETSC_COMM_WORLD, cf->lo, cf->hi, cf->per, cf->req, &g) == 0, "config %d", k);
    Gather(&g, all);
    for (int a = 0; a < 3; a++) {
      EXPECT(SameBits(g.sublo[a], GridCut(cf->lo[a], cf->hi[a], g.coords[a], g.dims[a])),
             "config %d axis %d: sublo off the formula", k, a);
      boxvol *= cf->hi[a] - cf->lo[a];
    }
    for (PetscMPIInt r = 0; r < size; r++) {
      const Record *R = &all[r];
      PetscMPIInt   c[3], cr[3];
      PetscReal     v = 1.0;
      for (int a = 0; a < 3; a++) c[a] = (PetscMPIInt)R->coords[a];
      EXPECT(MPI_Cart_coords(g.comm, r, 3, cr) == MPI_SUCCESS, "MPI_Cart_coords");
      EXPECT(c[0] == cr[0] && c[1] == cr[1] && c[2] == cr[2],
             "config %d: rank %d gathered coords differ from MPI_Cart_coords", k, r);
      EXPECT(RowMajor(g.dims, c) == r, "config %d: rank %d is not row-major at (%d,%d,%d)", k, r, c[0], c[1], c[2]);
      if (RowMajor(g.dims, c) >= 0 && RowMajor(g.dims, c) < 64) seen[RowMajor(g.dims, c)]++;
      for (int a = 0; a < 3; a++) {
        EXPECT(R->sublo[a] < R->subhi[a], "config %d rank %d axis %d: empty slab", k, r, a);
        EXPECT(c[a] != 0 || SameBits(R->sublo[a], cf->lo[a]),
               "config %d rank %d axis %d: first slab does not start at lo", k, r, a);
        EXPECT(c[a] != g.dims[a] - 1 || SameBits(R->subhi[a], cf->hi[a]),
               "config %d rank %d axis %d: last slab does not end at hi exactly", k, r, a);
        v *= R->subhi[a] - R->sublo[a];
      }
      vol += v;
      /* Every face neighbour: shared face bit for bit, identical bounds on the other axes. */
      for (int a = 0; a < 3; a++) {
        PetscMPIInt cn[3] = {c[0], c[1], c[2]}, s;
        if (c[a] + 1 >= g.dims[a]) continue;
        cn[a]++;
        s = RowMajor(g.dims, cn);
        EXPECT(SameBits(R->subhi[a], all[s].sublo[a]),
               "config %d axis %d: subhi of rank %d (%.17g) != sublo of rank %d (%.17g)", k, a, r, (double)R->subhi[a],
               s, (double)all[s].sublo[a]);
        for (int b = 0; b < 3; b++)
          if (b != a)
            EXPECT(SameBits(R->sublo[b], all[s].sublo[b]) && SameBits(R->subhi[b], all[s].subhi[b]),
                   "config %d: ranks %d and %d differ along axis %d", k, r, s, b);
      }
    }
    for (PetscMPIInt r = 0; r < size && r < 64; r++)
      EXPECT(seen[r] == 1, "config %d: coords of rank %d seen %d times", k, r, (int)seen[r]);
    EXPECT(fabs(vol - boxvol) <= 1e-12 * boxvol, "config %d: slabs fill %.17g of %.17g", k, (double)vol,
           (double)boxvol);
    EXPECT(GridDestroy(&g) == 0, "GridDestroy");
  }
  ck_assert(PetscFree(all) == 0);
  ASSERT_ALL_RANKS();
}
END_TEST

/* Per axis: both faces, every cut and the doubles on either side of it, and interior values. */
static int AxisSamples(const Grid *g, const Record *all, int a, PetscReal *v)
{
  int          n = 0;
  unsigned int s = 12345u + 7u * (unsigned)a;
  v[n++]         = g->lo[a];
  v[n++]         = g->hi[a];
  v[n++]         = nextafter(g->hi[a], -INFINITY);
  v[n++]         = nextafter(g->lo[a], INFINITY);
  for (PetscMPIInt r = 0; r < g->size; r++) {
    PetscReal cut = all[r].sublo[a];
    if (all[r].coords[a] == 0 || all[r].coords[(a + 1) % 3] != 0 || all[r].coords[(a + 2) % 3] != 0) continue;
    v[n++] = cut;
    v[n++] = nextafter(cut, -INFINITY);
    v[n++] = nextafter(cut, INFINITY);
  }
  for (int i = 0; i < 5; i++) {
    s      = s * 1103515245u + 12345u;
    v[n++] = g->lo[a] + (g->hi[a] - g->lo[a]) * ((s >> 8) / 16777216.0);
  }
  return n;
}

START_TEST(test_owner)
{
  PetscMPIInt size = WorldSize();
  Record     *all;

  ck_assert(PetscMalloc1(size, &all) == 0);
  for (int k = 0; k < NCONFIGS; k++) {
    const Config *cf = &configs[k];
    Grid          g;
    PetscReal     v[3][64];
    int           n[3];

    EXPECT(GridCreate(PETSC_COMM_WORLD, cf->lo, cf->hi, cf->per, cf->req, &g) == 0, "config %d", k);
    Gather(&g, all);
    for (int a = 0; a < 3; a++) n[a] = AxisSamples(&g, all, a, v[a]);
    for (int i = 0; i < n[0]; i++)
      for (int j = 0; j < n[1]; j++)
        for (int l = 0; l < n[2]; l++) {
          PetscReal      x[3] = {v[0][i], v[1][j], v[2][l]};
          PetscMPIInt    c[3] = {-1, -1, -1}, owner = -1, claims = 0, claimant = -1;
          PetscBool      on_periodic_hi = PETSC_FALSE;
          PetscErrorCode ierr;
          for (int a = 0; a < 3; a++)
            if (cf->per[a] && x[a] == cf->hi[a]) on_periodic_hi = PETSC_TRUE;
          QUIETLY(ierr, GridOwnerOf(&g, x, c));
          if (on_periodic_hi) {
            EXPECT(ierr != 0, "config %d: (%.17g, %.17g, %.17g) on a periodic high face accepted", k, (double)x[0],
                   (double)x[1], (double)x[2]);
            continue;
          }
          EXPECT(ierr == 0, "config %d: (%.17g, %.17g, %.17g): %s", k, (double)x[0], (double)x[1], (double)x[2],
                 last_error);
          if (ierr) continue;
          EXPECT(GridRankOfCoords(&g, c, &owner) == 0, "GridRankOfCoords");
          /* Independently of GridCut: the gathered bounds, half-open, the box's hi closed on walls. */
          for (PetscMPIInt r = 0; r < size; r++) {
            PetscBool in = PETSC_TRUE;
            for (int a = 0; a < 3; a++) {
              PetscBool top = (PetscMPIInt)all[r].coords[a] == g.dims[a] - 1 ? PETSC_TRUE : PETSC_FALSE;
              if (!(x[a] >= all[r].sublo[a] && (x[a] < all[r].subhi[a] || (top && !cf->per[a] && x[a] == cf->hi[a]))))
                in = PETSC_FALSE;
            }
            if (in) claims++, claimant = r;
          }
          EXPECT(claims == 1 && claimant == owner,
                 "config %d: (%.17g, %.17g, %.17g) owned by %d, claimed by %d ranks (last %d)", k, (double)x[0],
                 (double)x[1], (double)x[2], owner, claims, claimant);
          /* On a cut: the higher slab. */
          for (int a = 0; a < 3; a++)
            for (PetscMPIInt cc = 1; cc < g.dims[a]; cc++)
              if (x[a] == GridCut(cf->lo[a], cf->hi[a], cc, g.dims[a]))
                EXPECT(c[a] == cc, "config %d axis %d: point on cut %d went to slab %d", k, a, cc, c[a]);
        }
    /* Outside, not finite, and (for a periodic axis) on the high face: errors, never clamped. */
    for (int a = 0; a < 3; a++) {
      PetscReal bad[4] = {nextafter(cf->lo[a], -INFINITY), nextafter(cf->hi[a], INFINITY), NAN, INFINITY};
      for (int b = 0; b < 4; b++) {
        PetscReal      x[3] = {cf->lo[0], cf->lo[1], cf->lo[2]};
        PetscMPIInt    c[3];
        PetscErrorCode ierr;
        x[a]          = bad[b];
        last_error[0] = 0;
        QUIETLY(ierr, GridOwnerOf(&g, x, c));
        EXPECT(ierr != 0, "config %d axis %d: point %.17g accepted", k, a, (double)bad[b]);
        EXPECT(strstr(last_error, "outside the box") != NULL, "config %d: message '%s'", k, last_error);
      }
    }
    EXPECT(GridDestroy(&g) == 0, "GridDestroy");
  }
  ck_assert(PetscFree(all) == 0);
  ASSERT_ALL_RANKS();
}
END_TEST

START_TEST(test_neighbours)
{
  static const PetscInt reqs[][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  PetscReal             lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  PetscMPIInt           rank = WorldRank();

  for (int pm = 0; pm < 8; pm++)
    for (size_t q = 0; q < sizeof(reqs) / sizeof(reqs[0]); q++) {
      PetscBool per[3] = {(pm & 1) ? PETSC_TRUE : PETSC_FALSE, (pm & 2) ? PETSC_TRUE : PETSC_FALSE,
                          (pm & 4) ? PETSC_TRUE : PETSC_FALSE};
      Grid g;
      EXPECT(GridCreate(PETSC_COMM_WORLD, lo, hi, per, reqs[q], &g) == 0, "periodic %d req %zu", pm, q);
      EXPECT(RowMajor(g.dims, g.coords) == rank, "rank %d at (%d,%d,%d)", rank, g.coords[0], g.coords[1], g.coords[2]);
      /* All 27 offsets against the row-major rule; the face ones also against nbr[][]. */
      for (int o = 0; o < 27; o++) {
        PetscMPIInt off[3] = {o % 3 - 1, (o / 3) % 3 - 1, o / 9 - 1}, c[3], want, got = -2;
        PetscBool   wall = PETSC_FALSE;
        for (int a = 0; a < 3; a++) {
          c[a] = g.coords[a] + off[a];
          if (per[a]) c[a] = (c[a] + g.dims[a]) % g.dims[a];
          else if (c[a] < 0 || c[a] >= g.dims[a]) wall = PETSC_TRUE;
        }
        want = wall ? MPI_PROC_NULL : RowMajor(g.dims, c);
        EXPECT(GridNeighbourRank(&g, off, &got) == 0 && got == want,
               "periodic %d req %zu offset (%d,%d,%d): %d, expected %d", pm, q, off[0], off[1], off[2], got, want);
        if (!wall) {
          EXPECT(GridRankOfCoords(&g, c, &got) == 0 && got == want, "GridRankOfCoords (%d,%d,%d): %d, expected %d",
                 c[0], c[1], c[2], got, want);
          for (int a = 0; a < 3; a++) {
            PetscMPIInt cw[3] = {c[0], c[1], c[2]};
            if (!per[a]) continue;
            cw[a] += g.dims[a]; /* periodic axes wrap, as MPI_Cart_rank does */
            EXPECT(GridRankOfCoords(&g, cw, &got) == 0 && got == want, "GridRankOfCoords wraps periodic axis %d", a);
          }
        }
        if (abs(off[0]) + abs(off[1]) + abs(off[2]) == 1) {
          int a = off[0] ? 0 : (off[1] ? 1 : 2), side = off[a] > 0;
          EXPECT(g.nbr[a][side] == want, "periodic %d req %zu: nbr[%d][%d] = %d, expected %d", pm, q, a, side,
                 g.nbr[a][side], want);
          if (per[a] && g.dims[a] == 1)
            EXPECT(g.nbr[a][side] == rank, "periodic axis %d with one slab: the neighbour is the rank itself", a);
          if (!per[a] && (side ? g.coords[a] == g.dims[a] - 1 : g.coords[a] == 0))
            EXPECT(g.nbr[a][side] == MPI_PROC_NULL, "a wall gives MPI_PROC_NULL");
        }
      }
      /* Out of range on a walled axis is an error, not a clamp. */
      for (int a = 0; a < 3; a++) {
        PetscMPIInt    c[3] = {g.coords[0], g.coords[1], g.coords[2]}, got;
        PetscErrorCode ierr;
        if (per[a]) continue;
        c[a] = g.dims[a];
        QUIETLY(ierr, GridRankOfCoords(&g, c, &got));
        EXPECT(ierr != 0, "walled axis %d: coordinate %d accepted", a, c[a]);
      }
      EXPECT(GridDestroy(&g) == 0, "GridDestroy");
    }
  ASSERT_ALL_RANKS();
}
END_TEST

/* Every case fails the same way on every rank, so none is left in a collective. */
static PetscErrorCode CreateExpectingError(const PetscReal lo[3], const PetscReal hi[3], const PetscInt req[3],
                                           const char *needle1, const char *needle2, int line)
{
  Grid           g;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  last_error[0] = 0;
  QUIETLY(ierr, GridCreate(PETSC_COMM_WORLD, lo, hi, NULL, req, &g));
  EXPECT(ierr != 0, "line %d: accepted", line);
  EXPECT(g.comm == MPI_COMM_NULL, "line %d: a failed GridCreate left a communicator", line);
  EXPECT(!needle1 || strstr(last_error, needle1), "line %d: message '%s' lacks '%s'", line, last_error, needle1);
  EXPECT(!needle2 || strstr(last_error, needle2), "line %d: message '%s' lacks '%s'", line, last_error, needle2);
  PetscCall(GridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_bad_request)
{
  PetscMPIInt size  = WorldSize();
  PetscReal   lo[3] = {0, 0, 0}, hi[3] = {40, 20, 10};
  char        nranks[32];
  snprintf(nranks, sizeof(nranks), "%d", size);
  {
    /* {3,1,1} where 3 is not the rank count, else {2,1,1} */
    PetscInt full[3] = {size == 3 ? 2 : 3, 1, 1}, part[3] = {0, 0, size == 3 ? 2 : 3}, neg[3] = {-1, 0, 0},
             big[3] = {2 * size, 0, 0};
    ck_assert(CreateExpectingError(lo, hi, full, "-domain_grid", nranks, __LINE__) == 0);
    ck_assert(CreateExpectingError(lo, hi, part, "-domain_grid", nranks, __LINE__) == 0);
    ck_assert(CreateExpectingError(lo, hi, neg, "-domain_grid", NULL, __LINE__) == 0);
    ck_assert(CreateExpectingError(lo, hi, big, "-domain_grid", nranks, __LINE__) == 0);
    if (size == 4) {
      PetscInt over[3] = {2, 2, 2};
      ck_assert(CreateExpectingError(lo, hi, over, "-domain_grid", "4", __LINE__) == 0);
    }
  }
  {
    PetscReal flat[3] = {40, 0, 10}, rev[3] = {40, -1, 10}, nan[3] = {NAN, 20, 10}, inf[3] = {40, 20, INFINITY},
              thin_lo[3] = {1e16, 0, 0}, thin_hi[3] = {1e16 + 2, 20, 10};
    ck_assert(CreateExpectingError(lo, flat, NULL, "-domain_lo/-domain_hi", NULL, __LINE__) == 0);
    ck_assert(CreateExpectingError(lo, rev, NULL, "-domain_lo/-domain_hi", NULL, __LINE__) == 0);
    ck_assert(CreateExpectingError(lo, nan, NULL, "-domain_lo/-domain_hi", NULL, __LINE__) == 0);
    ck_assert(CreateExpectingError(lo, inf, NULL, "-domain_lo/-domain_hi", NULL, __LINE__) == 0);
    /* an edge of one ulp cannot be cut at all */
    if (size > 1) {
      PetscInt xs[3] = {size, 1, 1};
      ck_assert(CreateExpectingError(thin_lo, thin_hi, xs, "too thin", NULL, __LINE__) == 0);
    }
  }
  if (size > 1) { /* ranks that disagree on the box are caught, not left hanging */
    PetscReal mylo[3] = {WorldRank() == size - 1 ? -1.0 : 0.0, 0, 0};
    ck_assert(CreateExpectingError(mylo, hi, NULL, "different", NULL, __LINE__) == 0);
  }
  {
    Grid g; /* and a good grid still follows */
    EXPECT(GridCreate(PETSC_COMM_WORLD, lo, hi, NULL, NULL, &g) == 0, "GridCreate after the errors");
    EXPECT(GridDestroy(&g) == 0, "GridDestroy");
  }
  ASSERT_ALL_RANKS();
}
END_TEST

START_TEST(test_view)
{
  PetscMPIInt size = WorldSize(), rank = WorldRank();
  PetscReal   lo[3] = {0, 0, 0}, hi[3] = {40, 20, 10};
  PetscBool   per[3] = {PETSC_TRUE, PETSC_FALSE, PETSC_FALSE};
  Grid        g;
  PetscViewer v;
  char        name[PETSC_MAX_PATH_LEN];
  int         pid = (int)getpid();

  EXPECT(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD) == MPI_SUCCESS, "MPI_Bcast");
  snprintf(name, sizeof(name), "/tmp/hdem_test_grid_%d.txt", pid);
  EXPECT(GridCreate(PETSC_COMM_WORLD, lo, hi, per, NULL, &g) == 0, "GridCreate");
  EXPECT(PetscViewerASCIIOpen(PETSC_COMM_WORLD, name, &v) == 0, "open %s", name);
  EXPECT(GridView(&g, v) == 0, "GridView");
  EXPECT(PetscViewerDestroy(&v) == 0, "close");
  if (rank == 0) {
    FILE *fp = fopen(name, "r");
    char  line[512], want[64];
    int   nl = 0, summary = 0;
    snprintf(want, sizeof(want), "grid: %d ranks as %d x 1 x 1", size, size);
    EXPECT(fp != NULL, "cannot read %s", name);
    while (fp && fgets(line, sizeof(line), fp)) {
      nl++;
      if (strstr(line, want)) summary++;
    }
    if (fp) fclose(fp);
    EXPECT(nl == size + 1 && summary == 1, "%d lines, %d summaries in %s", nl, summary, name);
    unlink(name);
  }
  EXPECT(GridDestroy(&g) == 0, "GridDestroy");
  ASSERT_ALL_RANKS();
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("grid");
  TCase *tc = tcase_create("cartesian");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_dims_product);
  tcase_add_test(tc, test_shape_choice);
  tcase_add_test(tc, test_shape_brute_force);
  tcase_add_test(tc, test_tiling);
  tcase_add_test(tc, test_owner);
  tcase_add_test(tc, test_neighbours);
  tcase_add_test(tc, test_bad_request);
  tcase_add_test(tc, test_view);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
