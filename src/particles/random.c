#include "particles/random.h"

const char *const RadiusDistributionTypes[] = {"uniform", "normal", "lognormal", "discrete", "RadiusDistributionType",
                                               "RADIUS_", NULL};

/* Philox4x32-10: ten rounds of two 32x32->64 multiplies and a Weyl key
 * schedule; constants from Random123. Integer-only, hence bitwise portable. */
void RandomPhilox4x32(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
  const uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u, W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
  uint32_t       c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3], k0 = key[0], k1 = key[1];

  for (int r = 0; r < 10; r++) {
    uint64_t p0 = (uint64_t)M0 * c0, p1 = (uint64_t)M1 * c2;
    c0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
    c1 = (uint32_t)p1;
    c2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c3 = (uint32_t)p0;
    k0 += W0;
    k1 += W1;
  }
  out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

static void RandomBlock(PetscInt64 seed, PetscInt64 id, PetscInt stream, PetscInt k, uint32_t out[4])
{
  uint64_t s = (uint64_t)seed, i = (uint64_t)id;
  uint32_t ctr[4] = {(uint32_t)k, (uint32_t)stream, (uint32_t)i, (uint32_t)(i >> 32)},
           key[2] = {(uint32_t)s, (uint32_t)(s >> 32)};
  RandomPhilox4x32(ctr, key, out);
}

/* 27 + 26 bits, as MT19937's genrand_res53: exact in a double, in [0, 1). */
static PetscReal Res53(uint32_t a, uint32_t b)
{
  return ((double)(a >> 5) * 67108864.0 + (double)(b >> 6)) * (1.0 / 9007199254740992.0);
}

PetscReal RandomUniform(PetscInt64 seed, PetscInt64 id, PetscInt stream, PetscInt k)
{
  uint32_t w[4];
  RandomBlock(seed, id, stream, k, w);
  return Res53(w[0], w[1]);
}

/* 1 - u1 is in (0, 1], so the log is finite. */
PetscReal RandomNormal(PetscInt64 seed, PetscInt64 id, PetscInt stream, PetscInt k)
{
  uint32_t  w[4];
  PetscReal u1, u2;
  RandomBlock(seed, id, stream, k, w);
  u1 = Res53(w[0], w[1]);
  u2 = Res53(w[2], w[3]);
  return sqrt(-2.0 * log(1.0 - u1)) * cos(2.0 * HDEM_PI * u2);
}

/* P(lo < Z < hi) for a standard normal Z. */
static PetscReal NormalMass(PetscReal lo, PetscReal hi)
{
  return 0.5 * (erfc(lo / sqrt(2.0)) - erfc(hi / sqrt(2.0)));
}

/* The truncated laws resample; with at least this mass inside [min, max]
 * the chance of RADIUS_MAX_TRIES failures is below 0.99^10000 = 2e-44. */
#define RADIUS_MIN_MASS  0.01
#define RADIUS_MAX_TRIES 10000

PetscErrorCode RadiusDistributionCheck(MPI_Comm comm, const char *prefix, const RadiusDistribution *d)
{
  const char *pre = prefix;

  PetscFunctionBeginUser;
  switch (d->type) {
  case RADIUS_UNIFORM:
    PetscCheck(isfinite(d->min) && d->min > 0, comm, PETSC_ERR_USER_INPUT,
               "%s_radius_min = %g must be a positive radius", pre, (double)d->min);
    PetscCheck(isfinite(d->max) && d->max >= d->min, comm, PETSC_ERR_USER_INPUT,
               "%s_radius_max = %g must be finite and at least %s_radius_min = %g", pre, (double)d->max, pre,
               (double)d->min);
    break;
  case RADIUS_NORMAL:
  case RADIUS_LOGNORMAL: {
    PetscBool logn = d->type == RADIUS_LOGNORMAL ? PETSC_TRUE : PETSC_FALSE;
    PetscReal mass;
    PetscCheck(isfinite(d->min) && d->min > 0, comm, PETSC_ERR_USER_INPUT,
               "%s_radius_min = %g must be a positive radius (the %s law is truncated to [min, max])", pre,
               (double)d->min, RadiusDistributionTypes[d->type]);
    PetscCheck(isfinite(d->max) && d->max > d->min, comm, PETSC_ERR_USER_INPUT,
               "%s_radius_max = %g must be finite and above %s_radius_min = %g (the %s law is truncated to [min, max])",
               pre, (double)d->max, pre, (double)d->min, RadiusDistributionTypes[d->type]);
    PetscCheck(isfinite(d->mean) && d->mean > 0, comm, PETSC_ERR_USER_INPUT,
               "%s_radius_mean = %g must be positive (%s)", pre, (double)d->mean,
               logn ? "the median radius of the lognormal law" : "the mean radius of the normal law");
    PetscCheck(isfinite(d->sigma) && d->sigma > 0, comm, PETSC_ERR_USER_INPUT,
               "%s_radius_sigma = %g must be positive (%s)", pre, (double)d->sigma,
               logn ? "the standard deviation of ln r" : "the standard deviation of r");
    if (logn) mass = NormalMass((log(d->min) - log(d->mean)) / d->sigma, (log(d->max) - log(d->mean)) / d->sigma);
    else mass = NormalMass((d->min - d->mean) / d->sigma, (d->max - d->mean) / d->sigma);
    PetscCheck(mass >= RADIUS_MIN_MASS, comm, PETSC_ERR_USER_INPUT,
               "%s_radius_min = %g and %s_radius_max = %g keep only %.3g%% of the %s law with %s_radius_mean = %g, "
               "%s_radius_sigma = %g: at least %g%% is "
               "needed",
               pre, (double)d->min, pre, (double)d->max, (double)(100 * mass), RadiusDistributionTypes[d->type], pre,
               (double)d->mean, pre, (double)d->sigma, 100 * RADIUS_MIN_MASS);
  } break;
  case RADIUS_DISCRETE: {
    PetscReal sum = 0;
    PetscCheck(d->ndiscrete >= 1 && d->ndiscrete <= 16, comm, PETSC_ERR_USER_INPUT,
               "%s_radius_values has %" PetscInt_FMT " radii: 1 to 16 are allowed", pre, d->ndiscrete);
    for (PetscInt i = 0; i < d->ndiscrete; i++) {
      PetscCheck(isfinite(d->values[i]) && d->values[i] > 0, comm, PETSC_ERR_USER_INPUT,
                 "%s_radius_values entry %" PetscInt_FMT " = %g must be a positive radius", pre, i + 1,
                 (double)d->values[i]);
      PetscCheck(isfinite(d->weights[i]) && d->weights[i] >= 0, comm, PETSC_ERR_USER_INPUT,
                 "%s_radius_weights entry %" PetscInt_FMT " = %g must be a non-negative weight", pre, i + 1,
                 (double)d->weights[i]);
      sum += d->weights[i];
    }
    PetscCheck(sum > 0 && isfinite(sum), comm, PETSC_ERR_USER_INPUT,
               "%s_radius_weights must have a positive, finite sum (got %g)", pre, (double)sum);
  } break;
  default:
    SETERRQ(comm, PETSC_ERR_USER_INPUT, "unknown radius distribution type %d", (int)d->type);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RadiusDistributionDraw(const RadiusDistribution *d, PetscInt64 seed, PetscInt64 id, PetscReal *r)
{
  PetscFunctionBeginUser;
  switch (d->type) {
  case RADIUS_UNIFORM:
    *r = d->min + (d->max - d->min) * RandomUniform(seed, id, RANDOM_STREAM_RADIUS, 0);
    /* rounding of min + (max - min) u could step past max */
    if (*r > d->max) *r = d->max;
    break;
  case RADIUS_NORMAL:
  case RADIUS_LOGNORMAL: {
    PetscInt k;
    for (k = 0; k < RADIUS_MAX_TRIES; k++) {
      PetscReal z = RandomNormal(seed, id, RANDOM_STREAM_RADIUS, k);
      *r          = d->type == RADIUS_NORMAL ? d->mean + d->sigma * z : d->mean * exp(d->sigma * z);
      if (*r >= d->min && *r <= d->max) break;
    }
    PetscCheck(k < RADIUS_MAX_TRIES, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
               "particle %" PetscInt64_FMT ": no %s radius inside [-insert_radius_min, -insert_radius_max] = [%g, %g] "
               "in %d draws (was RadiusDistributionCheck called?)",
               id, RadiusDistributionTypes[d->type], (double)d->min, (double)d->max, RADIUS_MAX_TRIES);
  } break;
  case RADIUS_DISCRETE: {
    PetscReal sum = 0, c = 0, u;
    PetscInt  pick = -1;
    for (PetscInt i = 0; i < d->ndiscrete; i++) sum += d->weights[i];
    u = RandomUniform(seed, id, RANDOM_STREAM_RADIUS, 0) * sum;
    /* strict < never picks a zero weight; the same summation order makes the last c equal sum */
    for (PetscInt i = 0; i < d->ndiscrete && pick < 0; i++) {
      c += d->weights[i];
      if (u < c) pick = i;
    }
    for (PetscInt i = d->ndiscrete - 1; i >= 0 && pick < 0; i--)
      if (d->weights[i] > 0) pick = i;
    PetscCheck(pick >= 0, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "-insert_radius_weights are all zero");
    *r = d->values[pick];
  } break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "unknown radius distribution type %d", (int)d->type);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal RadiusDistributionMax(const RadiusDistribution *d)
{
  PetscReal m = 0;
  if (d->type != RADIUS_DISCRETE) return d->max;
  for (PetscInt i = 0; i < d->ndiscrete; i++)
    if (d->weights[i] > 0 && d->values[i] > m) m = d->values[i];
  return m;
}
