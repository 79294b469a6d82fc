#include "io/options.h"
#include <math.h>

static char deck_name[PETSC_MAX_PATH_LEN] = "";

PetscErrorCode OptionsSetDeck(const char *path)
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(deck_name, path ? path : "", sizeof(deck_name)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *OptionsDeck(void)
{
  return deck_name;
}

/* Where a value came from, for error messages. */
static const char *OptionsSource(char *buf, size_t len)
{
  if (deck_name[0]) PetscCallAbort(PETSC_COMM_SELF, PetscSNPrintf(buf, len, " (deck %s or command line)", deck_name));
  else PetscCallAbort(PETSC_COMM_SELF, PetscSNPrintf(buf, len, " (command line)"));
  return buf;
}

static void FormatBound(char *buf, size_t len, PetscReal v)
{
  if (v >= PETSC_MAX_REAL) PetscCallAbort(PETSC_COMM_SELF, PetscSNPrintf(buf, len, "inf"));
  else if (v <= PETSC_MIN_REAL) PetscCallAbort(PETSC_COMM_SELF, PetscSNPrintf(buf, len, "-inf"));
  else snprintf(buf, len, "%g", (double)v);
}

PetscErrorCode OptionsCheckReal(const char *key, PetscReal v, PetscReal lo, PetscReal hi, OptionRange r, const char *units)
{
  PetscBool lo_open = (r == RANGE_OPEN_LO || r == RANGE_OPEN) ? PETSC_TRUE : PETSC_FALSE;
  PetscBool hi_open = (r == RANGE_OPEN_HI || r == RANGE_OPEN) ? PETSC_TRUE : PETSC_FALSE;
  PetscBool ok      = isfinite(v) && (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
  char      src[PETSC_MAX_PATH_LEN + 64], blo[32], bhi[32], bv[32];

  PetscFunctionBeginUser;
  if (ok) PetscFunctionReturn(PETSC_SUCCESS);
  FormatBound(blo, sizeof(blo), lo);
  FormatBound(bhi, sizeof(bhi), hi);
  FormatBound(bv, sizeof(bv), v);
  SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "-%s = %s%s is out of range: allowed %s%s, %s%s %s", key, bv, OptionsSource(src, sizeof(src)), lo_open ? "(" : "[", blo, bhi, hi_open ? ")" : "]", units ? units : "");
}

PetscErrorCode OptionsCheckInt(const char *key, PetscInt v, PetscInt lo, PetscInt hi)
{
  char src[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBeginUser;
  PetscCheck(v >= lo && v <= hi, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "-%s = %" PetscInt_FMT "%s is out of range: allowed [%" PetscInt_FMT ", %" PetscInt_FMT "]", key, v, OptionsSource(src, sizeof(src)), lo, hi);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A key that nothing read is a misspelling or a key of another command:
 * refuse it rather than silently run with the default. */
PetscErrorCode OptionsCheckUnused(MPI_Comm comm)
{
  PetscInt n;
  char   **names, **values, src[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsLeftGet(NULL, &n, &names, &values));
  for (PetscInt i = 0; i < n; i++) {
    PetscBool petsc_own;
    /* PETSc's own run-time switches are read at finalize, not by hdem */
    PetscCall(PetscStrbeginswith(names[i], "log_view", &petsc_own));
    if (petsc_own) continue;
    PetscCall(PetscStrcmp(names[i], "options_left", &petsc_own));
    if (petsc_own) continue;
    PetscCall(PetscStrcmp(names[i], "hdem_traceback", &petsc_own));
    if (petsc_own) continue;
    {
      PetscErrorCode ierr = PETSC_ERR_USER_INPUT;
      char           msg[1024];
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "unknown option -%s%s%s%s: misspelt, or not an option of this command (see -help)", names[i], values[i] ? " " : "", values[i] ? values[i] : "", OptionsSource(src, sizeof(src))));
      PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
      SETERRQ(comm, ierr, "%s", msg);
    }
  }
  PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n values for key, of lo .. hi: PETSc reads an array option into the room
 * it is given and drops the rest without a word. */
static PetscErrorCode OptionsCountIn(const char *key, PetscInt n, PetscInt lo, PetscInt hi)
{
  char src[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBeginUser;
  if (lo == hi) PetscCheck(n == lo, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s takes %" PetscInt_FMT " values%s, got %" PetscInt_FMT "%s", key, lo, lo == 3 ? " (x, y, z)" : "", n, OptionsSource(src, sizeof(src)));
  else PetscCheck(n >= lo && n <= hi, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s takes %" PetscInt_FMT " to %" PetscInt_FMT " values, got %" PetscInt_FMT "%s", key, lo, hi, n, OptionsSource(src, sizeof(src)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's own message for "-key abc" does not name the key: check the raw
 * text first (a finite number, or a comma list of lo .. hi of them). */
PetscErrorCode OptionsCheckList(const char *key, PetscBool integer, PetscInt lo, PetscInt hi)
{
  char      raw[4096], src[PETSC_MAX_PATH_LEN + 64];
  PetscBool set;
  PetscInt  n = 1;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, key, raw, sizeof(raw), &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  for (const char *c = raw; *c; c++) n += *c == ',';
  for (char *tok = raw, *next; tok && *tok; tok = next) {
    char  *end;
    double v = 0.0;
    next = strchr(tok, ',');
    if (next) *next++ = 0;
    if (integer) (void)strtoll(tok, &end, 10);
    else v = strtod(tok, &end);
    while (*end == ' ') end++;
    PetscCheck(end != tok && *end == 0, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = '%s'%s is not %s", key, tok, OptionsSource(src, sizeof(src)), integer ? "an integer" : "a number");
    PetscCheck(integer || isfinite(v), PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = '%s'%s is not a finite number", key, tok, OptionsSource(src, sizeof(src)));
  }
  PetscCall(OptionsCountIn(key, n, lo, hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsCheckSyntax(const char *key, PetscBool integer)
{
  PetscFunctionBeginUser;
  PetscCall(OptionsCheckList(key, integer, 1, PETSC_MAX_INT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsCheckCount(const char *key, PetscInt lo, PetscInt hi)
{
  char      raw[4096];
  PetscBool set;
  PetscInt  n = 1;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, key, raw, sizeof(raw), &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  for (const char *c = raw; *c; c++) n += *c == ',';
  PetscCall(OptionsCountIn(key, n, lo, hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}
