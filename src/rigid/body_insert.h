/* What an insertion or a stream makes of each particle it places: a sphere
 * or a multi-sphere body of a template (the <prefix>_body keys), drawn by
 * number fractions, oriented uniformly on SO(3) or as the template is,
 * spinning at a given angular velocity.  Every draw is keyed by the
 * particle's own key (an insertion's item, a stream's sequence number), so
 * what is made does not depend on the rank count.
 *
 * A body's size follows the radius drawn as its volume-equivalent radius:
 * the template is scaled by r / r_equiv. */
#ifndef HDEM_BODY_INSERT_H
#define HDEM_BODY_INSERT_H

#include "particles/particles.h"
#include "rigid/clump_template.h"

#define BODY_CHOICES_MAX 16

typedef enum {
  BODY_ORIENTATION_RANDOM,
  BODY_ORIENTATION_FIXED
} BodyOrientation;
PETSC_EXTERN const char *const BodyOrientations[];

typedef struct {
  PetscInt        n;                        /* choices given; 0: spheres */
  PetscInt        tmpl[BODY_CHOICES_MAX];   /* -1: a sphere, else the template's number */
  PetscReal       weight[BODY_CHOICES_MAX]; /* number fractions, as given */
  BodyOrientation orientation;
  PetscReal       omega[3]; /* initial angular velocity, world frame [rad/s] */
  PetscBool       given;    /* some key was */
} BodyChoice;

/* The keys <prefix>_body, _body_weights, _orientation, _angular_velocity
 * (prefix "-insert", "-stream0"). */
PETSC_EXTERN PetscErrorCode BodyChoiceSetFromOptions(MPI_Comm, const char *prefix, BodyChoice *);
/* The templates named exist (prefix: "-insert", "-stream0", for messages). */
PETSC_EXTERN PetscErrorCode BodyChoiceCheck(MPI_Comm, const char *prefix, const BodyChoice *, const ClumpTemplates *);
/* Whether some choice is a template. */
PETSC_EXTERN PetscBool BodyChoiceHasBodies(const BodyChoice *);
/* The choice for key (-1: a sphere). */
PETSC_EXTERN PetscInt BodyChoiceDraw(const BodyChoice *, PetscInt64 seed, PetscInt64 key);
/* Whether choice c makes a sphere (-1, or a template of one sphere given
 * without a mass): it goes on the sphere engine. */
PETSC_EXTERN PetscBool BodyIsSphere(const ClumpTemplates *, PetscInt c);
/* Spheres the choice c makes (1 for a sphere). */
PETSC_EXTERN PetscInt BodyChoiceSpheres(const ClumpTemplates *, PetscInt c);
/* The spheres each choice makes when every choice makes as many (no
 * choices: 1), else 0: then an item's first id needs every item before it. */
PETSC_EXTERN PetscInt BodyChoiceSpheresEach(const BodyChoice *, const ClumpTemplates *);
/* For radius r: the radius of the sphere that holds the body about its
 * centre (r for a sphere), the largest member radius, and the farthest
 * member centre from the body's centre (0 for a sphere). */
PETSC_EXTERN void BodyChoiceSizes(const ClumpTemplates *, PetscInt c, PetscReal r, PetscReal *bound, PetscReal *rmember,
                                  PetscReal *reach);
/* The largest of BodyChoiceSizes over the choices, for radii up to rmax. */
PETSC_EXTERN void BodyChoiceSizesMax(const BodyChoice *, const ClumpTemplates *, PetscReal rmax, PetscReal *bound,
                                     PetscReal *rmember, PetscReal *reach);

/* Body id0 of template c scaled to volume-equivalent radius r, centre x,
 * velocity v, as owned rows id0 .. id0 + n - 1 of p (ParticlesAddBodies);
 * density where the template has none; the orientation and spin from the
 * choice, keyed by (seed, key). */
PETSC_EXTERN PetscErrorCode BodyAppend(Particles *, const ClumpTemplates *, const BodyChoice *, PetscInt c,
                                       PetscInt64 id0, PetscInt type, PetscReal r, PetscReal density,
                                       const PetscReal x[3], const PetscReal v[3], PetscInt64 seed, PetscInt64 key);

/* Body id0 of template c scaled by l at centre X with velocity V,
 * orientation q (body to world) and spin w (world frame). */
PETSC_EXTERN PetscErrorCode BodyAppendAt(Particles *, const ClumpTemplates *, PetscInt c, PetscInt64 id0, PetscInt type,
                                         PetscReal l, PetscReal density, const PetscReal X[3], const PetscReal V[3],
                                         const PetscReal q[4], const PetscReal w[3]);
/* The body of template t that n = t->n spheres (centres x, 3 n; radii r),
 * in the template's order, are: its scale l, centre X and orientation q,
 * and the largest distance of a sphere (or radius) from the body's. */
PETSC_EXTERN void BodyFit(const ClumpTemplate *t, const PetscReal *x, const PetscReal *r, PetscReal *l, PetscReal X[3],
                          PetscReal q[4], PetscReal *resid);

#endif
