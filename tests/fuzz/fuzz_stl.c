/* libFuzzer harness: bytes as an STL file (io/stl.c), read from memory by
 * StlParseStream, the reader StlRead runs on rank 0: once told the size and
 * with no transform, once as a stream of unknown size with a rotating,
 * scaling, translating one.  Any input must end in success or a PETSc
 * error, never a crash, a sanitizer report or a leak; and what is accepted
 * must hold what the reader promises (stl.h): else abort(), which the
 * fuzzer reports. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fuzz_init.h"
#include "io/stl.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc, (void)argv;
  return HdemFuzzInit();
}

/* identity: the transform is none, so no two vertices may be equal */
static void CheckAccepted(const StlMesh *m, PetscBool identity)
{
  PetscInt newest = -1;

  if (m->nt < 1 || m->nv < 3 || m->nv > 3 * m->nt) abort();
  for (PetscInt k = 0; k < 3 * m->nt; k++) {
    PetscInt v = m->tri[k];
    if (v < 0 || v >= m->nv) abort();
    /* numbered in order of first appearance */
    if (v > newest + 1) abort();
    if (v == newest + 1) newest = v;
  }
  if (newest != m->nv - 1) abort();
  for (PetscInt t = 0; t < m->nt; t++) {
    const PetscInt *v = m->tri + 3 * t;
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) abort();
  }
  for (PetscInt i = 0; i < m->nv; i++)
    for (int j = 0; j < 3; j++) {
      PetscReal x = m->x[3 * i + j];
      if (!isfinite(x) || x < m->lo[j] || x > m->hi[j]) abort();
    }
  if (identity && m->nv <= 2000)
    for (PetscInt i = 0; i < m->nv; i++)
      for (PetscInt k = 0; k < i; k++)
        if (m->x[3 * i] == m->x[3 * k] && m->x[3 * i + 1] == m->x[3 * k + 1] && m->x[3 * i + 2] == m->x[3 * k + 2])
          abort();
}

static void ParseOnce(const uint8_t *data, size_t size, PetscInt64 told, const StlTransform *tr)
{
  static char    empty[1];
  StlMesh        m;
  PetscErrorCode ierr;
  FILE          *fp = fmemopen(size ? (void *)data : (void *)empty, size ? size : 1, "r");

  if (!fp) abort();
  if (!size) (void)getc(fp); /* an empty file: fmemopen wants a buffer of at least one byte */
  ierr = StlParseStream(fp, "fuzz.stl", told, tr, &m);
  HdemFuzzReport(ierr);
  if (!ierr) {
    CheckAccepted(&m, tr ? PETSC_FALSE : PETSC_TRUE);
    if (StlMeshDestroy(&m)) abort();
  } else if (m.x || m.tri || m.nv || m.nt) abort(); /* refused: left empty */
  fclose(fp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  StlTransform tr;

  StlTransformDefault(&tr);
  tr.scale   = 1e-3;
  tr.axis[0] = 1, tr.axis[1] = -2, tr.axis[2] = 0.5;
  tr.angle        = 33;
  tr.translate[0] = -1, tr.translate[2] = 4;
  ParseOnce(data, size, (PetscInt64)size, NULL);
  ParseOnce(data, size, -1, &tr);
  return 0;
}
