/* Interactions: what acts on particles, one kind per implementation of this
 * interface (interact/sphere_sphere.c: particle pairs; sphere_plane.c: plane
 * walls; triangles and bonds later).  The engine holds a list of them and
 * calls each, in the list's fixed order, to
 *   build    list its pairs after the halo's borders (each its own list),
 *   compute  add its forces and torques into the owned particles and fold
 *            its step bound into the step's,
 *   gather   flatten its contact histories into records keyed by global
 *            ids (owner, its kind, partner) before a migration,
 *   attach   take them back onto its new pairs after the build,
 *   stats    add its elastic energy, contacts and largest overlap.
 *
 * The contract that keeps results bitwise on any rank count: an interaction
 * adds into a particle's sums in an order that depends only on global ids;
 * interactions run in the engine's fixed order; the step bound is a
 * minimum.  Then each particle's force is the same sum in the same order
 * wherever it is computed. */
#ifndef HDEM_INTERACTION_H
#define HDEM_INTERACTION_H

#include "particles/particles.h"
#include "contact/stepbound.h"
#include "decomp/records.h"
#include "decomp/scratch.h"
#include "decomp/exactsum.h"
#include "geometry/motion.h"

/* What the engine hands an interaction: the particles with their ghosts,
 * the physics, and the rebuild's shared memory. */
typedef struct {
  Particles          *p;
  const ContactModel *model;
  const StepControl  *ctl;
  const LocalInt     *root;    /* per local particle: the particle whose motion it copies (ExchangeBorders) */
  PetscReal           L[3];    /* periodic box lengths (0: not periodic) */
  PetscReal           skin;    /* the lists' reach beyond contact */
  PetscReal           tb;      /* the time of the positions a build lists from (the walls' poses then) */
  Scratch            *scratch; /* a rebuild's transient arrays */
} InteractionContext;

/* A sample's contacts (output/fields.c), each once over the ranks: the
 * force F on the particle centred at a from its partner, whose centre (a
 * pair: the image the pair was listed with) or contact point on a wall or
 * mesh is b. */
typedef struct {
  void (*contact)(void *ctx, const PetscReal a[3], const PetscReal b[3], const PetscReal F[3]);
  void *ctx;
} ContactSink;

/* What one step asks of compute. */
typedef struct {
  PetscReal t;     /* the time the forces are for: the step's end */
  PetscReal dt;    /* the step (0: forces at the start, no history advanced) */
  PetscBool need;  /* the step bound is wanted */
  PetscReal dt_up; /* the next step's longest: a pair further apart than it closes cannot touch in it */
  PetscReal bound; /* in and out: the bound so far */
  /* out: the local particles of the pair that set it (j < 0: wall -1 - j), for a diagnostic */
  PetscInt  who[2];
  PetscBool deep; /* out: some contact overlaps by more than CONTACT_OVERLAP_LIMIT of its smaller radius */
  /* the walls' force and torque, when wanted (else NULL): 6 exact sums per
   * wall (planes, then meshes from mesh_wall0), the torque about wallref */
  ExactSum        *walls;
  const PetscReal *wallref; /* 3 per wall */
  PetscInt         mesh_wall0;
  /* approaching contacts (InteractionApproachBound): the largest
   * acceleration of any particle at the last step, the same on every rank
   * (0: no such bound, as in a fixed step) */
  PetscReal a_reach;
  /* every contact's force, when a sample wants them (else NULL): the fused
   * scan gives way to the generic path, which gives the same bits */
  const ContactSink *sink;
} InteractionStep;

/* A contact's force F on its particle at point c, as the wall it acts on
 * receives it: -F and (c - ref) x -F, into wall w's sums. */
static inline void InteractionWallAdd(InteractionStep *st, PetscInt w, const PetscReal c[3], const PetscReal F[3])
{
  ExactSum        *s    = st->walls + 6 * w;
  const PetscReal *o    = st->wallref + 3 * w;
  PetscReal        r[3] = {c[0] - o[0], c[1] - o[1], c[2] - o[2]}, g[3] = {-F[0], -F[1], -F[2]};
  for (int a = 0; a < 3; a++) ExactSumAdd(&s[a], g[a]);
  ExactSumAdd(&s[3], r[1] * g[2] - r[2] * g[1]);
  ExactSumAdd(&s[4], r[2] * g[0] - r[0] * g[2]);
  ExactSumAdd(&s[5], r[0] * g[1] - r[1] * g[0]);
}

/* A wall contact's force F on particle i (centre x) at point c, into the
 * wall's sums and the sample's, whichever are wanted. */
static inline void InteractionWallContact(InteractionStep *st, PetscInt w, const PetscReal x[3], const PetscReal c[3],
                                          const PetscReal F[3])
{
  if (st->walls) InteractionWallAdd(st, w, c, F);
  if (st->sink) st->sink->contact(st->sink->ctx, x, c, F);
}

/* Whether overlap d of a contact whose smaller radius is rmin is beyond the limit. */
static inline PetscBool InteractionDeep(PetscReal d, PetscReal rmin)
{
  return d > CONTACT_OVERLAP_LIMIT * rmin ? PETSC_TRUE : PETSC_FALSE;
}

/* A pair's bound b into the step's, with who set it. */
static inline void InteractionStepBound(InteractionStep *st, PetscReal b, PetscInt i, PetscInt j)
{
  if (b < st->bound) st->bound = b, st->who[0] = i, st->who[1] = j;
}

/* The largest acceleration of a wall's motion where a sphere of radius r
 * at x may touch it [m/s^2]: rotate, w^2 times its farthest from the axis
 * point; vibrate, |A| + |A2| times (2 pi f)^2. */
static inline PetscReal InteractionWallAccel(const WallMotion *m, const PetscReal x[3], PetscReal r)
{
  PetscReal w = 2.0 * HDEM_PI * m->frequency, a = 0.0, a2 = 0.0;
  switch (m->kind) {
  case MOTION_ROTATE:
    for (int c = 0; c < 3; c++) a += (x[c] - m->axis_point[c]) * (x[c] - m->axis_point[c]);
    return m->omega * m->omega * (sqrt(a) + r);
  case MOTION_VIBRATE:
    for (int c = 0; c < 3; c++) a += m->amplitude[c] * m->amplitude[c], a2 += m->amplitude2[c] * m->amplitude2[c];
    return (sqrt(a) + sqrt(a2)) * w * w;
  default:
    return 0.0;
  }
}

/* The step an untouched pair (or a particle and a wall) apart by gap and
 * closing at vn allows when it may touch within dt_up by its acceleration:
 * with A the largest relative acceleration (2 a_reach for two particles,
 * a_reach + aw for a particle and a wall), it closes at most
 * vn t + A t^2 / 2 in a step t.  A contact may begin only within a step no
 * longer than its own bound B at the closing speed v_e = max(vn, 0) + A dt_up
 * it can reach by then, so the step is the longer of B(v_e) and the time
 * the gap takes to close: the first ends with the touch resolved as any
 * contact's step, the second before it.  Where the speed closes the gap
 * within dt_up more than the acceleration does, the impact's bound at vn
 * (the caller's) covers it.  It depends on the pair alone. */
static inline PetscReal InteractionApproachStep(const InteractionContext *ctx, const InteractionStep *st,
                                                const ContactPair *cp, PetscReal vn, PetscReal gap, PetscReal A)
{
  PetscReal h = st->dt_up, vp = vn > 0.0 ? vn : 0.0, ve, q, tc;

  if (!(vn * h + 0.5 * A * h * h > gap)) return PETSC_MAX_REAL;                   /* cannot touch within dt_up */
  if (vn > 0.0 && gap < 2.0 * vn * h && 0.5 * A * h <= vn) return PETSC_MAX_REAL; /* the speed's bound */
  q  = vn + sqrt(vn * vn + 2.0 * A * gap); /* the root of A t^2 / 2 + vn t = gap without cancellation */
  tc = q > 0.0 ? 2.0 * gap / q : 0.0;
  ve = vp + A * h;
  return PetscMax(tc, ContactStepBound(ctx->model, cp, ctx->ctl, 0.5 * cp->m * ve * ve, ve));
}

/* InteractionApproachStep into the step's bound, who as InteractionStepBound. */
static inline void InteractionApproachBound(const InteractionContext *ctx, InteractionStep *st, const ContactPair *cp,
                                            PetscInt i, PetscInt j, PetscReal vn, PetscReal gap, PetscReal aw)
{
  PetscReal A = j >= 0 ? 2.0 * st->a_reach : st->a_reach + aw;
  if (!(A > 0.0)) return; /* the closing speed's share is the approach bound's (ContactStepBound at vn) */
  InteractionStepBound(st, InteractionApproachStep(ctx, st, cp, vn, gap, A), i, j);
}

/* The energies contacts hold, by kind (summed exactly: thermo is the same
 * on any rank count). */
typedef enum {
  STATS_NORMAL,     /* the normal law's U(d) */
  STATS_TANGENTIAL, /* the tangential springs' */
  STATS_ROLLING,    /* the rolling springs' */
  STATS_BRIDGES,    /* the liquid bridges' (LiquidBridgeEnergy) */
  STATS_ENERGIES
} StatsEnergy;

/* Accumulated in the interactions' order, so the sums are the same. */
typedef struct {
  PetscReal  contacts, max_overlap_ratio;
  PetscInt64 who[2];                 /* the ids of the pair with that overlap (wall k: -1 - k), for a diagnostic */
  PetscReal  bridges;                /* liquid bridges, each counted once */
  ExactSum   liquid;                 /* the liquid they hold [m^3] */
  ExactSum   energy[STATS_ENERGIES]; /* [J] */
} InteractionStats;

/* Zero statistics. */
static inline void InteractionStatsZero(InteractionStats *s)
{
  s->contacts = s->max_overlap_ratio = s->bridges = 0.0;
  s->who[0] = s->who[1] = -1;
  ExactSumZero(&s->liquid);
  for (int k = 0; k < STATS_ENERGIES; k++) ExactSumZero(&s->energy[k]);
}

typedef struct _p_Interaction *Interaction;

typedef struct {
  const char *name; /* its -log_view event */
  PetscErrorCode (*build)(Interaction, const InteractionContext *);
  PetscErrorCode (*compute)(Interaction, const InteractionContext *, InteractionStep *);
  /* stay: per owned particle, nonzero if it stays owned here through the
   * coming migration, or NULL (a checkpoint: every owned member keeps one) */
  PetscErrorCode (*gather)(Interaction, const InteractionContext *, RecordStore *, const unsigned char *stay);
  /* the store sorted */
  PetscErrorCode (*attach)(Interaction, const InteractionContext *, const RecordStore *);
  void (*stats)(Interaction, const InteractionContext *, InteractionStats *);
  PetscErrorCode (*destroy)(Interaction);
  /* Optional: the room of its histories, dead between the gather and the
   * attach, lent to the rebuild's scratch and given back (PetscMalloc'd). */
  void (*lend)(Interaction, void **buf, size_t *bytes);
  PetscErrorCode (*reclaim)(Interaction, void *buf, size_t bytes);
} InteractionOps;

struct _p_Interaction {
  const InteractionOps *ops;
  void                 *data;
  PetscLogEvent         event;
};

PETSC_EXTERN PetscErrorCode InteractionCreate(const InteractionOps *, void *data, Interaction *);
PETSC_EXTERN PetscErrorCode InteractionDestroy(Interaction *);

#endif
