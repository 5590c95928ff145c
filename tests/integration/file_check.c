/* file_check.c - MPI-IO files (MPI-3.1 13.2, 13.4, 13.7): open with every
 * amode and its errors, close, delete, sizes, hints, groups, error handlers,
 * and data access at explicit offsets, through individual and shared file
 * pointers, in order, non-blocking and split collective, checked byte by
 * byte with the statuses' counts. Files live in a directory from mkdtemp
 * (rank 0's, shared with every client through the file system), removed at
 * the end. At any np >= 1, in one client or across clients. Prints
 * "rank r of n ok". */
#include <dirent.h>
#include <errno.h>
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static int rank, size;
static char dir[256];

#define CHECK(cond, ...)                                     \
  do {                                                       \
    if (!(cond)) {                                           \
      fprintf(stderr, "rank %d: line %d: ", rank, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                          \
      fprintf(stderr, "\n");                                 \
      MPI_Abort(MPI_COMM_WORLD, 1);                          \
    }                                                        \
  } while (0)
#define OK(call)                            \
  do {                                      \
    int rc_ = (call);                       \
    if (rc_ != MPI_SUCCESS) {               \
      char s_[MPI_MAX_ERROR_STRING];        \
      int l_;                               \
      MPI_Error_string(rc_, s_, &l_);       \
      CHECK(0, "%s failed: %s", #call, s_); \
    }                                       \
  } while (0)

static int eclass(int rc) {
  int c;
  MPI_Error_class(rc, &c);
  return c;
}
static void path(char *out, const char *name) {
  snprintf(out, 512, "%s/%s", dir, name);
}
/* The shared pointers' side files in the test's directory. */
static int side_files(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  CHECK(d != NULL, "opendir %s: %s", dir, strerror(errno));
  while ((e = readdir(d)) != NULL)
    if (strstr(e->d_name, ".impi-shfp.")) ++n;
  closedir(d);
  return n;
}
#include "pvar_counter.h"
static int count_of(MPI_Status *st, MPI_Datatype t) {
  int n;
  MPI_Get_count(st, t, &n);
  return n;
}
static unsigned char pattern(int r, int i) {
  return (unsigned char)(r * 37 + i * 11 + 5);
}

static int handler_calls, handler_code;
static void file_handler(MPI_File *fh, int *code, ...) {
  (void)fh;
  ++handler_calls;
  handler_code = *code;
}

static void test_open_errors(void) {
  char p[512], q[512];
  MPI_File fh;
  int rc;
  char msg[MPI_MAX_ERROR_STRING];
  int len;
  path(p, "missing/none.dat");
  rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  CHECK(eclass(rc) == MPI_ERR_NO_SUCH_FILE, "missing file: class %d", eclass(rc));
  MPI_Error_string(rc, msg, &len);
  CHECK(strstr(msg, "none.dat") != NULL, "the error string names the path: %s", msg);
  /* amode errors */
  path(p, "amode.dat");
  rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
  CHECK(eclass(rc) == MPI_ERR_AMODE, "RDONLY|CREATE: class %d", eclass(rc));
  rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY | MPI_MODE_EXCL, MPI_INFO_NULL, &fh);
  CHECK(eclass(rc) == MPI_ERR_AMODE, "RDONLY|EXCL: class %d", eclass(rc));
  rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_WRONLY | MPI_MODE_CREATE,
                     MPI_INFO_NULL, &fh);
  CHECK(eclass(rc) == MPI_ERR_AMODE, "RDWR|WRONLY: class %d", eclass(rc));
  rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
  CHECK(eclass(rc) == MPI_ERR_AMODE, "no access mode: class %d", eclass(rc));
  rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL | MPI_MODE_CREATE,
                     MPI_INFO_NULL, &fh);
  CHECK(eclass(rc) == MPI_ERR_AMODE, "RDWR|SEQUENTIAL: class %d", eclass(rc));
  /* CREATE|EXCL: created once, then MPI_ERR_FILE_EXISTS at every rank */
  path(p, "excl.dat");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL,
                   MPI_INFO_NULL, &fh));
  OK(MPI_File_close(&fh));
  CHECK(fh == MPI_FILE_NULL, "close sets MPI_FILE_NULL");
  rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL,
                     MPI_INFO_NULL, &fh);
  CHECK(eclass(rc) == MPI_ERR_FILE_EXISTS, "EXCL on an existing file: class %d", eclass(rc));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) OK(MPI_File_delete(p, MPI_INFO_NULL));
  MPI_Barrier(MPI_COMM_WORLD);
  rc = MPI_File_delete(p, MPI_INFO_NULL);
  CHECK(eclass(rc) == MPI_ERR_NO_SUCH_FILE, "delete of a deleted file: class %d", eclass(rc));
  /* a file the process may not write */
  if (geteuid() == 0) {
    snprintf(q, sizeof q, "/sys/kernel/notes");
  } else {
    path(q, "readonly.dat");
    if (rank == 0) {
      FILE *fp = fopen(q, "w");
      fputs("x", fp);
      fclose(fp);
      chmod(q, 0444);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (access(q, F_OK) == 0) {
    rc = MPI_File_open(MPI_COMM_WORLD, q, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    CHECK(eclass(rc) == MPI_ERR_ACCESS, "read-only file opened for writing: class %d", eclass(rc));
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, q) != NULL && strstr(msg, "denied") != NULL, "path and reason: %s", msg);
  }
  /* a directory is no file; nor is a name longer than the system allows */
  rc = MPI_File_open(MPI_COMM_WORLD, dir, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  CHECK(eclass(rc) == MPI_ERR_BAD_FILE, "opening a directory: class %d", eclass(rc));
  {
    char longname[301], lp[1024];
    memset(longname, 'x', 300);
    longname[300] = '\0';
    snprintf(lp, sizeof lp, "%s/%s", dir, longname);
    rc = MPI_File_open(MPI_COMM_WORLD, lp, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    CHECK(eclass(rc) == MPI_ERR_BAD_FILE, "a 300-byte name: class %d", eclass(rc));
  }
  /* a full device: the write fails with MPI_ERR_NO_SPACE, naming the reason */
  if (rank == 0 && access("/dev/full", W_OK) == 0) {
    OK(MPI_File_open(MPI_COMM_SELF, "/dev/full", MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    rc = MPI_File_write_at(fh, 0, "abcd", 4, MPI_CHAR, MPI_STATUS_IGNORE);
    CHECK(eclass(rc) == MPI_ERR_NO_SPACE, "write to /dev/full: class %d", eclass(rc));
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "/dev/full") != NULL && strstr(msg, "space") != NULL, "path and reason: %s",
          msg);
    OK(MPI_File_close(&fh));
  }
  /* MPI_FILE_NULL's handler is used by open */
  MPI_Errhandler eh, got;
  OK(MPI_File_create_errhandler(file_handler, &eh));
  OK(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
  OK(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
  CHECK(got == eh, "get_errhandler(MPI_FILE_NULL)");
  OK(MPI_Errhandler_free(&got));
  path(p, "missing/none.dat");
  handler_calls = 0;
  rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  CHECK(handler_calls == 1 && eclass(handler_code) == MPI_ERR_NO_SUCH_FILE,
        "the handler of MPI_FILE_NULL ran once for open (%d calls)", handler_calls);
  OK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
  OK(MPI_Errhandler_free(&eh));
}

/* MPI_File_delete of a file some process has open: MPI_ERR_FILE_IN_USE and
 * the file stays (MPI-4.1 14.2.3); once closed everywhere, deleted. Open by
 * this process, by every process, by another process only (of this client
 * or another), for writing only. */
static void test_in_use(void) {
  char p[512], q[64], mine[512], next[512];
  MPI_File fh, fs;
  struct stat sb;
  int rc;
  path(p, "inuse.dat");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  rc = MPI_File_delete(p, MPI_INFO_NULL);
  CHECK(eclass(rc) == MPI_ERR_FILE_IN_USE, "delete of a file open everywhere: class %d",
        eclass(rc));
  CHECK(stat(p, &sb) == 0, "a file in use stays: %s", strerror(errno));
  OK(MPI_File_write_at(fh, rank, "x", 1, MPI_BYTE, MPI_STATUS_IGNORE));
  OK(MPI_File_close(&fh));
  /* write-only opens are marked too */
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
  rc = MPI_File_delete(p, MPI_INFO_NULL);
  CHECK(eclass(rc) == MPI_ERR_FILE_IN_USE, "delete of a write-only open file: class %d",
        eclass(rc));
  OK(MPI_File_close(&fh));
  /* open by one process only (MPI_COMM_SELF): the next rank may not delete
   * it, a second open of the same file by the owner closing does not unmark
   * the first */
  snprintf(q, sizeof q, "inuse.%d", rank);
  path(mine, q);
  snprintf(q, sizeof q, "inuse.%d", (rank + 1) % size);
  path(next, q);
  OK(MPI_File_open(MPI_COMM_SELF, mine, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fs));
  OK(MPI_File_open(MPI_COMM_SELF, mine, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
  OK(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  rc = MPI_File_delete(next, MPI_INFO_NULL);
  CHECK(eclass(rc) == MPI_ERR_FILE_IN_USE, "delete of a file another proc has open: class %d",
        eclass(rc));
  CHECK(stat(next, &sb) == 0, "another's file in use stays: %s", strerror(errno));
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_close(&fs));
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_delete(next, MPI_INFO_NULL));
  CHECK(stat(next, &sb) != 0 && errno == ENOENT, "deleted once closed");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) OK(MPI_File_delete(p, MPI_INFO_NULL));
  MPI_Barrier(MPI_COMM_WORLD);
}

static void test_manage(void) {
  char p[512];
  MPI_File fh;
  MPI_Info info, used;
  int amode, flag, n, res;
  char v[MPI_MAX_INFO_VAL + 1];
  MPI_Offset sz;
  MPI_Group g, wg;
  path(p, "manage.dat");
  MPI_Info_create(&info);
  MPI_Info_set(info, "cb_buffer_size", "8388608");
  MPI_Info_set(info, "romio_ds_read", "disable");
  MPI_Info_set(info, "access_style", "read_mostly");
  MPI_Info_set(info, "cb_nodes", "not-a-number");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
  MPI_Info_free(&info);
  OK(MPI_File_get_amode(fh, &amode));
  CHECK(amode == (MPI_MODE_RDWR | MPI_MODE_CREATE), "amode %d", amode);
  OK(MPI_File_get_info(fh, &used));
  MPI_Info_get(used, "cb_buffer_size", MPI_MAX_INFO_VAL, v, &flag);
  CHECK(flag && strcmp(v, "8388608") == 0, "cb_buffer_size in force: %s", flag ? v : "(none)");
  MPI_Info_get(used, "romio_ds_read", MPI_MAX_INFO_VAL, v, &flag);
  CHECK(flag && strcmp(v, "disable") == 0, "romio_ds_read in force");
  MPI_Info_get(used, "access_style", MPI_MAX_INFO_VAL, v, &flag);
  CHECK(flag && strcmp(v, "read_mostly") == 0, "access_style");
  MPI_Info_get(used, "cb_nodes", MPI_MAX_INFO_VAL, v, &flag);
  CHECK(flag && strcmp(v, "not-a-number") != 0, "an invalid cb_nodes is not in force");
  MPI_Info_get(used, "filename", MPI_MAX_INFO_VAL, v, &flag);
  CHECK(flag && strcmp(v, p) == 0, "filename hint");
  MPI_Info_get_nkeys(used, &n);
  CHECK(n >= 8, "hints reported: %d", n);
  MPI_Info_free(&used);
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_cb_write", "enable");
  OK(MPI_File_set_info(fh, info));
  MPI_Info_free(&info);
  OK(MPI_File_get_info(fh, &used));
  MPI_Info_get(used, "romio_cb_write", MPI_MAX_INFO_VAL, v, &flag);
  CHECK(flag && strcmp(v, "enable") == 0, "set_info's hint in force");
  MPI_Info_free(&used);
  OK(MPI_File_get_group(fh, &g));
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_compare(g, wg, &res);
  CHECK(res == MPI_IDENT, "get_group: %d", res);
  MPI_Group_free(&g);
  MPI_Group_free(&wg);
  OK(MPI_File_set_size(fh, 1000));
  OK(MPI_File_get_size(fh, &sz));
  CHECK(sz == 1000, "set_size: %lld", (long long)sz);
  OK(MPI_File_preallocate(fh, 4096));
  OK(MPI_File_get_size(fh, &sz));
  CHECK(sz == 4096, "preallocate: %lld", (long long)sz);
  OK(MPI_File_preallocate(fh, 100));
  OK(MPI_File_get_size(fh, &sz));
  CHECK(sz == 4096, "preallocate never shrinks: %lld", (long long)sz);
  OK(MPI_File_set_size(fh, 10));
  OK(MPI_File_get_size(fh, &sz));
  CHECK(sz == 10, "set_size shrinks: %lld", (long long)sz);
  /* c2f / f2c */
  MPI_Fint fi = MPI_File_c2f(fh);
  CHECK(MPI_File_f2c(fi) == fh, "f2c(c2f(fh))");
  /* a file's own handler, called with the file and the code */
  MPI_Errhandler eh, cur;
  OK(MPI_File_get_errhandler(fh, &cur));
  CHECK(cur == MPI_ERRORS_RETURN, "files default to MPI_ERRORS_RETURN");
  OK(MPI_File_create_errhandler(file_handler, &eh));
  OK(MPI_File_set_errhandler(fh, eh));
  handler_calls = 0;
  int rc = MPI_File_seek(fh, -5, MPI_SEEK_SET);
  CHECK(eclass(rc) == MPI_ERR_ARG && handler_calls == 1, "seek to -5: class %d, %d calls",
        eclass(rc), handler_calls);
  OK(MPI_File_call_errhandler(fh, MPI_ERR_IO));
  CHECK(handler_calls == 2 && handler_code == MPI_ERR_IO, "call_errhandler");
  OK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
  OK(MPI_Errhandler_free(&eh));
  OK(MPI_File_close(&fh));
  /* invalid handles: MPI_ERR_FILE */
  rc = MPI_File_get_size(MPI_FILE_NULL, &sz);
  CHECK(eclass(rc) == MPI_ERR_FILE, "MPI_FILE_NULL: class %d", eclass(rc));
  /* read-only handle: writes fail, reads work */
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
  rc = MPI_File_write_at(fh, 0, "abc", 3, MPI_CHAR, MPI_STATUS_IGNORE);
  CHECK(eclass(rc) == MPI_ERR_READ_ONLY, "write to a RDONLY file: class %d", eclass(rc));
  OK(MPI_File_close(&fh));
  /* DELETE_ON_CLOSE */
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                   &fh));
  rc = MPI_File_read_at(fh, 0, v, 1, MPI_CHAR, MPI_STATUS_IGNORE);
  CHECK(eclass(rc) == MPI_ERR_ACCESS, "read of a WRONLY file: class %d", eclass(rc));
  OK(MPI_File_close(&fh));
  CHECK(access(p, F_OK) != 0, "DELETE_ON_CLOSE removed the file");
}

/* Explicit offsets, individual pointers, statuses, EOF. */
static void test_access(void) {
  char p[512];
  MPI_File fh;
  MPI_Status st;
  enum { N = 1000 };
  unsigned char out[N], in[2 * N];
  int i;
  path(p, "access.dat");
  for (i = 0; i < N; ++i) out[i] = pattern(rank, i);
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_UNIQUE_OPEN,
                   MPI_INFO_NULL, &fh));
  OK(MPI_File_write_at(fh, (MPI_Offset)rank * N, out, N, MPI_BYTE, &st));
  CHECK(count_of(&st, MPI_BYTE) == N, "write_at count %d", count_of(&st, MPI_BYTE));
  OK(MPI_File_sync(fh));
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_sync(fh));
  int other = (rank + 1) % size;
  memset(in, 0, sizeof in);
  OK(MPI_File_read_at_all(fh, (MPI_Offset)other * N, in, N, MPI_BYTE, &st));
  CHECK(count_of(&st, MPI_BYTE) == N, "read_at_all count");
  for (i = 0; i < N; ++i) CHECK(in[i] == pattern(other, i), "byte %d of rank %d's block", i, other);
  /* reading across the end of the file: a short count */
  OK(MPI_File_read_at(fh, (MPI_Offset)size * N - 100, in, 300, MPI_BYTE, &st));
  CHECK(count_of(&st, MPI_BYTE) == 100, "read across EOF: count %d", count_of(&st, MPI_BYTE));
  for (i = 0; i < 100; ++i) CHECK(in[i] == pattern(size - 1, N - 100 + i), "EOF read byte %d", i);
  OK(MPI_File_read_at(fh, (MPI_Offset)size * N + 5, in, 10, MPI_BYTE, &st));
  CHECK(count_of(&st, MPI_BYTE) == 0, "read beyond EOF: count 0");
  /* ints and MPI_Get_count in ints, MPI_UNDEFINED for a partial one */
  OK(MPI_File_read_at(fh, (MPI_Offset)size * N - 6, in, 2, MPI_INT, &st));
  CHECK(count_of(&st, MPI_INT) == MPI_UNDEFINED, "6 bytes are not whole ints");
  CHECK(count_of(&st, MPI_BYTE) == 6, "6 bytes read");
  /* individual file pointers: seek, read, position */
  MPI_Offset pos;
  OK(MPI_File_seek(fh, (MPI_Offset)other * N + 10, MPI_SEEK_SET));
  OK(MPI_File_read(fh, in, 20, MPI_BYTE, &st));
  OK(MPI_File_get_position(fh, &pos));
  CHECK(pos == (MPI_Offset)other * N + 30, "position after read: %lld", (long long)pos);
  for (i = 0; i < 20; ++i) CHECK(in[i] == pattern(other, 10 + i), "read byte %d", i);
  OK(MPI_File_seek(fh, -10, MPI_SEEK_CUR));
  OK(MPI_File_read_all(fh, in, 5, MPI_BYTE, &st));
  for (i = 0; i < 5; ++i) CHECK(in[i] == pattern(other, 20 + i), "seek_cur byte %d", i);
  OK(MPI_File_seek(fh, -4, MPI_SEEK_END));
  OK(MPI_File_get_position(fh, &pos));
  CHECK(pos == (MPI_Offset)size * N - 4, "seek_end: %lld", (long long)pos);
  /* write through the individual pointer, read back */
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_seek(fh, (MPI_Offset)rank * N, MPI_SEEK_SET));
  for (i = 0; i < N; ++i) out[i] = (unsigned char)(pattern(rank, i) ^ 0xff);
  OK(MPI_File_write_all(fh, out, N / 2, MPI_BYTE, &st));
  OK(MPI_File_write(fh, out + N / 2, N / 2, MPI_BYTE, &st));
  CHECK(count_of(&st, MPI_BYTE) == N / 2, "write count");
  OK(MPI_File_get_position(fh, &pos));
  CHECK(pos == (MPI_Offset)(rank + 1) * N, "position after writes");
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_at(fh, (MPI_Offset)other * N, in, N, MPI_BYTE, &st));
  for (i = 0; i < N; ++i)
    CHECK(in[i] == (unsigned char)(pattern(other, i) ^ 0xff), "rewritten byte %d", i);
  /* a derived memory type: every other int of a buffer */
  int ints[20], back[20];
  MPI_Datatype every_other;
  MPI_Type_vector(10, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  for (i = 0; i < 20; ++i) ints[i] = rank * 1000 + i;
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_write_at(fh, (MPI_Offset)rank * 40, ints, 1, every_other, &st));
  CHECK(count_of(&st, every_other) == 1, "count of a derived type");
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_at(fh, (MPI_Offset)other * 40, back, 10, MPI_INT, &st));
  for (i = 0; i < 10; ++i) CHECK(back[i] == other * 1000 + 2 * i, "strided int %d: %d", i, back[i]);
  memset(back, 0, sizeof back);
  OK(MPI_File_read_at(fh, (MPI_Offset)other * 40, back, 1, every_other, &st));
  for (i = 0; i < 20; ++i)
    CHECK(back[i] == (i % 2 == 0 ? other * 1000 + i : 0), "into a strided buffer %d", i);
  MPI_Type_free(&every_other);
  OK(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) OK(MPI_File_delete(p, MPI_INFO_NULL));
}

/* Large contiguous reads at every kind of distance between the memory and
 * the file offset modulo the page: 1-63 bytes may go through an aligned
 * buffer (io/access.cpp, bounced_pread; FILE_TEST_READ_BOUNCE=1: each such
 * independent read must have, =0: none may), the rest straight; across the
 * end of the file a short count. Guard bytes around the destination stay. */
static void test_large_reads(void) {
  char p[512];
  MPI_File fh;
  MPI_Status st;
  const int n = (1 << 20) + 300, guard = 64;
  unsigned char *file = malloc((size_t)n), *mem0 = malloc((size_t)n + 4 * 4096);
  int i;
  CHECK(file && mem0, "malloc");
  unsigned char *mem = (unsigned char *)(((uintptr_t)mem0 + 4095) & ~(uintptr_t)4095);
  path(p, "large.dat");
  for (i = 0; i < n; ++i) file[i] = pattern(rank, i);
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  OK(MPI_File_write_at(fh, (MPI_Offset)rank * n, file, n, MPI_BYTE, &st));
  MPI_Barrier(MPI_COMM_WORLD);
  int other = (rank + 1) % size;
  const MPI_Offset base = (MPI_Offset)other * n;
  /* the memory's distance past the file offset, modulo the page */
  const int dists[] = {0, 1, 16, 32, 33, 63, 64, 100, 2048};
  const int file_offs[] = {0, 16, 4000, 4096};
  const char *bounce = getenv("FILE_TEST_READ_BOUNCE");
  unsigned long long bounced = counter("io_bounced_reads"), short_reads = 0;
  for (size_t a = 0; a < sizeof dists / sizeof *dists; ++a)
    for (size_t b = 0; b < sizeof file_offs / sizeof *file_offs; ++b)
      for (int form = 0; form < 3; ++form) {
        const int off = file_offs[b], want = n - off - 1000;
        unsigned char *dst = mem + 4096 + ((base + off + dists[a]) & 4095);
        if (form != 1 && dists[a] > 0 && dists[a] < 64) ++short_reads;
        memset(mem, 0xa5, (size_t)n + 3 * 4096);
        MPI_Request rq;
        if (form == 0) {
          OK(MPI_File_read_at(fh, base + off, dst, want, MPI_BYTE, &st));
        } else if (form == 1) {
          OK(MPI_File_read_at_all(fh, base + off, dst, want, MPI_BYTE, &st));
        } else {
          OK(MPI_File_iread_at(fh, base + off, dst, want, MPI_BYTE, &rq));
          OK(MPI_Wait(&rq, &st));
        }
        CHECK(count_of(&st, MPI_BYTE) == want, "form %d count %d", form, count_of(&st, MPI_BYTE));
        for (i = 0; i < want; ++i)
          CHECK(dst[i] == pattern(other, off + i), "form %d distance %d file +%d: byte %d", form,
                dists[a], off, i);
        for (i = 1; i <= guard; ++i)
          CHECK(dst[-i] == 0xa5 && dst[want + i - 1] == 0xa5, "form %d: a guard byte changed",
                form);
      }
  bounced = counter("io_bounced_reads") - bounced;
  CHECK(short_reads > 0, "no read at a short distance");
  if (bounce && atoi(bounce) == 1)
    CHECK(bounced >= short_reads, "%llu of %llu reads at a short distance bounced", bounced,
          short_reads);
  if (bounce && atoi(bounce) == 0) CHECK(bounced == 0, "%llu reads bounced", bounced);
  /* across the end of the file, from a short distance: what there is */
  const MPI_Offset end = (MPI_Offset)size * n;
  unsigned char *dst = mem + 4096 + ((end - 300000 + 16) & 4095);
  memset(mem, 0xa5, (size_t)n + 3 * 4096);
  OK(MPI_File_read_at(fh, end - 300000, dst, n, MPI_BYTE, &st));
  CHECK(count_of(&st, MPI_BYTE) == 300000, "across EOF: count %d", count_of(&st, MPI_BYTE));
  for (i = 0; i < 300000; ++i)
    CHECK(dst[i] == pattern(size - 1, n - 300000 + i), "across EOF: byte %d", i);
  for (i = 300000; i < n; ++i) CHECK(dst[i] == 0xa5, "across EOF: byte %d past the data", i);
  OK(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) OK(MPI_File_delete(p, MPI_INFO_NULL));
  free(file);
  free(mem0);
}

/* Opens and closes on a communicator across IMPI clients: after the first
 * pair on a duplicate, which agrees on it, their agreements go by memory
 * (io_memory_rounds: two an open, one a close, one an open that fails at
 * rank 0) where FILE_TEST_MEMORY_ROUNDS=1, as messages where =0, and so do
 * the file's other collective calls; files opened so work as any other. */
static void test_open_rounds(void) {
  char p[512];
  MPI_Comm c;
  MPI_File fh;
  MPI_Status st;
  const char *want = getenv("FILE_TEST_MEMORY_ROUNDS");
  const int pairs = 4;
  int i, k, got, rc;
  path(p, "rounds.dat");
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  OK(MPI_File_open(c, p, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  /* the first file on the communicator uses them already (sync: 1, close: 1) */
  unsigned long long before = counter("io_memory_rounds");
  OK(MPI_File_sync(fh));
  OK(MPI_File_close(&fh));
  unsigned long long rounds = counter("io_memory_rounds") - before;
  if (size > 1 && want && atoi(want) == 1)
    CHECK(rounds == 2, "%llu rounds by memory for the first file's sync and close", rounds);
  before = counter("io_memory_rounds");
  for (k = 0; k < pairs; ++k) {
    OK(MPI_File_open(c, p, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    i = k * 100 + rank;
    OK(MPI_File_write_at(fh, (MPI_Offset)rank * sizeof i, &i, 1, MPI_INT, &st));
    OK(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_File_open(c, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    OK(MPI_File_read_at(fh, (MPI_Offset)((rank + 1) % size) * sizeof i, &got, 1, MPI_INT, &st));
    CHECK(got == k * 100 + (rank + 1) % size, "pair %d: read %d", k, got);
    OK(MPI_File_close(&fh));
  }
  /* rank 0's failure reaches every rank in the open's first round (with
   * EXCL rank 0 opens first: its answer, then the others') */
  rc = MPI_File_open(c, p, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL, MPI_INFO_NULL, &fh);
  CHECK(eclass(rc) == MPI_ERR_FILE_EXISTS, "EXCL: class %d", eclass(rc));
  /* a failure at the other ranks alone (their name is another's, which does
   * not exist): every rank fails, rank 0 with the others' class */
  {
    char q[600];
    snprintf(q, sizeof q, "%s%s", p, rank == 0 ? "" : ".missing");
    rc = MPI_File_open(c, q, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    if (size > 1) {
      char msg[MPI_MAX_ERROR_STRING];
      int len = 0;
      CHECK(eclass(rc) == MPI_ERR_NO_SUCH_FILE, "open missing at ranks > 0: class %d", eclass(rc));
      MPI_Error_string(rc, msg, &len);
      CHECK(rank != 0 || strstr(msg, "another process could not open it") != NULL,
            "rank 0's message: %s", msg);
    } else
      OK(rc == MPI_SUCCESS ? MPI_File_close(&fh) : rc);
  }
  rounds = counter("io_memory_rounds") - before;
  /* an open that creates: rank 0's answer, then the agreement; one that
   * does not (RDONLY, and the missing file): one round; close: one */
  if (size > 1 && want && atoi(want) == 1)
    CHECK(rounds == (unsigned long long)(pairs * (3 + 2) + 1 + 1),
          "%llu open/close rounds by memory", rounds);
  if (want && atoi(want) == 0) CHECK(rounds == 0, "%llu open/close rounds by memory", rounds);

  /* the file's other collective calls on such a communicator: set_view (2
   * rounds), set_size, preallocate, seek_shared, write_ordered (2 each),
   * set_atomicity, sync (1 each), their outcomes and errors */
  OK(MPI_File_open(c, p, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  before = counter("io_memory_rounds");
  OK(MPI_File_set_size(fh, 0));
  OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  OK(MPI_File_set_atomicity(fh, 1));
  OK(MPI_File_set_atomicity(fh, 0));
  i = 1000 + rank;
  OK(MPI_File_write_ordered(fh, &i, 1, MPI_INT, &st));
  OK(MPI_File_sync(fh));
  MPI_Offset sz, pos;
  OK(MPI_File_get_size(fh, &sz));
  CHECK(sz == (MPI_Offset)(size * sizeof(int)), "size %lld after write_ordered", (long long)sz);
  for (k = 0; k < size; ++k) {
    OK(MPI_File_read_at(fh, k, &got, 1, MPI_INT, &st));
    CHECK(got == 1000 + k, "write_ordered: int %d is %d", k, got);
  }
  OK(MPI_File_seek_shared(fh, 1, MPI_SEEK_SET));
  OK(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == 1, "shared pointer at %lld after seek_shared", (long long)pos);
  OK(MPI_File_preallocate(fh, 4096));
  OK(MPI_File_get_size(fh, &sz));
  CHECK(sz == 4096, "size %lld after preallocate", (long long)sz);
  OK(MPI_File_set_size(fh, 8));
  OK(MPI_File_get_size(fh, &sz));
  CHECK(sz == 8, "size %lld after set_size", (long long)sz);
  rounds = counter("io_memory_rounds") - before;
  if (size > 1 && want && atoi(want) == 1)
    CHECK(rounds == 2 + 2 + 1 + 1 + 2 + 1 + 2 + 2 + 2, "%llu rounds by memory", rounds);
  if (want && atoi(want) == 0) CHECK(rounds == 0, "%llu rounds by memory", rounds);
  /* one process's error reaches every process */
  rc = MPI_File_seek_shared(fh, rank == size - 1 ? 2 : 0, MPI_SEEK_SET);
  if (size > 1) CHECK(eclass(rc) == MPI_ERR_NOT_SAME, "seek_shared, different offsets: %d", rc);
  rc = MPI_File_set_view(fh, 0, MPI_INT, rank == size - 1 ? MPI_DATATYPE_NULL : MPI_INT, "native",
                         MPI_INFO_NULL);
  CHECK(eclass(rc) != MPI_SUCCESS, "set_view with a bad filetype at rank %d: success", size - 1);
  OK(MPI_File_close(&fh));
  MPI_Comm_free(&c);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) OK(MPI_File_delete(p, MPI_INFO_NULL));
}

/* Shared file pointers and ordered access. */
static void test_shared(void) {
  char p[512];
  MPI_File fh;
  MPI_Status st;
  int i, r, k;
  enum { M = 16, ROUNDS = 5 };
  int rec[M], all[M];
  MPI_Offset pos;
  path(p, "shared.dat");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  OK(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == 0, "shared pointer starts at 0");
  MPI_Barrier(MPI_COMM_WORLD);
  /* (impi: the pointer's side file exists once the pointer moved, and
   * only until the close) */
  if (rank == 0) CHECK(side_files() == 0, "a side file before the pointer moved");
  MPI_Barrier(MPI_COMM_WORLD);
  /* every rank appends ROUNDS records of M ints through the shared pointer */
  for (k = 0; k < ROUNDS; ++k) {
    for (i = 0; i < M; ++i) rec[i] = (rank << 16) | (k << 8) | i;
    OK(MPI_File_write_shared(fh, rec, M, MPI_INT, &st));
    CHECK(count_of(&st, MPI_INT) == M, "write_shared count");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK(side_files() == 1, "%d side files in use", side_files());
  OK(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == (MPI_Offset)size * ROUNDS * M, "shared pointer at the end: %lld", (long long)pos);
  /* every record is whole and each (rank, round) appears once */
  int *seen = calloc((size_t)size * ROUNDS, sizeof(int));
  for (r = 0; r < size * ROUNDS; ++r) {
    OK(MPI_File_read_at(fh, (MPI_Offset)r * M, all, M, MPI_INT, &st));
    int who = all[0] >> 16, round = (all[0] >> 8) & 0xff;
    CHECK(who >= 0 && who < size && round < ROUNDS, "record %d: %x", r, all[0]);
    for (i = 0; i < M; ++i)
      CHECK(all[i] == ((who << 16) | (round << 8) | i), "record %d int %d", r, i);
    seen[who * ROUNDS + round]++;
  }
  for (r = 0; r < size * ROUNDS; ++r) CHECK(seen[r] == 1, "record %d seen %d times", r, seen[r]);
  free(seen);
  /* seek_shared back, read_shared: each rank gets whole distinct records */
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  OK(MPI_File_read_shared(fh, all, M, MPI_INT, &st));
  CHECK(count_of(&st, MPI_INT) == M, "read_shared count");
  for (i = 1; i < M; ++i)
    CHECK((all[i] & 0xff) == i && (all[i] >> 8) == (all[0] >> 8), "read_shared record");
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == (MPI_Offset)size * M, "after read_shared: %lld", (long long)pos);
  /* ordered: rank r's block lands r-th after the pointer */
  OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  int n = rank + 1, blk[64];
  for (i = 0; i < n; ++i) blk[i] = rank * 100 + i;
  OK(MPI_File_write_ordered(fh, blk, n, MPI_INT, &st));
  CHECK(count_of(&st, MPI_INT) == n, "write_ordered count");
  OK(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == (MPI_Offset)size * (size + 1) / 2, "after write_ordered: %lld", (long long)pos);
  OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  memset(blk, 0, sizeof blk);
  OK(MPI_File_read_ordered(fh, blk, n, MPI_INT, &st));
  for (i = 0; i < n; ++i) CHECK(blk[i] == rank * 100 + i, "read_ordered int %d: %d", i, blk[i]);
  int start = 0;
  for (r = 0; r < rank; ++r) start += r + 1;
  OK(MPI_File_read_at(fh, start, blk, n, MPI_INT, &st));
  for (i = 0; i < n; ++i) CHECK(blk[i] == rank * 100 + i, "ordered placement int %d", i);
  /* split collective, ordered */
  OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  OK(MPI_File_read_ordered_begin(fh, blk, n, MPI_INT));
  OK(MPI_File_read_ordered_end(fh, blk, &st));
  CHECK(count_of(&st, MPI_INT) == n && blk[0] == rank * 100, "read_ordered_begin/end");
  OK(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK(side_files() == 0, "%d side files left after the close", side_files());
  if (rank == 0) OK(MPI_File_delete(p, MPI_INFO_NULL));
  /* APPEND: both pointers start at the end; SEQUENTIAL: shared only */
  path(p, "append.dat");
  if (rank == 0) {
    FILE *fp = fopen(p, "w");
    fputs("0123456789", fp);
    fclose(fp);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY | MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL,
                   MPI_INFO_NULL, &fh));
  OK(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == 10, "APPEND: shared pointer at the end (%lld)", (long long)pos);
  MPI_Barrier(MPI_COMM_WORLD);
  int rc = MPI_File_write_at(fh, 0, "x", 1, MPI_CHAR, &st);
  CHECK(eclass(rc) == MPI_ERR_UNSUPPORTED_OPERATION, "write_at on a SEQUENTIAL file: %d",
        eclass(rc));
  char c = (char)('a' + rank);
  OK(MPI_File_write_ordered(fh, &c, 1, MPI_CHAR, &st));
  OK(MPI_File_close(&fh));
  if (rank == 0) {
    char buf[64] = {0};
    FILE *fp = fopen(p, "r");
    size_t got = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    CHECK(got == (size_t)(10 + size), "appended size %zu", got);
    CHECK(memcmp(buf, "0123456789", 10) == 0, "old contents kept");
    for (i = 0; i < size; ++i) CHECK(buf[10 + i] == 'a' + i, "appended byte %d", i);
    OK(MPI_File_delete(p, MPI_INFO_NULL));
  }
}

/* Non-blocking operations and split collectives. */
/* A non-blocking write that fails in the I/O thread (a file-size limit:
 * pwrite's EFBIG) reports through the file's error handler, not
 * MPI_COMM_WORLD's (which stays MPI_ERRORS_ARE_FATAL): files default to
 * MPI_ERRORS_RETURN, so MPI_Wait returns the error; a user handler is
 * called with the file. */
static int file_handler_calls;
static MPI_File file_handler_file;
static void on_file_error(MPI_File *fh, int *code, ...) {
  ++file_handler_calls;
  file_handler_file = *fh;
  CHECK(eclass(*code) == MPI_ERR_NO_SPACE, "the handler's code: class %d", eclass(*code));
}
static void test_thread_error(void) {
  char p[512], name[64], text[MPI_MAX_ERROR_STRING];
  MPI_File fh;
  MPI_Status st, sts[2];
  MPI_Request req[2];
  MPI_Errhandler eh;
  struct rlimit old, small;
  int v[4] = {1, 2, 3, 4}, rc, len, flag = 0;
  snprintf(name, sizeof name, "limit.%d.dat", rank);
  path(p, name);
  OK(MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                   MPI_INFO_NULL, &fh));
  CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0, "getrlimit: %s", strerror(errno));
  small = old;
  small.rlim_cur = 1 << 20;
  signal(SIGXFSZ, SIG_IGN);
  CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0, "setrlimit: %s", strerror(errno));
  /* MPI_Wait: the code, its class and text (the path) */
  OK(MPI_File_iwrite_at(fh, 4 << 20, v, 4, MPI_INT, &req[0]));
  rc = MPI_Wait(&req[0], &st);
  CHECK(eclass(rc) == MPI_ERR_NO_SPACE, "iwrite past the limit: class %d", eclass(rc));
  CHECK(req[0] == MPI_REQUEST_NULL, "the failed request is freed");
  MPI_Error_string(rc, text, &len);
  CHECK(strstr(text, name) != NULL, "the error names the file: %s", text);
  /* MPI_Test until done; MPI_Waitall with a good request beside it */
  OK(MPI_File_iwrite_at(fh, 4 << 20, v, 4, MPI_INT, &req[0]));
  do {
    rc = MPI_Test(&req[0], &flag, &st);
  } while (!flag && rc == MPI_SUCCESS);
  CHECK(flag && eclass(rc) == MPI_ERR_NO_SPACE, "MPI_Test: flag %d class %d", flag, eclass(rc));
  OK(MPI_File_iwrite_at(fh, 0, v, 4, MPI_INT, &req[0]));
  OK(MPI_File_iwrite_at(fh, 4 << 20, v, 4, MPI_INT, &req[1]));
  rc = MPI_Waitall(2, req, sts);
  CHECK(eclass(rc) == MPI_ERR_IN_STATUS, "MPI_Waitall: class %d", eclass(rc));
  CHECK(sts[0].MPI_ERROR == MPI_SUCCESS && eclass(sts[1].MPI_ERROR) == MPI_ERR_NO_SPACE,
        "MPI_Waitall's statuses: %d %d", sts[0].MPI_ERROR, eclass(sts[1].MPI_ERROR));
  /* a user handler: called once, with this file */
  OK(MPI_File_create_errhandler(on_file_error, &eh));
  OK(MPI_File_set_errhandler(fh, eh));
  OK(MPI_File_iwrite_at(fh, 4 << 20, v, 4, MPI_INT, &req[0]));
  rc = MPI_Wait(&req[0], &st);
  CHECK(file_handler_calls == 1 && file_handler_file == fh, "the file's handler: %d calls",
        file_handler_calls);
  CHECK(eclass(rc) == MPI_ERR_NO_SPACE, "after the handler: class %d", eclass(rc));
  CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0, "setrlimit: %s", strerror(errno));
  signal(SIGXFSZ, SIG_DFL);
  OK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
  OK(MPI_Errhandler_free(&eh));
  OK(MPI_File_close(&fh));
}

static void test_nonblocking(void) {
  char p[512];
  MPI_File fh;
  MPI_Status st, sts[4];
  MPI_Request req[4];
  enum { N = 1 << 16 };
  int i, flag = 0;
  int *a = malloc(N * sizeof(int)), *b = malloc(N * sizeof(int));
  path(p, "nb.dat");
  for (i = 0; i < N; ++i) a[i] = rank * N + i;
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  OK(MPI_File_iwrite_at(fh, (MPI_Offset)rank * N * 4, a, N / 2, MPI_INT, &req[0]));
  OK(MPI_File_iwrite_at_all(fh, (MPI_Offset)rank * N * 4 + N * 2, a + N / 2, N / 2, MPI_INT,
                            &req[1]));
  OK(MPI_Waitall(2, req, sts));
  CHECK(req[0] == MPI_REQUEST_NULL && count_of(&sts[0], MPI_INT) == N / 2 &&
            count_of(&sts[1], MPI_INT) == N / 2,
        "iwrite statuses");
  MPI_Barrier(MPI_COMM_WORLD);
  int other = (rank + 1) % size;
  OK(MPI_File_iread_at(fh, (MPI_Offset)other * N * 4, b, N, MPI_INT, &req[0]));
  while (!flag) OK(MPI_Test(&req[0], &flag, &st));
  CHECK(count_of(&st, MPI_INT) == N, "iread count %d", count_of(&st, MPI_INT));
  for (i = 0; i < N; ++i) CHECK(b[i] == other * N + i, "iread int %d", i);
  /* individual pointer moves at the start of the operation */
  MPI_Offset pos;
  OK(MPI_File_seek(fh, (MPI_Offset)other * N * 4, MPI_SEEK_SET));
  OK(MPI_File_iread(fh, b, 10, MPI_INT, &req[0]));
  OK(MPI_File_iread_all(fh, b + 10, 10, MPI_INT, &req[1]));
  OK(MPI_File_get_position(fh, &pos));
  CHECK(pos == (MPI_Offset)other * N * 4 + 80, "pointer after two ireads: %lld", (long long)pos);
  int idx;
  OK(MPI_Waitany(2, req, &idx, &st));
  OK(MPI_Wait(&req[1 - idx], &st));
  for (i = 0; i < 20; ++i) CHECK(b[i] == other * N + i, "iread/iread_all int %d", i);
  /* iwrite / iwrite_all through the individual pointer */
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_seek(fh, (MPI_Offset)rank * N * 4, MPI_SEEK_SET));
  for (i = 0; i < 20; ++i) a[i] = -(rank * 100 + i);
  OK(MPI_File_iwrite(fh, a, 10, MPI_INT, &req[0]));
  OK(MPI_File_iwrite_all(fh, a + 10, 10, MPI_INT, &req[1]));
  OK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_at(fh, (MPI_Offset)other * N * 4, b, 20, MPI_INT, &st));
  for (i = 0; i < 20; ++i) CHECK(b[i] == -(other * 100 + i), "iwrite int %d", i);
  /* shared: iwrite_shared from every rank, then iread_shared */
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  int rec[4] = {rank, rank, rank, rank};
  OK(MPI_File_iwrite_shared(fh, rec, 4, MPI_INT, &req[0]));
  OK(MPI_Wait(&req[0], &st));
  CHECK(count_of(&st, MPI_INT) == 4, "iwrite_shared count");
  MPI_Barrier(MPI_COMM_WORLD);
  int *seen = calloc((size_t)size, sizeof(int));
  OK(MPI_File_read_at(fh, 0, b, 4 * size, MPI_INT, &st));
  for (i = 0; i < size; ++i) {
    CHECK(b[4 * i] >= 0 && b[4 * i] < size && b[4 * i + 3] == b[4 * i], "shared record %d", i);
    seen[b[4 * i]]++;
  }
  for (i = 0; i < size; ++i) CHECK(seen[i] == 1, "rank %d's record seen %d times", i, seen[i]);
  free(seen);
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  OK(MPI_File_iread_shared(fh, rec, 4, MPI_INT, &req[0]));
  OK(MPI_Wait(&req[0], &st));
  CHECK(count_of(&st, MPI_INT) == 4 && rec[3] == rec[0], "iread_shared");
  /* split collectives */
  MPI_Barrier(MPI_COMM_WORLD);
  for (i = 0; i < 8; ++i) a[i] = 7000 + rank * 8 + i;
  OK(MPI_File_write_at_all_begin(fh, (MPI_Offset)rank * 32, a, 8, MPI_INT));
  int rc = MPI_File_write_at_all_begin(fh, 0, a, 8, MPI_INT);
  CHECK(rc != MPI_SUCCESS, "two split collectives at once");
  OK(MPI_File_write_at_all_end(fh, a, &st));
  CHECK(count_of(&st, MPI_INT) == 8, "write_at_all_end count");
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_at_all_begin(fh, (MPI_Offset)other * 32, b, 8, MPI_INT));
  OK(MPI_File_read_at_all_end(fh, b, &st));
  for (i = 0; i < 8; ++i) CHECK(b[i] == 7000 + other * 8 + i, "split read int %d", i);
  OK(MPI_File_seek(fh, (MPI_Offset)rank * 32, MPI_SEEK_SET));
  OK(MPI_File_write_all_begin(fh, a, 8, MPI_INT));
  OK(MPI_File_write_all_end(fh, a, &st));
  OK(MPI_File_seek(fh, (MPI_Offset)other * 32, MPI_SEEK_SET));
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_all_begin(fh, b, 8, MPI_INT));
  OK(MPI_File_read_all_end(fh, b, &st));
  CHECK(count_of(&st, MPI_INT) == 8 && b[7] == 7000 + other * 8 + 7, "read_all_begin/end");
  OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  OK(MPI_File_write_ordered_begin(fh, a, 8, MPI_INT));
  OK(MPI_File_write_ordered_end(fh, a, &st));
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_at(fh, (MPI_Offset)other * 32, b, 8, MPI_INT, &st));
  for (i = 0; i < 8; ++i) CHECK(b[i] == 7000 + other * 8 + i, "write_ordered_begin int %d", i);
  /* requests freed while their accesses run: the data still lands by the
   * close, and the requests' state goes with them (the ASan build's leak
   * check sees the rest) */
  MPI_Offset tail = (MPI_Offset)size * N * 4;
  for (i = 0; i < 16; ++i) a[i] = 9000 + rank * 16 + i;
  OK(MPI_File_iwrite_at(fh, tail + rank * 64, a, 8, MPI_INT, &req[0]));
  OK(MPI_File_iwrite_at_all(fh, tail + rank * 64 + 32, a + 8, 8, MPI_INT, &req[1]));
  OK(MPI_Request_free(&req[0]));
  OK(MPI_Request_free(&req[1]));
  CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL, "freed file requests");
  OK(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
  OK(MPI_File_read_at(fh, tail + other * 64, b, 16, MPI_INT, &st));
  for (i = 0; i < 16; ++i) CHECK(b[i] == 9000 + other * 16 + i, "freed iwrite int %d", i);
  OK(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) OK(MPI_File_delete(p, MPI_INFO_NULL));
  free(a);
  free(b);
}

/* File requests freed while the I/O threads run them, at the default
 * thread level, while this thread makes and completes other requests: the
 * threads complete (and release) the freed ones in the same request table
 * (the ThreadSanitizer build in CI sees any access to it without its
 * lock). No two live requests share a handle; messages arrive intact. */
static void test_freed_while_running(void) {
  char p[512];
  MPI_File fh;
  int dup = 0, wrong = 0, it, j, a, b;
  char c = 'x', name[32];
  snprintf(name, sizeof name, "freed.%d.dat", rank);
  path(p, name);
  OK(MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                   MPI_INFO_NULL, &fh));
  for (it = 0; it < 300; ++it) {
    MPI_Request fr, r[8];
    int sb[4], rb[4];
    OK(MPI_File_iwrite_at(fh, it % 64, &c, 1, MPI_CHAR, &fr));
    OK(MPI_Request_free(&fr));
    for (j = 0; j < 4; ++j) {
      sb[j] = it * 4 + j;
      rb[j] = -1;
      MPI_Irecv(&rb[j], 1, MPI_INT, 0, j, MPI_COMM_SELF, &r[j]);
    }
    for (j = 0; j < 4; ++j) MPI_Isend(&sb[j], 1, MPI_INT, 0, j, MPI_COMM_SELF, &r[4 + j]);
    for (a = 0; a < 8; ++a)
      for (b = a + 1; b < 8; ++b) dup += r[a] == r[b];
    MPI_Waitall(8, r, MPI_STATUSES_IGNORE);
    for (j = 0; j < 4; ++j) wrong += rb[j] != sb[j];
  }
  OK(MPI_File_close(&fh));
  CHECK(dup == 0 && wrong == 0, "freed file requests: %d shared handles, %d wrong values", dup,
        wrong);
}

/* More files open at once than one block of the handle table holds
 * (256): each handle names its own file, closed slots are reused, and a
 * closed handle is no longer valid. */
static void test_many_open(void) {
  enum { kFiles = 300 };
  static MPI_File fh[kFiles];
  char p[512], name[48];
  int i, v, dup = 0, wrong = 0;
  MPI_Status st;
  for (i = 0; i < kFiles; ++i) {
    snprintf(name, sizeof name, "many.%d.%d", rank, i);
    path(p, name);
    OK(MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                     MPI_INFO_NULL, &fh[i]));
    v = rank * 1000 + i;
    OK(MPI_File_write_at(fh[i], 0, &v, 1, MPI_INT, &st));
  }
  for (i = 1; i < kFiles; ++i) dup += fh[i] == fh[i - 1] || fh[i] == fh[0];
  for (i = 0; i < kFiles; i += 2) OK(MPI_File_close(&fh[i]));
  for (i = 1; i < kFiles; i += 2) {
    OK(MPI_File_read_at(fh[i], 0, &v, 1, MPI_INT, &st));
    wrong += v != rank * 1000 + i;
  }
  /* A closed handle's slot serves the next open. */
  snprintf(name, sizeof name, "many.%d.again", rank);
  path(p, name);
  OK(MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                   MPI_INFO_NULL, &fh[0]));
  OK(MPI_File_close(&fh[0]));
  for (i = 1; i < kFiles; i += 2) OK(MPI_File_close(&fh[i]));
  CHECK(dup == 0 && wrong == 0, "%d files open at once: %d shared handles, %d wrong values", kFiles,
        dup, wrong);
}

/* The files' own communicators (impi keeps a closed file's for the next
 * open on the same communicator): files open at once on one communicator
 * keep their traffic apart, a file outlives the communicator it was opened
 * on, and a new communicator (perhaps with a freed one's handle, or
 * another group) gets files of its own group. A pointer moved by the last
 * rank alone still leaves no side file after the close. */
static void test_comm_reuse(void) {
  char pa[512], pb[512], pc[512];
  MPI_Comm c, d, half;
  MPI_File fa, fb, fcf;
  MPI_Group g1, g2;
  MPI_Status st;
  int v[3], got[3], i, cmp;
  path(pa, "reuse.a");
  path(pb, "reuse.b");
  path(pc, "reuse.c");
  for (int round = 0; round < 3; ++round) {
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    OK(MPI_File_open(c, pa, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fa));
    OK(MPI_File_open(c, pb, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fb));
    for (i = 0; i < 3; ++i) v[i] = round * 1000 + rank * 10 + i;
    /* the same offsets, both files, collective calls interleaved */
    OK(MPI_File_write_at_all(fa, (MPI_Offset)rank * sizeof v, v, 3, MPI_INT, &st));
    for (i = 0; i < 3; ++i) v[i] += 500;
    OK(MPI_File_write_at_all(fb, (MPI_Offset)rank * sizeof v, v, 3, MPI_INT, &st));
    OK(MPI_File_close(&fa));
    OK(MPI_File_open(c, pc, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                     MPI_INFO_NULL, &fcf));
    MPI_Comm_free(&c); /* the files live on */
    OK(MPI_File_write_at_all(fcf, (MPI_Offset)rank * sizeof v, v, 3, MPI_INT, &st));
    /* (sync, barrier, sync: another rank's writes are then visible) */
    OK(MPI_File_sync(fcf));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_File_sync(fcf));
    OK(MPI_File_sync(fb));
    OK(MPI_File_read_at_all(fcf, (MPI_Offset)((rank + 1) % size) * sizeof v, got, 3, MPI_INT, &st));
    for (i = 0; i < 3; ++i)
      CHECK(got[i] == round * 1000 + ((rank + 1) % size) * 10 + i + 500, "reuse c %d: %d", i,
            got[i]);
    OK(MPI_File_read_at_all(fb, (MPI_Offset)((rank + size - 1) % size) * sizeof v, got, 3, MPI_INT,
                            &st));
    for (i = 0; i < 3; ++i)
      CHECK(got[i] == round * 1000 + ((rank + size - 1) % size) * 10 + i + 500, "reuse b %d: %d", i,
            got[i]);
    OK(MPI_File_close(&fb));
    OK(MPI_File_close(&fcf));
    /* a communicator of another group, perhaps under the freed one's handle */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    OK(MPI_File_open(half, pa, MPI_MODE_RDWR, MPI_INFO_NULL, &fa));
    OK(MPI_File_get_group(fa, &g1));
    MPI_Comm_group(half, &g2);
    MPI_Group_compare(g1, g2, &cmp);
    CHECK(cmp == MPI_IDENT, "a file on a split communicator: group %d", cmp);
    MPI_Group_free(&g1);
    MPI_Group_free(&g2);
    OK(MPI_File_read_at_all(fa, (MPI_Offset)rank * sizeof v, got, 3, MPI_INT, &st));
    for (i = 0; i < 3; ++i)
      CHECK(got[i] == round * 1000 + rank * 10 + i, "reuse a %d: %d", i, got[i]);
    OK(MPI_File_close(&fa));
    MPI_Comm_free(&half);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      OK(MPI_File_delete(pa, MPI_INFO_NULL));
      OK(MPI_File_delete(pb, MPI_INFO_NULL));
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  /* the last rank alone moves the shared pointer */
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  OK(MPI_File_open(d, pa, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                   &fa));
  if (rank == size - 1) OK(MPI_File_write_shared(fa, v, 3, MPI_INT, &st));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK(side_files() == 1, "%d side files in use", side_files());
  OK(MPI_File_close(&fa));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK(side_files() == 0, "%d side files left after the close", side_files());
  /* a side file name longer than one message's room (impi: 512 bytes) */
  char deep[1024], level[128], fp[1200];
  memset(level, 'd', 120);
  level[120] = 0;
  snprintf(deep, sizeof deep, "%s", dir);
  for (i = 0; i < 4; ++i) {
    size_t n = strlen(deep);
    snprintf(deep + n, sizeof deep - n, "/%s", level);
    if (rank == 0) CHECK(mkdir(deep, 0700) == 0, "mkdir: %s", strerror(errno));
  }
  snprintf(fp, sizeof fp, "%s/deep.dat", deep);
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_open(d, fp, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                   &fa));
  OK(MPI_File_write_shared(fa, &rank, 1, MPI_INT, &st));
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Offset pos;
  OK(MPI_File_get_position_shared(fa, &pos));
  CHECK(pos == (MPI_Offset)(size * (int)sizeof(int)), "deep shared pointer at %lld",
        (long long)pos);
  OK(MPI_File_close(&fa));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    for (i = 0; i < 4; ++i) {
      CHECK(rmdir(deep) == 0, "rmdir %s: %s (a side file left?)", deep, strerror(errno));
      *strrchr(deep, '/') = 0;
    }
  MPI_Comm_free(&d);
}

/* ROMIO's hints file (ROMIO_HINTS): its hints come before the program's
 * info, which overrides them; comments, blank lines, unknown keys,
 * invalid values and over-long lines are skipped; rank 0's file is every
 * rank's (the others' ROMIO_HINTS here names a different file). */
static const char *hint_of(MPI_File fh, const char *key, char *v) {
  MPI_Info used;
  int flag = 0;
  OK(MPI_File_get_info(fh, &used));
  MPI_Info_get(used, key, MPI_MAX_INFO_VAL, v, &flag);
  MPI_Info_free(&used);
  return flag ? v : "(none)";
}
static void test_hints_file(void) {
  char p[512], h[512], other[512], v[MPI_MAX_INFO_VAL + 1];
  MPI_File fh;
  MPI_Info info;
  path(p, "hinted.dat");
  path(h, "romio-hints");
  path(other, "romio-hints-other");
  if (rank == 0) {
    FILE *f = fopen(h, "w");
    CHECK(f != NULL, "hints file: %s", strerror(errno));
    fputs("# system hints\n\n  cb_buffer_size\t4194304\n", f);
    fputs("romio_cb_write enable\ncb_nodes 1 trailing words\n", f);
    fputs("striping_unit lots\nno_such_hint 7\nromio_ds_read\n#", f);
    for (int i = 0; i < 3000; ++i) fputc('x', f);
    fputs(" romio_ds_write enable\n", f); /* (the tail of a comment line) */
    fclose(f);
    f = fopen(other, "w");
    CHECK(f != NULL, "hints file: %s", strerror(errno));
    fputs("cb_buffer_size 1048576\n", f);
    fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  setenv("ROMIO_HINTS", rank == 0 ? h : other, 1);
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_cb_write", "disable");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
  MPI_Info_free(&info);
  CHECK(strcmp(hint_of(fh, "cb_buffer_size", v), "4194304") == 0, "file's cb_buffer_size: %s", v);
  CHECK(strcmp(hint_of(fh, "romio_cb_write", v), "disable") == 0,
        "the info overrides the file: romio_cb_write %s", v);
  CHECK(strcmp(hint_of(fh, "cb_nodes", v), "1") == 0, "file's cb_nodes: %s", v);
  CHECK(strcmp(hint_of(fh, "striping_unit", v), "lots") != 0, "an invalid value is taken");
  CHECK(strcmp(hint_of(fh, "romio_ds_read", v), "automatic") == 0, "a key alone: %s", v);
  CHECK(strcmp(hint_of(fh, "romio_ds_write", v), "disable") == 0,
        "the tail of an over-long line: romio_ds_write %s", v);
  /* the hints are used: a collective write through one aggregator */
  int out[4] = {rank, rank + 1, rank + 2, rank + 3}, back[4] = {0, 0, 0, 0};
  OK(MPI_File_write_at_all(fh, rank * (MPI_Offset)sizeof out, out, 4, MPI_INT, MPI_STATUS_IGNORE));
  OK(MPI_File_read_at_all(fh, rank * (MPI_Offset)sizeof out, back, 4, MPI_INT, MPI_STATUS_IGNORE));
  CHECK(memcmp(out, back, sizeof out) == 0, "hinted file's data");
  OK(MPI_File_close(&fh));
  /* without the variable (and no /etc/romio-hints here), the defaults */
  unsetenv("ROMIO_HINTS");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                   &fh));
  if (access("/etc/romio-hints", F_OK) != 0)
    CHECK(strcmp(hint_of(fh, "cb_buffer_size", v), "16777216") == 0, "default cb_buffer_size: %s",
          v);
  OK(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    unlink(h);
    unlink(other);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/impi-file-XXXXXX", t && *t ? t : "/tmp");
    CHECK(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
  }
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  test_open_errors();
  test_in_use();
  test_manage();
  test_hints_file();
  test_access();
  test_large_reads();
  test_open_rounds();
  test_shared();
  test_nonblocking();
  test_thread_error();
  test_freed_while_running();
  test_many_open();
  test_comm_reuse();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    char q[512];
    path(q, "readonly.dat");
    unlink(q);
    CHECK(rmdir(dir) == 0, "the directory is left empty: %s", strerror(errno));
  }
  printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return 0;
}
