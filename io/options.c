#include "io/options.h"
#include "io/deckscan.h"
#include "io/inputfile.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char deck_name[PETSC_MAX_PATH_LEN] = "";
/* with its trailing '/', "" for the working directory */
static char         deck_dir[PETSC_MAX_PATH_LEN] = "";
static PetscOptions deck_opts                    = NULL; /* the deck's own keys */
static const char  *section                      = "General";
static PetscBool    collecting = PETSC_FALSE, quiet = PETSC_FALSE;

#define OPTIONS_MAX_RECORDS 512
static OptionRecord records[OPTIONS_MAX_RECORDS];
static PetscInt     nrecords = 0;

PetscErrorCode OptionsReadDeck(MPI_Comm comm, const char *deck, int argc, char **argv)
{
  const char    *slash;
  PetscErrorCode ierr;
  char           why[PETSC_MAX_PATH_LEN + 128];

  PetscFunctionBeginUser;
  PetscCheck(!InputFileCheck(deck, "deck", why, sizeof(why)), comm, PETSC_ERR_FILE_OPEN, "%s", why);
  PetscCheck(strlen(deck) < sizeof(deck_name), comm, PETSC_ERR_USER_INPUT,
             "the deck's path is longer than %d characters", (int)sizeof(deck_name) - 1);
  {
    char msg[1024];
    PetscCheck(!DeckScanFile(deck, msg, sizeof(msg)), comm, PETSC_ERR_USER_INPUT, "%s", msg);
    for (int i = 1; i + 1 < argc; i++) /* decks layered on the command line (PETSc has read them already) */
      if (!strcmp(argv[i], "-options_file_yaml"))
        PetscCheck(!DeckScanFile(argv[i + 1], msg, sizeof(msg)), comm, PETSC_ERR_USER_INPUT, "%s", msg);
  }
  PetscCall(PetscStrncpy(deck_name, deck, sizeof(deck_name)));
  slash       = strrchr(deck, '/');
  deck_dir[0] = 0;
  if (slash) {
    size_t n = (size_t)(slash - deck) + 1;
    memcpy(deck_dir, deck, n);
    deck_dir[n] = 0;
  }
  if (deck_opts) PetscCall(PetscOptionsDestroy(&deck_opts));
  PetscCall(PetscOptionsCreate(&deck_opts));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PetscOptionsInsertFileYAML(comm, deck_opts, deck, PETSC_TRUE);
  if (!ierr) ierr = PetscOptionsInsertFileYAML(comm, NULL, deck, PETSC_TRUE);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(!ierr, comm, PETSC_ERR_USER_INPUT, "deck %s is not valid YAML (or not a mapping of keys)", deck);
  PetscCall(PetscOptionsInsert(NULL, &argc, &argv, NULL)); /* the command line overrides the deck */
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *OptionsDeck(void)
{
  return deck_name;
}

void OptionsSetCollect(PetscBool c)
{
  collecting = c;
}

PetscBool OptionsCollecting(void)
{
  return collecting;
}

void OptionsQuiet(PetscBool q)
{
  quiet = q;
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

PetscErrorCode OptionsCheckSectionNeeds(MPI_Comm comm, const char *prefix, const char *needed)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nrecords; k++)
    PetscCheck(!(records[k].set && !strncmp(records[k].key, prefix, strlen(prefix))), comm, PETSC_ERR_USER_INPUT,
               "%s is given without %s", records[k].key, needed);
  PetscFunctionReturn(PETSC_SUCCESS);
}

void OptionsRecordsClear(void)
{
  for (PetscInt k = 0; k < nrecords; k++) free(records[k].value);
  nrecords = 0;
}

/* Where key's value raw came from: the deck's own keys hold it, or the
 * command line gave it (over the deck's, or with no deck). */
static OptionSource OptionsSourceOf(const char *key, const char *raw)
{
  const char *dv = NULL;
  PetscBool   in = PETSC_FALSE;
  if (deck_opts && !PetscOptionsFindPair(deck_opts, NULL, key, &dv, &in) && in && !strcmp(dv ? dv : "", raw ? raw : ""))
    return OPTION_FROM_DECK;
  return OPTION_FROM_COMMAND_LINE;
}

/* " (deck FILE)" or " (command line)", for error messages. */
const char *OptionsWhere(const char *key, const char *raw, char *buf, size_t len)
{
  if (!deck_opts) snprintf(buf, len, " (given)");
  else if (OptionsSourceOf(key, raw) == OPTION_FROM_DECK) snprintf(buf, len, " (deck %s)", deck_name);
  else snprintf(buf, len, " (command line)");
  return buf;
}

/* The shortest %g that reads back as v: help shows 1.05, hdem check's deck
 * gives the value exactly. */
static void FormatBound(char *buf, size_t len, PetscReal v)
{
  if (v >= PETSC_MAX_REAL) snprintf(buf, len, "inf");
  else if (v <= PETSC_MIN_REAL) snprintf(buf, len, "-inf");
  else
    for (int prec = 6; prec <= 17; prec++) {
      snprintf(buf, len, "%.*g", prec, (double)v);
      if (strtod(buf, NULL) == (double)v) break;
    }
}

/* A bound of +-PETSC_MAX_REAL shows as an open "inf": only a true infinity
 * (a time that never comes, a rigid modulus) is accepted as a value. */
static void FormatRange(char *buf, size_t len, PetscReal lo, PetscReal hi, OptionRange r)
{
  char      blo[32], bhi[32];
  PetscBool lo_inf  = lo <= PETSC_MIN_REAL && !isinf(lo) ? PETSC_TRUE : PETSC_FALSE;
  PetscBool hi_inf  = hi >= PETSC_MAX_REAL && !isinf(hi) ? PETSC_TRUE : PETSC_FALSE;
  PetscBool lo_open = r == RANGE_OPEN_LO || r == RANGE_OPEN || lo_inf ? PETSC_TRUE : PETSC_FALSE;
  PetscBool hi_open = r == RANGE_OPEN_HI || r == RANGE_OPEN || hi_inf ? PETSC_TRUE : PETSC_FALSE;
  FormatBound(blo, sizeof(blo), lo);
  FormatBound(bhi, sizeof(bhi), hi);
  snprintf(buf, len, "%s%s, %s%s", lo_open ? "(" : "[", blo, bhi, hi_open ? ")" : "]");
}

/* What a reader says of its key before fetching it. */
typedef struct {
  const char *key, *help, *units;
  char        range[256], dflt[96];
  OptionKind  kind;
  PetscBool   list;
} OptionSpec;

static OptionSpec OptionSpecMake(const char *key, const char *help, const char *units, OptionKind kind, PetscBool list)
{
  OptionSpec sp;
  memset(&sp, 0, sizeof(sp));
  sp.key = key, sp.help = help ? help : "", sp.units = units ? units : "", sp.kind = kind, sp.list = list;
  return sp;
}

/* The key whose text value is path, or NULL: how input files are named in messages (InputFileSetNamer). */
static const char *OptionsKeyOfPath(const char *path)
{
  for (PetscInt i = 0; i < nrecords; i++)
    if (records[i].set && records[i].value && records[i].kind == OPTION_KIND_TEXT && !strcmp(records[i].value, path))
      return records[i].key;
  return NULL;
}

/* The key's record, new or (read again) the same. */
static OptionRecord *OptionsRecordFor(const OptionSpec *sp)
{
  OptionRecord *r = NULL;
  InputFileSetNamer(OptionsKeyOfPath);
  for (PetscInt k = 0; k < nrecords && !r; k++)
    if (!strcmp(records[k].key, sp->key)) r = &records[k];
  if (!r) {
    if (nrecords == OPTIONS_MAX_RECORDS) return NULL;
    r = &records[nrecords++];
    memset(r, 0, sizeof(*r));
    r->section = section;
    snprintf(r->key, sizeof(r->key), "%s", sp->key);
  }
  r->help = sp->help, r->units = sp->units, r->kind = sp->kind, r->list = sp->list;
  snprintf(r->range, sizeof(r->range), "%s", sp->range);
  snprintf(r->dflt, sizeof(r->dflt), "%s", sp->dflt);
  r->has_default = PETSC_TRUE;
  return r;
}

static void OptionsNoteValue(OptionRecord *r, const char *value, OptionSource src)
{
  if (!r) return;
  r->set    = PETSC_TRUE;
  r->source = src;
  free(r->value);
  r->value = strdup(value); /* NULL if out of memory: the value is then not shown */
}

/* The key's raw text (PETSc marks it used) and its record; whether the
 * value is to be parsed: given, and not collecting. */
static PetscErrorCode OptionsFetch(const OptionSpec *sp, const char **raw, PetscBool *set, PetscBool *parse,
                                   OptionRecord **rec)
{
  PetscBool given;

  PetscFunctionBeginUser;
  *raw = NULL, *rec = NULL;
  PetscCall(PetscOptionsFindPair(NULL, NULL, sp->key, raw, &given));
  if (given && !*raw) *raw = "";
  if (!quiet || given) *rec = OptionsRecordFor(sp);
  if (given) OptionsNoteValue(*rec, *raw, OptionsSourceOf(sp->key, *raw));
  *parse = given && !collecting ? PETSC_TRUE : PETSC_FALSE;
  if (set) *set = *parse;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsDefaultText(const char *key, const char *text)
{
  PetscFunctionBeginUser;
  for (PetscInt k = nrecords - 1; k >= 0; k--)
    if (!strcmp(records[k].key, key)) {
      snprintf(records[k].dflt, sizeof(records[k].dflt), "%s", text);
      records[k].has_default = PETSC_FALSE;
      break;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
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

/* inf_ok: a key whose range reaches infinity (a time that never comes)
 * takes .inf, inf or infinity (YAML's spelling and C's), either sign. */
static PetscErrorCode OptionsParseReal(const char *key, const char *raw, const char *tok, PetscBool inf_ok,
                                       PetscReal *v)
{
  char       *end, src[PETSC_MAX_PATH_LEN + 64];
  const char *t = tok + (tok[0] == '+' || tok[0] == '-');
  double      d;

  PetscFunctionBeginUser;
  if (inf_ok && (!strcasecmp(t, ".inf") || !strcasecmp(t, "inf") || !strcasecmp(t, "infinity"))) {
    *v = tok[0] == '-' ? -INFINITY : INFINITY;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  errno = 0;
  d     = strtod(tok, &end);
  PetscCheck(tok[0] && end != tok && *end == 0, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = '%s'%s is not a number",
             key, tok, OptionsWhere(key, raw, src, sizeof(src)));
  PetscCheck(isfinite(d), PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = '%s'%s is not a finite number", key, tok,
             OptionsWhere(key, raw, src, sizeof(src)));
  *v = (PetscReal)d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OptionsParseInt64(const char *key, const char *raw, const char *tok, PetscInt64 lo, PetscInt64 hi,
                                        PetscInt64 *v)
{
  char     *end, src[PETSC_MAX_PATH_LEN + 64];
  long long x;

  PetscFunctionBeginUser;
  errno = 0;
  x     = strtoll(tok, &end, 10);
  PetscCheck(tok[0] && end != tok && *end == 0, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = '%s'%s is not an integer",
             key, tok, OptionsWhere(key, raw, src, sizeof(src)));
  PetscCheck(errno != ERANGE && x >= lo && x <= hi, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT,
             "%s = %s%s is out of range: allowed [%lld, %lld]", key, tok, OptionsWhere(key, raw, src, sizeof(src)),
             (long long)lo, (long long)hi);
  *v = (PetscInt64)x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OptionsParseBool(const char *key, const char *raw, const char *tok, PetscBool *v)
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
  SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT,
          "%s = '%s'%s is not a boolean: allowed true, false (yes, no, on, off, 1, 0)", key, tok,
          OptionsWhere(key, raw, src, sizeof(src)));
}

/* The value's source, if the key was given: for the checks of derived values. */
static const char *OptionsWhereKey(const char *key, char *buf, size_t len)
{
  const char *raw = NULL;
  PetscBool   given;
  char        dashed[80];
  snprintf(dashed, sizeof(dashed), "%s%s", key[0] == '-' ? "" : "-", key);
  if (PetscOptionsFindPair(NULL, NULL, dashed, &raw, &given) || !given) {
    buf[0] = 0;
    return buf;
  }
  return OptionsWhere(dashed, raw, buf, len);
}

PetscErrorCode OptionsCheckReal(const char *key, PetscReal v, PetscReal lo, PetscReal hi, OptionRange r,
                                const char *units)
{
  PetscBool lo_open = (r == RANGE_OPEN_LO || r == RANGE_OPEN) ? PETSC_TRUE : PETSC_FALSE;
  PetscBool hi_open = (r == RANGE_OPEN_HI || r == RANGE_OPEN) ? PETSC_TRUE : PETSC_FALSE;
  /* infinity only where the range reaches it (a time that never comes) */
  PetscBool finite = isfinite(v) || (v == INFINITY && hi == INFINITY) || (v == -INFINITY && lo == -INFINITY)
                     ? PETSC_TRUE
                     : PETSC_FALSE;
  PetscBool ok     = finite && (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
  char      src[PETSC_MAX_PATH_LEN + 64], range[256], bv[32];

  PetscFunctionBeginUser;
  if (ok) PetscFunctionReturn(PETSC_SUCCESS);
  FormatRange(range, sizeof(range), lo, hi, r);
  FormatBound(bv, sizeof(bv), v);
  SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s%s = %s%s is out of range: allowed %s %s",
          key[0] == '-' ? "" : "-", key, bv, OptionsWhereKey(key, src, sizeof(src)), range, units ? units : "");
}

PetscErrorCode OptionsCheckInt(const char *key, PetscInt v, PetscInt lo, PetscInt hi)
{
  char src[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBeginUser;
  PetscCheck(v >= lo && v <= hi, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT,
             "%s%s = %" PetscInt_FMT "%s is out of range: allowed [%" PetscInt_FMT ", %" PetscInt_FMT "]",
             key[0] == '-' ? "" : "-", key, v, OptionsWhereKey(key, src, sizeof(src)), lo, hi);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsReal(const char *key, const char *help, const char *units, PetscReal lo, PetscReal hi,
                           OptionRange r, PetscReal *value, PetscBool *set)
{
  OptionSpec    sp = OptionSpecMake(key, help, units, OPTION_KIND_NUMBER, PETSC_FALSE);
  const char   *raw;
  PetscBool     parse;
  OptionRecord *rec;

  PetscFunctionBeginUser;
  PetscCall(OptionsFetch(&sp, &raw, set, &parse, &rec));
  /* the range and default as text only into a record: most indexed keys make none */
  if (rec) FormatRange(rec->range, sizeof(rec->range), lo, hi, r), FormatBound(rec->dflt, sizeof(rec->dflt), *value);
  if (!parse) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OptionsParseReal(key, raw, raw, isinf(hi) ? PETSC_TRUE : PETSC_FALSE, value));
  PetscCall(OptionsCheckReal(key, *value, lo, hi, r, units));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsInt64(const char *key, const char *help, PetscInt64 lo, PetscInt64 hi, PetscInt64 *value,
                            PetscBool *set)
{
  OptionSpec    sp = OptionSpecMake(key, help, "", OPTION_KIND_NUMBER, PETSC_FALSE);
  const char   *raw;
  PetscBool     parse;
  OptionRecord *rec;

  PetscFunctionBeginUser;
  snprintf(sp.range, sizeof(sp.range), "[%lld, %lld]", (long long)lo, (long long)hi);
  snprintf(sp.dflt, sizeof(sp.dflt), "%lld", (long long)*value);
  PetscCall(OptionsFetch(&sp, &raw, set, &parse, &rec));
  if (!parse) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OptionsParseInt64(key, raw, raw, lo, hi, value));
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
  OptionSpec    sp = OptionSpecMake(key, help, "", OPTION_KIND_BOOL, PETSC_FALSE);
  const char   *raw;
  PetscBool     parse;
  OptionRecord *rec;

  PetscFunctionBeginUser;
  snprintf(sp.range, sizeof(sp.range), "true, false");
  snprintf(sp.dflt, sizeof(sp.dflt), "%s", *value ? "true" : "false");
  PetscCall(OptionsFetch(&sp, &raw, set, &parse, &rec));
  if (!parse) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OptionsParseBool(key, raw, raw, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsEnum(const char *key, const char *help, const char *const *names, PetscEnum *value,
                           PetscBool *set)
{
  OptionSpec    sp = OptionSpecMake(key, help, "", OPTION_KIND_WORD, PETSC_FALSE);
  const char   *raw;
  char          src[PETSC_MAX_PATH_LEN + 64];
  PetscInt      n = 0;
  PetscBool     parse;
  OptionRecord *rec;

  PetscFunctionBeginUser;
  while (names[n]) n++;
  n -= 2; /* the type's name and its prefix follow the names */
  for (PetscInt k = 0; k < n; k++) {
    if (k) PetscCall(PetscStrlcat(sp.range, ", ", sizeof(sp.range)));
    PetscCall(PetscStrlcat(sp.range, names[k], sizeof(sp.range)));
  }
  snprintf(sp.dflt, sizeof(sp.dflt), "%s", names[*value]);
  PetscCall(OptionsFetch(&sp, &raw, set, &parse, &rec));
  if (!parse) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < n; k++)
    if (!strcasecmp(raw, names[k])) {
      *value = (PetscEnum)k;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "%s = '%s'%s is not one of: %s", key, raw,
          OptionsWhere(key, raw, src, sizeof(src)), sp.range);
}

static PetscErrorCode OptionsText(const char *key, const char *help, PetscBool path, char *value, size_t len,
                                  PetscBool *set)
{
  OptionSpec    sp = OptionSpecMake(key, help, "", OPTION_KIND_TEXT, PETSC_FALSE);
  const char   *raw;
  char          src[PETSC_MAX_PATH_LEN + 64];
  PetscBool     parse, rel;
  OptionRecord *rec;

  PetscFunctionBeginUser;
  snprintf(sp.dflt, sizeof(sp.dflt), "%s", value);
  PetscCall(OptionsFetch(&sp, &raw, set, &parse, &rec));
  if (!value[0] && rec) rec->has_default = PETSC_FALSE, snprintf(rec->dflt, sizeof(rec->dflt), "none");
  if (!parse) PetscFunctionReturn(PETSC_SUCCESS);
  rel = path && raw[0] && raw[0] != '/' && deck_dir[0] && OptionsSourceOf(key, raw) == OPTION_FROM_DECK ? PETSC_TRUE
                                                                                                        : PETSC_FALSE;
  PetscCheck(strlen(raw) + (rel ? strlen(deck_dir) : 0) < len, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT,
             "%s = '%s'%s is longer than %d characters", key, raw, OptionsWhere(key, raw, src, sizeof(src)),
             (int)len - 1);
  snprintf(value, len, "%s%s", rel ? deck_dir : "", raw);
  /* what hdem check shows, and its deck gives from anywhere */
  if (rel) OptionsNoteValue(rec, value, OPTION_FROM_DECK);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsString(const char *key, const char *help, char *value, size_t len, PetscBool *set)
{
  PetscFunctionBeginUser;
  PetscCall(OptionsText(key, help, PETSC_FALSE, value, len, set));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsPath(const char *key, const char *help, char *value, size_t len, PetscBool *set)
{
  PetscFunctionBeginUser;
  PetscCall(OptionsText(key, help, PETSC_TRUE, value, len, set));
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
    PetscCheck(*n == nmin, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT,
               "%s takes %" PetscInt_FMT " values%s, got %" PetscInt_FMT " ('%s')%s", key, nmin,
               nmin == 3 ? " (x, y, z)" : "", *n, raw, OptionsWhere(key, raw, src, sizeof(src)));
  else
    PetscCheck(*n >= nmin && *n <= nmax, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT,
               "%s takes %" PetscInt_FMT " to %" PetscInt_FMT " values, got %" PetscInt_FMT " ('%s')%s", key, nmin,
               nmax, *n, raw, OptionsWhere(key, raw, src, sizeof(src)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What every list reader does before parsing: fetch the key's text and
 * count its items (*raw NULL when there is nothing to parse). */
static PetscErrorCode OptionsArrayRaw(OptionSpec *sp, PetscInt nmin, PetscInt nmax, PetscInt *n, PetscBool *set,
                                      const char **raw)
{
  PetscBool     parse;
  OptionRecord *rec;

  PetscFunctionBeginUser;
  sp->list = PETSC_TRUE;
  PetscCall(OptionsFetch(sp, raw, set, &parse, &rec));
  if (!parse) {
    *raw = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(OptionsCountItems(sp->key, *raw, nmin, nmax, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsRealArray(const char *key, const char *help, const char *units, PetscInt nmin, PetscInt nmax,
                                PetscReal lo, PetscReal hi, OptionRange r, PetscReal *value, PetscInt *n,
                                PetscBool *set)
{
  OptionSpec  sp = OptionSpecMake(key, help, units, OPTION_KIND_NUMBER, PETSC_TRUE);
  const char *raw, *all;
  char        tok[128];

  PetscFunctionBeginUser;
  FormatRange(sp.range, sizeof(sp.range), lo, hi, r);
  for (PetscInt k = 0; k < nmin && k < 8; k++) {
    char b[32];
    FormatBound(b, sizeof(b), value[k]);
    if (k) PetscCall(PetscStrlcat(sp.dflt, ",", sizeof(sp.dflt)));
    PetscCall(PetscStrlcat(sp.dflt, b, sizeof(sp.dflt)));
  }
  PetscCall(OptionsArrayRaw(&sp, nmin, nmax, n, set, &raw));
  all = raw;
  for (PetscInt k = 0; raw && k < *n && OptionsNextItem(&raw, tok, sizeof(tok)); k++) {
    PetscCall(OptionsParseReal(key, all, tok, isinf(hi) ? PETSC_TRUE : PETSC_FALSE, &value[k]));
    PetscCall(OptionsCheckReal(key, value[k], lo, hi, r, units));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsIntArray(const char *key, const char *help, PetscInt nmin, PetscInt nmax, PetscInt lo,
                               PetscInt hi, PetscInt *value, PetscInt *n, PetscBool *set)
{
  OptionSpec  sp = OptionSpecMake(key, help, "", OPTION_KIND_NUMBER, PETSC_TRUE);
  const char *raw, *all;
  char        tok[128];

  PetscFunctionBeginUser;
  snprintf(sp.range, sizeof(sp.range), "[%lld, %lld]", (long long)lo, (long long)hi);
  for (PetscInt k = 0; k < nmin && k < 8; k++) {
    char b[32];
    snprintf(b, sizeof(b), "%s%lld", k ? "," : "", (long long)value[k]);
    PetscCall(PetscStrlcat(sp.dflt, b, sizeof(sp.dflt)));
  }
  PetscCall(OptionsArrayRaw(&sp, nmin, nmax, n, set, &raw));
  all = raw;
  for (PetscInt k = 0; raw && k < *n && OptionsNextItem(&raw, tok, sizeof(tok)); k++) {
    PetscInt64 v;
    PetscCall(OptionsParseInt64(key, all, tok, lo, hi, &v));
    value[k] = (PetscInt)v;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsBoolArray(const char *key, const char *help, PetscInt nmin, PetscInt nmax, PetscBool *value,
                                PetscInt *n, PetscBool *set)
{
  OptionSpec  sp = OptionSpecMake(key, help, "", OPTION_KIND_BOOL, PETSC_TRUE);
  const char *raw, *all;
  char        tok[128];

  PetscFunctionBeginUser;
  snprintf(sp.range, sizeof(sp.range), "true, false");
  for (PetscInt k = 0; k < nmin && k < 8; k++) {
    if (k) PetscCall(PetscStrlcat(sp.dflt, ",", sizeof(sp.dflt)));
    PetscCall(PetscStrlcat(sp.dflt, value[k] ? "true" : "false", sizeof(sp.dflt)));
  }
  PetscCall(OptionsArrayRaw(&sp, nmin, nmax, n, set, &raw));
  all = raw;
  for (PetscInt k = 0; raw && k < *n && OptionsNextItem(&raw, tok, sizeof(tok)); k++)
    PetscCall(OptionsParseBool(key, all, tok, &value[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
