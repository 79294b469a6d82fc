/* libFuzzer harness: a whole deck, with the small files it may name, through
 * the run's set-up and a few steps: what `hdem run DECK` does before and
 * in its time loop, without the outputs (cmd_run.c's monitors).
 *
 * The input is the deck (YAML), then parts, each starting at a line
 * "%%NAME": NAME one of mesh.stl, clump.txt, data.lmp, table.txt.  Each
 * part is written under that name in a folder of this process beside
 * deck.yaml, so a deck names it as `file: mesh.stl` (relative paths of a
 * deck are taken from its folder); a name not given is absent.
 *
 * Each input: OptionsReadDeck, the collecting pass of EngineSetFromOptions
 * (as RunCollect), then EngineSetFromOptions inserting, EngineSetUp,
 * EngineRun for HDEM_FUZZ_STEPS steps with no monitors, EngineGetStats, and
 * EngineDestroy.  A PETSc error or a fault is a fine outcome; a crash, a
 * sanitizer report or a leak is not, nor a run that ends without a fault
 * with a non-finite position or velocity (abort()).
 *
 * Kept small so an input takes well under a second: a deck naming a file
 * other than the folder's (a '/' in a *_file key: /dev/zero would hang) or
 * with more than HDEM_FUZZ_MAX_CLUMP_SPHERES spheres in its clump templates
 * (their mass properties cost up to n^4) is skipped; insert_count and each
 * streaming stream's count are cut to HDEM_FUZZ_MAX_INSERT.  The parts are
 * bounded by the input's size (run.sh's -max_len). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "fuzz_init.h"
#include "engine/engine.h"
#include "engine/run.h"
#include "engine/setup.h"
#include "io/options.h"

#define HDEM_FUZZ_STEPS             5
#define HDEM_FUZZ_MAX_INSERT        200
#define HDEM_FUZZ_MAX_INSERT_TEXT   "200"
#define HDEM_FUZZ_MAX_CLUMP_SPHERES 24
#define HDEM_FUZZ_TEMPLATES         16 /* clump0 .. clump15, mesh0 .. mesh15 */
#define HDEM_FUZZ_STREAMS           8

static const char *const parts[] = {"mesh.stl", "clump.txt", "data.lmp", "table.txt"};
#define NPARTS (sizeof(parts) / sizeof(parts[0]))

static char dir[64], deck[96];

static void PartPath(const char *name, char *path, size_t len)
{
  snprintf(path, len, "%s/%s", dir, name);
}

static void RemoveAll(void)
{
  char path[128];
  for (size_t k = 0; k < NPARTS; k++) PartPath(parts[k], path, sizeof(path)), (void)unlink(path);
  (void)unlink(deck);
  (void)rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc, (void)argv;
  (void)HdemFuzzInit();
  snprintf(dir, sizeof(dir), "/tmp/hdem_fuzz_deck_%d_XXXXXX", (int)getpid());
  if (!mkdtemp(dir)) abort();
  snprintf(deck, sizeof(deck), "%s/deck.yaml", dir);
  atexit(RemoveAll);
  return 0;
}

static void WriteFile(const char *path, const uint8_t *data, size_t size)
{
  FILE *fp = fopen(path, "wb");
  if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp)) abort();
}

/* The deck and its parts into the folder; the parts not given removed, so
 * one input's files never reach the next. */
static void Split(const uint8_t *data, size_t size)
{
  static const char mark[] = "\n%%";
  const size_t      lm     = sizeof(mark) - 1;
  char              path[128];
  size_t            at = 0, end;

  for (size_t k = 0; k < NPARTS; k++) PartPath(parts[k], path, sizeof(path)), (void)unlink(path);
  for (end = 0; end + lm <= size && memcmp(data + end, mark, lm); end++) { }
  if (end + lm > size) end = size;
  WriteFile(deck, data, end);
  at = end;
  while (at < size) {
    size_t name = at + lm, nl = name, next;
    while (nl < size && data[nl] != '\n') nl++;
    for (next = nl; next + lm <= size && memcmp(data + next, mark, lm); next++) { }
    if (next + lm > size) next = size;
    for (size_t k = 0; k < NPARTS; k++)
      if (nl - name == strlen(parts[k]) && !memcmp(data + name, parts[k], nl - name)) {
        PartPath(parts[k], path, sizeof(path));
        WriteFile(path, data + PetscMin(nl + 1, next), next - PetscMin(nl + 1, next));
      }
    at = next;
  }
}

/* A key's value as a number, if it is one. */
static PetscBool GetNumber(const char *key, double *v)
{
  char      buf[64], *end;
  PetscBool set = PETSC_FALSE;

  if (PetscOptionsGetString(NULL, NULL, key, buf, sizeof(buf), &set) || !set) return PETSC_FALSE;
  *v = strtod(buf, &end);
  return end != buf && !*end ? PETSC_TRUE : PETSC_FALSE;
}

/* key at most max, where it is a number above. */
static void Cap(const char *key, double max)
{
  double v;
  char   buf[32];

  if (!GetNumber(key, &v) || !(v > max)) return;
  snprintf(buf, sizeof(buf), "%.0f", max);
  if (PetscOptionsSetValue(NULL, key, buf)) abort();
}

/* The lines of a file of the folder (a clump file's spheres, at most). */
static PetscInt Lines(const char *name)
{
  char     path[PETSC_MAX_PATH_LEN + 64];
  FILE    *fp;
  PetscInt n = 1;
  int      c;

  snprintf(path, sizeof(path), "%s/%s", dir, name);
  if (!(fp = fopen(path, "rb"))) return 0;
  while ((c = fgetc(fp)) != EOF) n += c == '\n';
  fclose(fp);
  return n;
}

/* Whether the deck is one to run (files of the folder only, few clump
 * spheres); the counts cut. */
static PetscBool Bounded(void)
{
  static const char *const files[] = {"-insert_file", "-contact_table_file"};
  char                     key[64], val[PETSC_MAX_PATH_LEN];
  PetscBool                set;
  PetscInt                 spheres = 0;

  for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
    if (PetscOptionsGetString(NULL, NULL, files[k], val, sizeof(val), &set)) return PETSC_FALSE;
    if (set && strchr(val, '/')) return PETSC_FALSE;
  }
  for (int k = 0; k < HDEM_FUZZ_TEMPLATES; k++) {
    snprintf(key, sizeof(key), "-mesh%d_file", k);
    if (PetscOptionsGetString(NULL, NULL, key, val, sizeof(val), &set)) return PETSC_FALSE;
    if (set && strchr(val, '/')) return PETSC_FALSE;
    snprintf(key, sizeof(key), "-clump%d_file", k);
    if (PetscOptionsGetString(NULL, NULL, key, val, sizeof(val), &set)) return PETSC_FALSE;
    if (set && strchr(val, '/')) return PETSC_FALSE;
    if (set) spheres += Lines(val);
    snprintf(key, sizeof(key), "-clump%d_spheres", k);
    if (PetscOptionsGetString(NULL, NULL, key, val, sizeof(val), &set)) return PETSC_FALSE;
    if (set) {
      PetscInt n = 1;
      for (const char *c = val; *c; c++) n += *c == ',';
      spheres += (n + 3) / 4;
    }
  }
  if (spheres > HDEM_FUZZ_MAX_CLUMP_SPHERES) return PETSC_FALSE;
  Cap("-insert_count", HDEM_FUZZ_MAX_INSERT);
  for (int k = 0; k < HDEM_FUZZ_STREAMS; k++) {
    PetscBool rate = PETSC_FALSE, mass = PETSC_FALSE;
    snprintf(key, sizeof(key), "-stream%d_rate", k);
    if (PetscOptionsHasName(NULL, NULL, key, &rate)) return PETSC_FALSE;
    snprintf(key, sizeof(key), "-stream%d_mass_rate", k);
    if (PetscOptionsHasName(NULL, NULL, key, &mass)) return PETSC_FALSE;
    if (!rate && !mass) continue; /* not streaming: a count given alone must stay alone */
    snprintf(key, sizeof(key), "-stream%d_count", k);
    if (PetscOptionsHasName(NULL, NULL, key, &set)) return PETSC_FALSE;
    /* unlimited by default; a value that is no number is the reader's to refuse */
    if (set) Cap(key, HDEM_FUZZ_MAX_INSERT);
    else if (PetscOptionsSetValue(NULL, key, HDEM_FUZZ_MAX_INSERT_TEXT)) abort();
  }
  return PETSC_TRUE;
}

/* What a run that ended without a fault promises of its particles. */
static void Sane(const Engine *e)
{
  for (PetscInt i = 0; i < 3 * e->p.n; i++)
    if (!isfinite(e->p.x[i]) || !isfinite(e->p.v[i])) {
      fprintf(stderr,
              "harness: particle %" PetscInt64_FMT " has a non-finite position or velocity after %" PetscInt64_FMT
              " steps without a fault\n",
              (PetscInt64)e->p.id[i / 3], e->clock.step);
      abort();
    }
}

static PetscErrorCode Run(void)
{
  Engine          e;
  EngineKeys      keys;
  EngineRunLimits lim = {HDEM_FUZZ_STEPS, PETSC_MAX_REAL};
  EngineRunEnd    end;
  EngineStats     s;
  PetscErrorCode  ierr;

  PetscFunctionBeginUser;
  /* every key read once without values first, as the run does (RunCollect) */
  OptionsSetCollect(PETSC_TRUE);
  ierr = EngineSetFromOptions(PETSC_COMM_WORLD, &e, &keys);
  OptionsSetCollect(PETSC_FALSE);
  if (EngineDestroy(&e)) abort();
  if (ierr) PetscFunctionReturn(ierr);
  ierr = EngineSetFromOptions(PETSC_COMM_WORLD, &e, &keys);
  if (!ierr) ierr = EngineCreate(PETSC_COMM_WORLD, PETSC_TRUE, &keys, &e);
  if (!ierr) ierr = EngineSetUp(&e);
  if (!ierr && !e.health.fault.kind) ierr = EngineRun(&e, &lim, PETSC_TRUE, 0, NULL, &end);
  if (!ierr && !e.health.fault.kind) Sane(&e);
  if (!ierr && !e.health.fault.kind) ierr = EngineGetStats(&e, &s);
  if (EngineDestroy(&e)) abort(); /* the engine goes whatever the outcome: a leak is a finding */
  PetscFunctionReturn(ierr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static char    name[] = "hdem", *args[] = {name, NULL};
  PetscErrorCode ierr;

  Split(data, size);
  if (PetscOptionsClear(NULL)) abort();
  OptionsRecordsClear();
  ierr = OptionsReadDeck(PETSC_COMM_WORLD, deck, 1, args);
  if (!ierr && !Bounded()) {
    if (getenv("HDEM_FUZZ_VERBOSE")) fprintf(stderr, "skipped: a file outside the folder or too many clump spheres\n");
  } else {
    if (!ierr) ierr = Run();
    HdemFuzzReport(ierr);
  }
  OptionsRecordsClear();
  return 0;
}
