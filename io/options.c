#include "io/options.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char deck_name[PETSC_MAX_PATH_LEN] = "";
static const char *section = "General";

#define OPTIONS_MAX_RECORDS 512
static OptionRecord records[OPTIONS_MAX_RECORDS];
static PetscInt     nrecords = 0;

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

PetscErrorCode OptionsSection(const char *title)
{
  PetscFunctionBeginUser;
  section = title;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt OptionsRecorded(void)
{
  return nrecords;
}

const OptionRecord *OptionsRecord(PetscInt k)
{
  return k >= 0 && k < nrecords ? &records[k] : NULL;
}

void OptionsRecordsClear(void)
{
  for (PetscInt k = 0; k < nrecords; k++) free(records[k].value);
  nrecords = 0;
}

/* Where a value came from, for error messages. */
static const char *OptionsSource(char *buf, size_t len)
{
  if (deck_name[0]) snprintf(buf, len, " (deck %s or command line)", deck_name);
  else snprintf(buf, len, " (command line)");
  return buf;
}

static void FormatBound(char *buf, size_t len, PetscReal v)
{
  if (v >= PETSC_MAX_REAL) snprintf(buf, len, "inf");
  else if (v <= PETSC_MIN_REAL) snprintf(buf, len, "-inf");
  else snprintf(buf, len, "%g", (double)v);
}

static void FormatRange(char *buf, size_t len, PetscReal lo, PetscReal hi, OptionRange r)
{
  char blo[32], bhi[32];
  FormatBound(blo, sizeof(blo), lo);
  FormatBound(bhi, sizeof(bhi), hi);
  snprintf(buf, len, "%s%s, %s%s", r == RANGE_OPEN_LO || r == RANGE_OPEN ? "(" : "[", blo, bhi, r == RANGE_OPEN_HI || r == RANGE_OPEN ? ")" : "]");
}

/* The key's record, new or (read again) the same. */
static OptionRecord *OptionsRecordFor(const char *key, const char *help, const char *units, const char *range, const char *dflt)
{
  OptionRecord *r = NULL;
  for (PetscInt k = 0; k < nrecords && !r; k++)
    if (!strcmp(records[k].key, key)) r = &records[k];
  if (!r) {
    if (nrecords == OPTIONS_MAX_RECORDS) return NULL;
    r = &records[nrecords++];
    memset(r, 0, sizeof(*r));
    r->section = section;
    snprintf(r->key, sizeof(r->key), "%s", key);
  }
  r->help  = help ? help : "";
  r->units = units ? units : "";
  snprintf(r->range, sizeof(r->range), "%s", range ? range : "");
  snprintf(r->dflt, sizeof(r->dflt), "%s", dflt ? dflt : "");
  return r;
}

/* The key's raw text, if given (PETSc marks it used). */
static PetscErrorCode OptionsRaw(const char *key, const char **raw, PetscBool *set)
{
  PetscFunctionBeginUser;
  *raw = NULL;
  PetscCall(PetscOptionsFindPair(NULL, NULL, key, raw, set));
  if (*set && !*raw) *raw = "";
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void OptionsNoteValue(OptionRecord *r, const char *raw)
{
  if (!r) return;
  r->set = PETSC_TRUE;
  free(r->value);
  r->value = strdup(raw); /* NULL if out of memory: the value is then not shown */
}

/* The next comma-separated item of *s (spaces around it dropped) into tok. */
static PetscBool OptionsNextItem(const char **s, char *tok, size_t len)
{
  const char *c = *s, *e;
  size_t      n;
  if (!c) return PETSC_FALSE;
  while (*c == ' ') c++;
  e = strchr(c, ',');
  n = e ? (size_t)(e - c) : strlen(c);
  while (n && c[n - 1] == ' ') n--;
  if (n >= len) n = len - 1;
  memcpy(tok, c, n);
  tok[n] = 0;
  *s     = e ? e + 1 : NULL;
  return PETSC_TRUE;
}

static PetscErrorCode OptionsParseReal(const char *key, const char *tok, PetscReal *v)
{
  char  *end, src[PETSC_MAX_PATH_LEN + 64];
  double d;

  PetscFunctionBeginUser;
  errno = 0;
  d     = strtod(tok, &end);
  PetscCheck(tok[0] && end != tok && *end == 0, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = '%s'%s is not a number", key, tok,
             OptionsSource(src, sizeof(src)));
  PetscCheck(isfinite(d), PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = '%s'%s is not a finite number", key, tok, OptionsSource(src, sizeof(src)));
  *v = (PetscReal)d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OptionsParseInt64(const char *key, const char *tok, PetscInt64 lo, PetscInt64 hi, PetscInt64 *v)
{
  char     *end, src[PETSC_MAX_PATH_LEN + 64];
  long long x;

  PetscFunctionBeginUser;
  errno = 0;
  x     = strtoll(tok, &end, 10);
  PetscCheck(tok[0] && end != tok && *end == 0, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = '%s'%s is not an integer", key, tok,
             OptionsSource(src, sizeof(src)));
  PetscCheck(errno != ERANGE && x >= lo && x <= hi, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = %s%s is out of range: allowed [%lld, %lld]", key, tok,
             OptionsSource(src, sizeof(src)), (long long)lo, (long long)hi);
  *v = (PetscInt64)x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OptionsParseBool(const char *key, const char *tok, PetscBool *v)
{
  static const char *const yes[] = {"true", "yes", "on", "1", ""}, *const no[] = {"false", "no", "off", "0"};
  char src[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBeginUser;
  for (size_t k = 0; k < sizeof(yes) / sizeof(*yes); k++)
    if (!strcasecmp(tok, yes[k])) {
      *v = PETSC_TRUE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  for (size_t k = 0; k < sizeof(no) / sizeof(*no); k++)
    if (!strcasecmp(tok, no[k])) {
      *v = PETSC_FALSE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = '%s'%s is not a boolean: allowed true, false (yes, no, on, off, 1, 0)", key, tok,
          OptionsSource(src, sizeof(src)));
}

PetscErrorCode OptionsCheckReal(const char *key, PetscReal v, PetscReal lo, PetscReal hi, OptionRange r, const char *units)
{
  PetscBool lo_open = (r == RANGE_OPEN_LO || r == RANGE_OPEN) ? PETSC_TRUE : PETSC_FALSE;
  PetscBool hi_open = (r == RANGE_OPEN_HI || r == RANGE_OPEN) ? PETSC_TRUE : PETSC_FALSE;
  PetscBool ok      = isfinite(v) && (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
  char      src[PETSC_MAX_PATH_LEN + 64], range[96], bv[32];

  PetscFunctionBeginUser;
  if (ok) PetscFunctionReturn(PETSC_SUCCESS);
  FormatRange(range, sizeof(range), lo, hi, r);
  FormatBound(bv, sizeof(bv), v);
  SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s%s = %s%s is out of range: allowed %s %s", key[0] == '-' ? "" : "-", key, bv,
          OptionsSource(src, sizeof(src)), range, units ? units : "");
}

PetscErrorCode OptionsCheckInt(const char *key, PetscInt v, PetscInt lo, PetscInt hi)
{
  char src[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBeginUser;
  PetscCheck(v >= lo && v <= hi, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT,
             "%s%s = %" PetscInt_FMT "%s is out of range: allowed [%" PetscInt_FMT ", %" PetscInt_FMT "]", key[0] == '-' ? "" : "-", key, v,
             OptionsSource(src, sizeof(src)), lo, hi);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsReal(const char *key, const char *help, const char *units, PetscReal lo, PetscReal hi, OptionRange r, PetscReal *value, PetscBool *set)
{
  const char   *raw;
  char          range[96], dflt[48];
  PetscBool     given;
  OptionRecord *rec;

  PetscFunctionBeginUser;
  FormatRange(range, sizeof(range), lo, hi, r);
  FormatBound(dflt, sizeof(dflt), *value);
  rec = OptionsRecordFor(key, help, units, range, dflt);
  PetscCall(OptionsRaw(key, &raw, &given));
  if (set) *set = given;
  if (!given) PetscFunctionReturn(PETSC_SUCCESS);
  OptionsNoteValue(rec, raw);
  PetscCall(OptionsParseReal(key, raw, value));
  PetscCall(OptionsCheckReal(key, *value, lo, hi, r, units));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsInt64(const char *key, const char *help, PetscInt64 lo, PetscInt64 hi, PetscInt64 *value, PetscBool *set)
{
  const char   *raw;
  char          range[96], dflt[48];
  PetscBool     given;
  OptionRecord *rec;

  PetscFunctionBeginUser;
  snprintf(range, sizeof(range), "[%lld, %lld]", (long long)lo, (long long)hi);
  snprintf(dflt, sizeof(dflt), "%lld", (long long)*value);
  rec = OptionsRecordFor(key, help, "", range, dflt);
  PetscCall(OptionsRaw(key, &raw, &given));
  if (set) *set = given;
  if (!given) PetscFunctionReturn(PETSC_SUCCESS);
  OptionsNoteValue(rec, raw);
  PetscCall(OptionsParseInt64(key, raw, lo, hi, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsInt(const char *key, const char *help, PetscInt lo, PetscInt hi, PetscInt *value, PetscBool *set)
{
  PetscInt64 v = *value;

  PetscFunctionBeginUser;
  PetscCall(OptionsInt64(key, help, lo, hi, &v, set));
  *value = (PetscInt)v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsBool(const char *key, const char *help, PetscBool *value, PetscBool *set)
{
  const char   *raw;
  PetscBool     given;
  OptionRecord *rec;

  PetscFunctionBeginUser;
  rec = OptionsRecordFor(key, help, "", "true, false", *value ? "true" : "false");
  PetscCall(OptionsRaw(key, &raw, &given));
  if (set) *set = given;
  if (!given) PetscFunctionReturn(PETSC_SUCCESS);
  OptionsNoteValue(rec, raw);
  PetscCall(OptionsParseBool(key, raw, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsEnum(const char *key, const char *help, const char *const *names, PetscEnum *value, PetscBool *set)
{
  const char   *raw;
  char          allowed[256] = "", src[PETSC_MAX_PATH_LEN + 64];
  PetscInt      n            = 0;
  PetscBool     given;
  OptionRecord *rec;

  PetscFunctionBeginUser;
  while (names[n]) n++;
  n -= 2; /* the type's name and its prefix follow the names */
  for (PetscInt k = 0; k < n; k++) {
    if (k) PetscCall(PetscStrlcat(allowed, ", ", sizeof(allowed)));
    PetscCall(PetscStrlcat(allowed, names[k], sizeof(allowed)));
  }
  rec = OptionsRecordFor(key, help, "", allowed, names[*value]);
  PetscCall(OptionsRaw(key, &raw, &given));
  if (set) *set = given;
  if (!given) PetscFunctionReturn(PETSC_SUCCESS);
  OptionsNoteValue(rec, raw);
  for (PetscInt k = 0; k < n; k++)
    if (!strcasecmp(raw, names[k])) {
      *value = (PetscEnum)k;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = '%s'%s is not one of: %s", key, raw, OptionsSource(src, sizeof(src)), allowed);
}

PetscErrorCode OptionsString(const char *key, const char *help, char *value, size_t len, PetscBool *set)
{
  const char   *raw;
  char          src[PETSC_MAX_PATH_LEN + 64];
  PetscBool     given;
  OptionRecord *rec;

  PetscFunctionBeginUser;
  rec = OptionsRecordFor(key, help, "", "", value);
  PetscCall(OptionsRaw(key, &raw, &given));
  if (set) *set = given;
  if (!given) PetscFunctionReturn(PETSC_SUCCESS);
  OptionsNoteValue(rec, raw);
  PetscCheck(strlen(raw) < len, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = '%s'%s is longer than %d characters", key, raw, OptionsSource(src, sizeof(src)),
             (int)len - 1);
  PetscCall(PetscStrncpy(value, raw, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The list's items, counted against nmin .. nmax. */
static PetscErrorCode OptionsCountItems(const char *key, const char *raw, PetscInt nmin, PetscInt nmax, PetscInt *n)
{
  char src[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBeginUser;
  *n = 1;
  for (const char *c = raw; *c; c++) *n += *c == ',';
  if (nmin == nmax)
    PetscCheck(*n == nmin, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s takes %" PetscInt_FMT " values%s, got %" PetscInt_FMT "%s", key, nmin,
               nmin == 3 ? " (x, y, z)" : "", *n, OptionsSource(src, sizeof(src)));
  else
    PetscCheck(*n >= nmin && *n <= nmax, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT,
               "%s takes %" PetscInt_FMT " to %" PetscInt_FMT " values, got %" PetscInt_FMT "%s", key, nmin, nmax, *n, OptionsSource(src, sizeof(src)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What every list reader does before parsing: record the key, fetch its
 * text and count its items (*raw NULL when not given). */
static PetscErrorCode OptionsArrayRaw(const char *key, const char *help, const char *units, const char *range, const char *dflt, PetscInt nmin, PetscInt nmax,
                                      PetscInt *n, PetscBool *set, const char **raw)
{
  PetscBool     given;
  OptionRecord *rec = OptionsRecordFor(key, help, units, range, dflt);

  PetscFunctionBeginUser;
  PetscCall(OptionsRaw(key, raw, &given));
  if (set) *set = given;
  if (!given) {
    *raw = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  OptionsNoteValue(rec, *raw);
  PetscCall(OptionsCountItems(key, *raw, nmin, nmax, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsRealArray(const char *key, const char *help, const char *units, PetscInt nmin, PetscInt nmax, PetscReal lo, PetscReal hi, OptionRange r,
                                PetscReal *value, PetscInt *n, PetscBool *set)
{
  const char *raw;
  char        range[96], dflt[96] = "", tok[128];

  PetscFunctionBeginUser;
  FormatRange(range, sizeof(range), lo, hi, r);
  for (PetscInt k = 0; k < nmin && k < 8; k++) {
    char b[32];
    FormatBound(b, sizeof(b), value[k]);
    if (k) PetscCall(PetscStrlcat(dflt, ",", sizeof(dflt)));
    PetscCall(PetscStrlcat(dflt, b, sizeof(dflt)));
  }
  PetscCall(OptionsArrayRaw(key, help, units, range, dflt, nmin, nmax, n, set, &raw));
  for (PetscInt k = 0; raw && k < *n && OptionsNextItem(&raw, tok, sizeof(tok)); k++) {
    PetscCall(OptionsParseReal(key, tok, &value[k]));
    PetscCall(OptionsCheckReal(key, value[k], lo, hi, r, units));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsIntArray(const char *key, const char *help, PetscInt nmin, PetscInt nmax, PetscInt lo, PetscInt hi, PetscInt *value, PetscInt *n,
                               PetscBool *set)
{
  const char *raw;
  char        range[96], dflt[96] = "", tok[128];

  PetscFunctionBeginUser;
  snprintf(range, sizeof(range), "[%lld, %lld]", (long long)lo, (long long)hi);
  for (PetscInt k = 0; k < nmin && k < 8; k++) {
    char b[32];
    snprintf(b, sizeof(b), "%s%lld", k ? "," : "", (long long)value[k]);
    PetscCall(PetscStrlcat(dflt, b, sizeof(dflt)));
  }
  PetscCall(OptionsArrayRaw(key, help, "", range, dflt, nmin, nmax, n, set, &raw));
  for (PetscInt k = 0; raw && k < *n && OptionsNextItem(&raw, tok, sizeof(tok)); k++) {
    PetscInt64 v;
    PetscCall(OptionsParseInt64(key, tok, lo, hi, &v));
    value[k] = (PetscInt)v;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsBoolArray(const char *key, const char *help, PetscInt nmin, PetscInt nmax, PetscBool *value, PetscInt *n, PetscBool *set)
{
  const char *raw;
  char        dflt[96] = "", tok[128];

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nmin && k < 8; k++) {
    if (k) PetscCall(PetscStrlcat(dflt, ",", sizeof(dflt)));
    PetscCall(PetscStrlcat(dflt, value[k] ? "true" : "false", sizeof(dflt)));
  }
  PetscCall(OptionsArrayRaw(key, help, "", "true, false", dflt, nmin, nmax, n, set, &raw));
  for (PetscInt k = 0; raw && k < *n && OptionsNextItem(&raw, tok, sizeof(tok)); k++) PetscCall(OptionsParseBool(key, tok, &value[k]));
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
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "unknown option -%s%s%s%s: misspelt, or not an option of this command (see -help)", names[i],
                              values[i] ? " " : "", values[i] ? values[i] : "", OptionsSource(src, sizeof(src))));
      PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
      SETERRQ(comm, ierr, "%s", msg);
    }
  }
  PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsPrintHelp(MPI_Comm comm)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nrecords; k++) {
    const OptionRecord *r     = &records[k];
    PetscBool           first = PETSC_TRUE;
    for (PetscInt q = 0; q < k && first; q++) first = strcmp(records[q].section, r->section) ? PETSC_TRUE : PETSC_FALSE;
    if (!first) continue; /* printed with its section */
    PetscCall(PetscPrintf(comm, "%s:\n", r->section));
    for (PetscInt q = k; q < nrecords; q++) {
      const OptionRecord *o = &records[q];
      if (strcmp(o->section, r->section)) continue;
      PetscCall(PetscPrintf(comm, "  %-34s %s%s%s%s%s%s\n", o->key, o->dflt[0] ? "default " : "", o->dflt, o->units[0] ? " " : "", o->units,
                            o->range[0] ? ", allowed " : "", o->range));
      PetscCall(PetscPrintf(comm, "      %s\n", o->help));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
