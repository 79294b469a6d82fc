/* The reader's shares gathered back on every rank (lammps_gather.h). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "check_main.h"
#include "lammps_gather.h"

/* Every rank's share of the atoms on every rank, in file order (the reader
 * leaves each rank the atoms of ids id % size == rank): n values of width w
 * of each rank gathered, placed by index. */
static void *GatherField(const void *src, int n, int w, MPI_Datatype type, size_t elsize, const PetscInt64 *index,
                         int total)
{
  int    size, *cnt, *dsp, *ncnt;
  char  *all, *out;
  size_t rec = (size_t)w * elsize;

  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  cnt  = malloc(sizeof(int) * size);
  ncnt = malloc(sizeof(int) * size);
  dsp  = malloc(sizeof(int) * size);
  MPI_Allgather(&n, 1, MPI_INT, ncnt, 1, MPI_INT, PETSC_COMM_WORLD);
  for (int r = 0, o = 0; r < size; o += ncnt[r], r++) cnt[r] = ncnt[r] * w, dsp[r] = o * w;
  all = malloc(rec * (size_t)total + 1);
  out = malloc(rec * (size_t)total + 1);
  MPI_Allgatherv(src, n * w, type, all, cnt, dsp, type, PETSC_COMM_WORLD);
  for (int k = 0; k < total; k++) memcpy(out + rec * (size_t)index[k], all + rec * (size_t)k, rec);
  free(all), free(cnt), free(ncnt), free(dsp);
  return out;
}

void LammpsDataGatherAll(LammpsData *d)
{
  int         total, n = (int)d->n;
  PetscInt64 *index, *id, *mol = NULL;
  PetscInt   *type;
  PetscReal  *dia, *den, *x, *v, *w;

  MPI_Allreduce(&n, &total, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  ck_assert_int_eq(total, (int)d->ntotal);
  /* each atom's place in the file, in the order the ranks hold them */
  {
    PetscInt64 *place = malloc(sizeof(PetscInt64) * (size_t)total + 1);
    int         size, *ncnt, o = 0;
    MPI_Comm_size(PETSC_COMM_WORLD, &size);
    ncnt = malloc(sizeof(int) * size);
    MPI_Allgather(&n, 1, MPI_INT, ncnt, 1, MPI_INT, PETSC_COMM_WORLD);
    {
      int *dsp = malloc(sizeof(int) * size);
      for (int r = 0; r < size; o += ncnt[r], r++) dsp[r] = o;
      MPI_Allgatherv(d->index, n, MPI_INT64_T, place, ncnt, dsp, MPI_INT64_T, PETSC_COMM_WORLD);
      free(dsp);
    }
    free(ncnt);
    {
      char *hit = calloc((size_t)total + 1, 1);
      for (int k = 0; k < total; k++) { /* each place once */
        ck_assert(place[k] >= 0 && place[k] < total && !hit[place[k]]);
        hit[place[k]] = 1;
      }
      free(hit);
    }
    index = GatherField(d->index, n, 1, MPI_INT64_T, sizeof(PetscInt64), place, total);
    id    = GatherField(d->id, n, 1, MPI_INT64_T, sizeof(PetscInt64), place, total);
    type  = GatherField(d->type, n, 1, MPIU_INT, sizeof(PetscInt), place, total);
    dia   = GatherField(d->diameter, n, 1, MPI_DOUBLE, sizeof(PetscReal), place, total);
    den   = GatherField(d->density, n, 1, MPI_DOUBLE, sizeof(PetscReal), place, total);
    x     = GatherField(d->x, n, 3, MPI_DOUBLE, sizeof(PetscReal), place, total);
    v     = GatherField(d->v, n, 3, MPI_DOUBLE, sizeof(PetscReal), place, total);
    w     = GatherField(d->w, n, 3, MPI_DOUBLE, sizeof(PetscReal), place, total);
    if (d->mol) mol = GatherField(d->mol, n, 1, MPI_INT64_T, sizeof(PetscInt64), place, total);
    free(place);
  }
  {
    LammpsData g = *d;
    g.n          = total;
    ck_assert_int_eq(PetscMalloc6(total + 1, &g.id, total + 1, &g.type, total + 1, &g.diameter, total + 1, &g.density,
                                  3 * total + 1, &g.x, total + 1, &g.index),
                     0);
    ck_assert_int_eq(PetscMalloc2(3 * total + 1, &g.v, 3 * total + 1, &g.w), 0);
    g.mol = NULL;
    if (mol) ck_assert_int_eq(PetscMalloc1(total + 1, &g.mol), 0);
    for (int k = 0; k < total; k++) {
      g.id[k] = id[k], g.type[k] = type[k], g.diameter[k] = dia[k], g.density[k] = den[k], g.index[k] = index[k];
      for (int j = 0; j < 3; j++)
        g.x[3 * k + j] = x[3 * k + j], g.v[3 * k + j] = v[3 * k + j], g.w[3 * k + j] = w[3 * k + j];
      if (mol) g.mol[k] = mol[k];
    }
    ck_assert_int_eq(LammpsDataDestroy(d), 0);
    *d = g;
  }
  free(index), free(id), free(type), free(dia), free(den), free(x), free(v), free(w), free(mol);
}
