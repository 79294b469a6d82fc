/* What moves particles.  The sphere integrator and the rigid-body step are
 * two implementations of one interface, as LAMMPS's fixes implement
 * initial_integrate, post_force and final_integrate: a new kind of motion (a
 * prescribed-motion group, bonded particles) is one more file.  The engine
 * holds its movers in the order they were added (spheres first) and calls
 * them
 *  - forward for the first half of a step (open) and the checks before a
 *    rebuild (sync), after a migration (migrated), the rebuild test
 *    (may_pass) and the energies;
 *  - backward for what closes a step: completing the force sums (complete),
 *    the acceleration bound (accel) and the second half (close).  A later
 *    mover's rows are read by an earlier one's pass (the spheres' pass clears
 *    every row's force sums), so it closes first.
 * Rows a mover moves are PARTICLE_STILL to the others. */
#ifndef HDEM_MOVER_H
#define HDEM_MOVER_H

#include "particles/integrator.h"
#include "decomp/exactsum.h"

/* What a mover sees of the step. */
typedef struct {
  Particles       *p;
  const PetscReal *gravity;   /* [3] */
  PetscReal        half_skin; /* no particle moves more between list builds without a rebuild */
  PetscInt         claimed;   /* owned rows moved by other movers than the spheres' (all: the spheres' is idle) */
  PetscBool        cleared;   /* out of open and close: every row's f and t were left +0 */
  PetscReal       *ke;        /* close adds its rows' kinetic energy here, a plain sum (NULL: not wanted) */
} MoverContext;

/* Whether other movers move every owned row: the spheres' mover is idle, and nothing runs between a close and an
 * open of the others. */
static inline PetscBool MoverSpheresIdle(const MoverContext *c)
{
  return c->claimed >= c->p->n ? PETSC_TRUE : PETSC_FALSE;
}

/* The force pass's end (complete): each mover bounds the next step by its
 * rows' motion against half the skin when need, strictly shorter bounds
 * winning in the movers' order. */
typedef struct {
  PetscBool need;      /* the bound is wanted (adaptive steps, or a fixed step's look every 100) */
  PetscBool gravity;   /* add m g to the sums now (else the second half does: IntegratorCloseStep's g) */
  PetscReal bound;     /* in and out */
  PetscInt  who;       /* the row that set a kinematic bound */
  PetscBool kinematic; /* a mover's bound won */
  PetscReal amax;      /* the largest acceleration seen, kept if larger */
} MoverBound;

typedef struct _MoverOps MoverOps;
typedef struct {
  const MoverOps *ops;
  void           *data;
} Mover;

struct _MoverOps {
  const char *name;
  /* the first half: kick by dt / 2, drift, predictions; gravity's work over the drift added to *work (untouched
   * when the mover has nothing to move) */
  void (*open)(Mover *, MoverContext *, PetscReal dt, PetscReal *work);
  /* the second half by dt / 2 (g: gravity still to add, else NULL) and the rebuild bits for a next step of at most
   * rb->dt_up, displacements folded into lo, hi.  With ahead (not NULL) a mover may take the next step's first half
   * in the same pass: it says so by setting *opened, and adds gravity's work to ahead->work */
  PetscInt (*close)(Mover *, MoverContext *, PetscReal dt, const PetscReal *g, const IntegratorRebuild *rb,
                    PetscReal lo[3], PetscReal hi[3], IntegratorOpen *ahead, PetscBool *opened);
  PetscInt (*may_pass)(Mover *, MoverContext *, const IntegratorRebuild *, PetscReal lo[3], PetscReal hi[3]);
  void (*complete)(Mover *, MoverContext *, MoverBound *);
  void (*accel)(Mover *, MoverContext *, PetscReal *amax); /* the largest acceleration of its rows, kept if larger */
  void (*energy)(Mover *, MoverContext *, ExactSum *ke, ExactSum *kr);
  void (*sync)(Mover *, MoverContext *);                                /* before a rebuild reads the rows' homes */
  PetscErrorCode (*migrated)(Mover *, MoverContext *, PetscInt *claim); /* rows arrived, left, were made or removed */
  PetscErrorCode (*destroy)(Mover *);
};

PETSC_EXTERN PetscErrorCode MoverDestroy(Mover *);

#endif
