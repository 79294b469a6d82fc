/* Contacts that were already touching at the last step, under any normal
 * law, damping and separation and a constant or Mindlin tangential spring
 * (shear displacement or incremental) or none, evaluated CONTACT_LANES at a
 * time.
 *
 * A contact's arithmetic is a chain of some six roots and divisions, whose
 * latency, not its throughput, bounds one contact at a time; lanes take
 * independent contacts through the chain together.  Each lane performs the
 * operations of ContactEvaluate in their order (IEEE +, -, *, /, sqrt, no
 * contraction), so it gives the scalar bits; branches become per-lane
 * selections between results both computed.  First touches (their impulse
 * weighting) and separations stay with the scalar code: a pair that touched
 * is batched before its overlap is known, and reported back when apart. */
#ifndef HDEM_CONTACT_BATCH_H
#define HDEM_CONTACT_BATCH_H

#include "contact/contact.h"

#define CONTACT_LANES 4
#define CONTACT_BATCH 128 /* contacts gathered before an evaluation: a multiple of CONTACT_LANES */
/* a contact's results: force on i, torques on i and j, the ledger's normal and tangential powers and normal work */
#define CONTACT_RESULTS 12

/* What the kernel takes of the model beyond the pair. */
typedef struct {
  ContactKernelModel km;      /* clipping, friction, Mindlin */
  ContactNormalModel nm;      /* the law and the damping */
  PetscBool          turning; /* the Mindlin-Deresiewicz spring, contact by contact after the lanes' normal force */
  PetscBool          rolling; /* rolling resistance, likewise */
  PetscBool          bound;   /* also give each contact's ddot and U (the step bound needs them) */
} ContactBatchModel;

PETSC_EXTERN ContactBatchModel ContactBatchModelOf(const ContactModel *, PetscBool bound);

/* A pair's constants: of ContactPair, its friction coefficient and what the
 * kernel's Normal takes (kernel.h: m, zs, cF, ca, cb, cc, dmp), each formed
 * as the leading operation of its expression in the generic path, so the
 * same bits; what rolling reads of the pair (Rstar, Ir, co). */
typedef struct {
  PetscReal           s, ri, rj, kc, gc, zs, cF, mu, m, ca, cb, cc, Rstar, Ir;
  const Damping      *dmp;
  const ContactCoeff *co;
} ContactBatchConst;

PETSC_EXTERN void ContactBatchConstOf(const ContactModel *, const ContactPair *, ContactBatchConst *);

typedef struct {
  PetscInt n;
  /* the pair: particle indices, its history, where its result goes */
  LocalInt k[CONTACT_BATCH], i[CONTACT_BATCH], j[CONTACT_BATCH], slot[CONTACT_BATCH], out[CONTACT_BATCH];
  /* separation i - j as the caller formed it, the sum of the radii */
  PetscReal r[3][CONTACT_BATCH], rs[CONTACT_BATCH];
  /* set by the evaluation: the pair is apart now (d <= 0), its history untouched,
   * nothing written; the caller separates it */
  unsigned char apart[CONTACT_BATCH];
  /* set by the evaluation under bound: overlap rate and elastic energy */
  PetscReal ddot[CONTACT_BATCH], U[CONTACT_BATCH];
  /* set by the evaluation under rolling: the rolling power (the ledger's, ContactResult P[2]) */
  PetscReal P2[CONTACT_BATCH];
  /* set by the evaluation (the caller clears it): some contact overlaps by more
   * than CONTACT_OVERLAP_LIMIT of its smaller radius */
  PetscBool deep;
  /* the pair's constants: a row of pool, shared by a run of pairs of the same bodies */
  const ContactBatchConst *c[CONTACT_BATCH];
  ContactBatchConst        pool[CONTACT_BATCH];
  PetscInt                 npool;
  PetscInt64               pool_gen; /* the caller's tag of the last row */
} ContactBatch;

/* Evaluates the batch's contacts (bt->n, kept): updates the histories (and
 * tn, the turning points, under turning, rl, the rolling springs, under
 * rolling, slot for slot) of those still touching and writes, for contact b, force on i, torque on i,
 * torque on j, the two powers (kernel.h; without the ledger not written) and a zero work as CONTACT_RESULTS
 * reals at res + CONTACT_RESULTS out[b]; sets apart[b] for the others.  cd: under the calibrated constant
 * damper, each slot's (v_imp, C) kept by the lanes (HistorySlotsDamp), or NULL.
 * v, vp, w, wp: 3 per particle and one more real after the last (read as
 * rows of four, never used). */
PETSC_EXTERN void ContactBatchEvaluate(const ContactBatchModel *, ContactBatch *, PetscReal dt, const PetscReal *v,
                                       const PetscReal *vp, const PetscReal *w, const PetscReal *wp, ContactHistory *h,
                                       ContactTurning *tn, ContactRolling *rl, PetscReal *cd, PetscReal *res);

#endif
