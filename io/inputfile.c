#include "io/inputfile.h"
#include "decomp/collective.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *(*input_namer)(const char *) = NULL;

void InputFileSetNamer(const char *(*namer)(const char *path))
{
  input_namer = namer;
}

/* The key whose value is path (every input path is an option's value), or what. */
static const char *InputName(const char *path, const char *what)
{
  const char *key = input_namer ? input_namer(path) : NULL;
  return key ? key : what;
}

static const char *FileKind(mode_t m)
{
  if (S_ISDIR(m)) return "a folder";
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a file";
}

/* The descriptor of path, open for reading, when it is a regular file; else -1 and msg. */
static int InputOpenFd(const char *path, const char *what, char *msg, size_t len)
{
  struct stat st;
  int         fd, flags;

  /* O_NONBLOCK: opening a FIFO without a writer would otherwise wait for one */
  fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return snprintf(msg, len, "cannot open %s %s: %s", InputName(path, what), path, strerror(errno)), -1;
  if (fstat(fd, &st)) {
    snprintf(msg, len, "cannot read %s %s: %s", InputName(path, what), path, strerror(errno));
    return close(fd), -1;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(msg, len, "%s %s is %s, not a regular file", InputName(path, what), path, FileKind(st.st_mode));
    return close(fd), -1;
  }
  flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
    snprintf(msg, len, "cannot read %s %s: %s", InputName(path, what), path, strerror(errno));
    return close(fd), -1;
  }
  return fd;
}

FILE *InputFileOpen(const char *path, const char *mode, const char *what, char *msg, size_t len)
{
  int   fd = InputOpenFd(path, what, msg, len);
  FILE *fp;

  if (fd < 0) return NULL;
  fp = fdopen(fd, mode);
  if (!fp) snprintf(msg, len, "cannot open %s %s: %s", InputName(path, what), path, strerror(errno)), close(fd);
  return fp;
}

int InputFileCheck(const char *path, const char *what, char *msg, size_t len)
{
  int fd = InputOpenFd(path, what, msg, len);
  if (fd < 0) return 1;
  close(fd);
  return 0;
}

PetscErrorCode InputRootStatus(MPI_Comm comm, PetscErrorCode root)
{
  PetscMPIInt rank;
  PetscInt    status    = (PetscInt)root;
  char        msg[1024] = "";

  PetscFunctionBeginUser;
  PetscCall(CollectiveRank(comm, &rank, NULL));
  if (rank == 0 && root) {
    char *specific = NULL;
    (void)PetscErrorMessage(root, NULL, &specific);
    if (specific) PetscCall(PetscStrncpy(msg, specific, sizeof(msg)));
  }
  PetscCall(CollectiveBcastInt(comm, &status, 1));
  /* said by rank 0 alone */
  PetscCheck(!status, comm, (PetscErrorCode)status, "%s", msg[0] ? msg : "rank 0 could not read an input file");
  PetscFunctionReturn(PETSC_SUCCESS);
}
