#include "engine/moisture.h"
#include "contact/liquid.h"
#include "decomp/collective.h"

PetscErrorCode EngineLiquidFill(Engine *e, PetscInt i0, PetscInt i1, ExactSum *total)
{
  Particles *p = &e->p;
  PetscInt   i = i0;

  PetscFunctionBeginUser;
  if (!p->liquid) PetscFunctionReturn(PETSC_SUCCESS);
  while (i < i1) {
    const Material *mat = ContactMaterialOf(&e->model, p->type[i]);
    PetscInt        j   = i + 1;
    PetscReal       sum = 0.0, L;
    if (!(p->flags[i] & PARTICLE_MEMBER)) {
      p->liquid[i] = LiquidOfParticle(&e->model.liquid, mat, p->mass[i]);
      i++;
      continue;
    }
    while (j < i1 && (p->flags[j] & PARTICLE_MEMBER) && p->body[j] == p->body[i]) j++;
    for (PetscInt q = i; q < j; q++) sum += p->radius[q] * p->radius[q] * p->radius[q];
    L = LiquidOfParticle(&e->model.liquid, mat, p->bm[i]);
    for (PetscInt q = i; q < j; q++)
      p->liquid[q] = mat->moisture > 0.0 ? L * (p->radius[q] * p->radius[q] * p->radius[q] / sum) : mat->liquid;
    i = j;
  }
  for (PetscInt r = i0; total && r < i1; r++) ExactSumAdd(total, p->liquid[r]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode EngineMoistureSetUp(MPI_Comm comm, Engine *e, const Insertion *ins, PetscBool fill, PetscBool fresh)
{
  Liquid   *lq  = &e->model.liquid;
  PetscReal r   = 0.0, b, m, q;
  PetscBool wet = PETSC_FALSE;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < MATERIAL_SLOTS; k++)
    if (e->model.mat[k].moisture > 0.0) wet = PETSC_TRUE;
  if (!wet || lq->vmax_set) PetscFunctionReturn(PETSC_SUCCESS);
  if (fill && (ins->mode == INSERTION_LAMMPS || ins->mode == INSERTION_HDF5)) {
    PetscCheck(fresh, comm, PETSC_ERR_USER_INPUT,
               "a moisture content (material_moisture) with a data file fill (insert_file): a restart needs "
               "-contact_liquid_bridge_max, the largest bridge, which the fresh run took from the file's largest "
               "sphere (its banner's \"at most\" volume)");
    r = e->rmax; /* this rank's rows' */
    PetscCall(CollectiveMaxAll(comm, &r, 1));
  } else if (fill) {
    BodyChoiceSizesMax(&ins->body, &e->clumps, RadiusDistributionMax(&ins->rd), &b, &m, &q);
    r = m;
  }
  for (PetscInt k = 0; k < STREAMS_MAX; k++) {
    const Stream *st = &e->flow.streams.s[k];
    if (!st->on) continue;
    BodyChoiceSizesMax(&st->body, &e->clumps, st->rmax, &b, &m, &q);
    r = PetscMax(r, m);
  }
  LiquidSetLargest(&e->model, r);
  PetscFunctionReturn(PETSC_SUCCESS);
}
