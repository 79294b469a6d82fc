/* The checkpoint fuzzer's input (fuzz_checkpoint.c): bytes read as edits
 * of a checkpoint's contents (the opcodes are described there). */
#ifndef HDEM_CKPT_EDIT_H
#define HDEM_CKPT_EDIT_H

#include "ckpt_model.h"

typedef struct {
  const uint8_t *p;
  size_t         n;
} Bytes;

/* The template's box and largest radius, for Special's values: set once. */
extern double box_lo[3], box_hi[3], rmax;

/* The next byte of the input (0 past its end). */
unsigned U8(Bytes *b);
/* One edit of c, read from b. */
void Edit(Ckpt *c, Bytes *b);

#endif
