/* An STL file's triangles read by share (io/stl_share.h): the format told
 * by rank 0, the blocks read (binary; ASCII: io/stl_ascii.c), then merged. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include "io/stl_share.h"
#include "io/stl_block.h"
#include "io/stl_reader.h"
#include "io/inputfile.h"
#include "decomp/collective.h"

#define STL_SHARE_CHUNK 4096 /* binary triangles read at a time */

typedef struct {
  PetscInt64 size; /* bytes */
  PetscBool  binary;
  PetscInt   nt;
} ShareHead;

static PetscErrorCode HeadParse(StlReader *rd, const StlTransform *tr, ShareHead *h)
{
  StlXform xf;
  uint32_t n;

  PetscFunctionBeginUser;
  PetscCall(StlXformSet(rd->path, tr, &xf));
  PetscCall(StlDetect(rd));
  h->binary = rd->binary;
  if (rd->binary) {
    PetscCall(StlBinaryCount(rd, &n));
    h->nt = (PetscInt)n;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the size, the format and (binary) the count. */
static PetscErrorCode HeadRoot(const char *path, const StlTransform *tr, ShareHead *h)
{
  FILE          *fp;
  char           why[PETSC_MAX_PATH_LEN + 128];
  struct stat    st;
  StlReader     *rd;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  fp = InputFileOpen(path, "rb", "STL file", why, sizeof(why));
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "%s", why);
  errno = 0;
  if (fstat(fileno(fp), &st)) { /* InputFileOpen opens regular files only: their size is known */
    fclose(fp);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "STL file %s: read error: %s", path, strerror(errno));
  }
  h->size = (PetscInt64)st.st_size;
  PetscCall(PetscNew(&rd));
  rd->fp = fp, rd->path = path, rd->size = h->size, rd->line = 1;
  ierr = HeadParse(rd, tr, h);
  fclose(fp);
  PetscCall(PetscFree(rd->c));
  PetscCall(PetscFree(rd->tline));
  PetscCall(PetscFree(rd));
  PetscFunctionReturn(ierr);
}

/* Triangles [t0, t0 + n) of a binary file of nt; *key: the triangle of an error. */
static PetscErrorCode BinaryBlock(StlReader *rd, PetscInt nt, PetscInt t0, PetscInt n, PetscReal *c, PetscInt64 *key)
{
  unsigned char *buf;
  char           why[PETSC_MAX_PATH_LEN + 128];

  PetscFunctionBeginUser;
  *key   = t0;
  rd->fp = InputFileOpen(rd->path, "rb", "STL file", why, sizeof(why));
  PetscCheck(rd->fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "%s", why);
  errno = 0;
  PetscCheck(!fseeko(rd->fp, (off_t)(STL_HEADER + (PetscInt64)STL_RECORD * t0), SEEK_SET), PETSC_COMM_SELF,
             PETSC_ERR_FILE_READ, "%s: read error: %s", StlWhere(rd, t0), strerror(errno));
  PetscCall(PetscMalloc1((size_t)STL_RECORD * STL_SHARE_CHUNK, &buf));
  for (PetscInt s = 0; s < n; s += STL_SHARE_CHUNK) {
    size_t m = (size_t)PetscMin(STL_SHARE_CHUNK, n - s), got;
    errno    = 0;
    got      = fread(buf, STL_RECORD, m, rd->fp);
    *key     = t0 + s + (PetscInt)got;
    if (got != m) {
      PetscCheck(!ferror(rd->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: read error: %s",
                 StlWhere(rd, (PetscInt)*key), strerror(errno));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
              "%s: end of file in triangle %" PetscInt64_FMT " (byte %" PetscInt64_FMT ") of the %" PetscInt_FMT
              " its binary count at byte 80 says (truncated file?)",
              rd->path, *key + 1, (PetscInt64)STL_HEADER + (PetscInt64)STL_RECORD * *key, nt);
    }
    for (size_t i = 0; i < m; i++)
      for (int k = 0; k < 9; k++) {
        PetscInt t = t0 + s + (PetscInt)i;
        float    f = StlLeFloat(buf + STL_RECORD * i + 12 + 4 * k);
        *key       = t;
        PetscCheck(isfinite(f), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                   "%s: corner %d %c is %g, not a finite number", StlWhere(rd, t), k / 3 + 1, "xyz"[k % 3], (double)f);
        c[9 * (s + (PetscInt)i) + k] = (PetscReal)f;
      }
  }
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StlReadShare(MPI_Comm comm, const char *path, const StlTransform *tr, StlShare *s)
{
  PetscMPIInt    rank, size;
  PetscInt       status = 0;
  ShareHead      h      = {0, PETSC_FALSE, 0};
  PetscReal      hb[3];
  StlXform       xf;
  PetscReal     *c     = NULL;
  PetscInt      *tline = NULL;
  PetscInt64     key   = 0;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  PetscCall(CollectiveRank(comm, &rank, &size));
  if (rank == 0) {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    status = (PetscInt)HeadRoot(path, tr, &h);
    PetscCall(PetscPopErrorHandler());
  }
  PetscCall(CollectiveFirstError(comm, (PetscErrorCode)status, 0, NULL)); /* its message on every rank */
  hb[0] = (PetscReal)h.size, hb[1] = h.binary, hb[2] = (PetscReal)h.nt;
  PetscCall(CollectiveBcastReal(comm, hb, 3));
  h.size = (PetscInt64)hb[0], h.binary = hb[1] != 0 ? PETSC_TRUE : PETSC_FALSE, h.nt = (PetscInt)hb[2];
  PetscCall(StlXformSet(path, tr, &xf));
  s->binary = h.binary;
  if (h.binary) {
    s->nt = h.nt;
    s->t0 = StlBlockStart(h.nt, rank, size), s->n = StlBlockStart(h.nt, rank + 1, size) - s->t0;
    PetscCall(PetscMalloc2(9 * s->n + 1, &c, s->n + 1, &tline));
    StlReader *rd;
    PetscCall(PetscNew(&rd));
    rd->path = path, rd->binary = PETSC_TRUE, rd->size = h.size;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = BinaryBlock(rd, h.nt, s->t0, s->n, c, &key);
    PetscCall(PetscPopErrorHandler());
    if (rd->fp) fclose(rd->fp);
    PetscCall(PetscFree(rd));
    PetscCall(CollectiveFirstError(comm, ierr, key, NULL));
  } else PetscCall(StlAsciiShare(comm, path, h.size, s, &c, &tline));
  PetscCall(StlMergeShare(comm, path, &xf, c, h.binary ? NULL : tline, s));
  PetscCall(PetscFree2(c, tline));
  PetscCall(StlWarnSpan(comm, path, s->lo, s->hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StlShareDestroy(StlShare *s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(s->tri));
  PetscCall(PetscFree(s->x));
  PetscCall(PetscFree(s->vx));
  PetscCall(PetscMemzero(s, sizeof(*s)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
