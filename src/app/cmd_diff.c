/* hdem diff A.h5 B.h5: compare two particle states by id, bitwise, and print
 * the largest differences as JSON (the check behind "same result on any
 * number of ranks"). */
#include "app/commands.h"
#include "io/h5state.h"
#include "io/json.h"
#include "decomp/collective.h"

typedef struct {
  PetscInt    n;
  PetscInt64 *id;
  int32_t    *type;
  PetscInt   *perm;
  PetscReal  *radius, *x, *v, *w, *f, time;
  PetscInt64  step;
} State;

static const State *sort_state;
static int          ById(const void *a, const void *b)
{
  PetscInt64 x = sort_state->id[*(const PetscInt *)a], y = sort_state->id[*(const PetscInt *)b];
  return x < y ? -1 : (x > y);
}

static PetscErrorCode StateLoad(const char *path, State *s)
{
  PetscFunctionBeginUser;
  PetscCall(H5StateRead(PETSC_COMM_SELF, path, &s->n, &s->id, &s->type, &s->radius, &s->x, &s->v, &s->w, &s->f,
                        &s->time, &s->step));
  PetscCall(PetscMalloc1(s->n + 1, &s->perm));
  for (PetscInt i = 0; i < s->n; i++) s->perm[i] = i;
  sort_state = s;
  if (s->n > 1) qsort(s->perm, (size_t)s->n, sizeof(PetscInt), ById);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StateFree(State *s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(s->perm));
  PetscCall(PetscFree(s->id));
  PetscCall(PetscFree(s->type));
  PetscCall(PetscFree(s->radius));
  PetscCall(PetscFree(s->x));
  PetscCall(PetscFree(s->v));
  PetscCall(PetscFree(s->w));
  PetscCall(PetscFree(s->f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CommandDiff(MPI_Comm comm, const char *a, const char *b, int *status)
{
  PetscMPIInt rank;
  State       A, B;
  PetscReal   dmax[5]   = {0, 0, 0, 0, 0};
  PetscInt64  nbits     = 0;
  PetscBool   ids_equal = PETSC_TRUE;
  PetscInt64  first[8];
  PetscInt    nfirst = 0;

  PetscFunctionBeginUser;
  *status = 0;
  PetscCheck(a && b, comm, PETSC_ERR_USER_INPUT, "usage: hdem diff A.h5 B.h5");
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(StateLoad(a, &A));
  PetscCall(StateLoad(b, &B));
  if (A.n != B.n) ids_equal = PETSC_FALSE;
  for (PetscInt k = 0; ids_equal && k < A.n; k++) {
    PetscInt         i = A.perm[k], j = B.perm[k];
    const PetscReal *fa[5] = {A.x, A.v, A.w, A.f, A.radius}, *fb[5] = {B.x, B.v, B.w, B.f, B.radius};
    if (A.id[i] != B.id[j]) {
      ids_equal = PETSC_FALSE;
      break;
    }
    for (int q = 0; q < 5; q++)
      for (int c = 0; c < (q < 4 ? 3 : 1); c++) {
        PetscInt  s  = q < 4 ? 3 : 1;
        PetscReal va = fa[q][s * i + c], vb = fb[q][s * j + c];
        if (memcmp(&va, &vb, sizeof(va))) {
          if (nfirst < 8 && (nfirst == 0 || first[nfirst - 1] != A.id[i])) first[nfirst++] = A.id[i];
          nbits++;
        }
        dmax[q] = PetscMax(dmax[q], PetscAbsReal(va - vb));
      }
  }
  {
    JsonWriter w;
    JsonBegin(&w, stdout);
    JsonBool(&w, "identical",
             ids_equal && nbits == 0 && A.step == B.step && A.time == B.time ? PETSC_TRUE : PETSC_FALSE);
    *status = ids_equal && nbits == 0 && A.step == B.step && A.time == B.time ? 0 : 1; /* as cmp(1) */
    JsonBool(&w, "same_ids", ids_equal);
    JsonInt(&w, "particles", A.n);
    JsonInt(&w, "values_differing", nbits);
    JsonReal(&w, "max_diff_position", dmax[0]);
    JsonReal(&w, "max_diff_velocity", dmax[1]);
    JsonReal(&w, "max_diff_angular_velocity", dmax[2]);
    JsonReal(&w, "max_diff_force", dmax[3]);
    fprintf(stdout, ",\n  \"first_differing_ids\": [");
    for (PetscInt k = 0; k < nfirst; k++) fprintf(stdout, "%s%lld", k ? ", " : "", (long long)first[k]);
    fprintf(stdout, "]");
    JsonInt(&w, "step_a", A.step);
    JsonInt(&w, "step_b", B.step);
    JsonEnd(&w);
    printf("\n");
  }
  PetscCall(StateFree(&A));
  PetscCall(StateFree(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}
