#include "engine/flow_cells.h"
#include <math.h>

PetscErrorCode FlowCellsCreate(const Grid *g, PetscReal h, FlowCells *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  for (int a = 0; a < 3; a++) {
    c->lo[a]  = g->lo[a];
    c->L[a]   = g->hi[a] - g->lo[a];
    c->per[a] = g->periodic[a];
    c->nc[a]  = (PetscInt)PetscMax(1.0, PetscMin(floor(c->L[a] / h), (PetscReal)(FLOW_CELL_OFF / 2)));
    c->w[a]   = c->L[a] / (PetscReal)c->nc[a]; /* at least h */
  }
  c->nslot = 64;
  PetscCall(PetscCalloc2(c->nslot, &c->key, c->nslot, &c->head));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FlowCellsDestroy(FlowCells *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree2(c->xr, c->next));
  PetscCall(PetscFree2(c->key, c->head));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Cell index along a: wrapped on a periodic axis, else held within a cell
 * past a face plus one (farther items meet no point of the box). */
static int64_t FlowCellIndex(const FlowCells *c, int a, PetscReal x)
{
  PetscReal q = floor((x - c->lo[a]) / c->w[a]);
  int64_t   i;
  if (c->per[a]) {
    q = fmod(q, (PetscReal)c->nc[a]);
    if (q < 0) q += (PetscReal)c->nc[a];
    i = (int64_t)q;
    return i >= c->nc[a] ? 0 : i;
  }
  return (int64_t)PetscMax(-2.0, PetscMin(q, (PetscReal)(c->nc[a] + 1)));
}

static uint64_t FlowCellKey(const int64_t i[3])
{
  return ((uint64_t)(i[0] + FLOW_CELL_OFF) << 42) | ((uint64_t)(i[1] + FLOW_CELL_OFF) << 21) |
         (uint64_t)(i[2] + FLOW_CELL_OFF);
}

static PetscInt FlowCellSlot(const FlowCells *c, uint64_t key)
{
  uint64_t h = key * 0x9e3779b97f4a7c15ull;
  PetscInt s = (PetscInt)((h ^ (h >> 29)) & (uint64_t)(c->nslot - 1));
  while (c->key[s] && c->key[s] != key) s = (s + 1) & (c->nslot - 1);
  return s;
}

PetscErrorCode FlowCellsAdd(FlowCells *c, const PetscReal x[3], PetscReal r)
{
  int64_t  i[3];
  PetscInt s;

  PetscFunctionBeginUser;
  if (c->n == c->cap) {
    PetscReal *xr;
    PetscInt  *next;
    c->cap = PetscMax(64, 2 * c->cap);
    PetscCall(PetscMalloc2(4 * c->cap, &xr, c->cap, &next));
    PetscCall(PetscArraycpy(xr, c->xr, 4 * c->n));
    PetscCall(PetscArraycpy(next, c->next, c->n));
    PetscCall(PetscFree2(c->xr, c->next));
    c->xr = xr, c->next = next;
  }
  if (2 * (c->nused + 1) > c->nslot) { /* rehash into twice the slots */
    uint64_t *okey  = c->key;
    PetscInt *ohead = c->head, on = c->nslot;
    c->nslot *= 2;
    PetscCall(PetscCalloc2(c->nslot, &c->key, c->nslot, &c->head));
    for (PetscInt q = 0; q < on; q++)
      if (okey[q]) {
        PetscInt t = FlowCellSlot(c, okey[q]);
        c->key[t] = okey[q], c->head[t] = ohead[q];
      }
    PetscCall(PetscFree2(okey, ohead));
  }
  for (int a = 0; a < 3; a++) i[a] = FlowCellIndex(c, a, x[a]);
  s = FlowCellSlot(c, FlowCellKey(i));
  if (!c->key[s]) c->key[s] = FlowCellKey(i), c->head[s] = -1, c->nused++;
  for (int a = 0; a < 3; a++) c->xr[4 * c->n + a] = x[a];
  c->xr[4 * c->n + 3] = r;
  c->next[c->n]       = c->head[s];
  c->head[s]          = c->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a sphere (x, r) overlaps an item: centres closer than the radii's sum. */
PetscBool FlowCellsHit(const FlowCells *c, const PetscReal x[3], PetscReal r)
{
  int64_t i[3];

  if (!c->n) return PETSC_FALSE;
  for (int a = 0; a < 3; a++) i[a] = FlowCellIndex(c, a, x[a]);
  for (int dz = -1; dz <= 1; dz++)
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        int64_t  j[3] = {i[0] + dx, i[1] + dy, i[2] + dz};
        PetscInt s;
        for (int a = 0; a < 3; a++)
          if (c->per[a]) j[a] = (j[a] + c->nc[a]) % c->nc[a];
        s = FlowCellSlot(c, FlowCellKey(j));
        if (!c->key[s]) continue;
        for (PetscInt m = c->head[s]; m >= 0; m = c->next[m]) {
          const PetscReal *y  = c->xr + 4 * m;
          PetscReal        d2 = 0.0, sr = r + y[3];
          for (int a = 0; a < 3; a++) {
            PetscReal d = x[a] - y[a];
            if (c->per[a]) {
              if (d > 0.5 * c->L[a]) d -= c->L[a];
              else if (d < -0.5 * c->L[a]) d += c->L[a];
            }
            d2 += d * d;
          }
          if (d2 < sr * sr) return PETSC_TRUE;
        }
      }
  return PETSC_FALSE;
}

/* Distance along an axis from x to [lo, hi], through a periodic face where nearer. */
PetscReal FlowAxisGap(PetscReal x, PetscReal lo, PetscReal hi, PetscReal L, PetscBool per)
{
  PetscReal gap = PetscMax(0.0, PetscMax(lo - x, x - hi));
  if (per) {
    gap = PetscMin(gap, PetscMax(0.0, PetscMax(lo - (x + L), (x + L) - hi)));
    gap = PetscMin(gap, PetscMax(0.0, PetscMax(lo - (x - L), (x - L) - hi)));
  }
  return gap;
}

/* Whether a sphere (x, r) would touch a plane wall (the walls where they are
 * at the insertion's time): every rank knows them alike. */
PetscBool FlowPlanesHit(const Planes *pl, const PetscReal x[3], PetscReal r)
{
  for (PetscInt k = 0; k < pl->n; k++) {
    const PlaneWall *w = &pl->w[k];
    if (w->present && (x[0] - w->p[0]) * w->n[0] + (x[1] - w->p[1]) * w->n[1] + (x[2] - w->p[2]) * w->n[2] < r)
      return PETSC_TRUE;
  }
  return PETSC_FALSE;
}
