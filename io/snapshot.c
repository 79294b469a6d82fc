#include "io/snapshot.h"
#include "io/h5file.h"
#include "io/outdir.h"
#include "decomp/collective.h"
#include <dirent.h>
#include <stdio.h>
#include <string.h>

const char *const SnapshotFieldNames[] = {"id", "type", "radius", "velocity", "angular_velocity", "force", NULL};

PetscErrorCode SnapshotFieldsParse(const char *list, PetscInt *fields)
{
  char  buf[512], *tok, *save = NULL;

  PetscFunctionBeginUser;
  *fields = 0;
  PetscCall(PetscStrncpy(buf, list, sizeof(buf)));
  for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
    PetscInt k;
    if (!strcmp(tok, "all")) {
      *fields = SNAPSHOT_ALL;
      continue;
    }
    if (!strcmp(tok, "position")) continue; /* always written */
    for (k = 0; SnapshotFieldNames[k] && strcmp(SnapshotFieldNames[k], tok); k++) { }
    PetscCheck(SnapshotFieldNames[k], PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "-snapshot_fields: unknown field '%s' (allowed: all, position, id, type, radius, velocity, angular_velocity, force)", tok);
    *fields |= 1 << k;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void SnapshotName(PetscInt64 step, char *buf, size_t len)
{
  snprintf(buf, len, "snap_%09lld.h5", (long long)step);
}

static PetscErrorCode SnapshotSeriesAdd(SnapshotSeries *s, PetscInt64 step, PetscReal time, PetscInt64 n, PetscInt fields)
{
  PetscFunctionBeginUser;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    PetscCall(PetscRealloc((size_t)s->cap * sizeof(*s->e), &s->e));
  }
  s->e[s->n].step   = step;
  s->e[s->n].time   = time;
  s->e[s->n].n      = n;
  s->e[s->n].fields = fields;
  s->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One snapshot of an interrupted run, read back for the listing. */
static PetscErrorCode SnapshotProbe(const char *path, PetscInt64 *step, PetscReal *time, PetscInt64 *n, PetscInt *fields)
{
  H5File f;

  PetscFunctionBeginUser;
  PetscCall(H5FileOpen(PETSC_COMM_SELF, path, &f));
  PetscCall(H5FileReadAttrInt64(f, "step", step, NULL));
  PetscCall(H5FileReadAttrReal(f, "time", time, NULL));
  PetscCall(H5FileRows(f, "particles/position", H5FILE_REAL, 3, n, NULL));
  *fields = 0;
  for (PetscInt k = 0; SnapshotFieldNames[k]; k++) {
    char      name[64];
    PetscBool has;
    PetscInt64 rows;
    PetscCall(PetscSNPrintf(name, sizeof(name), "particles/%s", SnapshotFieldNames[k]));
    PetscCall(H5FileRows(f, name, k == 0 ? H5FILE_INT64 : k == 1 ? H5FILE_INT : H5FILE_REAL, k < 3 ? 1 : 3, &rows, &has));
    if (has) *fields |= 1 << k;
  }
  PetscCall(H5FileClose(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int SnapshotEntryCompare(const void *a, const void *b)
{
  const SnapshotEntry *x = (const SnapshotEntry *)a, *y = (const SnapshotEntry *)b;
  return x->step < y->step ? -1 : x->step > y->step;
}

/* Rank 0: keep the interrupted run's snapshots up to resume_step, drop the
 * later ones and any half-written temporary. */
static PetscErrorCode SnapshotSeriesResume(SnapshotSeries *s, PetscInt64 resume_step)
{
  char           sub[PETSC_MAX_PATH_LEN + 16];
  DIR           *d;
  struct dirent *de;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(sub, sizeof(sub), "%s/snapshots", s->dir));
  if (!(d = opendir(sub))) PetscFunctionReturn(PETSC_SUCCESS);
  while ((de = readdir(d))) {
    char       path[2 * PETSC_MAX_PATH_LEN];
    long long  st;
    int        len = 0;
    PetscInt64 step = 0, n = 0;
    PetscReal  time = 0;
    PetscInt   fields = 0;
    PetscErrorCode ierr;
    if (sscanf(de->d_name, "snap_%lld.h5%n", &st, &len) != 1) continue;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", sub, de->d_name));
    if ((size_t)len != strlen(de->d_name) || st > resume_step) { /* a temporary, or past the checkpoint */
      (void)remove(path);
      continue;
    }
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SnapshotProbe(path, &step, &time, &n, &fields);
    PetscCall(PetscPopErrorHandler());
    if (ierr) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "hdem: warning: snapshot %s is unreadable; left out of snapshots.xdmf\n", path));
      continue;
    }
    PetscCall(SnapshotSeriesAdd(s, step, time, n, fields));
  }
  closedir(d);
  if (s->n > 1) qsort(s->e, (size_t)s->n, sizeof(*s->e), SnapshotEntryCompare);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SnapshotSeriesCreate(MPI_Comm comm, const char *dir, PetscInt64 resume_step, SnapshotSeries *s)
{
  PetscMPIInt rank;
  char        sub[PETSC_MAX_PATH_LEN + 16];

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  PetscCall(PetscStrncpy(s->dir, dir, sizeof(s->dir)));
  PetscCall(PetscSNPrintf(sub, sizeof(sub), "%s/snapshots", dir));
  PetscCall(OutputDirCreate(comm, "", sub));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0 && resume_step >= 0) PetscCall(SnapshotSeriesResume(s, resume_step));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SnapshotSeriesDestroy(SnapshotSeries *s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(s->e));
  s->n = s->cap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void XdmfItem(FILE *fp, const char *file, const char *name, PetscInt64 n, int ncomp, const char *numtype, int precision)
{
  if (ncomp > 1) fprintf(fp, "          <DataItem Dimensions=\"%lld %d\" NumberType=\"%s\" Precision=\"%d\" Format=\"HDF\">snapshots/%s:/particles/%s</DataItem>\n", (long long)n, ncomp, numtype, precision, file, name);
  else fprintf(fp, "          <DataItem Dimensions=\"%lld\" NumberType=\"%s\" Precision=\"%d\" Format=\"HDF\">snapshots/%s:/particles/%s</DataItem>\n", (long long)n, numtype, precision, file, name);
}

/* Rank 0: the whole collection, written to a temporary and renamed, so a
 * reader never sees it half-written. */
static PetscErrorCode SnapshotSeriesWriteXdmf(const SnapshotSeries *s)
{
  char  path[PETSC_MAX_PATH_LEN + 32], tmp[PETSC_MAX_PATH_LEN + 40];
  FILE *fp;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/snapshots.xdmf", s->dir));
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", path));
  fp = fopen(tmp, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", tmp);
  fprintf(fp, "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n  <Domain>\n");
  fprintf(fp, "    <Grid Name=\"particles\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
  for (PetscInt k = 0; k < s->n; k++) {
    const SnapshotEntry *e = &s->e[k];
    char                 file[64];
    SnapshotName(e->step, file, sizeof(file));
    fprintf(fp, "      <Grid Name=\"step_%09lld\" GridType=\"Uniform\">\n", (long long)e->step);
    fprintf(fp, "        <Time Value=\"%.17g\"/>\n", (double)e->time);
    fprintf(fp, "        <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"%lld\" NodesPerElement=\"1\">\n", (long long)e->n);
    XdmfItem(fp, file, "connectivity", e->n, 1, "Int", 8);
    fprintf(fp, "        </Topology>\n        <Geometry GeometryType=\"XYZ\">\n");
    XdmfItem(fp, file, "position", e->n, 3, "Float", 8);
    fprintf(fp, "        </Geometry>\n");
    for (PetscInt b = 0; SnapshotFieldNames[b]; b++) {
      if (!(e->fields & (1 << b))) continue;
      fprintf(fp, "        <Attribute Name=\"%s\" AttributeType=\"%s\" Center=\"Node\">\n", SnapshotFieldNames[b], b < 3 ? "Scalar" : "Vector");
      XdmfItem(fp, file, SnapshotFieldNames[b], e->n, b < 3 ? 1 : 3, b < 2 ? "Int" : "Float", b == 1 ? 4 : 8);
      fprintf(fp, "        </Attribute>\n");
    }
    fprintf(fp, "      </Grid>\n");
  }
  fprintf(fp, "    </Grid>\n  </Domain>\n</Xdmf>\n");
  PetscCheck(!fclose(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write %s", tmp);
  PetscCheck(!rename(tmp, path), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot rename %s to %s", tmp, path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SnapshotWriteFile(MPI_Comm comm, H5File f, PetscInt fields, const SnapshotView *v, PetscInt64 *N)
{
  PetscInt64 *conn, off;
  const void *row[3] = {v->id, v->type, v->radius};
  const void *vec[3] = {v->v, v->w, v->f};

  PetscFunctionBeginUser;
  PetscCall(CollectiveOffset(comm, v->n, &off, N));
  PetscCall(H5FileWriteRows(f, "particles/position", H5FILE_REAL, 3, v->n, v->x));
  PetscCall(PetscMalloc1(v->n, &conn));
  for (PetscInt i = 0; i < v->n; i++) conn[i] = off + i;
  PetscCall(H5FileWriteRows(f, "particles/connectivity", H5FILE_INT64, 1, v->n, conn));
  PetscCall(PetscFree(conn));
  for (PetscInt b = 0; b < 6; b++) {
    char name[64];
    if (!(fields & (1 << b))) continue;
    PetscCall(PetscSNPrintf(name, sizeof(name), "particles/%s", SnapshotFieldNames[b]));
    if (b < 3) PetscCall(H5FileWriteRows(f, name, b == 0 ? H5FILE_INT64 : b == 1 ? H5FILE_INT32 : H5FILE_REAL, 1, v->n, row[b]));
    else PetscCall(H5FileWriteRows(f, name, H5FILE_REAL, 3, v->n, vec[b - 3]));
  }
  PetscCall(H5FileWriteRows(f, "walls/normal", H5FILE_REAL, 3, v->nwall, v->wall_normal));
  PetscCall(H5FileWriteRows(f, "walls/point", H5FILE_REAL, 3, v->nwall, v->wall_point));
  PetscCall(H5FileWriteAttrReal(f, "time", v->time));
  PetscCall(H5FileWriteAttrReal(f, "dt", v->dt));
  PetscCall(H5FileWriteAttrInt64(f, "step", v->step));
  PetscCall(H5FileWriteAttrInt64(f, "particles", *N));
  PetscCall(H5FileWriteAttrString(f, "hdem_version", HDEM_VERSION));
  PetscCall(H5FileWriteAttrString(f, "options", v->options ? v->options : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SnapshotWrite(MPI_Comm comm, SnapshotSeries *s, PetscInt fields, const SnapshotView *v)
{
  char           path[2 * PETSC_MAX_PATH_LEN], file[64];
  H5File         f;
  PetscInt64     N = 0;
  PetscMPIInt    rank;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  SnapshotName(v->step, file, sizeof(file));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/snapshots/%s", s->dir, file));
  PetscCall(H5FileCreate(comm, path, &f));
  ierr = SnapshotWriteFile(comm, f, fields, v, &N);
  PetscCall(H5FileAbandon(&f, ierr));
  PetscCall(H5FileCommit(&f));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0) {
    if (s->n && s->e[s->n - 1].step == v->step) s->n--; /* rewritten after a restart */
    PetscCall(SnapshotSeriesAdd(s, v->step, v->time, N, fields));
    PetscCall(SnapshotSeriesWriteXdmf(s));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
