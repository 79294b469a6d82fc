#include "insert/stream.h"
#include "insert/insert.h"
#include "io/options.h"
#include <math.h>
#include <string.h>

/* Random streams of a stream's draws (the radius uses RANDOM_STREAM_RADIUS);
 * the key's id is (stream + 1) 2^53 + sequence number, apart from every
 * particle id (below 2^53), so no draw repeats one of insert_*'s. */
#define STREAM_RANDOM_POSITION 32 /* 32, 33, 34: x, y, z of each attempt */
#define STREAM_RANDOM_VELOCITY 35 /* 35, 36, 37 */
#define STREAM_RANDOM_SIEVE    48 /* k = 0: the interval of the sieve curve, 1: the size within it */

PetscInt64 StreamKey(PetscInt k, PetscInt64 seq)
{
  return ((PetscInt64)(k + 1) << STREAM_SEQ_BITS) | seq;
}

/* A sieve curve's checks, each error naming its key. */
static PetscErrorCode StreamSieveCheck(MPI_Comm comm, const char *ks, const char *kp, PetscInt ns, PetscInt np,
                                       const StreamSieve *sv)
{
  PetscFunctionBeginUser;
  PetscCheck(ns == np, comm, PETSC_ERR_USER_INPUT,
             "%s has %" PetscInt_FMT " sizes but %s %" PetscInt_FMT " fractions: one fraction passing each size", ks,
             ns, kp, np);
  PetscCheck(ns >= 2, comm, PETSC_ERR_USER_INPUT, "%s: at least 2 sizes (the curve's ends), not %" PetscInt_FMT, ks,
             ns);
  for (PetscInt i = 0; i < ns; i++) {
    PetscCheck(sv->size[i] > 0.0 && sv->size[i] <= 2.0 * HDEM_RADIUS_MAX, comm, PETSC_ERR_USER_INPUT,
               "%s: entry %" PetscInt_FMT " is %g; allowed (0, %g] m", ks, i + 1, (double)sv->size[i],
               2.0 * HDEM_RADIUS_MAX);
    PetscCheck(sv->size[i] >= 2.0 * HDEM_RADIUS_MIN, comm, PETSC_ERR_USER_INPUT,
               "%s: entry %" PetscInt_FMT " is %g; allowed [%g, %g] m", ks, i + 1, (double)sv->size[i],
               2.0 * HDEM_RADIUS_MIN, 2.0 * HDEM_RADIUS_MAX);
    PetscCheck(i == 0 || sv->size[i] > sv->size[i - 1], comm, PETSC_ERR_USER_INPUT,
               "%s must increase: entry %" PetscInt_FMT " is %g after %g", ks, i + 1, (double)sv->size[i],
               (double)sv->size[i - 1]);
    PetscCheck(i == 0 || sv->passing[i] >= sv->passing[i - 1], comm, PETSC_ERR_USER_INPUT,
               "%s is a cumulative fraction passing and must not decrease: entry %" PetscInt_FMT " is %g after %g", kp,
               i + 1, (double)sv->passing[i], (double)sv->passing[i - 1]);
  }
  PetscCheck(sv->passing[0] == 0.0, comm, PETSC_ERR_USER_INPUT,
             "%s must start at 0: nothing passes the smallest size %g m (the feed's lower end), not %g", kp,
             (double)sv->size[0], (double)sv->passing[0]);
  PetscCheck(sv->passing[ns - 1] == 1.0, comm, PETSC_ERR_USER_INPUT,
             "%s must reach 1: everything passes the largest size %g m, not %g", kp, (double)sv->size[ns - 1],
             (double)sv->passing[ns - 1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Keys <pre>_sieve_sizes and _sieve_passing: the curve checked and its number probabilities. */
static PetscErrorCode StreamSieveSetFromOptions(MPI_Comm comm, const char *pre, StreamSieve *sv, PetscBool *given)
{
  char      ks[64], kp[64];
  PetscInt  ns = STREAM_SIEVE_MAX, np = STREAM_SIEVE_MAX;
  PetscBool sset, pset;
  PetscReal acc = 0.0;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(ks, sizeof(ks), "%s_sieve_sizes", pre));
  PetscCall(PetscSNPrintf(kp, sizeof(kp), "%s_sieve_passing", pre));
  PetscCall(OptionsRealArray(ks,
                             "streamN: sizes of a sieve curve, increasing (a sphere's diameter, a body's sieve size), "
                             "instead of the radius keys",
                             "[m]", 1, STREAM_SIEVE_MAX, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, sv->size, &ns,
                             &sset));
  PetscCall(OptionsRealArray(kp, "streamN: cumulative mass fraction passing each sieve size: 0 first, 1 last", "[-]", 1,
                             STREAM_SIEVE_MAX, 0.0, 1.0, RANGE_CLOSED, sv->passing, &np, &pset));
  if (!strcmp(pre, "-stream0")) {
    PetscCall(OptionsDefaultText(ks, "none"));
    PetscCall(OptionsDefaultText(kp, "none"));
  }
  *given = sset || pset ? PETSC_TRUE : PETSC_FALSE;
  sv->n  = 0;
  if (OptionsCollecting() || !*given) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(sset && pset, comm, PETSC_ERR_USER_INPUT, "%s needs %s too: a sieve curve is sizes and fractions passing",
             sset ? ks : kp, sset ? kp : ks);
  PetscCall(StreamSieveCheck(comm, ks, kp, ns, np, sv));
  sv->n      = ns;
  sv->cum[0] = 0.0;
  for (PetscInt i = 1; i < ns; i++) {
    PetscReal a = sv->size[i - 1], b = sv->size[i];
    acc += (sv->passing[i] - sv->passing[i - 1]) * (a + b) / (2.0 * a * a * b * b);
    sv->cum[i] = acc;
  }
  for (PetscInt i = 1; i < ns; i++) sv->cum[i] /= acc;
  for (PetscInt i = 0; i < CLUMP_TEMPLATES_MAX; i++) sv->req[i] = 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal StreamSieveDraw(const Stream *s, PetscInt k, PetscInt64 seq)
{
  const StreamSieve *sv = &s->sieve;
  PetscReal          u  = RandomUniform(s->seed, StreamKey(k, seq), STREAM_RANDOM_SIEVE, 0), a, b, d;
  PetscInt           i  = 1;
  /* the interval: the first whose cumulative probability passes u, never one of no mass */
  while (i < sv->n - 1 && !(u < sv->cum[i] && sv->cum[i] > sv->cum[i - 1])) i++;
  while (sv->cum[i] == sv->cum[i - 1]) i--; /* u at the very top: the last interval with mass */
  a = sv->size[i - 1], b = sv->size[i];
  u = RandomUniform(s->seed, StreamKey(k, seq), STREAM_RANDOM_SIEVE, 1);
  d = 1.0 / sqrt(1.0 / (a * a) - u * (1.0 / (a * a) - 1.0 / (b * b)));
  return PetscMin(b, PetscMax(a, d));
}

void StreamsSetUpBodies(Streams *ss, const ClumpTemplates *ct)
{
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    Stream      *s  = &ss->s[k];
    StreamSieve *sv = &s->sieve;
    if (!s->on || !sv->n) continue;
    s->rmin = PETSC_MAX_REAL, s->rmax = 0.0;
    for (PetscInt c = 0; c < PetscMax(1, s->body.n); c++) {
      PetscInt  t   = s->body.n ? s->body.tmpl[c] : -1;
      PetscReal req = 0.5; /* a sphere's radius over its diameter */
      if (t >= 0 && t < CLUMP_TEMPLATES_MAX && ct->t[t].on) req = sv->req[t] = ct->t[t].r_equiv / ct->t[t].sieve;
      s->rmin = PetscMin(s->rmin, req * sv->size[0]);
      s->rmax = PetscMax(s->rmax, req * sv->size[sv->n - 1]);
    }
  }
}

/* Keys streamK_*: help shows stream0's, the others are recorded when given. */
static PetscErrorCode StreamSetFromOptions(MPI_Comm comm, PetscInt k, Stream *s)
{
  char                     pre[32], key[12][80];
  PetscInt                 n;
  PetscBool                set[12], rset, sset, given = PETSC_FALSE;
  PetscReal                mass_rate = 0.0;
  static const char *const suffix[]  = {"_region_lo",       "_region_hi", "_rate",  "_mass_rate",
                                        "_start_time",      "_stop_time", "_count", "_velocity",
                                        "_velocity_random", "_type",      "_seed",  "_interval"};

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  s->stop    = INFINITY;
  s->count   = STREAM_UNLIMITED;
  s->rd.type = RADIUS_UNIFORM;
  s->rd.min = s->rd.max = s->rd.mean = 1e-3;
  s->type = 1, s->seed = 1, s->interval = 0.01;
  PetscCall(PetscSNPrintf(pre, sizeof(pre), "-stream%" PetscInt_FMT, k));
  for (int q = 0; q < 12; q++) PetscCall(PetscSNPrintf(key[q], sizeof(key[q]), "%s%s", pre, suffix[q]));
  OptionsQuiet(k > 0 ? PETSC_TRUE : PETSC_FALSE);
  PetscCall(OptionsRealArray(key[0], "streamN (N = 0..7): lower corner of the box where the stream's particles appear",
                             "[m]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, s->lo, &n, &set[0]));
  PetscCall(OptionsRealArray(key[1], "streamN: upper corner of that box", "[m]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL,
                             RANGE_CLOSED, s->hi, &n, &set[1]));
  PetscCall(OptionsReal(key[2], "streamN: particles per second (or mass_rate)", "[1/s]", 0.0, PETSC_MAX_REAL,
                        RANGE_CLOSED, &s->rate, &set[2]));
  PetscCall(OptionsReal(key[3], "streamN: kilograms per second (or rate)", "[kg/s]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED,
                        &mass_rate, &set[3]));
  PetscCall(
    OptionsReal(key[4], "streamN: the stream starts", "[s]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &s->start, &set[4]));
  PetscCall(OptionsReal(key[5], "streamN: the stream stops", "[s]", 0.0, INFINITY, RANGE_CLOSED, &s->stop, &set[5]));
  PetscCall(OptionsInt64(key[6], "streamN: at most this many particles in all", 0,
                         ((PetscInt64)1 << STREAM_SEQ_BITS) - 1, &s->count, &set[6]));
  PetscCall(RadiusDistributionSetFromOptions(comm, pre, &s->rd, &rset));
  PetscCall(StreamSieveSetFromOptions(comm, pre, &s->sieve, &sset));
  PetscCall(OptionsRealArray(key[7], "streamN: velocity of the new particles", "[m/s]", 3, 3, -HDEM_SPEED_MAX,
                             HDEM_SPEED_MAX, RANGE_CLOSED, s->v0, &n, &set[7]));
  PetscCall(OptionsReal(key[8], "streamN: amplitude of uniform random velocity components", "[m/s]", 0.0,
                        HDEM_SPEED_MAX, RANGE_CLOSED, &s->vrand, &set[8]));
  PetscCall(OptionsInt(key[9], "streamN: particle type", 0, LOCAL_INT_MAX, &s->type, &set[9]));
  PetscCall(OptionsInt64(key[10], "streamN: random seed", PETSC_MIN_INT, PETSC_MAX_INT, &s->seed, &set[10]));
  PetscCall(OptionsReal(key[11],
                        "streamN: simulated seconds between batches, each at a neighbour list rebuild it forces (0: at "
                        "every step one is due)",
                        "[s]", 0.0, PETSC_MAX_REAL, RANGE_CLOSED, &s->interval, &set[11]));
  PetscCall(BodyChoiceSetFromOptions(comm, pre, &s->body));
  OptionsQuiet(PETSC_FALSE);
  if (k == 0) {
    PetscCall(OptionsDefaultText(key[0], "required"));
    PetscCall(OptionsDefaultText(key[1], "required"));
    PetscCall(OptionsDefaultText(key[2], "none: rate or mass_rate"));
    PetscCall(OptionsDefaultText(key[3], "none: rate or mass_rate"));
    PetscCall(OptionsDefaultText(key[6], "unlimited"));
  }
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  for (int q = 0; q < 12; q++) given = given || set[q] ? PETSC_TRUE : PETSC_FALSE;
  s->on = given || rset || sset || s->body.given ? PETSC_TRUE : PETSC_FALSE;
  if (!s->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(set[0] && set[1], comm, PETSC_ERR_USER_INPUT, "%s needs %s and %s: the box where its particles appear [m]",
             pre + 1, key[0], key[1]);
  for (int a = 0; a < 3; a++)
    PetscCheck(s->lo[a] < s->hi[a], comm, PETSC_ERR_USER_INPUT, "%s must be below %s on every axis (%c: %g >= %g)",
               key[0], key[1], "xyz"[a], (double)(s->lo[a]), (double)(s->hi[a]));
  PetscCheck(!(set[2] && set[3]), comm, PETSC_ERR_USER_INPUT, "give %s or %s, not both", key[2], key[3]);
  PetscCheck(set[2] || set[3], comm, PETSC_ERR_USER_INPUT, "%s needs %s [1/s] or %s [kg/s]", pre + 1, key[2], key[3]);
  if (set[3]) s->by_mass = PETSC_TRUE, s->rate = mass_rate;
  PetscCheck(s->stop >= s->start, comm, PETSC_ERR_USER_INPUT, "%s = %g must not precede %s = %g", key[5],
             (double)s->stop, key[4], (double)s->start);
  PetscCheck(!(rset && sset), comm, PETSC_ERR_USER_INPUT,
             "%s: give its radius keys (%s_radius*) or a sieve curve (%s_sieve_sizes, _sieve_passing), not both",
             pre + 1, pre, pre);
  PetscCall(RadiusDistributionCheck(comm, pre, &s->rd));
  s->rmin = sset ? 0.5 * s->sieve.size[0] : RadiusDistributionMin(&s->rd);
  s->rmax = sset ? 0.5 * s->sieve.size[s->sieve.n - 1] : RadiusDistributionMax(&s->rd);
  for (int a = 0; a < 3; a++)
    PetscCheck(s->hi[a] - s->lo[a] >= 2.0 * s->rmax, comm, PETSC_ERR_USER_INPUT,
               "%s/_hi: the box is %g m along %c, less than the stream's largest diameter %g m (%s_radius*)", key[0],
               (double)(s->hi[a] - s->lo[a]), "xyz"[a], (double)(2.0 * s->rmax), pre);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StreamsSetFromOptions(MPI_Comm comm, Streams *ss)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(ss, sizeof(*ss)));
  PetscCall(OptionsSection("Streams"));
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    PetscCall(StreamSetFromOptions(comm, k, &ss->s[k]));
    if (ss->s[k].on) ss->n++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StreamsCheckDomain(MPI_Comm comm, const Streams *ss, const PetscReal lo[3], const PetscReal hi[3])
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    const Stream *s = &ss->s[k];
    if (!s->on) continue;
    for (int a = 0; a < 3; a++)
      PetscCheck(s->lo[a] >= lo[a] && s->hi[a] <= hi[a], comm, PETSC_ERR_USER_INPUT,
                 "-stream%" PetscInt_FMT
                 "_region_lo/_hi: the box [%g, %g] along %c is not inside the domain [%g, %g] (-domain_lo, -domain_hi)",
                 k, (double)s->lo[a], (double)s->hi[a], "xyz"[a], (double)lo[a], (double)hi[a]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StreamRadius(const Stream *s, PetscInt k, PetscInt64 seq, PetscReal *r)
{
  PetscFunctionBeginUser;
  PetscCheck(seq >= 0 && seq < ((PetscInt64)1 << STREAM_SEQ_BITS), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "stream%" PetscInt_FMT ": sequence number %" PetscInt64_FMT " past 2^%d", k, seq, STREAM_SEQ_BITS);
  if (s->sieve.n) {
    PetscInt c = BodyChoiceDraw(&s->body, s->seed, StreamKey(k, seq));
    *r         = StreamSieveDraw(s, k, seq) * (c >= 0 && s->sieve.req[c] > 0.0 ? s->sieve.req[c] : 0.5);
  } else PetscCall(RadiusDistributionDraw(&s->rd, s->seed, StreamKey(k, seq), r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void StreamVelocity(const Stream *s, PetscInt k, PetscInt64 seq, PetscReal v[3])
{
  for (int a = 0; a < 3; a++)
    v[a] = s->v0[a] + s->vrand * (2.0 * RandomUniform(s->seed, StreamKey(k, seq), STREAM_RANDOM_VELOCITY + a, 0) - 1.0);
}

void StreamPositionIn(const Stream *s, PetscInt k, PetscInt64 seq, PetscReal r, PetscInt attempt, const PetscReal lo[3],
                      const PetscReal hi[3], PetscReal x[3])
{
  for (int a = 0; a < 3; a++) {
    x[a] = lo[a] + r +
           (hi[a] - lo[a] - 2.0 * r) * RandomUniform(s->seed, StreamKey(k, seq), STREAM_RANDOM_POSITION + a, attempt);
    if (x[a] > hi[a] - r) x[a] = hi[a] - r; /* rounding */
  }
}

void StreamPosition(const Stream *s, PetscInt k, PetscInt64 seq, PetscReal r, PetscInt attempt, PetscReal x[3])
{
  StreamPositionIn(s, k, seq, r, attempt, s->lo, s->hi, x);
}

PetscReal StreamMass(PetscReal r, PetscReal density)
{
  return (4.0 / 3.0) * HDEM_PI * r * r * r * density; /* ParticlesAppend's expression, in its order */
}

PetscErrorCode StreamDue(const Stream *s, PetscInt k, PetscReal t, PetscInt64 seq, PetscInt64 inserted,
                         PetscReal inserted_mass, PetscReal density, PetscInt64 cap, PetscInt64 *n)
{
  PetscReal  span = PetscMin(t, s->stop) - s->start;
  PetscInt64 left = s->count == STREAM_UNLIMITED ? cap : PetscMin(cap, s->count - inserted);

  PetscFunctionBeginUser;
  *n = 0;
  if (!(span > 0.0) || left <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (!s->by_mass) {
    PetscReal target = PetscMin(floor(s->rate * span), 4.0e18);
    *n               = PetscMax(0, PetscMin(left, (PetscInt64)target - inserted));
  } else {
    PetscReal budget = s->rate * span - inserted_mass, sum = 0.0;
    while (*n < left) {
      PetscReal r;
      PetscCall(StreamRadius(s, k, seq + *n, &r));
      sum += StreamMass(r, density);
      if (!(sum <= budget)) break;
      (*n)++;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
