/* Wear and loads on meshes: the keys, each rank's table of touched
 * triangles, and their sums brought to the triangles' share owners
 * (geometry/wear.h). */
#include "geometry/wear.h"
#include "decomp/collective.h"
#include "io/options.h"
#include <math.h>

const char *const WearCellNames[WEAR_CELLS]   = {"normal_impulse", "mean_pressure", "friction_work", "sliding_load",
                                                 "wear_volume",    "wear_depth",    "impact_energy", "contacts"};
const char *const WearTotalNames[WEAR_TOTALS] = {"normal_impulse", "friction_work", "wear_volume", "impact_energy",
                                                 "contacts"};

PetscErrorCode MeshWearKeys(MPI_Comm comm, Mesh *m)
{
  char      key[4][80];
  PetscBool on = PETSC_FALSE, set[4] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
  PetscReal K = 0.0, H = 0.0, vi = INFINITY;

  PetscFunctionBeginUser;
  m->wear = NULL;
  PetscCall(PetscSNPrintf(key[0], sizeof(key[0]), "-%s_wear", m->name));
  PetscCall(PetscSNPrintf(key[1], sizeof(key[1]), "-%s_wear_archard", m->name));
  PetscCall(PetscSNPrintf(key[2], sizeof(key[2]), "-%s_wear_hardness", m->name));
  PetscCall(PetscSNPrintf(key[3], sizeof(key[3]), "-%s_wear_impact_speed", m->name));
  PetscCall(OptionsBool(key[0], "meshN: keep wear and loads per triangle (wear.md); on too when a wear_* key is given",
                        &on, &set[0]));
  PetscCall(OptionsReal(key[1], "meshN: Archard's wear coefficient K: worn volume K Fn s / H", "[-]", 0.0,
                        PETSC_MAX_REAL, RANGE_CLOSED, &K, &set[1]));
  PetscCall(OptionsReal(key[2], "meshN: hardness H of the worn surface (Archard)", "[Pa]", 0.0, PETSC_MAX_REAL,
                        RANGE_OPEN_LO, &H, &set[2]));
  PetscCall(OptionsReal(key[3], "meshN: impacts faster than this add their kinetic energy (inf: none)", "[m/s]", 0.0,
                        INFINITY, RANGE_CLOSED, &vi, &set[3]));
  if (OptionsCollecting()) PetscFunctionReturn(PETSC_SUCCESS);
  for (int k = 1; k < 4; k++) {
    PetscCheck(!(set[0] && !on && set[k]), comm, PETSC_ERR_USER_INPUT, "%s: given with %s false: wear is off", key[k],
               key[0]);
    if (set[k]) on = PETSC_TRUE;
  }
  PetscCheck(!(K > 0.0 && !set[2]), comm, PETSC_ERR_USER_INPUT,
             "%s %g needs %s, the hardness of the worn surface in (0, inf) Pa", key[1], (double)K, key[2]);
  if (!on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscNew(&m->wear));
  m->wear->archard = K, m->wear->hardness = H, m->wear->impact_speed = vi;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshWearDestroy(MeshWear **w)
{
  PetscFunctionBeginUser;
  if (!*w) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*w)->cell));
  PetscCall(PetscFree(*w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscInt WearHash(PetscInt64 tri, PetscInt cap)
{
  uint64_t h = (uint64_t)tri * 0x9e3779b97f4a7c15ull;
  return (PetscInt)((h >> 17) & (uint64_t)(cap - 1));
}

static PetscErrorCode WearSlot(MeshWear *w, PetscInt64 tri, WearCell **c);

/* The table twice as large, every cell kept. */
static PetscErrorCode WearGrow(MeshWear *w)
{
  WearCell *old = w->cell;
  PetscInt  cap = w->cap;

  PetscFunctionBeginUser;
  w->cap = PetscMax(64, 2 * cap), w->n = 0;
  PetscCall(PetscMalloc1(w->cap, &w->cell));
  for (PetscInt k = 0; k < w->cap; k++) w->cell[k].tri = -1;
  for (PetscInt k = 0; k < cap; k++) {
    WearCell *c;
    if (old[k].tri < 0) continue;
    PetscCall(WearSlot(w, old[k].tri, &c));
    *c = old[k];
  }
  PetscCall(PetscFree(old));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Triangle tri's cell, made (zero) when new. */
static PetscErrorCode WearSlot(MeshWear *w, PetscInt64 tri, WearCell **c)
{
  PetscInt k;

  PetscFunctionBeginUser;
  if (2 * (w->n + 1) > w->cap) PetscCall(WearGrow(w));
  for (k = WearHash(tri, w->cap); w->cell[k].tri >= 0 && w->cell[k].tri != tri; k = (k + 1) & (w->cap - 1)) { }
  if (w->cell[k].tri < 0) {
    PetscCall(PetscMemzero(&w->cell[k], sizeof(w->cell[k])));
    w->cell[k].tri = tri;
    w->n++;
  }
  *c = &w->cell[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshWearAdd(MeshWear *w, PetscInt64 tri, const PetscReal v[WEAR_SUMS], PetscBool begun)
{
  WearCell *c;

  PetscFunctionBeginUser;
  PetscCall(WearSlot(w, tri, &c));
  for (int q = 0; q < WEAR_SUMS; q++)
    if (!FixedSumAdd(&c->q[q], v[q])) w->refused = PETSC_TRUE;
  if (begun) c->count++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rows of the whole mesh this rank owns for outputs: [*t0, *t0 + *nt). */
static void WearShareRange(const Mesh *m, PetscMPIInt rank, PetscInt *t0, PetscInt *nt)
{
  if (m->whole) *t0 = 0, *nt = rank == 0 ? m->nt_total : 0;
  else *t0 = m->ht0, *nt = m->hnt;
}

/* The rank whose share holds triangle t (mesh_hold.c's blocks). */
static PetscMPIInt WearOwner(const Mesh *m, PetscInt64 t)
{
  PetscInt64  P = m->whole ? 1 : m->nrank, N = m->nt_total;
  PetscMPIInt r = (PetscMPIInt)PetscMin(P - 1, (t * P) / PetscMax(N, 1));
  while (r + 1 < P && N * (r + 1) / P <= t) r++;
  while (r > 0 && N * r / P > t) r--;
  return r;
}

void MeshWearRowPack(const WearCell *c, PetscInt64 *row)
{
  row[0] = c->tri, row[1] = c->count;
  for (int q = 0; q < WEAR_SUMS; q++)
    for (int l = 0; l < FIXEDSUM_LIMBS; l++) row[2 + FIXEDSUM_LIMBS * q + l] = (PetscInt64)c->q[q].l[l];
}

/* A row's sums added into c (exact). */
static void WearRowAdd(const PetscInt64 *row, WearCell *c)
{
  c->count += row[1];
  for (int q = 0; q < WEAR_SUMS; q++) {
    FixedSum s;
    for (int l = 0; l < FIXEDSUM_LIMBS; l++) s.l[l] = (uint64_t)row[2 + FIXEDSUM_LIMBS * q + l];
    FixedSumAddSum(&c->q[q], &s);
  }
}

PetscErrorCode MeshWearAddRow(MeshWear *w, const PetscInt64 *row)
{
  WearCell *c;

  PetscFunctionBeginUser;
  PetscCall(WearSlot(w, row[0], &c));
  WearRowAdd(row, c);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshWearShare(MPI_Comm comm, const Mesh *m, PetscInt *nt, WearCell **share)
{
  const MeshWear *w = m->wear;
  PetscMPIInt     rank, *dest;
  PetscInt        t0, n = 0, nout;
  PetscInt64     *rows, *out;
  PetscBool       refused;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  {
    PetscReal r = w->refused ? 1.0 : 0.0;
    PetscCall(CollectiveMaxAll(comm, &r, 1));
    refused = r > 0.0 ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscCheck(!refused, comm, PETSC_ERR_FP,
             "%s: a contact's wear term was not finite or not below 2^%d in SI units: outside the sums' window "
             "(wear.md)",
             m->name, FIXEDSUM_MAX_EXP);
  PetscCall(PetscMalloc2((size_t)WEAR_ROW_WIDTH * w->n + 1, &rows, w->n + 1, &dest));
  for (PetscInt k = 0; k < w->cap; k++) {
    if (w->cell[k].tri < 0) continue;
    MeshWearRowPack(&w->cell[k], rows + (size_t)WEAR_ROW_WIDTH * n);
    dest[n++] = WearOwner(m, w->cell[k].tri);
  }
  PetscCall(FixedSumRoute(comm, n, WEAR_ROW_WIDTH, rows, dest, &nout, &out));
  PetscCall(PetscFree2(rows, dest));
  WearShareRange(m, rank, &t0, nt);
  PetscCall(PetscCalloc1(*nt + 1, share));
  for (PetscInt k = 0; k < *nt; k++) (*share)[k].tri = t0 + k;
  for (PetscInt k = 0; k < nout; k++) {
    const PetscInt64 *row = out + (size_t)WEAR_ROW_WIDTH * k;
    PetscCheck(row[0] >= t0 && row[0] < t0 + *nt, PETSC_COMM_SELF, PETSC_ERR_PLIB,
               "%s: triangle %" PetscInt64_FMT " routed to the rank that does not own it", m->name, row[0]);
    WearRowAdd(row, &(*share)[row[0] - t0]);
  }
  PetscCall(PetscFree(out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The area of triangle k of this rank's share (mesh frame: the pose keeps it). */
static PetscReal WearArea(const Mesh *m, PetscInt k)
{
  PetscReal p[3][3], u[3], v[3], c[3];
  for (int i = 0; i < 3; i++)
    for (int a = 0; a < 3; a++)
      p[i][a] = m->whole ? m->x[3 * m->tri[3 * k + i] + a] : m->hrec[(size_t)MESH_RECORD_WIDTH * k + 4 + 3 * i + a];
  for (int a = 0; a < 3; a++) u[a] = p[1][a] - p[0][a], v[a] = p[2][a] - p[0][a];
  c[0] = u[1] * v[2] - u[2] * v[1], c[1] = u[2] * v[0] - u[0] * v[2], c[2] = u[0] * v[1] - u[1] * v[0];
  return 0.5 * PetscSqrtReal(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
}

PetscErrorCode MeshWearCells(MPI_Comm comm, const Mesh *m, PetscReal t, PetscReal *cells[WEAR_CELLS])
{
  const MeshWear *w = m->wear;
  WearCell       *sh;
  PetscInt        nt;
  PetscReal       vk = w->hardness > 0.0 ? w->archard / w->hardness : 0.0;

  PetscFunctionBeginUser;
  PetscCall(MeshWearShare(comm, m, &nt, &sh));
  for (int c = 0; c < WEAR_CELLS; c++) PetscCall(PetscMalloc1(nt + 1, &cells[c]));
  for (PetscInt k = 0; k < nt; k++) {
    PetscReal A = WearArea(m, k), imp = FixedSumValue(&sh[k].q[WEAR_IMPULSE]),
              S = FixedSumValue(&sh[k].q[WEAR_SLIDING]);
    cells[0][k] = imp;
    cells[1][k] = t > 0.0 ? imp / (t * A) : 0.0;
    cells[2][k] = FixedSumValue(&sh[k].q[WEAR_FRICTION]);
    cells[3][k] = S;
    cells[4][k] = vk * S;
    cells[5][k] = vk * S / A;
    cells[6][k] = FixedSumValue(&sh[k].q[WEAR_IMPACT]);
    cells[7][k] = (PetscReal)sh[k].count;
  }
  PetscCall(PetscFree(sh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshWearTotals(MPI_Comm comm, const Mesh *m, PetscReal tot[WEAR_TOTALS])
{
  const MeshWear *w = m->wear;
  WearCell        all;
  PetscInt64      row[WEAR_ROW_WIDTH], *out;
  PetscInt        nout;
  PetscMPIInt     zero = 0, rank;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  PetscCall(PetscMemzero(&all, sizeof(all)));
  for (PetscInt k = 0; k < w->cap; k++) {
    if (w->cell[k].tri < 0) continue;
    MeshWearRowPack(&w->cell[k], row);
    WearRowAdd(row, &all);
  }
  MeshWearRowPack(&all, row);
  PetscCall(FixedSumRoute(comm, 1, WEAR_ROW_WIDTH, row, &zero, &nout, &out));
  PetscCall(PetscMemzero(&all, sizeof(all)));
  for (PetscInt k = 0; k < nout; k++) WearRowAdd(out + (size_t)WEAR_ROW_WIDTH * k, &all);
  PetscCall(PetscFree(out));
  tot[0] = FixedSumValue(&all.q[WEAR_IMPULSE]);
  tot[1] = FixedSumValue(&all.q[WEAR_FRICTION]);
  tot[2] = (w->hardness > 0.0 ? w->archard / w->hardness : 0.0) * FixedSumValue(&all.q[WEAR_SLIDING]);
  tot[3] = FixedSumValue(&all.q[WEAR_IMPACT]);
  tot[4] = (PetscReal)all.count;
  PetscCall(CollectiveBcastReal(comm, tot, WEAR_TOTALS));
  PetscFunctionReturn(PETSC_SUCCESS);
}
