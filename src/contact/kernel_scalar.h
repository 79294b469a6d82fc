/* The contact kernel (kernel.h) instantiated on reals: ContactScalar*,
 * static inline, for the scalar evaluations (ContactEvaluate, the sphere
 * engine's first touches).  First touches are evaluated here. */
#ifndef HDEM_KERNEL_SCALAR_H
#define HDEM_KERNEL_SCALAR_H

#include "contact/contact.h"
#include "contact/cube_root.h"

#define K_V                  PetscReal
#define K_M                  int
#define K_FN(name)           ContactScalar##name
#define K_SPLAT(c)           ((PetscReal)(c))
#define K_SQRT(a)            sqrt(a)
#define K_POW(a, e)          pow(a, e)
#define K_CBRT(m, a)         CubeRoot(a)
#define K_POW_WHERE(m, a, e) pow(a, e)
#define K_NLANES             1
#define K_LANE(a, l)         ((&(a))[l])
#define K_SELECT(m, a, b)    ((m) ? (a) : (b))
#define K_ANY(m)             (m)
#define K_FIRST_TOUCH        1
#include "contact/kernel.h"

/* The Mindlin-Deresiewicz memory as it is kept (ContactTurning) into the
 * scalar kernel's, and back. */
static inline void ContactScalarTurningFrom(const ContactTurning *t, ContactScalarTurning *s)
{
  for (int a = 0; a < 3; a++) s->ts[a] = t->ts[a], s->tss[a] = t->tss[a], s->dlast[a] = t->dlast[a];
  s->mun = t->mun, s->phase = t->phase;
}

static inline void ContactScalarTurningTo(const ContactScalarTurning *s, ContactTurning *t)
{
  for (int a = 0; a < 3; a++) t->ts[a] = s->ts[a], t->tss[a] = s->tss[a], t->dlast[a] = s->dlast[a];
  t->mun = s->mun, t->phase = s->phase;
}

#undef K_V
#undef K_M
#undef K_FN
#undef K_SPLAT
#undef K_SQRT
#undef K_POW
#undef K_CBRT
#undef K_POW_WHERE
#undef K_NLANES
#undef K_LANE
#undef K_SELECT
#undef K_ANY
#undef K_FIRST_TOUCH

#endif
