/* Without libFuzzer (HDEM_FUZZ off, any compiler): a harness replays the
 * files and folders named on its command line, each file one input, as
 * `harness -runs=0 DIR` does under libFuzzer; arguments that start with '-'
 * (libFuzzer's flags) are ignored.  So the seed corpus and every crash
 * input added to it run as ordinary tests in every build. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz_init.h"

static int RunFile(const char *path)
{
  FILE    *fp = fopen(path, "rb");
  uint8_t *buf;
  long     n;

  if (!fp) return fprintf(stderr, "cannot open %s\n", path), 1;
  if (fseek(fp, 0, SEEK_END) || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET))
    return fclose(fp), fprintf(stderr, "cannot size %s\n", path), 1;
  buf = malloc((size_t)n + 1);
  if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n)
    return fclose(fp), free(buf), fprintf(stderr, "cannot read %s\n", path), 1;
  fclose(fp);
  (void)LLVMFuzzerTestOneInput(buf, (size_t)n);
  free(buf);
  return 0;
}

int main(int argc, char **argv)
{
  int bad = 0, count = 0;

  (void)LLVMFuzzerInitialize(&argc, &argv);
  for (int a = 1; a < argc; a++) {
    struct stat st;
    if (argv[a][0] == '-') continue;
    if (stat(argv[a], &st)) {
      fprintf(stderr, "no such input %s\n", argv[a]);
      bad++;
    } else if (S_ISDIR(st.st_mode)) {
      struct dirent **list;
      int             n = scandir(argv[a], &list, NULL, alphasort);
      for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", argv[a], list[i]->d_name);
        if (!stat(path, &st) && S_ISREG(st.st_mode)) bad += RunFile(path), count++;
        free(list[i]);
      }
      if (n >= 0) free(list);
      else bad++;
    } else bad += RunFile(argv[a]), count++;
  }
  printf("%s: %d inputs replayed, %d unreadable\n", argv[0], count, bad);
  HdemFuzzFinalize();
  return bad || !count ? 1 : 0;
}
