/* An ASCII STL file read by ranges of its bytes (io/stl_share.h): rank r
 * reads from the first line at or after byte size r / P whose first word is
 * 'facet' (rank 0 from the start) up to the next rank's such line, where
 * its parse stops at the 'facet' that starts there.  A first parse counts
 * each range's triangles and lines, whose prefix sums over the ranks give
 * every range its first triangle's number and its first line's; an error is
 * then said by the rank of the first in the file, parsing again with them;
 * else a second parse keeps the triangles, which go to their blocks. */
#include <errno.h>
#include <string.h>
#include <strings.h>
#include "io/stl_block.h"
#include "io/stl_reader.h"
#include "io/inputfile.h"
#include "decomp/collective.h"

#define W_ASCII 11 /* a triangle sent to its block: its number, 9 file coordinates, the line of its 'facet' */

/* The first line starting at or after off (> 0) whose first word is 'facet', or size. */
static PetscErrorCode FacetLine(FILE *fp, const char *path, PetscInt64 off, PetscInt64 size, PetscInt64 *start)
{
  int ch;

  PetscFunctionBeginUser;
  *start = size;
  errno  = 0;
  PetscCheck(!fseeko(fp, (off_t)(off - 1), SEEK_SET), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: read error: %s", path,
             strerror(errno));
  for (PetscInt64 p = off - 1; (ch = getc(fp)) != EOF;) { /* p: the offset of the next byte */
    PetscInt64 line;
    char       w[8];
    int        k = 0;
    if (p++, ch != '\n') continue;
    line = p;
    do ch = getc(fp), p++;
    while (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v');
    while (ch != EOF && !StlIsBlank(ch) && k < 6) w[k++] = (char)ch, ch = getc(fp), p++;
    w[k] = 0;
    if (k == 5 && (ch == EOF || StlIsBlank(ch)) && !strcasecmp(w, "facet")) {
      *start = line;
      break;
    }
    if (ch == '\n') ungetc(ch, fp), p--;
  }
  PetscCheck(!ferror(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: read error: %s", path, strerror(errno));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A parse of range [start, stop) (stop 0: to the end), its first line line0 and triangle t0; the reader
 * (*out, with its file closed) for the caller to free. */
static PetscErrorCode ParseRange(const char *path, PetscInt64 size, PetscInt64 start, PetscInt64 stop, PetscInt line0,
                                 PetscInt t0, PetscBool store, StlReader **out)
{
  StlReader     *rd;
  char           why[PETSC_MAX_PATH_LEN + 128];
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&rd));
  *out     = rd;
  rd->path = path, rd->size = size, rd->line = line0, rd->nt = rd->base = t0;
  rd->nostore = store ? PETSC_FALSE : PETSC_TRUE, rd->stop = stop, rd->mid = start > 0 ? PETSC_TRUE : PETSC_FALSE;
  rd->fp = InputFileOpen(path, "rb", "STL file", why, sizeof(why));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  if (!rd->fp)
    ierr = PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_FILE_OPEN,
                      PETSC_ERROR_INITIAL, "%s", why);
  else if (start > 0) { /* the first bytes for the messages that say why the file is not binary, not parsed */
    rd->nhead = fread(rd->head, 1, STL_HEADER, rd->fp), rd->ihead = rd->nhead, rd->pos = start;
    ierr = fseeko(rd->fp, (off_t)start, SEEK_SET) ? PETSC_ERR_FILE_READ : PETSC_SUCCESS;
  } else ierr = StlDetect(rd); /* rank 0 reads as a serial read does: the first bytes, then the words */
  if (!ierr) ierr = StlReadAscii(rd);
  PetscCall(PetscPopErrorHandler());
  if (rd->fp) fclose(rd->fp);
  rd->fp = NULL;
  PetscFunctionReturn(ierr);
}

static PetscErrorCode FreeReader(StlReader **rd)
{
  PetscFunctionBeginUser;
  if (!*rd) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*rd)->c));
  PetscCall(PetscFree((*rd)->tline));
  PetscCall(PetscFree(*rd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's range: its start, and where the next one starts (0: it reads to the end). */
static PetscErrorCode Ranges(MPI_Comm comm, const char *path, PetscInt64 size, PetscInt64 *start, PetscInt64 *stop)
{
  PetscMPIInt rank, np;
  PetscInt64 *all, mine = 0;
  PetscInt    total;
  char        why[PETSC_MAX_PATH_LEN + 128];
  FILE       *fp;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, &np));
  if (rank > 0) {
    PetscErrorCode ierr;
    fp = InputFileOpen(path, "rb", "STL file", why, sizeof(why));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = fp ? FacetLine(fp, path, PetscMax(1, size * rank / np), size, &mine) : PETSC_ERR_FILE_OPEN;
    PetscCall(PetscPopErrorHandler());
    if (fp) fclose(fp);
    PetscCall(CollectiveFirstError(comm, ierr, 0, fp ? NULL : why));
  } else PetscCall(CollectiveFirstError(comm, PETSC_SUCCESS, 0, NULL));
  PetscCall(CollectiveGatherAllBytes(comm, &mine, sizeof(mine), &total, (char **)&all));
  *start = all[rank];
  *stop  = rank + 1 < np && all[rank + 1] < size ? all[rank + 1] : 0;
  if (rank + 1 < np && all[rank + 1] <= *start) *start = *stop = -1; /* an empty range */
  if (*start >= size) *start = *stop = -1;
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The triangles kept by this rank's range, [rd->base, rd->nt), to the ranks of their blocks: c and tline. */
static PetscErrorCode ToBlocks(MPI_Comm comm, const StlReader *rd, StlShare *s, PetscReal *c, PetscInt *tline)
{
  PetscInt     n = rd ? rd->nt - rd->base : 0, nin;
  PetscReal   *items, *in;
  PetscMPIInt  np;
  PetscMPIInt *dest;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, NULL, &np));
  PetscCall(PetscMalloc1((size_t)W_ASCII * n + 1, &items));
  PetscCall(PetscMalloc1(n + 1, &dest));
  for (PetscInt i = 0; i < n; i++) {
    items[W_ASCII * i] = (PetscReal)(rd->base + i);
    for (int k = 0; k < 9; k++) items[W_ASCII * i + 1 + k] = rd->c[9 * i + k];
    items[W_ASCII * i + 10] = (PetscReal)rd->tline[i];
    dest[i]                 = StlBlockOwner(s->nt, rd->base + i, np);
  }
  PetscCall(CollectiveRouteTake(comm, n, W_ASCII, &items, dest, &nin, &in));
  PetscCall(PetscFree(dest));
  PetscCheck(nin == s->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " triangles arrived, not %" PetscInt_FMT,
             nin, s->n);
  for (PetscInt i = 0; i < nin; i++) {
    PetscInt t = (PetscInt)in[W_ASCII * i] - s->t0;
    for (int k = 0; k < 9; k++) c[9 * t + k] = in[W_ASCII * i + 1 + k];
    tline[t] = (PetscInt)in[W_ASCII * i + 10];
  }
  PetscCall(PetscFree(in));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StlAsciiShare(MPI_Comm comm, const char *path, PetscInt64 size, StlShare *s, PetscReal **c,
                             PetscInt **tline)
{
  PetscInt64     start, stop, key = INT64_MAX, first, last, off[2], tot[2], min;
  PetscMPIInt    rank, np, who;
  StlReader     *rd   = NULL;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, &np));
  PetscCall(Ranges(comm, path, size, &start, &stop));
  first = last = 0;
  if (start >= 0) { /* the counting parse: triangles, and lines before the next range */
    ierr  = ParseRange(path, size, start, stop, 1, 0, PETSC_FALSE, &rd);
    first = rd->nt, last = rd->line - 1 - (rd->stopped && rd->last == '\n' ? 1 : 0);
    if (ierr) key = rd->pos;
    PetscCall(FreeReader(&rd));
  }
  PetscCall(CollectiveOffset(comm, first, &off[0], &tot[0]));
  PetscCall(CollectiveOffset(comm, last, &off[1], &tot[1]));
  PetscCall(CollectiveMinLoc(comm, key, &min, &who));
  if (min != INT64_MAX) { /* the first error of the file, said with its triangle's and line's numbers */
    ierr = PETSC_SUCCESS;
    if (rank == who) {
      ierr = ParseRange(path, size, start, stop, (PetscInt)(1 + off[1]), (PetscInt)off[0], PETSC_FALSE, &rd);
      PetscCall(FreeReader(&rd));
      if (!ierr) ierr = PETSC_ERR_PLIB;
    }
    PetscCall(CollectiveFirstError(comm, ierr, 0, NULL));
  }
  PetscCheck(tot[0] <= STL_MAX_TRIANGLES, comm, PETSC_ERR_SUP,
             "%s: more than %" PetscInt64_FMT " triangles, which is what hdem reads from one file", path,
             STL_MAX_TRIANGLES);
  s->nt = (PetscInt)tot[0];
  s->t0 = StlBlockStart(s->nt, rank, np), s->n = StlBlockStart(s->nt, rank + 1, np) - s->t0;
  if (start >= 0) ierr = ParseRange(path, size, start, stop, (PetscInt)(1 + off[1]), (PetscInt)off[0], PETSC_TRUE, &rd);
  PetscCall(CollectiveFirstError(comm, ierr, 0, NULL));
  PetscCall(PetscMalloc2(9 * s->n + 1, c, s->n + 1, tline));
  PetscCall(ToBlocks(comm, rd, s, *c, *tline));
  PetscCall(FreeReader(&rd));
  PetscFunctionReturn(PETSC_SUCCESS);
}
