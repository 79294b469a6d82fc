/* The descriptors of an abandoned file turned to a sink. */
#ifndef HDEM_FILESINK_H
#define HDEM_FILESINK_H

/* Every descriptor this process holds open on path pointed at an anonymous
 * file in memory: writes to it, which would fail again on a full disk, then
 * succeed (the MPI-IO layer's handles of a parallel HDF5 file that must still
 * be closed). The number of descriptors turned, -1 if that was not possible
 * (Linux's /proc and memfd_create are used). */
int FileSink(const char *path);

#endif
