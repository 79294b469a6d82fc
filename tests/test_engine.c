/* The distributed engine at 1-4 ranks: a particle crossing a periodic corner,
 * a contact that spans a rank boundary for its whole duration (restitution of
 * hdem impact), energy conservation in a dense periodic box, with gravity the
 * energy balance against its work, and after every step every contact of an
 * owned particle in its rank's lists (a bed drifting over a frozen base, a
 * slab driven into a wall, pairs closing head on) though the lists are
 * rebuilt lazily. */
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <unistd.h>
#include "check_main.h"
#include "engine/setup.h"
#include "contact/impact.h"
#include "decomp/collective.h"
#include "interact/sphere_sphere.h"
#include "interact/sphere_plane.h"

static char tmpdir[256];

/* Rank 0 writes a LAMMPS data file of the given spheres (x, y, z, vx, vy, vz),
 * of diameter d, or diam[i] where diam is given. */
static void WriteDataTyped(const char *path, PetscInt n, const PetscReal (*s)[6], PetscReal d, const PetscReal *diam,
                           const PetscInt *type, const PetscReal lo[3], const PetscReal hi[3])
{
  PetscMPIInt rank;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0) {
    FILE *fp = fopen(path, "w");
    ck_assert_msg(fp != NULL, "cannot write %s", path);
    fprintf(fp,
            "test\n\n%d atoms\n2 atom types\n\n%.17g %.17g xlo xhi\n%.17g %.17g ylo yhi\n%.17g %.17g zlo zhi\n\nAtoms "
            "# sphere\n\n",
            (int)n, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
    for (PetscInt i = 0; i < n; i++)
      fprintf(fp, "%d %d %.17g 2500 %.17g %.17g %.17g\n", (int)i + 1, type ? (int)type[i] : 1, diam ? diam[i] : d,
              s[i][0], s[i][1], s[i][2]);
    fprintf(fp, "\nVelocities\n\n");
    for (PetscInt i = 0; i < n; i++) fprintf(fp, "%d %.17g %.17g %.17g 0 0 0\n", (int)i + 1, s[i][3], s[i][4], s[i][5]);
    fclose(fp);
  }
  MPI_Barrier(PETSC_COMM_WORLD);
}

static void WriteDataSized(const char *path, PetscInt n, const PetscReal (*s)[6], PetscReal d, const PetscReal *diam,
                           const PetscReal lo[3], const PetscReal hi[3])
{
  WriteDataTyped(path, n, s, d, diam, NULL, lo, hi);
}

static void WriteData(const char *path, PetscInt n, const PetscReal (*s)[6], PetscReal d, const PetscReal lo[3],
                      const PetscReal hi[3])
{
  WriteDataSized(path, n, s, d, NULL, lo, hi);
}

static void EngineFromString(const char *opts, Engine *e)
{
  EngineKeys keys;

  ck_assert_int_eq(PetscOptionsClear(NULL), 0);
  ck_assert_int_eq(PetscOptionsInsertString(NULL, opts), 0);
  ck_assert_int_eq(EngineSetFromOptions(PETSC_COMM_WORLD, e, &keys), 0);
  ck_assert_int_eq(EngineCreate(PETSC_COMM_WORLD, PETSC_TRUE, &keys, e), 0);
  ck_assert_int_eq(EngineSetUp(e), 0);
}

/* Sum over ranks of the owned particle with this id's fields (zeros elsewhere). */
static void GlobalParticle(Engine *e, PetscInt64 id, PetscReal out[7])
{
  for (int a = 0; a < 7; a++) out[a] = 0.0;
  for (PetscInt i = 0; i < e->p.n; i++)
    if (e->p.id[i] == id) {
      for (int a = 0; a < 3; a++) {
        out[a]     = e->p.x[3 * i + a];
        out[3 + a] = e->p.v[3 * i + a];
      }
      out[6] = 1.0;
    }
  ck_assert_int_eq(CollectiveSumAll(PETSC_COMM_WORLD, out, 7), 0);
}

/* One 1 mm sphere (x, v) in a 1 cm box periodic on every axis. */
static void EngineOneSphere(const char *name, const PetscReal (*s)[6], const char *extra, Engine *e)
{
  char      path[512], opts[1024];
  PetscReal lo[3] = {0, 0, 0}, hi[3] = {0.01, 0.01, 0.01};
  snprintf(path, sizeof(path), "%s/%s.data", tmpdir, name);
  WriteData(path, 1, s, 1e-3, lo, hi);
  snprintf(opts, sizeof(opts),
           "-domain_lo 0,0,0 -domain_hi 0.01,0.01,0.01 -domain_periodic true,true,true -insert_mode lammps "
           "-insert_file %s -contact_law hertz -contact_mu 0 "
           "-timestep_dt_max 1e-5 %s",
           path, extra);
  EngineFromString(opts, e);
}

START_TEST(test_periodic_corner)
{
  PetscReal s[1][6] = {{0.0095, 0.0095, 0.0095, 1.0, 1.0, 1.0}}, g[7];
  Engine    e;
  EngineOneSphere("corner", s, "-neighbor_skin 2e-4", &e);
  /* 3 mm along the diagonal: across the corner */
  for (int k = 0; k < 300; k++) ck_assert_int_eq(EngineStep(&e, PETSC_FALSE), 0);
  GlobalParticle(&e, 1, g);
  ck_assert_msg(g[6] == 1.0, "the particle is owned %g times", g[6]);
  for (int a = 0; a < 3; a++) {
    PetscReal x = 0.0095 + e.clock.t * 1.0;
    x -= 0.01 * floor(x / 0.01);
    /* up to the lazy wrap between rebuilds */
    ck_assert_msg(fabs(g[a] - x) < 1e-4, "axis %d: %g, expected %g (wrapped)", a, g[a], x);
    ck_assert(g[3 + a] == 1.0);
  }
  EngineDestroy(&e);
}
END_TEST

/* A particle a hair below a periodic axis's lo wraps, by rounding, to exactly
 * hi: it belongs at lo, and is no error ("moved more than a box length"). */
START_TEST(test_wrap_rounding)
{
  PetscReal s[1][6] = {{0.005, 0.005, 0.005, 0.0, 0.0, 0.0}}, g[7];
  Engine    e;
  EngineOneSphere("wrap", s, "", &e);
  for (PetscInt i = 0; i < e.p.n; i++) e.p.x[3 * i] = -1e-19; /* -1e-19 + 0.01 == 0.01 */
  e.rebuild_next = PETSC_TRUE;
  ck_assert_int_eq(EngineStep(&e, PETSC_FALSE), 0);
  GlobalParticle(&e, 1, g);
  ck_assert_msg(g[6] == 1.0, "the particle is owned %g times", g[6]);
  ck_assert_msg(g[0] == 0.0, "x %.17g, expected 0 (the box's start)", g[0]);
  EngineDestroy(&e);
}
END_TEST

/* Two fines far apart beside one coarse grain in a large box: the fines' size
 * class must not get a cell grid sized by the box (it was 1024^3 cells,
 * 4 GiB and a minute per build), only by how few they are. */
START_TEST(test_sparse_class)
{
  char      path[512], opts[1024];
  PetscReal lo[3] = {0, 0, 0}, hi[3] = {0.5, 0.5, 0.5},
            s[3][6] = {{0.01, 0.01, 0.01, 0, 0, 0}, {0.49, 0.49, 0.49, 0, 0, 0}, {0.25, 0.49, 0.02, 0, 0, 0}},
            diam[3] = {2e-3, 2e-4, 2e-4};
  Engine        e;
  struct rusage ru;
  snprintf(path, sizeof(path), "%s/fines.data", tmpdir);
  WriteDataSized(path, 3, s, 0.0, diam, lo, hi);
  snprintf(opts, sizeof(opts),
           "-domain_lo 0,0,0 -domain_hi 0.5,0.5,0.5 -domain_periodic false,false,false -insert_mode lammps "
           "-insert_file %s -contact_law hertz -contact_mu 0",
           path);
  EngineFromString(opts, &e);
  for (int k = 0; k < 3; k++) {
    e.rebuild_next = PETSC_TRUE;
    ck_assert_int_eq(EngineStep(&e, PETSC_FALSE), 0);
  }
  ck_assert_int_eq(getrusage(RUSAGE_SELF, &ru), 0);
  ck_assert_msg(ru.ru_maxrss < 512 * 1024, "peak RSS %ld KiB for three particles", (long)ru.ru_maxrss);
  EngineDestroy(&e);
}
END_TEST

/* Two spheres on either side of the cut between ranks along x collide head on;
 * the contact point stays on the cut.  Restitution as in hdem impact. */
START_TEST(test_contact_across_boundary)
{
  char      path[512], opts[1024];
  PetscReal lo[3] = {0, 0, 0}, hi[3] = {0.02, 0.01, 0.01}, R = 1e-3, v = 0.5, gap = 2e-4;
  PetscReal s[2][6] = {{0.01 - R - gap / 2, 0.005, 0.005, v, 0, 0}, {0.01 + R + gap / 2, 0.005, 0.005, -v, 0, 0}}, a[7],
            b[7], e_run;
  Engine       e;
  ImpactSetup  set = {.target = IMPACT_TARGET_SPHERE, .v0 = 2 * v, .radius = R, .phase = 0.5, .max_steps = 10000000};
  ImpactResult r;
  snprintf(path, sizeof(path), "%s/pair.data", tmpdir);
  WriteData(path, 2, s, 2 * R, lo, hi);
  snprintf(opts, sizeof(opts),
           "-domain_lo 0,0,0 -domain_hi 0.02,0.01,0.01 -domain_periodic false,false,false -domain_walls false "
           "-insert_mode lammps -insert_file %s -contact_law "
           "hertz -material_E 1e7 -contact_e 0.6 -contact_mu 0 -neighbor_skin 5e-4",
           path);
  EngineFromString(opts, &e);
  while (e.clock.t < 2e-3) ck_assert_int_eq(EngineStep(&e, PETSC_FALSE), 0);
  GlobalParticle(&e, 1, a);
  GlobalParticle(&e, 2, b);
  e_run = (b[3] - a[3]) / (2 * v);
  ck_assert_int_eq(ImpactRun(&e.model, &e.ctl, &set, &r), 0);
  ck_assert_msg(fabs(e_run - r.e) < 2e-3 && fabs(e_run / 0.6 - 1) < 5e-3,
                "e across the boundary %.6f, hdem impact %.6f, target 0.6", e_run, r.e);
  ck_assert(a[0] < 0.01 && b[0] > 0.01);
  EngineDestroy(&e);
}
END_TEST

/* Two spheres closing head on at vn = 2 v, a gap g apart: the step bound is
 * the approaching pair's exactly when g < 2 vn dt_up (EngineApproachBound),
 * both just inside that reach, where the scan's cheap reach (from the
 * rank's largest speed) is tightest, and just outside it. */
static PetscReal ApproachBoundRun(PetscReal g, PetscReal *expected)
{
  char      path[512], opts[1024];
  PetscReal lo[3] = {0, 0, 0}, hi[3] = {0.02, 0.01, 0.01}, R = 1e-3, v = 0.5,
            m         = 2500.0 * 4.0 / 3.0 * PETSC_PI * R * R * R, bound;
  PetscReal   s[2][6] = {{0.01 - R - g / 2, 0.005, 0.005, v, 0, 0}, {0.01 + R + g / 2, 0.005, 0.005, -v, 0, 0}};
  Engine      e;
  ContactPair cp;
  snprintf(path, sizeof(path), "%s/approach.data", tmpdir);
  WriteData(path, 2, s, 2 * R, lo, hi);
  snprintf(opts, sizeof(opts),
           "-domain_lo 0,0,0 -domain_hi 0.02,0.01,0.01 -domain_periodic false,false,false -domain_walls false "
           "-insert_mode lammps -insert_file %s -contact_law "
           "hertz -material_E 1e7 -contact_e 0.6 -contact_mu 0 -neighbor_skin 5e-4 -timestep_dt_max 1e-5",
           path);
  EngineFromString(opts, &e); /* the set-up's forces give the first bound (dt_up = dt_max) */
  ContactPairSetUp(&e.model, 1, 1, R, m, 0.4 * m * R * R, R, m, 0.4 * m * R * R, PETSC_FALSE, &cp);
  *expected = ContactStepBound(&e.model, &cp, &e.ctl, 0.5 * cp.m * (2 * v) * (2 * v), 2 * v);
  bound     = e.clock.bound;
  EngineDestroy(&e);
  return bound;
}

START_TEST(test_approach_bound)
{
  PetscReal expected, in = ApproachBoundRun(0.995 * 2.0 * 1.0 * 1e-5, &expected), out;
  ck_assert_msg(fabs(in / expected - 1.0) < 1e-9, "a pair about to touch: bound %g, its approach bound %g", in,
                expected);
  out = ApproachBoundRun(1.005 * 2.0 * 1.0 * 1e-5, &expected);
  ck_assert_msg(out > 2.0 * expected, "a pair out of reach bounds the step: %g (its approach bound %g)", out, expected);
}
END_TEST

/* A dense periodic box of elastic, frictionless spheres (with the extra
 * options), stepped 1500 times: the stats before and after. */
static void ElasticBoxRun(const char *extra, PetscReal vrand, Engine *e, EngineStats *s0, EngineStats *s)
{
  char opts[1024];
  snprintf(opts, sizeof(opts),
           "-domain_lo 0,0,0 -domain_hi 0.012,0.012,0.012 -domain_periodic true,true,true %s -insert_count 400 "
           "-insert_spacing 1.02 -insert_radius_min 0.5e-3 "
           "-insert_radius_max 0.7e-3 -insert_velocity_random %g -contact_law hertz -material_E 1e7 -contact_damping "
           "none -contact_mu 0 -neighbor_skin 1e-4",
           extra, (double)vrand);
  EngineFromString(opts, e);
  ck_assert_int_eq(EngineGetStats(e, s0), 0);
  for (int k = 0; k < 1500; k++) ck_assert_int_eq(EngineStep(e, PETSC_FALSE), 0);
  ck_assert_int_eq(EngineGetStats(e, s), 0);
}

/* Elastic, frictionless, no gravity: kinetic + elastic energy is conserved. */
START_TEST(test_energy_conservation)
{
  Engine      e;
  EngineStats s0, s;
  ElasticBoxRun("", 0.3, &e, &s0, &s);
  ck_assert_msg(s.contacts > 0 || e.clock.rebuilds > 0, "nothing happened");
  ck_assert_msg(fabs((s.ke + s.kr + s.elastic) / (s0.ke + s0.kr + s0.elastic) - 1.0) < 1e-3, "energy %.9g -> %.9g",
                s0.ke + s0.kr + s0.elastic, s.ke + s.kr + s.elastic);
  EngineDestroy(&e);
}
END_TEST

/* Elastic, frictionless, gravity along a periodic axis: the kinetic and
 * elastic energy gained is the work gravity did (its sum over the bodies,
 * which the thermo's dissipated energy relies on). */
START_TEST(test_gravity_work)
{
  Engine      e;
  EngineStats s0, s;
  ElasticBoxRun("-gravity 300,-200,100", 0.1, &e, &s0, &s);
  ck_assert_msg(s.gravity > 0.1 * (s0.ke + s0.kr + s0.elastic), "gravity did little work: %g", s.gravity);
  ck_assert_msg(fabs((s.ke + s.kr + s.elastic) - (s0.ke + s0.kr + s0.elastic) - s.gravity) < 2e-3 * s.gravity,
                "energy gained %.9g, work of gravity %.9g", (s.ke + s.kr + s.elastic) - (s0.ke + s0.kr + s0.elastic),
                s.gravity);
  EngineDestroy(&e);
}
END_TEST

/* A random fill is non-overlapping and the same on every rank count. */
START_TEST(test_random_fill)
{
  Engine      e;
  EngineStats s;
  EngineFromString("-domain_lo 0,0,0 -domain_hi 0.01,0.01,0.02 -domain_periodic true,false,false -insert_mode random "
                   "-insert_count 600 "
                   "-insert_radius_distribution lognormal -insert_radius_mean 0.4e-3 -insert_radius_sigma 0.3 "
                   "-insert_radius_min 0.2e-3 -insert_radius_max "
                   "0.8e-3",
                   &e);
  ck_assert_int_eq(EngineGetStats(&e, &s), 0);
  ck_assert_msg(s.contacts == 0.0, "%g overlapping pairs in a random fill", s.contacts);
  ck_assert(e.nglobal == 600);
  EngineDestroy(&e);
}
END_TEST

/* A contact's key: the two ids, lower first, and the image difference of the
 * lower member less the upper's (a contact through a periodic image is the
 * same whichever copies hold it). */
typedef struct {
  PetscInt64 a, b;
  PetscInt   d[3];
} ContactKey;

static int ContactKeyCompare(const void *x, const void *y)
{
  const ContactKey *p = (const ContactKey *)x, *q = (const ContactKey *)y;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  if (p->b != q->b) return p->b < q->b ? -1 : 1;
  for (int k = 0; k < 3; k++)
    if (p->d[k] != q->d[k]) return p->d[k] < q->d[k] ? -1 : 1;
  return 0;
}

/* A contact by its members' ids and their image difference d = img_i - img_j,
 * the lower id first. */
static ContactKey ContactKeyOf(const Particles *p, PetscInt i, PetscInt j, const PetscInt d[3])
{
  ContactKey key;
  PetscBool  lo = p->id[i] < p->id[j] ? PETSC_TRUE : PETSC_FALSE;
  key.a = lo ? p->id[i] : p->id[j], key.b = lo ? p->id[j] : p->id[i];
  for (int k = 0; k < 3; k++) key.d[k] = lo ? d[k] : -d[k];
  return key;
}

/* Every overlapping pair with an owned member, and every owned particle past
 * a wall's plane, is in this rank's lists; the misses are counted.  A listed
 * pair's image difference is its own (its members are aliased to their
 * roots); a ghost made in place moves with its root (ExchangeBorders),
 * which is what the brute force reads. */
/* The engine's interactions as this test knows them: spheres, then planes. */
static const NeighborList *SphereList(const Engine *e)
{
  return &((const SphereSphere *)e->inter[0]->data)->nl;
}

static const SpherePlane *PlaneList(const Engine *e)
{
  return (const SpherePlane *)e->inter[1]->data;
}

static PetscInt ContactsUnlisted(const Engine *e)
{
  const Particles    *p    = &e->p;
  const NeighborList *nl   = SphereList(e);
  const SpherePlane  *pl   = PlaneList(e);
  PetscInt            ntot = p->n + p->nghost, nk = 0, miss = 0;
  ContactKey         *keys = malloc(sizeof(*keys) * (size_t)(nl->npair + 1));
  unsigned char      *wall = calloc((size_t)p->n * PLANES_MAX + 1, 1);

  for (PetscInt k = 0; k < nl->npair; k++) {
    PetscInt i = nl->ij[2 * k], j = nl->ij[2 * k + 1];
    PetscInt c = nl->image[k], d[3] = {c / 25 - 2, (c / 5) % 5 - 2, c % 5 - 2};
    keys[nk++] = ContactKeyOf(p, i, j, d);
  }
  for (PetscInt k = 0; k < pl->npair; k++) wall[pl->ij[2 * k] * PLANES_MAX + pl->ij[2 * k + 1]] = 1;
  qsort(keys, (size_t)nk, sizeof(*keys), ContactKeyCompare);
  for (PetscInt i = 0; i < p->n; i++) {
    for (PetscInt j = 0; j < ntot; j++) {
      PetscReal  r[3], rs = p->radius[i] + p->radius[j];
      PetscInt   d[3], rj = e->ex.root[j];
      ContactKey key;
      if (j == i || p->id[j] == p->id[i]) continue;
      for (int a = 0; a < 3; a++) {
        d[a] = p->image[3 * i + a] - p->image[3 * j + a];
        r[a] = p->x[3 * i + a] - p->x[3 * rj + a] + d[a] * e->L[a];
      }
      if (r[0] * r[0] + r[1] * r[1] + r[2] * r[2] >= rs * rs) continue;
      key = ContactKeyOf(p, i, j, d);
      if (!bsearch(&key, keys, (size_t)nk, sizeof(*keys), ContactKeyCompare)) miss++;
    }
    for (PetscInt w = 0; w < e->planes.n; w++) {
      const PlaneWall *wl  = &e->planes.w[w];
      PetscReal        gap = (p->x[3 * i] - wl->p[0]) * wl->n[0] + (p->x[3 * i + 1] - wl->p[1]) * wl->n[1] +
                      (p->x[3 * i + 2] - wl->p[2]) * wl->n[2] - p->radius[i];
      if (gap < 0.0 && !wall[i * PLANES_MAX + w]) miss++;
    }
  }
  free(keys);
  free(wall);
  return miss;
}

/* Pair members and send lists name roots only, and forwarding the rank's
 * own images too gives each ghost exactly its root's motion (for an image
 * made in place a check of the root chain; a ghost sent by another rank is
 * its own root, checked across ranks by the bitwise decks): the counts of
 * what is not so. */
static PetscInt RootsWrong(Engine *e)
{
  Particles *p   = &e->p;
  PetscInt   bad = 0, ntot = p->n + p->nghost;
  for (PetscInt k = 0; k < SphereList(e)->npair; k++)
    for (int m = 0; m < 2; m++) {
      PetscInt i = SphereList(e)->ij[2 * k + m];
      if (e->ex.root[i] != i) bad++;
    }
  for (int sw = 0; sw < 6; sw++)
    for (PetscInt k = 0; k < e->ex.nsend[sw]; k++) bad += e->ex.root[e->ex.send[sw][k]] != e->ex.send[sw][k];
  ck_assert_int_eq(ExchangeForward(&e->grid, &e->ex, &p->st, PETSC_TRUE), 0);
  for (PetscInt g = p->n; g < ntot; g++) {
    PetscInt r = e->ex.root[g];
    for (int a = 0; a < 3; a++)
      if (p->x[3 * g + a] != p->x[3 * r + a] || p->v[3 * g + a] != p->v[3 * r + a] ||
          p->w[3 * g + a] != p->w[3 * r + a] || p->vp[3 * g + a] != p->vp[3 * r + a] ||
          p->wp[3 * g + a] != p->wp[3 * r + a]) {
        bad++;
        break;
      }
  }
  return bad;
}

/* Steps the engine, checking after each step that no contact is unlisted,
 * and at the end that the lists read their members' motion at the roots. */
static void StepListed(Engine *e, PetscInt steps, const char *what)
{
  PetscReal miss = 0.0, wrong;
  for (PetscInt k = 0; k < steps; k++) {
    ck_assert_int_eq(EngineStep(e, PETSC_FALSE), 0);
    miss += (PetscReal)ContactsUnlisted(e);
  }
  wrong = (PetscReal)RootsWrong(e);
  ck_assert_int_eq(CollectiveSumAll(PETSC_COMM_WORLD, &miss, 1), 0);
  ck_assert_int_eq(CollectiveSumAll(PETSC_COMM_WORLD, &wrong, 1), 0);
  ck_assert_msg(miss == 0.0, "%s: %g contacts out of the lists over %d steps", what, miss, (int)steps);
  ck_assert_msg(wrong == 0.0, "%s: %g pair members, sends or ghosts not at their roots", what, wrong);
}

/* A dense bed flowing at 1 m/s over a frozen base layer, periodic along the
 * flow, its grains agitated at up to 1 m/s: it moves far more than the
 * skin between rebuilds (the criterion measures from the common drift), and
 * no contact may go unlisted (a rebuild only at the whole skin misses some). */
START_TEST(test_drifting_bed_listed)
{
  enum {
    NX = 8,
    NY = 5,
    NZ = 4
  };
  static PetscReal s[NX * NY * NZ][6];
  PetscInt         type[NX * NY * NZ], n = 0;
  PetscReal        lo[3] = {0, 0, 0}, hi[3] = {NX * 1.0e-3, NY * 1.0e-3, 0.01}, d = 1.0e-3;
  char             path[512], opts[1024];
  Engine           e;
  for (PetscInt kz = 0; kz < NZ; kz++)
    for (PetscInt ky = 0; ky < NY; ky++)
      for (PetscInt kx = 0; kx < NX; kx++, n++) {
        s[n][0] = (kx + 0.5) * 1.0e-3, s[n][1] = (ky + 0.5) * 1.0e-3, s[n][2] = (kz + 0.5) * 0.998e-3;
        s[n][3] = kz ? 1.0 + sin(7.0 * n) : 0.0, s[n][4] = kz ? cos(5.0 * n) : 0.0, s[n][5] = kz ? sin(3.0 * n) : 0.0;
        type[n] = kz ? 1 : 2;
      }
  snprintf(path, sizeof(path), "%s/drift.data", tmpdir);
  WriteDataTyped(path, n, (const PetscReal(*)[6])s, d, NULL, type, lo, hi);
  snprintf(opts, sizeof(opts),
           "-domain_lo 0,0,0 -domain_hi %g,%g,0.01 -domain_periodic true,true,false -insert_mode lammps -insert_file "
           "%s -insert_frozen_type 2 -gravity "
           "0,0,-9.81 -contact_law hertz -material_E 1e7 -contact_mu 0.5 -neighbor_skin 1e-4",
           (double)hi[0], (double)hi[1], path);
  EngineFromString(opts, &e);
  StepListed(&e, 2000, "bed drifting over a frozen base");
  {
    EngineStats st;
    ck_assert_int_eq(EngineGetStats(&e, &st), 0);
    ck_assert_msg(e.clock.t * 1.0 > 10.0 * 1e-4 && st.contacts > 50 && e.clock.rebuilds > 2,
                  "the bed moved %g m (not many skins), %g contacts, %d rebuilds", (double)e.clock.t,
                  (double)st.contacts, (int)e.clock.rebuilds);
  }
  /* between rebuilds the scratch holds nothing: its room is the histories' (EngineAttach) */
  ck_assert_msg(e.scratch.buf == NULL && e.scratch.cap == 0, "the scratch keeps %zu bytes of its own between rebuilds",
                e.scratch.cap);
  {
    const HistorySlots *hs = &SphereList(&e)->hs;
    ck_assert_msg(hs->h != NULL && hs->n > 0 && hs->n <= hs->cap, "histories %d in room for %d", (int)hs->n,
                  (int)hs->cap);
  }
  EngineDestroy(&e);
}
END_TEST

/* A slab of spheres thrown at 2 m/s against a wall of a walled axis, rigid
 * until it meets it: the wall does not drift with it, and no wall contact may
 * go unlisted (a criterion from the drift alone never rebuilds). */
START_TEST(test_slab_into_wall_listed)
{
  enum {
    NX = 3,
    NY = 5,
    NZ = 5
  };
  static PetscReal s[NX * NY * NZ][6];
  PetscInt         n     = 0;
  PetscReal        lo[3] = {0, 0, 0}, hi[3] = {0.012, NY * 1.0e-3, NZ * 1.0e-3};
  char             path[512], opts[1024];
  Engine           e;
  for (PetscInt kz = 0; kz < NZ; kz++)
    for (PetscInt ky = 0; ky < NY; ky++)
      for (PetscInt kx = 0; kx < NX; kx++, n++) {
        s[n][0] = 0.006 + (kx + 0.5) * 1.0e-3, s[n][1] = (ky + 0.5) * 1.0e-3, s[n][2] = (kz + 0.5) * 1.0e-3;
        s[n][3] = 2.0, s[n][4] = s[n][5] = 0.0; /* rigid until it meets the wall */
      }
  snprintf(path, sizeof(path), "%s/slab.data", tmpdir);
  WriteData(path, n, (const PetscReal(*)[6])s, 0.95e-3, lo, hi);
  snprintf(opts, sizeof(opts),
           "-domain_lo 0,0,0 -domain_hi %g,%g,%g -domain_periodic false,true,true -insert_mode lammps -insert_file %s "
           "-contact_law hertz -material_E 1e7 "
           "-contact_mu 0.3 -neighbor_skin 1e-4 -timestep_mode fixed -timestep_dt 2e-7",
           (double)hi[0], (double)hi[1], (double)hi[2], path);
  EngineFromString(opts, &e);
  StepListed(&e, 8000, "slab thrown into a wall");
  {
    PetscReal xmax = 0.0;
    for (PetscInt i = 0; i < e.p.n; i++) xmax = PetscMax(xmax, e.p.x[3 * i]);
    ck_assert_int_eq(CollectiveMaxAll(PETSC_COMM_WORLD, &xmax, 1), 0);
    ck_assert_msg(e.clock.rebuilds > 2 && xmax > 0.0115,
                  "the slab's front at %g m after %d rebuilds: it never reached the wall", (double)xmax,
                  (int)e.clock.rebuilds);
  }
  EngineDestroy(&e);
}
END_TEST

/* Pairs of spheres closing head on at 1 m/s each, a little more than the
 * skin apart at the start: no particle moves the whole skin before they
 * touch, so only the half-skin tests can list them in time. */
START_TEST(test_converging_listed)
{
  enum {
    NY = 4,
    NZ = 4
  };
  static PetscReal s[2 * NY * NZ][6];
  PetscInt         n     = 0;
  PetscReal        lo[3] = {0, 0, 0}, hi[3] = {0.01, NY * 1.5e-3, NZ * 1.5e-3}, d = 1.0e-3, skin = 1e-4;
  char             path[512], opts[1024];
  Engine           e;
  for (PetscInt kz = 0; kz < NZ; kz++)
    for (PetscInt ky = 0; ky < NY; ky++)
      for (int side = 0; side < 2; side++, n++) {
        s[n][0] = 0.004 + side * (d + 1.2 * skin), s[n][1] = (ky + 0.5) * 1.5e-3, s[n][2] = (kz + 0.5) * 1.5e-3;
        s[n][3] = side ? -1.0 : 1.0, s[n][4] = s[n][5] = 0.0;
      }
  snprintf(path, sizeof(path), "%s/converge.data", tmpdir);
  WriteData(path, n, (const PetscReal(*)[6])s, d, lo, hi);
  snprintf(opts, sizeof(opts),
           "-domain_lo 0,0,0 -domain_hi %g,%g,%g -domain_periodic false,true,true -insert_mode lammps -insert_file %s "
           "-contact_law hertz -material_E 1e7 "
           "-contact_mu 0 -neighbor_skin %g -timestep_mode fixed -timestep_dt 2e-7",
           (double)hi[0], (double)hi[1], (double)hi[2], path, (double)skin);
  EngineFromString(opts, &e);
  StepListed(&e, 600, "pairs closing head on");
  {
    EngineStats st;
    ck_assert_int_eq(EngineGetStats(&e, &st), 0);
    ck_assert_msg(st.contacts == NY * NZ, "%g of the %d pairs touch", (double)st.contacts, NY * NZ);
  }
  EngineDestroy(&e);
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("engine");
  TCase *tc = tcase_create("engine");
  snprintf(tmpdir, sizeof(tmpdir), "/tmp/hdem_test_engine_%d", (int)getppid());
  mkdir(tmpdir, 0755);
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_periodic_corner);
  tcase_add_test(tc, test_wrap_rounding);
  tcase_add_test(tc, test_sparse_class);
  tcase_add_test(tc, test_contact_across_boundary);
  tcase_add_test(tc, test_approach_bound);
  tcase_add_test(tc, test_energy_conservation);
  tcase_add_test(tc, test_gravity_work);
  tcase_add_test(tc, test_random_fill);
  tcase_add_test(tc, test_drifting_bed_listed);
  tcase_add_test(tc, test_slab_into_wall_listed);
  tcase_add_test(tc, test_converging_listed);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
