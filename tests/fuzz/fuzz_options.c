/* libFuzzer harness: bytes as a YAML deck.  OptionsReadDeck (io/options.c)
 * reads it as `hdem run DECK` does (PETSc's YAML reader into the options
 * database), then the run's validation that is public outside src/app:
 * EngineSetFromOptions collecting (every key recorded), OptionsCheckUnused
 * (misspelt keys; its verdict ignored, as the run's own keys are unknown
 * here), and EngineSetFromOptions for real (ranges, the domain,
 * the insertion), the engine destroyed after.  cmd_run.c's own keys (steps,
 * output, monitors) are static there and not reached.  The real pass is
 * skipped for decks that name a file to insert (-insert_file: that is the
 * other harness's reader, and a deck may name /dev/stdin) or ask for more
 * than HDEM_FUZZ_MAX_INSERT particles (a valid deck, just slow).  Any input
 * must end in success or a PETSc error, never a crash or a sanitizer report.
 * Configured with -DHDEM_FUZZ_ENGINE=OFF, only OptionsReadDeck runs, and a
 * few io/ readers on the keys every deck has. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "fuzz_init.h"
#include "io/options.h"
#if defined(HDEM_FUZZ_ENGINE)
  #include "engine/engine.h"
  #include "engine/setup.h"
#endif

#define HDEM_FUZZ_MAX_INSERT 2000

static char deck[64];

static void RemoveDeck(void)
{
  (void)unlink(deck);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  int fd;
  (void)argc, (void)argv;
  (void)HdemFuzzInit();
  snprintf(deck, sizeof(deck), "/tmp/hdem_fuzz_deck_%d_XXXXXX", (int)getpid());
  fd = mkstemp(deck);
  if (fd < 0) abort();
  close(fd);
  atexit(RemoveDeck);
  return 0;
}

#if defined(HDEM_FUZZ_ENGINE)
/* Small enough to set up for real: no file to insert, few particles. */
static PetscBool SmallDeck(void)
{
  char      buf[64];
  PetscBool set = PETSC_FALSE;
  char     *end;
  double    n;

  if (PetscOptionsHasName(NULL, NULL, "-insert_file", &set) || set) return PETSC_FALSE;
  if (PetscOptionsGetString(NULL, NULL, "-insert_count", buf, sizeof(buf), &set)) return PETSC_FALSE;
  if (!set) return PETSC_TRUE;
  n = strtod(buf, &end);
  return end != buf && n <= HDEM_FUZZ_MAX_INSERT ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode Validate(void)
{
  Engine         e;
  EngineKeys     keys;
  PetscErrorCode ierr;

  OptionsSetCollect(PETSC_TRUE);
  ierr = EngineSetFromOptions(PETSC_COMM_WORLD, &e, &keys);
  OptionsSetCollect(PETSC_FALSE);
  if (EngineDestroy(&e)) abort();
  /* the run's own keys (steps, output_dir, ...) are unknown here: the
   * check runs for its own sake, and the real pass whatever it says */
  if (!ierr) (void)OptionsCheckUnused(PETSC_COMM_WORLD);
  if (!ierr && SmallDeck()) {
    ierr = EngineSetFromOptions(PETSC_COMM_WORLD, &e, &keys);
    if (!ierr) ierr = EngineCreate(PETSC_COMM_WORLD, PETSC_TRUE, &keys, &e);
    if (EngineDestroy(&e)) abort();
  }
  return ierr;
}
#else
/* The io/ readers on keys of every kind, as the engine would read them. */
static PetscErrorCode Validate(void)
{
  PetscReal      lo[3] = {0, 0, 0}, e = 1, g[3] = {0, 0, 0};
  PetscInt       n, count = 0, grid[3] = {0, 0, 0};
  PetscInt64     steps  = 0;
  PetscBool      per[3] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE}, walls = PETSC_FALSE;
  char           mode[64] = "", file[PETSC_MAX_PATH_LEN] = "";
  PetscErrorCode ierr;

  ierr = OptionsRealArray("-domain_lo", "lower corner", "[m]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, lo,
                          &n, NULL);
  if (!ierr)
    ierr = OptionsRealArray("-gravity", "gravity", "[m/s^2]", 3, 3, PETSC_MIN_REAL, PETSC_MAX_REAL, RANGE_CLOSED, g, &n,
                            NULL);
  if (!ierr) ierr = OptionsBoolArray("-domain_periodic", "periodic", 3, 3, per, &n, NULL);
  if (!ierr) ierr = OptionsIntArray("-domain_grid", "ranks", 3, 3, 0, 1 << 20, grid, &n, NULL);
  if (!ierr) ierr = OptionsBool("-domain_walls", "walls", &walls, NULL);
  if (!ierr) ierr = OptionsReal("-material_E", "Young's modulus", "[Pa]", 0.0, PETSC_MAX_REAL, RANGE_OPEN, &e, NULL);
  if (!ierr) ierr = OptionsInt("-insert_count", "count", 0, PETSC_MAX_INT, &count, NULL);
  if (!ierr) ierr = OptionsInt64("-steps", "steps", 0, INT64_MAX, &steps, NULL);
  if (!ierr) ierr = OptionsString("-insert_mode", "mode", mode, sizeof(mode), NULL);
  if (!ierr) ierr = OptionsPath("-insert_file", "file", file, sizeof(file), NULL);
  if (!ierr) (void)OptionsCheckUnused(PETSC_COMM_WORLD);
  return ierr;
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static char    name[] = "hdem", *args[] = {name, NULL};
  FILE          *fp = fopen(deck, "wb");
  PetscErrorCode ierr;

  if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp)) abort();
  if (PetscOptionsClear(NULL)) abort();
  OptionsRecordsClear();
  ierr = OptionsReadDeck(PETSC_COMM_WORLD, deck, 1, args);
  if (!ierr) ierr = Validate();
  HdemFuzzReport(ierr);
  OptionsRecordsClear();
  return 0;
}
