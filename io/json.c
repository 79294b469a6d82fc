#include "io/json.h"

static void JsonKey(JsonWriter *w, const char *key)
{
  fprintf(w->fp, "%s\n%*s", w->count[w->depth]++ ? "," : "", 2 * w->depth, "");
  if (key) fprintf(w->fp, "\"%s\": ", key);
}

void JsonBegin(JsonWriter *w, FILE *fp)
{
  w->fp       = fp;
  w->depth    = 1;
  w->count[1] = 0;
  fprintf(fp, "{");
}

void JsonEnd(JsonWriter *w)
{
  fprintf(w->fp, "\n}");
  fflush(w->fp);
}

void JsonObjectBegin(JsonWriter *w, const char *key)
{
  JsonKey(w, key);
  fprintf(w->fp, "{");
  w->count[++w->depth] = 0;
}

void JsonObjectEnd(JsonWriter *w)
{
  w->depth--;
  fprintf(w->fp, "\n%*s}", 2 * w->depth, "");
}

/* JSON has no inf or nan: those become null. */
void JsonReal(JsonWriter *w, const char *key, PetscReal v)
{
  JsonKey(w, key);
  if (isfinite(v)) fprintf(w->fp, "%.17g", (double)v);
  else fprintf(w->fp, "null");
}

void JsonInt(JsonWriter *w, const char *key, PetscInt64 v)
{
  JsonKey(w, key);
  fprintf(w->fp, "%lld", (long long)v);
}

void JsonBool(JsonWriter *w, const char *key, PetscBool v)
{
  JsonKey(w, key);
  fprintf(w->fp, v ? "true" : "false");
}

void JsonString(JsonWriter *w, const char *key, const char *s)
{
  JsonKey(w, key);
  fputc('"', w->fp);
  for (const char *c = s; *c; c++) {
    if (*c == '"' || *c == '\\') fprintf(w->fp, "\\%c", *c);
    else if ((unsigned char)*c < 0x20) fprintf(w->fp, "\\u%04x", (unsigned)*c);
    else fputc(*c, w->fp);
  }
  fputc('"', w->fp);
}

void JsonRealArray(JsonWriter *w, const char *key, const PetscReal *v, PetscInt n)
{
  JsonKey(w, key);
  fputc('[', w->fp);
  for (PetscInt i = 0; i < n; i++) {
    if (isfinite(v[i])) fprintf(w->fp, "%s%.17g", i ? ", " : "", (double)v[i]);
    else fprintf(w->fp, "%snull", i ? ", " : "");
  }
  fputc(']', w->fp);
}

void JsonNull(JsonWriter *w, const char *key)
{
  JsonKey(w, key);
  fprintf(w->fp, "null");
}
