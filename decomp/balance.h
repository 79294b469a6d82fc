/* Load balance by moving the process grid's cuts (LAMMPS's "balance shift"):
 * along each cut axis the slabs are resized so that each carries an equal
 * share of the ranks' cost (owned particles, or busy seconds), assuming the
 * cost spread evenly over each slab; or by recursive coordinate bisection
 * of the particles weighted by their rank's cost per particle (LAMMPS's
 * "balance rcb"), which makes the grid a tree of boxes anywhere in the
 * domain.  Results do not depend on where the cuts are (the pairs and their
 * sums are canonical), only the speed does. */
#ifndef HDEM_BALANCE_H
#define HDEM_BALANCE_H

#include "decomp/grid.h"
#include "decomp/fields.h"
#include "decomp/balance_rcb.h"

typedef enum {
  BALANCE_NONE,  /* equal slabs throughout */
  BALANCE_COUNT, /* equal owned particles */
  BALANCE_TIME,  /* equal busy time (uneven densities, contacts and cores alike) */
  BALANCE_RCB    /* a tree of bisections of the particles weighted by BalanceWeight */
} BalanceMode;
PETSC_EXTERN const char *const BalanceModes[];

/* What a particle weighs in the rcb mode: its rank's busy time per owned particle, or one. */
typedef enum {
  BALANCE_WEIGHT_TIME,
  BALANCE_WEIGHT_COUNT
} BalanceWeight;
PETSC_EXTERN const char *const BalanceWeights[];

/* New cuts (n + 1, ends kept) for n slabs between cuts old[] whose costs
 * are cost[]: each inner cut moves the fraction frac (0, 1] of the way to
 * where the cumulative cost, linear within each slab, is cut into n equal
 * parts, and at most half of what its narrower neighbour slab has beyond
 * wmin, so every slab stays at least wmin wide and no point changes by more
 * than one slab (migration is one hop). */
PETSC_EXTERN void BalanceShiftCuts(PetscMPIInt n, const PetscReal cost[], const PetscReal old[], PetscReal wmin,
                                   PetscReal frac, PetscReal cuts[]);

/* GridBalance's frac: measured times carry noise (on a shared node, a
 * neighbour's burst), so each balance goes half way; a lasting imbalance
 * still halves at every balance. */
#define BALANCE_FRACTION 0.5

/* Collective: cost is this rank's.  When the largest rank cost exceeds the
 * mean by more than threshold (a ratio >= 1), every cut axis is shifted
 * (BalanceShiftCuts, on rank 0 from the costs in rank order, then broadcast,
 * so every rank holds the same bits).  Gives the ratio max / mean before and
 * whether any cut moved. */
PETSC_EXTERN PetscErrorCode GridBalance(Grid *, PetscReal cost, PetscReal wmin, PetscReal threshold,
                                        PetscReal *imbalance, PetscBool *moved);

/* A run's balancer: when and by which cost the cuts move, and what it did. */
typedef struct {
  BalanceMode    mode;
  BalanceWeight  weight;          /* the rcb mode's */
  PetscInt       interval;        /* steps between balances (each at the next list rebuild) */
  PetscReal      threshold;       /* largest rank cost over the mean that is left alone */
  PetscInt64     step;            /* of the last balance */
  PetscLogDouble t0, wait0;       /* the wall clock and the waits then (time mode) */
  PetscInt       moves;           /* balances that moved cuts */
  PetscReal      imbalance;       /* largest rank cost over the mean at the last balance (1: none measured) */
  PetscReal      imbalance_first; /* owned particles at the first rcb balance, before it (1: none) */
  PetscBool      restored;        /* the tree came from a checkpoint */
  PetscInt64     start;           /* the step this run began at (set-up or restart): the ramp counts from it */
  PetscReal      count;           /* particles on all ranks at the last balance */
  PetscReal      owned;           /* largest owned count over the mean at the last step (count weights) */
  PetscReal      reached;         /* that ratio at the first step after the last balance (1: none yet) */
  PetscBool      fresh;           /* a balance ran and its ratio is still to be seen */
} Balancer;

/* After a run begins (set-up or restart) the balance comes every
 * BALANCE_RAMP_INTERVAL steps (or interval, if shorter) for
 * BALANCE_RAMP_STEPS steps: the first tree of a box that streams fill is
 * made from few particles or none, and a restored one is of the old run. */
#define BALANCE_RAMP_STEPS    100
#define BALANCE_RAMP_INTERVAL 10

/* Time mode, every 100 steps, above 1.05. */
PETSC_EXTERN void BalancerDefaults(Balancer *);
/* Start of a balance interval at step, with the waits so far (seconds spent waiting for other ranks). */
PETSC_EXTERN PetscErrorCode BalancerMark(Balancer *, PetscInt64 step, PetscLogDouble wait);
/* Collective: the start of a run at step (set-up or restart), with the waits so far: the ramp begins. */
PETSC_EXTERN PetscErrorCode BalancerStart(Balancer *, const Grid *, const FieldStore *, PetscInt64 step,
                                          PetscLogDouble wait);
/* Whether a balance is due at step with present particles on all ranks (the same on every rank): interval
 * steps since the last, or the ramp's interval within its steps of the start, or present off the count at the
 * last balance by more than a factor threshold (a stream's batch, an outflow); grown says the last.  Weighing by
 * count, also when the owned counts have drifted: their largest over the mean beyond threshold times what the
 * last balance reached (particles crossing the cuts between balances). */
PETSC_EXTERN PetscBool BalancerDue(const Balancer *, PetscInt64 step, PetscReal present, PetscBool *grown);
/* Collective: when a balance is due (BalancerDue), moves the cuts (GridBalance, or a new tree) by this rank's
 * cost (its owned rows, or the interval's wall time less its waits; the rows when the count changed, since the
 * time measured was of the particles before) and marks again.  Slabs stay at least wmin wide.  The rows of st
 * are placed by their homes. */
PETSC_EXTERN PetscErrorCode BalancerApply(Balancer *, Grid *, const FieldStore *, PetscInt64 step, PetscLogDouble wait,
                                          PetscReal wmin, PetscReal present);
/* Whether the balance weighs by owned count on more than one rank: the step's reduction then carries the
 * largest owned count for BalancerObserve. */
PETSC_EXTERN PetscBool BalancerWatches(const Balancer *, PetscMPIInt size);
/* The step's largest owned count over the mean (the same on every rank). */
PETSC_EXTERN void BalancerObserve(Balancer *, PetscReal ratio);
/* Collective, in the rcb mode on more than one rank, unless a tree was
 * restored: the first tree, from the n points at x, x + stride, ... by
 * count (nothing measured yet). */
PETSC_EXTERN PetscErrorCode BalancerFirst(Balancer *, Grid *, PetscInt n, const PetscReal *x, PetscInt stride);
/* BalancerFirst from the homes of st's rows. */
PETSC_EXTERN PetscErrorCode BalancerFirstRows(Balancer *, Grid *, const FieldStore *);

#endif
