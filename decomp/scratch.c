#include "decomp/scratch.h"

PetscErrorCode ScratchBegin(Scratch *s, size_t bytes)
{
  PetscFunctionBeginUser;
  s->used = 0;
  if (bytes <= s->cap) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree(s->buf));
  s->cap = bytes + bytes / 16; /* the later rebuilds grow a little: fit them at once */
  PetscCall(PetscMalloc1(s->cap, &s->buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n elements of size bytes from the room ScratchBegin made, at an offset
 * aligned to 64 bytes */
void *ScratchTake(Scratch *s, size_t n, size_t size)
{
  size_t off = (s->used + 63) & ~(size_t)63;
  PetscCheckAbort(off + n * size <= s->cap, PETSC_COMM_SELF, PETSC_ERR_PLIB, "scratch overrun: %zu + %zu bytes in %zu",
                  off, n * size, s->cap);
  s->used = off + n * size;
  return s->buf + off;
}

PetscErrorCode ScratchAdopt(Scratch *s, void *buf, size_t bytes)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(s->buf));
  s->buf  = (char *)buf;
  s->cap  = buf ? bytes : 0;
  s->used = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void ScratchRelease(Scratch *s, void **buf, size_t *bytes)
{
  *buf   = s->buf;
  *bytes = s->cap;
  s->buf = NULL;
  s->cap = s->used = 0;
}

PetscErrorCode ScratchDestroy(Scratch *s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(s->buf));
  s->cap = s->used = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
