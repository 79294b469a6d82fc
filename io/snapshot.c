#include "io/snapshot.h"
#include "io/h5file.h"
#include "io/outdir.h"
#include "io/atomicfile.h"
#include "decomp/collective.h"
#include <dirent.h>
#include <stdio.h>
#include <string.h>

static H5FileType SnapshotType(FieldType t)
{
  return t == FIELD_INT64 ? H5FILE_INT64 : t == FIELD_INT32 ? H5FILE_INT32 : H5FILE_REAL;
}

/* The fields a snapshot may hold: FIELD_SNAPSHOT ones, position always. */
static PetscBool SnapshotField(const Field *f)
{
  return (f->flags & FIELD_SNAPSHOT) && f->type != FIELD_INT8 ? PETSC_TRUE : PETSC_FALSE;
}

PetscInt SnapshotFieldsAll(const FieldStore *st)
{
  PetscInt mask = 0;
  for (PetscInt k = 0; k < st->nfield; k++)
    if (SnapshotField(&st->field[k])) mask |= (PetscInt)1 << k;
  return mask;
}

PetscErrorCode SnapshotFieldsParse(const FieldStore *st, const char *list, PetscInt *fields)
{
  char buf[512], *tok, *save = NULL, allowed[512] = "all";

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < st->nfield; k++)
    if (SnapshotField(&st->field[k])) {
      PetscCall(PetscStrlcat(allowed, ", ", sizeof(allowed)));
      PetscCall(PetscStrlcat(allowed, st->field[k].name, sizeof(allowed)));
    }
  *fields = 1 << FieldStoreFind(st, "position");
  PetscCall(PetscStrncpy(buf, list, sizeof(buf)));
  for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
    PetscInt k = FieldStoreFind(st, tok);
    if (!strcmp(tok, "all")) {
      *fields |= SnapshotFieldsAll(st);
      continue;
    }
    PetscCheck(k >= 0 && SnapshotField(&st->field[k]), PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT,
               "-snapshot_fields: unknown field '%s' (allowed: %s)", tok, allowed);
    *fields |= (PetscInt)1 << k;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void SnapshotName(PetscInt64 step, char *buf, size_t len)
{
  snprintf(buf, len, "snap_%09lld.h5", (long long)step);
}

/* The meshes a state holds, as a mask over its table. */
static PetscInt SnapshotMeshMask(const SnapshotView *v)
{
  PetscInt mask = 0;
  for (PetscInt k = 0; v->meshes && k < v->meshes->n; k++)
    if (v->mesh[k].present) mask |= (PetscInt)1 << k;
  return mask;
}

static PetscErrorCode SnapshotSeriesAdd(SnapshotSeries *s, PetscInt64 step, PetscReal time, PetscInt64 n,
                                        PetscInt fields, PetscInt meshes)
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
  s->e[s->n].meshes = meshes;
  s->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One snapshot of an interrupted run, read back for the listing. */
static PetscErrorCode SnapshotProbe(const SnapshotSeries *s, const char *path, PetscInt64 *step, PetscReal *time,
                                    PetscInt64 *n, PetscInt *fields, PetscInt *meshes)
{
  H5File f;

  PetscFunctionBeginUser;
  PetscCall(H5FileOpen(PETSC_COMM_SELF, path, &f));
  PetscCall(H5FileReadAttrInt64(f, "step", step, NULL));
  PetscCall(H5FileReadAttrReal(f, "time", time, NULL));
  PetscCall(H5FileRows(f, "particles/position", H5FILE_REAL, 3, n, NULL));
  *fields = 0;
  for (PetscInt k = 0; k < s->nfield; k++) {
    char       name[64];
    PetscBool  has;
    PetscInt64 rows;
    if (!SnapshotField(&s->field[k])) continue;
    PetscCall(PetscSNPrintf(name, sizeof(name), "particles/%s", s->field[k].name));
    PetscCall(H5FileRows(f, name, SnapshotType(s->field[k].type), s->field[k].ncomp, &rows, &has));
    if (has) *fields |= (PetscInt)1 << k;
  }
  *meshes = 0;
  for (PetscInt k = 0; k < s->meshes.n; k++) {
    char       name[64];
    PetscBool  has;
    PetscInt64 rows;
    PetscCall(PetscSNPrintf(name, sizeof(name), "meshes/%s/points", s->meshes.name[k]));
    PetscCall(H5FileRows(f, name, H5FILE_REAL, 3, &rows, &has));
    if (has && rows == s->meshes.nv[k]) *meshes |= 1 << k;
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
    char           path[2 * PETSC_MAX_PATH_LEN];
    long long      st;
    int            len  = 0;
    PetscInt64     step = 0, n = 0;
    PetscReal      time   = 0;
    PetscInt       fields = 0, meshes = 0;
    PetscErrorCode ierr;
    if (sscanf(de->d_name, "snap_%lld.h5%n", &st, &len) != 1) continue;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", sub, de->d_name));
    if ((size_t)len != strlen(de->d_name) || st > resume_step) { /* a temporary, or past the checkpoint */
      (void)remove(path);
      continue;
    }
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SnapshotProbe(s, path, &step, &time, &n, &fields, &meshes);
    PetscCall(PetscPopErrorHandler());
    if (ierr) {
      PetscCall(
        PetscPrintf(PETSC_COMM_SELF, "hdem: warning: snapshot %s is unreadable; left out of snapshots.xdmf\n", path));
      continue;
    }
    PetscCall(SnapshotSeriesAdd(s, step, time, n, fields, meshes));
  }
  closedir(d);
  if (s->n > 1) qsort(s->e, (size_t)s->n, sizeof(*s->e), SnapshotEntryCompare);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SnapshotSeriesCreate(MPI_Comm comm, const char *dir, PetscInt64 resume_step, const FieldStore *st,
                                    const SnapshotMeshTable *mt, SnapshotSeries *s)
{
  PetscMPIInt rank;
  char        sub[PETSC_MAX_PATH_LEN + 16];

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  PetscCall(PetscStrncpy(s->dir, dir, sizeof(s->dir)));
  s->nfield = st->nfield;
  for (PetscInt k = 0; k < st->nfield; k++) s->field[k] = st->field[k], s->field[k].data = NULL;
  if (mt) s->meshes = *mt;
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

static void XdmfData(FILE *fp, const char *file, const char *path, PetscInt64 n, PetscInt ncomp, const char *numtype,
                     int precision)
{
  if (ncomp > 1)
    fprintf(fp,
            "          <DataItem Dimensions=\"%lld %d\" NumberType=\"%s\" Precision=\"%d\" "
            "Format=\"HDF\">%s:/%s</DataItem>\n",
            (long long)n, (int)ncomp, numtype, precision, file, path);
  else
    fprintf(fp,
            "          <DataItem Dimensions=\"%lld\" NumberType=\"%s\" Precision=\"%d\" "
            "Format=\"HDF\">%s:/%s</DataItem>\n",
            (long long)n, numtype, precision, file, path);
}

static void XdmfItem(FILE *fp, const char *file, const char *name, PetscInt64 n, PetscInt ncomp, const char *numtype,
                     int precision)
{
  char path[96];
  snprintf(path, sizeof(path), "particles/%s", name);
  XdmfData(fp, file, path, n, ncomp, numtype, precision);
}

/* One grid of an index: the particles of file (relative to the index) as
 * Polyvertex cells, each selected field an attribute. */
static void XdmfGrid(FILE *fp, const Field *field, PetscInt nfield, const char *file, const SnapshotEntry *e)
{
  fprintf(fp, "      <Grid Name=\"step_%09lld\" GridType=\"Uniform\">\n", (long long)e->step);
  fprintf(fp, "        <Time Value=\"%.17g\"/>\n", (double)e->time);
  fprintf(fp, "        <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"%lld\" NodesPerElement=\"1\">\n",
          (long long)e->n);
  XdmfItem(fp, file, "connectivity", e->n, 1, "Int", 8);
  fprintf(fp, "        </Topology>\n        <Geometry GeometryType=\"XYZ\">\n");
  XdmfItem(fp, file, "position", e->n, 3, "Float", 8);
  fprintf(fp, "        </Geometry>\n");
  for (PetscInt k = 0; k < nfield; k++) {
    const Field *f = &field[k];
    if (!(e->fields & ((PetscInt)1 << k)) || !SnapshotField(f) || !strcmp(f->name, "position")) continue;
    fprintf(fp, "        <Attribute Name=\"%s\" AttributeType=\"%s\" Center=\"Node\">\n", f->name,
            f->ncomp == 1   ? "Scalar"
            : f->ncomp == 3 ? "Vector"
                            : "Matrix");
    XdmfItem(fp, file, f->name, e->n, f->ncomp, f->type == FIELD_REAL ? "Float" : "Int",
             f->type == FIELD_INT32 ? 4 : 8);
    fprintf(fp, "        </Attribute>\n");
  }
  fprintf(fp, "      </Grid>\n");
}

/* Mesh k of file as triangles, at the entry's time. */
static void XdmfMeshGrid(FILE *fp, const SnapshotMeshTable *mt, PetscInt k, const char *file, const SnapshotEntry *e)
{
  char path[96];
  fprintf(fp, "      <Grid Name=\"%s_%09lld\" GridType=\"Uniform\">\n", mt->name[k], (long long)e->step);
  fprintf(fp, "        <Time Value=\"%.17g\"/>\n", (double)e->time);
  fprintf(fp, "        <Topology TopologyType=\"Triangle\" NumberOfElements=\"%lld\">\n", (long long)mt->nt[k]);
  snprintf(path, sizeof(path), "meshes/%s/triangles", mt->name[k]);
  XdmfData(fp, file, path, mt->nt[k], 3, "Int", 8);
  fprintf(fp, "        </Topology>\n        <Geometry GeometryType=\"XYZ\">\n");
  snprintf(path, sizeof(path), "meshes/%s/points", mt->name[k]);
  XdmfData(fp, file, path, mt->nv[k], 3, "Float", 8);
  fprintf(fp, "        </Geometry>\n");
  for (PetscInt c = 0; c < mt->ncell[k]; c++) {
    fprintf(fp, "        <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"Cell\">\n", mt->cell[k][c]);
    snprintf(path, sizeof(path), "meshes/%s/%s", mt->name[k], mt->cell[k][c]);
    XdmfData(fp, file, path, mt->nt[k], 1, "Float", 8);
    fprintf(fp, "        </Attribute>\n");
  }
  fprintf(fp, "      </Grid>\n");
}

/* Rank 0: an index over files[k] holding entries e[k], written atomically
 * so a reader never sees it half-written. */
static PetscErrorCode XdmfWrite(const char *path, const Field *field, PetscInt nfield, const SnapshotMeshTable *mt,
                                PetscInt n, char (*files)[PETSC_MAX_PATH_LEN], const SnapshotEntry *e)
{
  AtomicFile af;

  PetscFunctionBeginUser;
  PetscCall(AtomicFileOpen(path, &af));
  fprintf(af.fp, "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n  "
                 "<Domain>\n");
  fprintf(af.fp, "    <Grid Name=\"particles\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
  for (PetscInt k = 0; k < n; k++) XdmfGrid(af.fp, field, nfield, files[k], &e[k]);
  fprintf(af.fp, "    </Grid>\n");
  /* each mesh a temporal collection of its own, over the states that hold it */
  for (PetscInt q = 0; q < mt->n; q++) {
    PetscBool any = PETSC_FALSE;
    for (PetscInt k = 0; k < n; k++) any = any || (e[k].meshes & (1 << q));
    if (!any) continue;
    fprintf(af.fp, "    <Grid Name=\"%s\" GridType=\"Collection\" CollectionType=\"Temporal\">\n", mt->name[q]);
    for (PetscInt k = 0; k < n; k++)
      if (e[k].meshes & (1 << q)) XdmfMeshGrid(af.fp, mt, q, files[k], &e[k]);
    fprintf(af.fp, "    </Grid>\n");
  }
  fprintf(af.fp, "  </Domain>\n</Xdmf>\n");
  PetscCall(AtomicFileCommit(&af, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the whole collection. */
static PetscErrorCode SnapshotSeriesWriteXdmf(const SnapshotSeries *s)
{
  char path[PETSC_MAX_PATH_LEN + 32];
  char(*files)[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/snapshots.xdmf", s->dir));
  PetscCall(PetscMalloc1(s->n + 1, &files));
  for (PetscInt k = 0; k < s->n; k++) {
    char name[64];
    SnapshotName(s->e[k].step, name, sizeof(name));
    PetscCall(PetscSNPrintf(files[k], sizeof(files[k]), "snapshots/%s", name));
  }
  PetscCall(XdmfWrite(path, s->field, s->nfield, &s->meshes, s->n, files, s->e));
  PetscCall(PetscFree(files));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SnapshotWriteBodies(H5File f, const SnapshotBodies *b)
{
  PetscFunctionBeginUser;
  if (!b || !b->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(H5FileWriteRows(f, "bodies/id", H5FILE_INT64, 1, b->n, b->id));
  PetscCall(H5FileWriteRows(f, "bodies/template", H5FILE_INT32, 1, b->n, b->tmpl));
  PetscCall(H5FileWriteRows(f, "bodies/position", H5FILE_REAL, 3, b->n, b->position));
  PetscCall(H5FileWriteRows(f, "bodies/orientation", H5FILE_REAL, 4, b->n, b->orientation));
  PetscCall(H5FileWriteRows(f, "bodies/velocity", H5FILE_REAL, 3, b->n, b->velocity));
  PetscCall(H5FileWriteRows(f, "bodies/angular_velocity", H5FILE_REAL, 3, b->n, b->angular_velocity));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SnapshotWriteFile(MPI_Comm comm, H5File f, PetscInt fields, const SnapshotView *v, PetscInt64 *N)
{
  const FieldStore *st = v->st;
  PetscInt          n  = *st->n;
  PetscInt64       *conn, off;

  PetscFunctionBeginUser;
  PetscCall(CollectiveOffset(comm, n, &off, N));
  PetscCall(H5FileWriteRows(f, "particles/position", H5FILE_REAL, 3, n, *st->x));
  PetscCall(PetscMalloc1(n + 1, &conn));
  for (PetscInt i = 0; i < n; i++) conn[i] = off + i;
  PetscCall(H5FileWriteRows(f, "particles/connectivity", H5FILE_INT64, 1, n, conn));
  PetscCall(PetscFree(conn));
  for (PetscInt k = 0; k < st->nfield; k++) {
    const Field *fd = &st->field[k];
    char         name[64];
    if (!(fields & ((PetscInt)1 << k)) || !SnapshotField(fd) || !strcmp(fd->name, "position")) continue;
    PetscCall(PetscSNPrintf(name, sizeof(name), "particles/%s", fd->name));
    PetscCall(H5FileWriteRows(f, name, SnapshotType(fd->type), fd->ncomp, n, *fd->data));
  }
  PetscCall(H5FileWriteRows(f, "walls/normal", H5FILE_REAL, 3, v->nwall, v->wall_normal));
  PetscCall(H5FileWriteRows(f, "walls/point", H5FILE_REAL, 3, v->nwall, v->wall_point));
  for (PetscInt k = 0; v->meshes && k < v->meshes->n; k++) {
    char name[64];
    if (!v->mesh[k].present) continue;
    PetscCall(PetscSNPrintf(name, sizeof(name), "meshes/%s/points", v->meshes->name[k]));
    PetscCall(H5FileWriteRows(f, name, H5FILE_REAL, 3, v->mesh[k].nv, v->mesh[k].points));
    PetscCall(PetscSNPrintf(name, sizeof(name), "meshes/%s/triangles", v->meshes->name[k]));
    PetscCall(H5FileWriteRows(f, name, H5FILE_INT64, 3, v->mesh[k].nt, v->mesh[k].tri));
    for (PetscInt c = 0; c < v->meshes->ncell[k]; c++) {
      PetscCall(PetscSNPrintf(name, sizeof(name), "meshes/%s/%s", v->meshes->name[k], v->meshes->cell[k][c]));
      PetscCall(H5FileWriteRows(f, name, H5FILE_REAL, 1, v->mesh[k].nt, v->mesh[k].cell[c]));
    }
  }
  PetscCall(SnapshotWriteBodies(f, v->bodies));
  PetscCall(H5FileWriteAttrReal(f, "time", v->time));
  PetscCall(H5FileWriteAttrReal(f, "dt", v->dt));
  PetscCall(H5FileWriteAttrInt64(f, "step", v->step));
  PetscCall(H5FileWriteAttrInt64(f, "particles", *N));
  PetscCall(H5FileWriteAttrString(f, "hdem_version", HDEM_VERSION));
  PetscCall(H5FileWriteAttrString(f, "options", v->options ? v->options : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One state file, committed whole (H5FileCommit) or not at all. */
static PetscErrorCode SnapshotWritePath(MPI_Comm comm, const char *path, PetscInt fields, const SnapshotView *v,
                                        PetscInt64 *N)
{
  H5File         f;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(H5FileCreate(comm, path, &f));
  ierr = SnapshotWriteFile(comm, f, fields, v, N);
  PetscCall(H5FileAbandon(&f, ierr));
  PetscCall(H5FileCommit(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SnapshotWriteState(MPI_Comm comm, const char *path, PetscInt fields, const SnapshotView *v)
{
  PetscInt64 N;

  PetscFunctionBeginUser;
  PetscCall(SnapshotWritePath(comm, path, fields, v, &N));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0's index (.xdmf), written alone: its outcome is shared, so that a
 * full disk there ends every rank alike, the error said once. */
static PetscErrorCode SnapshotFinalXdmf(const char *dir, const char *name, const SnapshotView *v, SnapshotEntry *e)
{
  char              path[PETSC_MAX_PATH_LEN + 16], files[1][PETSC_MAX_PATH_LEN];
  SnapshotMeshTable none = {0};

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(files[0], sizeof(files[0]), "%s.h5", name));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s.xdmf", dir, name));
  PetscCall(XdmfWrite(path, v->st->field, v->st->nfield, v->meshes ? v->meshes : &none, 1, files, e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SnapshotWriteFinal(MPI_Comm comm, const char *dir, const char *name, const SnapshotView *v)
{
  char          path[PETSC_MAX_PATH_LEN + 16];
  SnapshotEntry e;
  PetscMPIInt   rank;

  PetscFunctionBeginUser;
  e.fields = SnapshotFieldsAll(v->st);
  e.step = v->step, e.time = v->time;
  e.meshes = SnapshotMeshMask(v);
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s.h5", dir, name));
  PetscCall(SnapshotWritePath(comm, path, e.fields, v, &e.n));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  CollectiveShared(comm, rank == 0 ? SnapshotFinalXdmf(dir, name, v, &e) : PETSC_SUCCESS);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the series' entry and its index (see SnapshotFinalXdmf). */
static PetscErrorCode SnapshotSeriesAppend(SnapshotSeries *s, PetscInt fields, const SnapshotView *v, PetscInt64 N)
{
  PetscFunctionBeginUser;
  if (s->n && s->e[s->n - 1].step == v->step) s->n--; /* rewritten after a restart */
  PetscCall(SnapshotSeriesAdd(s, v->step, v->time, N, fields, SnapshotMeshMask(v)));
  PetscCall(SnapshotSeriesWriteXdmf(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SnapshotWrite(MPI_Comm comm, SnapshotSeries *s, PetscInt fields, const SnapshotView *v)
{
  char        path[2 * PETSC_MAX_PATH_LEN], file[64];
  PetscInt64  N = 0;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  SnapshotName(v->step, file, sizeof(file));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/snapshots/%s", s->dir, file));
  PetscCall(SnapshotWritePath(comm, path, fields, v, &N));
  PetscCall(CollectiveRank(comm, &rank, NULL));
  CollectiveShared(comm, rank == 0 ? SnapshotSeriesAppend(s, fields, v, N) : PETSC_SUCCESS);
  PetscFunctionReturn(PETSC_SUCCESS);
}
