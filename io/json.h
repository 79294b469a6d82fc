/* A small streaming JSON writer for machine-readable results. */
#ifndef HDEM_JSON_H
#define HDEM_JSON_H

#include "hdem.h"

typedef struct {
  FILE *fp;
  int   depth;
  int   count[16]; /* members written so far at each depth */
} JsonWriter;

PETSC_EXTERN void JsonBegin(JsonWriter *, FILE *);
PETSC_EXTERN void JsonEnd(JsonWriter *);
PETSC_EXTERN void JsonObjectBegin(JsonWriter *, const char *key);
PETSC_EXTERN void JsonObjectEnd(JsonWriter *);
PETSC_EXTERN void JsonReal(JsonWriter *, const char *key, PetscReal);
PETSC_EXTERN void JsonInt(JsonWriter *, const char *key, PetscInt64);
PETSC_EXTERN void JsonBool(JsonWriter *, const char *key, PetscBool);
PETSC_EXTERN void JsonString(JsonWriter *, const char *key, const char *);
PETSC_EXTERN void JsonNull(JsonWriter *, const char *key);
/* n reals as one array on one line (non-finite: null) */
PETSC_EXTERN void JsonRealArray(JsonWriter *, const char *key, const PetscReal *, PetscInt n);

#endif
