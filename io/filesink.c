/* The descriptors of an abandoned file turned to a sink (io/filesink.h). */
#define _GNU_SOURCE
#include "io/filesink.h"
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int FileSink(const char *path)
{
  char           real[PATH_MAX], link[64], target[PATH_MAX];
  DIR           *d;
  struct dirent *de;
  int            sink = -1, n = 0;

  if (!realpath(path, real) || !(d = opendir("/proc/self/fd"))) return -1;
  while ((de = readdir(d))) {
    int     fd = atoi(de->d_name);
    ssize_t k;
    if (de->d_name[0] < '0' || de->d_name[0] > '9' || fd == dirfd(d)) continue;
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    if ((k = readlink(link, target, sizeof(target) - 1)) < 0) continue;
    target[k] = 0;
    if (strcmp(target, real)) continue;
    if (sink < 0 && (sink = memfd_create("hdem-abandoned", 0)) < 0) break;
    if (dup2(sink, fd) >= 0) n++;
  }
  (void)closedir(d);
  if (sink >= 0) (void)close(sink);
  return sink >= 0 ? n : -1;
}
