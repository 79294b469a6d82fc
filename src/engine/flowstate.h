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

typedef struct {
  PetscBool on;
  PetscReal lo[3], hi[3]; /* a particle whose centre enters is removed */
} Outflow;

/* The flow keys, for flow.csv and for whoever writes rows at its cadence
 * (output/flow.h FlowRowDue). */
typedef struct {
  PetscInt  nedges;                /* diameter classes: nedges + 1 */
  PetscReal edges[FLOW_EDGES_MAX]; /* class c holds edges[c-1] <= d < edges[c] [m] */
  PetscInt  interval_steps;        /* rows every this many steps; 0: with every thermo row */
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
} FlowState;

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
} Flow;

#endif
