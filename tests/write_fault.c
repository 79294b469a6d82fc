/* LD_PRELOAD shim for tests/write_fault.py: on the MPI rank HDEM_FAULT_RANK,
 * writes to a file whose path contains HDEM_FAULT_FILE (and the flushes of
 * hdem's stdio streams on it) fail with ENOSPC, as
 * on a full disk; with HDEM_FAULT_OFFSET, only positioned writes at that
 * offset (0: an HDF5 file's superblock, written when it is flushed).
 * Everything else passes through. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int Faulty(int fd, off_t off)
{
  const char *rank = getenv("OMPI_COMM_WORLD_RANK"), *want = getenv("HDEM_FAULT_RANK"),
             *pat = getenv("HDEM_FAULT_FILE"), *at = getenv("HDEM_FAULT_OFFSET");
  char    link[64], path[4096];
  ssize_t n;
  if (fd <= 2 || !rank || !want || !pat || strcmp(rank, want) || (at && off != (off_t)atoll(at))) return 0;
  snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
  n = readlink(link, path, sizeof(path) - 1);
  if (n < 0) return 0;
  path[n] = 0;
  return strstr(path, pat) != NULL;
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t off)
{
  static ssize_t (*real)(int, const void *, size_t, off_t);
  if (!real) real = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
  if (Faulty(fd, off)) return errno = ENOSPC, -1;
  return real(fd, buf, count, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t off)
{
  static ssize_t (*real)(int, const void *, size_t, off_t);
  if (!real) real = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");
  if (Faulty(fd, off)) return errno = ENOSPC, -1;
  return real(fd, buf, count, off);
}

ssize_t write(int fd, const void *buf, size_t count)
{
  static ssize_t (*real)(int, const void *, size_t);
  if (!real) real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
  if (Faulty(fd, -1)) return errno = ENOSPC, -1;
  return real(fd, buf, count);
}

/* hdem's stdio logs (thermo.csv, walls.csv, ...): their flush fails as a full disk's would */
int fflush(FILE *fp)
{
  static int (*real)(FILE *);
  if (!real) real = (int (*)(FILE *))dlsym(RTLD_NEXT, "fflush");
  if (fp && Faulty(fileno(fp), -1)) return errno = ENOSPC, EOF;
  return real(fp);
}
