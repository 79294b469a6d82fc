/* The keys a command read (options.c's records), presented: the check for
 * unknown keys with the nearest known one, -help, and hdem check's
 * effective configuration as text or as a deck. */
#include "io/options.h"
#include <string.h>

const char *const OptionsViewFormats[] = {"text", "yaml", "OptionsViewFormat", "OPTIONS_VIEW_", NULL};

/* Edit distance (insertions, deletions, substitutions) of two short keys. */
static PetscInt OptionsDistance(const char *a, const char *b)
{
  PetscInt la = (PetscInt)strlen(a), lb = (PetscInt)strlen(b), prev[80], cur[80];
  if (la >= 79 || lb >= 79) return PETSC_MAX_INT;
  for (PetscInt j = 0; j <= lb; j++) prev[j] = j;
  for (PetscInt i = 1; i <= la; i++) {
    cur[0] = i;
    for (PetscInt j = 1; j <= lb; j++) {
      PetscInt sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      cur[j]       = PetscMin(sub, PetscMin(prev[j] + 1, cur[j - 1] + 1));
    }
    for (PetscInt j = 0; j <= lb; j++) prev[j] = cur[j];
  }
  return prev[lb];
}

/* The known key nearest to name (no dash), if near enough to be meant:
 * within two edits, or a third of its length. */
static const char *OptionsNearest(const char *name)
{
  const char *best = NULL;
  PetscInt    bd = PETSC_MAX_INT, len = (PetscInt)strlen(name);

  for (PetscInt k = 0; k < OptionsRecorded(); k++) {
    const char *key = OptionsRecord(k)->key + 1;
    PetscInt    d   = OptionsDistance(name, key);
    if (d < bd) bd = d, best = key;
  }
  return best && bd <= PetscMax(2, len / 3) ? best : NULL;
}

/* PETSc's own run-time switches, read at finalize or by PETSc, not by hdem. */
static PetscBool OptionsPetscOwn(const char *name)
{
  static const char *const own[] = {"log_view",    "options_left",      "hdem_traceback", "malloc_debug",
                                    "malloc_dump", "options_file_yaml", "options_file"};
  for (size_t k = 0; k < sizeof(own) / sizeof(*own); k++)
    if (!strncmp(name, own[k], strlen(own[k]))) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscErrorCode OptionsCheckUnused(MPI_Comm comm)
{
  PetscInt n, bad = 0;
  char   **names, **values, msg[4096] = "";

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsLeftGet(NULL, &n, &names, &values));
  for (PetscInt i = 0; i < n; i++) {
    char        line[512], src[PETSC_MAX_PATH_LEN + 64], dashed[256];
    const char *near;
    if (OptionsPetscOwn(names[i])) continue;
    snprintf(dashed, sizeof(dashed), "-%s", names[i]);
    near = OptionsNearest(names[i]);
    snprintf(line, sizeof(line), "%sunknown key %s%s%s%s%s%s%s", bad ? "\n  " : "", names[i], values[i] ? " = '" : "",
             values[i] ? values[i] : "", values[i] ? "'" : "", OptionsWhere(dashed, values[i], src, sizeof(src)),
             near ? ": did you mean " : "", near ? near : "");
    if (near) PetscCall(PetscStrlcat(line, "?", sizeof(line)));
    PetscCall(PetscStrlcat(msg, line, sizeof(msg)));
    bad++;
  }
  PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
  PetscCheck(!bad, comm, PETSC_ERR_USER_INPUT, "%s%s", msg,
             bad > 1 ? "\n  (keys misspelt, or not keys of this command: see -help)"
                     : " (misspelt, or not a key of this command: see -help)");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OptionsPrintHelp(MPI_Comm comm)
{
  PetscInt n = OptionsRecorded();

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < n; k++) {
    const OptionRecord *r     = OptionsRecord(k);
    PetscBool           first = PETSC_TRUE;
    for (PetscInt q = 0; q < k && first; q++)
      first = strcmp(OptionsRecord(q)->section, r->section) ? PETSC_TRUE : PETSC_FALSE;
    if (!first) continue; /* printed with its section */
    PetscCall(PetscPrintf(comm, "\n%s:\n", r->section));
    for (PetscInt q = k; q < n; q++) {
      const OptionRecord *o = OptionsRecord(q);
      if (strcmp(o->section, r->section)) continue;
      PetscCall(PetscPrintf(comm, "  %-34s default %s%s%s%s%s\n", o->key, o->dflt[0] ? o->dflt : "none",
                            o->units[0] ? " " : "", o->units, o->range[0] ? ", allowed " : "", o->range));
      PetscCall(PetscPrintf(comm, "      %s\n", o->help));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the effective configuration ---------------------------------------- */

static const char *OptionsSourceName(const OptionRecord *r)
{
  if (!r->set) return "default";
  return r->source == OPTION_FROM_DECK ? "deck" : "command line";
}

/* Keys only the command that checks reads (hdem check -format): not a run's. */
static PetscBool OptionsOfCheck(const OptionRecord *r)
{
  return !strcmp(r->section, "Check") ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode OptionsViewText(FILE *fp)
{
  PetscInt n = OptionsRecorded();

  PetscFunctionBeginUser;
  fprintf(fp, "Effective configuration%s%s (key, value, where it came from):\n", OptionsDeck()[0] ? " of " : "",
          OptionsDeck());
  for (PetscInt k = 0; k < n; k++) {
    const OptionRecord *r     = OptionsRecord(k);
    PetscBool           first = PETSC_TRUE;
    for (PetscInt q = 0; q < k && first; q++)
      first = strcmp(OptionsRecord(q)->section, r->section) ? PETSC_TRUE : PETSC_FALSE;
    if (!first || OptionsOfCheck(r)) continue;
    fprintf(fp, "%s:\n", r->section);
    for (PetscInt q = k; q < n; q++) {
      const OptionRecord *o = OptionsRecord(q);
      char                val[PETSC_MAX_PATH_LEN + 16];
      if (strcmp(o->section, r->section)) continue;
      if (o->set) snprintf(val, sizeof(val), "%s", o->value ? o->value : "?");
      else snprintf(val, sizeof(val), o->has_default ? "%s" : "(%s)", o->dflt[0] ? o->dflt : "none");
      fprintf(fp, "  %-34s %-30s %s%s%s\n", o->key + 1, val, OptionsSourceName(o), o->units[0] ? "  " : "", o->units);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first word of key (no dash), the group a deck nests it under when
 * another key shares it: contact_e is contact: {e: ...}. */
static size_t OptionsGroupLen(const char *key)
{
  const char *u = strchr(key, '_');
  return u ? (size_t)(u - key) : 0;
}

static PetscBool OptionsSharesGroup(PetscInt k)
{
  const char *key = OptionsRecord(k)->key + 1;
  size_t      g   = OptionsGroupLen(key);
  if (!g) return PETSC_FALSE;
  for (PetscInt q = 0; q < OptionsRecorded(); q++) {
    const char *o = OptionsRecord(q)->key + 1;
    if (q != k && OptionsGroupLen(o) == g && !strncmp(o, key, g) && !OptionsOfCheck(OptionsRecord(q)))
      return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

/* A value as YAML: a list as [a, b, c], text quoted. */
static void OptionsYamlValue(FILE *fp, const OptionRecord *r, const char *v)
{
  if (r->list) {
    const char *c = v;
    fputc('[', fp);
    for (PetscBool first = PETSC_TRUE; *c; first = PETSC_FALSE) {
      const char *e = strchr(c, ',');
      size_t      m = e ? (size_t)(e - c) : strlen(c);
      while (m && *c == ' ') c++, m--;
      fprintf(fp, "%s%.*s", first ? "" : ", ", (int)m, c);
      if (!e) break;
      c = e + 1;
    }
    fputc(']', fp);
  } else if (r->kind == OPTION_KIND_TEXT) {
    fputc('"', fp);
    for (const char *c = v; *c; c++) {
      if (*c == '"' || *c == '\\') fputc('\\', fp);
      fputc(*c, fp);
    }
    fputc('"', fp);
  } else fputs(v, fp);
}

/* A key set (by the deck or the command line) as YAML; a default as a
 * comment: some keys are refused where they do not apply (contact_p with
 * law hertz), so a deck names only what was given. */
static void OptionsYamlEntry(FILE *fp, const OptionRecord *r, const char *name, const char *indent)
{
  if (r->set && r->value) {
    fprintf(fp, "%s%s: ", indent, name);
    OptionsYamlValue(fp, r, r->value);
    fputc('\n', fp);
  } else if (r->has_default && r->dflt[0]) {
    fprintf(fp, "%s# %s: ", indent, name);
    OptionsYamlValue(fp, r, r->dflt);
    fprintf(fp, "  (default)\n");
  } else fprintf(fp, "%s# %s: (%s)\n", indent, name, r->dflt[0] ? r->dflt : "none");
}

static PetscErrorCode OptionsViewYaml(FILE *fp)
{
  PetscInt n = OptionsRecorded();

  PetscFunctionBeginUser;
  fprintf(fp,
          "# The effective configuration%s%s: every key given (by the deck or the command line),\n# the others' "
          "defaults as comments; hdem run THIS_FILE reproduces the run.\n",
          OptionsDeck()[0] ? " of " : "", OptionsDeck());
  for (PetscInt k = 0; k < n; k++) {
    const OptionRecord *r     = OptionsRecord(k);
    const char         *key   = r->key + 1;
    size_t              g     = OptionsGroupLen(key);
    PetscBool           first = PETSC_TRUE;
    if (OptionsOfCheck(r)) continue;
    if (!OptionsSharesGroup(k)) {
      OptionsYamlEntry(fp, r, key, "");
      continue;
    }
    for (PetscInt q = 0; q < k && first; q++) {
      const char *o = OptionsRecord(q)->key + 1;
      if (OptionsGroupLen(o) == g && !strncmp(o, key, g) && !OptionsOfCheck(OptionsRecord(q))) first = PETSC_FALSE;
    }
    if (!first) continue; /* written with its group */
    {
      /* a group of comments only is one too: an empty mapping is a key without a value */
      PetscBool any = PETSC_FALSE;
      for (PetscInt q = k; q < n; q++) {
        const OptionRecord *o  = OptionsRecord(q);
        const char         *ok = o->key + 1;
        if (!OptionsOfCheck(o) && OptionsGroupLen(ok) == g && !strncmp(ok, key, g) && o->set && o->value)
          any = PETSC_TRUE;
      }
      fprintf(fp, "%s%.*s:\n", any ? "" : "# ", (int)g, key);
    }
    for (PetscInt q = k; q < n; q++) {
      const OptionRecord *o  = OptionsRecord(q);
      const char         *ok = o->key + 1;
      if (OptionsOfCheck(o) || OptionsGroupLen(ok) != g || strncmp(ok, key, g)) continue;
      OptionsYamlEntry(fp, o, ok + g + 1, "  ");
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Written whole on every rank into memory (the same text), printed by rank 0. */
PetscErrorCode OptionsView(MPI_Comm comm, OptionsViewFormat format, FILE *fp)
{
  char  *buf = NULL;
  size_t len = 0;
  FILE  *mem = open_memstream(&buf, &len);

  PetscFunctionBeginUser;
  PetscCheck(mem, PETSC_COMM_SELF, PETSC_ERR_MEM, "no memory for the configuration's text");
  if (format == OPTIONS_VIEW_YAML) PetscCall(OptionsViewYaml(mem));
  else PetscCall(OptionsViewText(mem));
  fclose(mem);
  PetscCall(PetscFPrintf(comm, fp, "%s", buf));
  free(buf);
  PetscFunctionReturn(PETSC_SUCCESS);
}
