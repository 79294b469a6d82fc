/* What the engine holds of streams, outflows and flow.csv: the deck's
 * settings and the counters a checkpoint keeps (FlowState).  The work is
 * in engine/flow.h. */
#ifndef HDEM_FLOWSTATE_H
#define HDEM_FLOWSTATE_H

#include "insert/stream.h"
#include "decomp/exactsum.h"

#define OUTFLOWS_MAX       8 /* outflow0 .. outflow7 */
#define FLOW_ENERGY_IN     0 /* FlowState energy: the streams' kinetic energy */
#define FLOW_ENERGY_OUT    1 /* the outflows' */
#define FLOW_ENERGY_LEDGER 2 /* then the removed particles' ledger work, by term, gravity last */
#define FLOW_ENERGY_TERMS  8
#define FLOW_EDGES_MAX     15
#define FLOW_CLASSES_MAX   (FLOW_EDGES_MAX + 1)
#define FLOW_BINS_MAX      1000 /* outflowN_bin_count */
/* Residence times are counted on fixed log-spaced bins, FLOW_RES_PER_DECADE
 * a decade from 10^FLOW_RES_DECADE_LO s over FLOW_RES_DECADES decades (the
 * first and last bins take what lies beyond): exact counts, so quantiles
 * do not depend on the rank count. */
#define FLOW_RES_PER_DECADE 200
#define FLOW_RES_DECADE_LO  (-5)
#define FLOW_RES_DECADES    10
#define FLOW_RES_BINS       (FLOW_RES_PER_DECADE * FLOW_RES_DECADES)

typedef struct {
  PetscBool on;
  PetscBool remove;       /* else a counter: the particle is counted once and stays */
  PetscReal lo[3], hi[3]; /* a particle whose centre enters is removed (or counted) */
  PetscInt  bin_axis;     /* -1: no bins, else the axis its removals are binned along */
  PetscReal bin_lo, bin_hi;
  PetscInt  nbin;
} Outflow;

/* The flow keys, for flow.csv and for whoever writes rows at its cadence
 * (output/flow.h FlowRowDue). */
typedef enum {
  FLOW_SIZE_VOLUME, /* a particle's size: its volume-equivalent diameter */
  FLOW_SIZE_SIEVE   /* its sieve size (rigid/sieve_size.h): a sphere's diameter, a body's smallest square aperture */
} FlowSizeMeasure;

typedef struct {
  PetscInt        nedges;                /* size classes: nedges + 1 */
  FlowSizeMeasure measure;               /* the size the classes sort by */
  PetscReal       edges[FLOW_EDGES_MAX]; /* class c holds edges[c-1] <= size < edges[c] [m] */
  PetscInt        interval_steps;        /* rows every this many steps; 0: with every thermo row */
  PetscBool       residence;             /* residence times of the outflows' particles (residence.csv) */
} FlowSettings;

/* The counters: everything a checkpoint must keep for a restart to go on
 * bitwise.  Stream arrays are indexed by N of streamN, the same on every
 * rank; outflow arrays by N of outflowN and diameter class, each rank's
 * own removals (FlowStateGlobal sums them). */
typedef struct {
  PetscInt64 next_id;          /* the id of the next particle a stream makes */
  PetscInt64 seq[STREAMS_MAX]; /* sequence numbers used (inserted or found no room) */
  PetscInt64 inserted[STREAMS_MAX];
  ExactSum   inserted_mass[STREAMS_MAX]; /* [kg] */
  PetscInt64 shortfall[STREAMS_MAX];     /* due but not inserted, at the last insertion */
  PetscReal  t_insert[STREAMS_MAX];      /* time of the last insertion (start_time before the first) */
  PetscInt64 warned[STREAMS_MAX];        /* the shortfall was warned of (once) */
  PetscInt64 removed[OUTFLOWS_MAX][FLOW_CLASSES_MAX];
  ExactSum   removed_mass[OUTFLOWS_MAX][FLOW_CLASSES_MAX]; /* [kg] */
  /* the sum of removed[][]: the step's particle count check */
  PetscInt64 removed_local;
  /* the energy ledger's: kinetic energy the streams brought and the outflows
   * took, and the ledger's work terms (LedgerTerm, gravity last) of the
   * particles the outflows took [J] */
  ExactSum energy[FLOW_ENERGY_TERMS];
  /* wet runs, each rank's own: the liquid the streams' particles brought,
   * and the liquid each outflow took (its particles' own and their halves
   * of their bridges; a counter's: its counted particles' own) [m^3] */
  ExactSum inserted_liquid[STREAMS_MAX];
  ExactSum removed_liquid[OUTFLOWS_MAX];
} FlowState;

/* The outflows' statistics beyond FlowState, sized by the deck: per outflow
 * with bins, class and bin the count and mass (bin row bin0[k] + c nbin + b);
 * with residence, per outflow on and class (row slot[k] + c) the
 * counts of FLOW_RES_BINS residence bins, the exact sum, least and largest
 * residence time [s].  Each rank's own, summed as FlowState's
 * (FlowStatsTotals); checkpointed with it. */
typedef struct {
  PetscInt    nclass;
  PetscInt    bin0[OUTFLOWS_MAX], nbins;
  PetscInt64 *count;
  ExactSum   *mass;
  PetscInt    slot[OUTFLOWS_MAX], nres;
  PetscInt64 *hist;
  ExactSum   *tsum;
  PetscReal  *tmin, *tmax;
} FlowStats;

typedef struct {
  Streams      streams;
  Outflow      outflow[OUTFLOWS_MAX];
  PetscInt     noutflow;
  FlowSettings settings;
  /* an insertion step's longest: the contact bound of two of the smallest new particles */
  PetscReal dt_cap;
  PetscBool on; /* some stream or outflow */
  /* the next rebuild inserts (EngineFlowDue); derived from the state, time and step */
  PetscBool insert_next;
  FlowState state;
  FlowStats stats;
  PetscBool counters; /* some outflow counts without removing */
  PetscBool liquid;   /* a wet run: the liquid the flow brings and takes is counted (FlowState) */
  /* particle fields, where the deck needs them (FlowAddFields): the time
   * each particle came (0 for the initial fill) [s]; the counters that
   * have counted it (bit N: outflowN) */
  PetscReal *t_in;
  LocalInt  *seen;
} Flow;

#endif
