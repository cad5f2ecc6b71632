/* pv-fail-write.c: an LD_PRELOAD library that makes writes to regular files
 * fail the way a full disk does, for the save tests.
 *
 * PV_FAIL_WRITE_AFTER=N: regular files accept N bytes in all, then write()
 * writes what still fits (a short write) and fails with ENOSPC.
 * PV_FAIL_FSYNC=1: fsync() of a regular file fails with EIO.
 * Without these variables the calls pass through unchanged; unsetting
 * PV_FAIL_WRITE_AFTER starts the count again. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static long long written;

static int
is_regular (int fd)
{
  struct stat st;

  return fd > 2 && fstat (fd, &st) == 0 && S_ISREG (st.st_mode);
}

ssize_t
write (int fd, const void *buf, size_t count)
{
  static ssize_t (*real_write) (int, const void *, size_t);
  const char *limit = getenv ("PV_FAIL_WRITE_AFTER");

  if (real_write == NULL)
    real_write = (ssize_t (*) (int, const void *, size_t)) dlsym (RTLD_NEXT, "write");
  if (limit == NULL)
    written = 0;
  if (limit != NULL && count > 0 && is_regular (fd))
    {
      long long room = atoll (limit) - written;
      ssize_t n;

      if (room <= 0)
        {
          errno = ENOSPC;
          return -1;
        }
      n = real_write (fd, buf, count < (size_t) room ? count : (size_t) room);
      if (n > 0)
        written += n;
      return n;
    }
  return real_write (fd, buf, count);
}

int
fsync (int fd)
{
  static int (*real_fsync) (int);

  if (real_fsync == NULL)
    real_fsync = (int (*) (int)) dlsym (RTLD_NEXT, "fsync");
  if (getenv ("PV_FAIL_FSYNC") != NULL && is_regular (fd))
    {
      errno = EIO;
      return -1;
    }
  return real_fsync (fd);
}
