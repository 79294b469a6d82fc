/* A deck says what it means once: the YAML is read here, event by event
 * (libyaml, which PETSc's YAML reader uses too), before PETSc takes its
 * keys, and what PETSc would silently resolve is an error that names the
 * file and the line: a key given twice in one mapping (PETSc keeps the
 * last), a second document after '---' (PETSc reads it over the first),
 * and a NUL byte (everything after it would be ignored). */
#include "io/deckscan.h"
#include "io/inputfile.h"
#include <yaml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DECK_DEPTH 32  /* nested mappings and sequences */
#define DECK_KEYS  512 /* keys of one mapping */
#define DECK_KEY   128 /* characters of a key kept for the comparison */

typedef struct {
  int is_map, expect_key, nkeys;
  char (*keys)[DECK_KEY];
  int *lines;
  char key[DECK_KEY]; /* the key whose value is open, for the path */
} Level;

/* The dotted path of the open keys, for the message. */
static void DeckPath(const Level *lv, int depth, const char *last, char *out, size_t len)
{
  size_t n = 0;
  out[0]   = 0;
  for (int d = 0; d < depth; d++)
    if (lv[d].is_map && lv[d].key[0]) n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s: ", lv[d].key);
  if (n < len) snprintf(out + n, len - n, "%s", last);
}

/* The whole deck into *buf (size bytes, one more allocated), refused when
 * it is not a readable regular file, too large, or holds a NUL byte. */
static int DeckSlurp(const char *path, unsigned char **buf, long *size, char *msg, size_t len)
{
  FILE *fp;

  msg[0] = 0;
  fp     = InputFileOpen(path, "rb", "deck", msg, len);
  if (!fp) return 1;
  if (fseek(fp, 0, SEEK_END) || (*size = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET))
    return fclose(fp), snprintf(msg, len, "cannot read deck %s", path), 1;
  if (*size > (64L << 20))
    return fclose(fp),
           snprintf(msg, len, "deck %s is %ld bytes: a deck is a text file of keys, at most 64 MiB", path, *size), 1;
  *buf = (unsigned char *)malloc((size_t)*size + 1);
  if (!*buf) return fclose(fp), snprintf(msg, len, "cannot read deck %s: out of memory", path), 1;
  if (fread(*buf, 1, (size_t)*size, fp) != (size_t)*size)
    return free(*buf), *buf = NULL, fclose(fp), snprintf(msg, len, "cannot read deck %s", path), 1;
  fclose(fp);
  for (long i = 0, line = 1; i < *size; i++) {
    if ((*buf)[i] == '\n') line++;
    if ((*buf)[i] == 0)
      return free(*buf), *buf = NULL,
                         snprintf(msg, len, "deck %s line %ld: a NUL byte (binary data in a text deck)", path, line), 1;
  }
  return 0;
}

/* Key k of the mapping open at lv[depth - 1], at line: an error (1) when
 * the mapping has it already or is full. */
static int DeckKey(Level *lv, int depth, const char *k, unsigned long line, const char *path, char *msg, size_t len)
{
  Level *m = &lv[depth - 1];

  for (int q = 0; q < m->nkeys; q++)
    if (!strncmp(m->keys[q], k, DECK_KEY - 1)) {
      char where[512];
      DeckPath(lv, depth - 1, k, where, sizeof(where));
      snprintf(msg, len, "deck %s line %lu: duplicate key '%s' (first at line %d): a deck gives each key once", path,
               line, where, m->lines[q]);
      return 1;
    }
  if (m->nkeys == DECK_KEYS) {
    snprintf(msg, len, "deck %s line %lu: more than %d keys in one mapping", path, line, DECK_KEYS);
    return 1;
  }
  snprintf(m->keys[m->nkeys], DECK_KEY, "%s", k);
  m->lines[m->nkeys++] = (int)line;
  snprintf(m->key, sizeof(m->key), "%s", k);
  m->expect_key = 0;
  return 0;
}

/* One parser event into the open levels lv[0 .. *depth): 1 on an error (in msg). */
static int DeckEvent(const yaml_event_t *ev, Level *lv, int *depth, int *docs, int *done, const char *path, char *msg,
                     size_t len)
{
  unsigned long line = (unsigned long)ev->start_mark.line + 1;

  switch (ev->type) {
  case YAML_DOCUMENT_START_EVENT:
    if (++*docs > 1) {
      snprintf(msg, len, "deck %s line %lu: a second YAML document ('---'): a deck is one document", path, line);
      return 1;
    }
    break;
  case YAML_MAPPING_START_EVENT:
  case YAML_SEQUENCE_START_EVENT:
    /* this collection is the open key's value */
    if (*depth > 0 && lv[*depth - 1].is_map) lv[*depth - 1].expect_key = 1;
    if (*depth == DECK_DEPTH) {
      snprintf(msg, len, "deck %s line %lu: nested deeper than %d levels", path, line, DECK_DEPTH);
      return 1;
    }
    memset(&lv[*depth], 0, sizeof(lv[*depth]));
    lv[*depth].is_map     = ev->type == YAML_MAPPING_START_EVENT;
    lv[*depth].expect_key = 1;
    (*depth)++;
    if (lv[*depth - 1].is_map) {
      lv[*depth - 1].keys  = malloc(sizeof(*lv[*depth - 1].keys) * DECK_KEYS);
      lv[*depth - 1].lines = malloc(sizeof(int) * DECK_KEYS);
      if (!lv[*depth - 1].keys || !lv[*depth - 1].lines) {
        snprintf(msg, len, "cannot read deck %s: out of memory", path);
        return 1;
      }
    }
    break;
  case YAML_MAPPING_END_EVENT:
  case YAML_SEQUENCE_END_EVENT:
    if (*depth > 0) {
      (*depth)--;
      free(lv[*depth].keys), free(lv[*depth].lines);
      lv[*depth].keys = NULL, lv[*depth].lines = NULL;
    }
    break;
  case YAML_ALIAS_EVENT:
  case YAML_SCALAR_EVENT:
    if (*depth > 0 && lv[*depth - 1].is_map) {
      if (lv[*depth - 1].expect_key)
        return DeckKey(lv, *depth, ev->type == YAML_SCALAR_EVENT ? (const char *)ev->data.scalar.value : "*alias", line,
                       path, msg, len);
      lv[*depth - 1].expect_key = 1;
    }
    break;
  case YAML_STREAM_END_EVENT:
    *done = 1;
    break;
  default:
    break;
  }
  return 0;
}

int DeckScanFile(const char *path, char *msg, size_t len)
{
  unsigned char *buf = NULL;
  long           size;
  yaml_parser_t  parser;
  yaml_event_t   ev;
  Level          lv[DECK_DEPTH];
  int            depth = 0, docs = 0, bad = 0, done = 0;

  if (DeckSlurp(path, &buf, &size, msg, len)) return 1;
  memset(lv, 0, sizeof(lv));
  if (!yaml_parser_initialize(&parser))
    return free(buf), snprintf(msg, len, "cannot read deck %s: out of memory", path), 1;
  yaml_parser_set_input_string(&parser, buf, (size_t)size);
  while (!done && !bad) {
    if (!yaml_parser_parse(&parser, &ev)) {
      snprintf(msg, len, "deck %s line %lu column %lu: not valid YAML: %s%s%s", path,
               (unsigned long)parser.problem_mark.line + 1, (unsigned long)parser.problem_mark.column + 1,
               parser.problem ? parser.problem : "a syntax error", parser.context ? " " : "",
               parser.context ? parser.context : "");
      bad = 1;
      break;
    }
    bad = DeckEvent(&ev, lv, &depth, &docs, &done, path, msg, len);
    yaml_event_delete(&ev);
  }
  for (int d = 0; d < depth; d++) free(lv[d].keys), free(lv[d].lines);
  yaml_parser_delete(&parser);
  free(buf);
  return bad;
}
