/* A checkpoint's contents in memory (ckpt_model.h). */
#include "ckpt_model.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void Die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

size_t ESize(Kind k)
{
  return k == K_I32 ? 4 : 8;
}

hid_t MemType(Kind k)
{
  return k == K_REAL ? H5T_NATIVE_DOUBLE : k == K_I64 ? H5T_NATIVE_INT64 : H5T_NATIVE_INT32;
}

hid_t DiskType(Kind k)
{
  return k == K_REAL ? H5T_IEEE_F64LE : k == K_I64 ? H5T_STD_I64LE : H5T_STD_I32LE;
}

Attr *AttrFind(Ckpt *c, const char *name)
{
  for (int k = 0; k < c->na; k++)
    if (!strcmp(c->a[k].name, name)) return &c->a[k];
  return NULL;
}

Set *SetFind(Ckpt *c, const char *name)
{
  for (int k = 0; k < c->ns; k++)
    if (!strcmp(c->s[k].name, name)) return &c->s[k];
  return NULL;
}

void Copy(Ckpt *to, const Ckpt *from)
{
  memcpy(to, from, sizeof(*to));
  for (int k = 0; k < to->ns; k++) {
    size_t len = (size_t)from->s[k].rows * (size_t)from->s[k].ncomp * ESize(from->s[k].kind) + 8;
    CHECK((to->s[k].data = malloc(len)));
    memcpy(to->s[k].data, from->s[k].data, len);
  }
}
