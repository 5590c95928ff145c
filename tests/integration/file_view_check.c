/* file_view_check.c - MPI-IO views and data representations (MPI-3.1 13.3,
 * 13.5) and atomic mode (13.6.1): an interleaved view from a resized type,
 * a 2-D subarray view written and read collectively, get_view,
 * get_type_extent, get_byte_offset and pointers in etypes; external32
 * (big-endian bytes in the file), a registered representation that keeps
 * sizes and one that widens ints to 8 bytes, the datarep errors,
 * non-contiguous filetypes whose elements change size there; atomic
 * writes of overlapping ranges by every rank. Every file is checked byte by
 * byte. At any np >= 1, in one client or across clients. Prints
 * "rank r of n ok". */
#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#include "pvar_counter.h"
/* Bytes this process has sent to other processes (shared memory and other
 * IMPI clients). */
static unsigned long long bytes_sent(void) {
  return counter("shm_bytes_sent") + counter("impi_bytes_sent");
}

static int count_of(MPI_Status *st, MPI_Datatype t) {
  int n;
  MPI_Get_count(st, t, &n);
  return n;
}
/* The file's bytes as rank 0 reads them with POSIX calls. */
static long raw(const char *p, unsigned char *buf, long max) {
  FILE *fp = fopen(p, "rb");
  CHECK(fp != NULL, "fopen %s: %s", p, strerror(errno));
  long n = (long)fread(buf, 1, (size_t)max, fp);
  fclose(fp);
  return n;
}

enum { B = 3, NB = 4 }; /* blocks of B ints, NB blocks per rank */

static void test_interleaved(void) {
  char p[512];
  MPI_File fh;
  MPI_Status st;
  MPI_Datatype contig, ftype, et, ft;
  int i, buf[B * NB], back[B * NB];
  path(p, "interleaved.dat");
  MPI_Type_contiguous(B, MPI_INT, &contig);
  MPI_Type_create_resized(contig, 0, (MPI_Aint)size * B * sizeof(int), &ftype);
  MPI_Type_commit(&ftype);
  MPI_Type_free(&contig);
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  MPI_Offset disp = (MPI_Offset)rank * B * sizeof(int) + 16; /* a 16-byte header first */
  OK(MPI_File_set_view(fh, disp, MPI_INT, ftype, "native", MPI_INFO_NULL));
  for (i = 0; i < B * NB; ++i) buf[i] = rank * 1000 + i;
  OK(MPI_File_write_all(fh, buf, B * NB, MPI_INT, &st));
  CHECK(count_of(&st, MPI_INT) == B * NB, "write_all count");
  MPI_Offset pos, off;
  OK(MPI_File_get_position(fh, &pos));
  CHECK(pos == B * NB, "position in etypes: %lld", (long long)pos);
  OK(MPI_File_get_byte_offset(fh, B + 1, &off));
  CHECK(off == disp + (MPI_Offset)size * B * 4 + 4, "byte offset of etype B+1: %lld",
        (long long)off);
  /* get_view: the derived filetype comes back as a new handle of the same type */
  MPI_Offset d;
  char rep[MPI_MAX_DATAREP_STRING];
  OK(MPI_File_get_view(fh, &d, &et, &ft, rep));
  CHECK(d == disp && et == MPI_INT && strcmp(rep, "native") == 0, "get_view");
  int ni, na, nd, comb;
  MPI_Type_get_envelope(ft, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_RESIZED, "get_view's filetype combiner %d", comb);
  MPI_Aint lb, ext;
  MPI_Type_get_extent(ft, &lb, &ext);
  CHECK(ext == (MPI_Aint)size * B * 4, "filetype extent");
  MPI_Type_free(&ft);
  OK(MPI_File_get_type_extent(fh, ftype, &ext));
  CHECK(ext == (MPI_Aint)size * B * 4, "get_type_extent");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int *all = malloc((size_t)size * B * NB * sizeof(int) + 16);
    long n = raw(p, (unsigned char *)all, (long)size * B * NB * 4 + 16);
    CHECK(n == (long)size * B * NB * 4 + 16, "file size %ld", n);
    int *data = (int *)((char *)all + 16);
    for (i = 0; i < size * B * NB; ++i) {
      int blk = i / B, r = blk % size, k = (blk / size) * B + i % B;
      CHECK(data[i] == r * 1000 + k, "int %d of the file: %d, not %d", i, data[i], r * 1000 + k);
    }
    free(all);
  }
  /* read back through the view (the strided pieces: data sieving), via the pointer */
  OK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
  memset(back, 0, sizeof back);
  OK(MPI_File_read_all(fh, back, B * NB, MPI_INT, &st));
  CHECK(count_of(&st, MPI_INT) == B * NB, "read_all count");
  for (i = 0; i < B * NB; ++i) CHECK(back[i] == buf[i], "read through view int %d", i);
  /* seek to the end in etypes */
  OK(MPI_File_seek(fh, 0, MPI_SEEK_END));
  OK(MPI_File_get_position(fh, &pos));
  CHECK(pos == B * NB, "seek_end position: %lld", (long long)pos);
  /* a view whose filetype is not made of etypes */
  int rc = MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_INT, "native", MPI_INFO_NULL);
  CHECK(eclass(rc) == MPI_ERR_TYPE, "int filetype with double etype: class %d", eclass(rc));
  /* displacements that decrease, or overlap in a file open for writing: MPI_ERR_IO (as ROMIO) */
  {
    int bl[2] = {1, 1}, ds[2] = {3, 0}, bl2[2] = {3, 1}, ds2[2] = {0, 1};
    MPI_Datatype bad;
    MPI_Type_indexed(2, bl, ds, MPI_INT, &bad);
    MPI_Type_commit(&bad);
    rc = MPI_File_set_view(fh, 0, MPI_INT, bad, "native", MPI_INFO_NULL);
    CHECK(eclass(rc) == MPI_ERR_IO, "decreasing filetype: class %d", eclass(rc));
    MPI_Type_free(&bad);
    MPI_Type_indexed(2, bl2, ds2, MPI_INT, &bad);
    MPI_Type_commit(&bad);
    rc = MPI_File_set_view(fh, 0, MPI_INT, bad, "native", MPI_INFO_NULL);
    CHECK(eclass(rc) == MPI_ERR_IO, "overlapping filetype: class %d", eclass(rc));
    MPI_Type_free(&bad);
  }
  /* a non-blocking write keeps the view it started with */
  {
    MPI_Request rq[2];
    int x[B * NB], y[B * NB];
    for (i = 0; i < B * NB; ++i) {
      x[i] = rank * 7 + i;
      y[i] = -(rank * 7 + i);
    }
    OK(MPI_File_set_view(fh, disp, MPI_INT, ftype, "native", MPI_INFO_NULL));
    OK(MPI_File_iwrite_at_all(fh, 0, x, B * NB, MPI_INT, &rq[0]));
    OK(MPI_File_set_view(fh, disp + (MPI_Offset)size * B * NB * 4, MPI_INT, ftype, "native",
                         MPI_INFO_NULL));
    OK(MPI_File_iwrite_at_all(fh, 0, y, B * NB, MPI_INT, &rq[1]));
    OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    OK(MPI_File_set_view(fh, disp, MPI_INT, ftype, "native", MPI_INFO_NULL));
    OK(MPI_File_read_at(fh, 0, back, B * NB, MPI_INT, &st));
    for (i = 0; i < B * NB; ++i) CHECK(back[i] == x[i], "first view's data %d: %d", i, back[i]);
    OK(MPI_File_read_at(fh, B * NB, back, B * NB, MPI_INT, &st));
    for (i = 0; i < B * NB; ++i) CHECK(back[i] == y[i], "second view's data %d: %d", i, back[i]);
  }
  OK(MPI_File_close(&fh));
  MPI_Type_free(&ftype);
}

static void test_subarray(void) {
  enum { R = 5, C = 3 };
  char p[512];
  MPI_File fh;
  MPI_Status st;
  MPI_Datatype sub;
  int sizes[2] = {R, C * size}, subs[2] = {R, C}, starts[2] = {0, rank * C};
  double local[R][C], back[R][C];
  int i, j;
  path(p, "subarray.dat");
  MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &sub);
  MPI_Type_commit(&sub);
  for (i = 0; i < R; ++i)
    for (j = 0; j < C; ++j) local[i][j] = i * 100 + rank * C + j + 0.5;
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  OK(MPI_File_set_view(fh, 0, MPI_DOUBLE, sub, "native", MPI_INFO_NULL));
  OK(MPI_File_write_at_all(fh, 0, local, R * C, MPI_DOUBLE, &st));
  CHECK(count_of(&st, MPI_DOUBLE) == R * C, "subarray write count");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    double *g = malloc(sizeof(double) * R * C * size);
    long n = raw(p, (unsigned char *)g, (long)sizeof(double) * R * C * size);
    CHECK(n == (long)sizeof(double) * R * C * size, "subarray file size %ld", n);
    for (i = 0; i < R; ++i)
      for (j = 0; j < C * size; ++j)
        CHECK(g[i * C * size + j] == i * 100 + j + 0.5, "global [%d][%d] = %g", i, j,
              g[i * C * size + j]);
    free(g);
  }
  memset(back, 0, sizeof back);
  OK(MPI_File_read_at_all(fh, 0, back, R * C, MPI_DOUBLE, &st));
  for (i = 0; i < R; ++i)
    for (j = 0; j < C; ++j) CHECK(back[i][j] == local[i][j], "subarray read [%d][%d]", i, j);
  OK(MPI_File_close(&fh));
  MPI_Type_free(&sub);
}

/* A representation that keeps sizes: bytes XORed with 0x5a. */
static int xor_conv(void *userbuf, MPI_Datatype t, int count, void *filebuf, MPI_Offset position,
                    void *extra) {
  int sz;
  MPI_Type_size(t, &sz);
  unsigned char *u = (unsigned char *)userbuf + position * sz, *f = filebuf;
  (void)extra;
  for (long i = 0; i < (long)count * sz; ++i) u[i] = f[i] ^ 0x5a;
  return MPI_SUCCESS;
}
static int xor_write(void *userbuf, MPI_Datatype t, int count, void *filebuf, MPI_Offset position,
                     void *extra) {
  int sz;
  MPI_Type_size(t, &sz);
  unsigned char *u = (unsigned char *)userbuf + position * sz, *f = filebuf;
  (void)extra;
  for (long i = 0; i < (long)count * sz; ++i) f[i] = u[i] ^ 0x5a;
  return MPI_SUCCESS;
}
/* MPI-4.1's form (MPI_Register_datarep_c): xor with another byte, and a
 * count of every call recorded in *extra. */
static int xor_c(void *userbuf, MPI_Datatype t, MPI_Count count, void *filebuf, MPI_Offset position,
                 void *extra, int to_file) {
  MPI_Count sz;
  MPI_Type_size_c(t, &sz);
  unsigned char *u = (unsigned char *)userbuf + position * sz, *f = filebuf;
  ++*(int *)extra;
  for (MPI_Count i = 0; i < count * sz; ++i) {
    if (to_file)
      f[i] = u[i] ^ 0xa5;
    else
      u[i] = f[i] ^ 0xa5;
  }
  return MPI_SUCCESS;
}
static int xor_c_read(void *userbuf, MPI_Datatype t, MPI_Count count, void *filebuf,
                      MPI_Offset position, void *extra) {
  return xor_c(userbuf, t, count, filebuf, position, extra, 0);
}
static int xor_c_write(void *userbuf, MPI_Datatype t, MPI_Count count, void *filebuf,
                       MPI_Offset position, void *extra) {
  return xor_c(userbuf, t, count, filebuf, position, extra, 1);
}
static int same_extent(MPI_Datatype t, MPI_Aint *ext, void *extra) {
  MPI_Aint lb;
  (void)extra;
  return MPI_Type_get_extent(t, &lb, ext);
}
/* A representation that stores ints as 8-byte little-endian integers. */
static int wide_read(void *userbuf, MPI_Datatype t, int count, void *filebuf, MPI_Offset position,
                     void *extra) {
  int *u = (int *)userbuf + position;
  unsigned char *f = filebuf;
  (void)extra;
  if (t != MPI_INT) return MPI_ERR_TYPE;
  for (int i = 0; i < count; ++i) {
    int64_t v = 0;
    for (int b = 7; b >= 0; --b) v = (int64_t)(((uint64_t)v << 8) | f[8 * i + b]);
    u[i] = (int)v;
  }
  return MPI_SUCCESS;
}
static int wide_write(void *userbuf, MPI_Datatype t, int count, void *filebuf, MPI_Offset position,
                      void *extra) {
  int *u = (int *)userbuf + position;
  unsigned char *f = filebuf;
  (void)extra;
  if (t != MPI_INT) return MPI_ERR_TYPE;
  for (int i = 0; i < count; ++i) {
    int64_t v = u[i];
    for (int b = 0; b < 8; ++b) f[8 * i + b] = (unsigned char)(v >> (8 * b));
  }
  return MPI_SUCCESS;
}
static int wide_extent(MPI_Datatype t, MPI_Aint *ext, void *extra) {
  (void)extra;
  *ext = t == MPI_INT ? 8 : 0;
  return MPI_SUCCESS;
}

static void test_datareps(void) {
  char p[512];
  MPI_File fh;
  MPI_Status st;
  int i, v[4], back[4];
  unsigned char bytes[1024];
  /* external32: big-endian in the file */
  path(p, "ext32.dat");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
  for (i = 0; i < 4; ++i) v[i] = 0x01020304 + (rank << 24) + i;
  OK(MPI_File_write_at_all(fh, rank * 4, v, 4, MPI_INT, &st));
  CHECK(count_of(&st, MPI_INT) == 4, "external32 write count");
  MPI_Aint ext;
  OK(MPI_File_get_type_extent(fh, MPI_LONG, &ext));
  CHECK(ext == 4, "MPI_LONG's extent in external32: %ld", (long)ext);
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_at(fh, ((rank + 1) % size) * 4, back, 4, MPI_INT, &st));
  CHECK(count_of(&st, MPI_INT) == 4, "external32 read count");
  for (i = 0; i < 4; ++i)
    CHECK(back[i] == 0x01020304 + (((rank + 1) % size) << 24) + i, "external32 round trip %d", i);
  /* MPI_LONG: 8 bytes here, 4 in external32 */
  long lv[2] = {-2, 70000}, lb[2] = {0, 0};
  OK(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) OK(MPI_File_write_at(fh, 100, lv, 2, MPI_LONG, &st));
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_at(fh, 100, lb, 2, MPI_LONG, &st));
  CHECK(lb[0] == -2 && lb[1] == 70000, "external32 MPI_LONG round trip: %ld %ld", lb[0], lb[1]);
  CHECK(count_of(&st, MPI_LONG) == 2, "MPI_LONG count %d", count_of(&st, MPI_LONG));
  long big = 1L << 40;
  int rc = MPI_File_write_at(fh, 110, &big, 1, MPI_LONG, &st);
  CHECK(eclass(rc) == MPI_ERR_CONVERSION, "2^40 in external32's MPI_LONG: class %d", eclass(rc));
  OK(MPI_File_close(&fh));
  if (rank == 0) {
    long n = raw(p, bytes, sizeof bytes);
    CHECK(n >= 16 * size, "ext32 size");
    for (int r = 0; r < size; ++r)
      for (i = 0; i < 4; ++i) {
        unsigned char *b = bytes + 16 * r + 4 * i;
        CHECK(b[0] == 1 + r && b[1] == 2 && b[2] == 3 && b[3] == 4 + i,
              "big-endian int %d of rank %d", i, r);
      }
    unsigned char want[8] = {0xff, 0xff, 0xff, 0xfe, 0x00, 0x01, 0x11, 0x70};
    CHECK(memcmp(bytes + 400, want, 8) == 0, "external32 MPI_LONG bytes");
  }
  /* registered representations */
  OK(MPI_Register_datarep("impi-test-xor", xor_conv, xor_write, same_extent, NULL));
  rc = MPI_Register_datarep("impi-test-xor", xor_conv, xor_write, same_extent, NULL);
  CHECK(eclass(rc) == MPI_ERR_DUP_DATAREP, "second registration: class %d", eclass(rc));
  rc = MPI_Register_datarep("external32", xor_conv, xor_write, same_extent, NULL);
  CHECK(eclass(rc) == MPI_ERR_DUP_DATAREP, "registering external32: class %d", eclass(rc));
  OK(MPI_Register_datarep("impi-test-wide", wide_read, wide_write, wide_extent, NULL));
  static int c_calls;
  OK(MPI_Register_datarep_c("impi-test-xor-c", xor_c_read, xor_c_write, same_extent, &c_calls));
  rc = MPI_Register_datarep_c("impi-test-xor", xor_c_read, xor_c_write, same_extent, &c_calls);
  CHECK(eclass(rc) == MPI_ERR_DUP_DATAREP, "_c registration of a taken name: class %d", eclass(rc));
  path(p, "user.dat");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL);
  CHECK(eclass(rc) == MPI_ERR_UNSUPPORTED_DATAREP, "unknown datarep: class %d", eclass(rc));
  OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "impi-test-xor", MPI_INFO_NULL));
  for (i = 0; i < 4; ++i) v[i] = rank * 16 + i;
  OK(MPI_File_write_at_all(fh, rank * 4, v, 4, MPI_INT, &st));
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_at_all(fh, ((rank + 1) % size) * 4, back, 4, MPI_INT, &st));
  CHECK(count_of(&st, MPI_INT) == 4, "xor read count");
  for (i = 0; i < 4; ++i) CHECK(back[i] == ((rank + 1) % size) * 16 + i, "xor round trip %d", i);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    long n = raw(p, bytes, sizeof bytes);
    CHECK(n == 16 * size, "xor file size %ld", n);
    for (int r = 0; r < size; ++r)
      for (i = 0; i < 4; ++i) {
        int x = r * 16 + i;
        unsigned char *b = bytes + 16 * r + 4 * i, *xb = (unsigned char *)&x;
        for (int k = 0; k < 4; ++k) CHECK(b[k] == (xb[k] ^ 0x5a), "xor byte");
      }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* the MPI_Count conversions: the same round trip, another xor byte */
  OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "impi-test-xor-c", MPI_INFO_NULL));
  for (i = 0; i < 4; ++i) v[i] = rank * 32 + i;
  OK(MPI_File_write_at_all(fh, rank * 4, v, 4, MPI_INT, &st));
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_at_all(fh, ((rank + 1) % size) * 4, back, 4, MPI_INT, &st));
  CHECK(count_of(&st, MPI_INT) == 4, "xor_c read count");
  for (i = 0; i < 4; ++i)
    CHECK(back[i] == ((rank + 1) % size) * 32 + i, "xor_c round trip %d: %d", i, back[i]);
  CHECK(c_calls == 2, "the _c conversions ran %d times, want 2", c_calls);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    long n = raw(p, bytes, sizeof bytes);
    CHECK(n == 16 * size, "xor_c file size %ld", n);
    for (int r = 0; r < size; ++r)
      for (i = 0; i < 4; ++i) {
        int x = r * 32 + i;
        unsigned char *b = bytes + 16 * r + 4 * i, *xb = (unsigned char *)&x;
        for (int k = 0; k < 4; ++k) CHECK(b[k] == (xb[k] ^ 0xa5), "xor_c byte");
      }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* ints widened to 8 bytes: offsets count etypes of 8 file bytes */
  OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "impi-test-wide", MPI_INFO_NULL));
  OK(MPI_File_get_type_extent(fh, MPI_INT, &ext));
  CHECK(ext == 8, "wide extent %ld", (long)ext);
  for (i = 0; i < 4; ++i) v[i] = -(rank * 16 + i);
  OK(MPI_File_write_at_all(fh, rank * 4, v, 4, MPI_INT, &st));
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_at_all(fh, ((rank + 1) % size) * 4, back, 4, MPI_INT, &st));
  CHECK(count_of(&st, MPI_INT) == 4, "wide read count %d", count_of(&st, MPI_INT));
  for (i = 0; i < 4; ++i)
    CHECK(back[i] == -(((rank + 1) % size) * 16 + i), "wide round trip %d", i);
  MPI_Offset sz;
  OK(MPI_File_get_size(fh, &sz));
  CHECK(sz == 32 * size, "wide file size %lld", (long long)sz);
  OK(MPI_File_close(&fh));
  if (rank == 0) {
    long n = raw(p, bytes, sizeof bytes);
    CHECK(n == 32 * size, "wide size");
    for (i = 0; i < 4 * size; ++i) {
      int64_t x;
      memcpy(&x, bytes + 8 * i, 8);
      CHECK(x == -((i / 4) * 16 + i % 4), "wide int64 %d: %lld", i, (long long)x);
    }
  }
}

/* Non-contiguous filetypes whose elements change size in the file
 * (MPI-3.1 13.5.1): displacements given in elements scale with the
 * elements' size in the representation, those given in bytes do not.
 * external32 with MPI_LONG (8 bytes here, 4 there) through a vector and
 * through a resized type that tiles; a 2-D subarray (a column per rank)
 * in the representation that widens ints to 8 bytes. */
static void test_datarep_layouts(void) {
  char p[512];
  MPI_File fh;
  MPI_Status st;
  MPI_Datatype vec, two, tile, col;
  MPI_Aint ext;
  long lv[6], lb[6];
  static unsigned char bytes[1 << 16];
  path(p, "layouts.dat");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  /* rank r's pairs of elements at 2r, 2r + 2 size, 2r + 4 size */
  OK(MPI_Type_vector(3, 2, 2 * size, MPI_LONG, &vec));
  OK(MPI_Type_commit(&vec));
  OK(MPI_File_set_view(fh, (MPI_Offset)rank * 2 * 4, MPI_LONG, vec, "external32", MPI_INFO_NULL));
  OK(MPI_File_get_type_extent(fh, vec, &ext));
  CHECK(ext == (4 * size + 2) * 4, "the vector's extent in external32: %ld", (long)ext);
  for (int i = 0; i < 6; ++i) lv[i] = rank * 100 + i;
  OK(MPI_File_write_at_all(fh, 0, lv, 6, MPI_LONG, &st));
  CHECK(count_of(&st, MPI_LONG) == 6, "vector write count %d", count_of(&st, MPI_LONG));
  MPI_Barrier(MPI_COMM_WORLD);
  memset(lb, 0, sizeof lb);
  OK(MPI_File_read_at_all(fh, 0, lb, 6, MPI_LONG, &st));
  for (int i = 0; i < 6; ++i) CHECK(lb[i] == lv[i], "vector round trip %d: %ld", i, lb[i]);
  MPI_Offset sz;
  OK(MPI_File_get_size(fh, &sz));
  CHECK(sz == 24 * size, "file size %lld after the vector view, want %d", (long long)sz, 24 * size);
  if (rank == 0) {
    long n = raw(p, bytes, sizeof bytes);
    CHECK(n == 24 * size, "raw size %ld", n);
    for (int e = 0; e < 6 * size; ++e) {
      int r = (e / 2) % size, i = (e / (2 * size)) * 2 + e % 2;
      long want = r * 100 + i;
      unsigned char *b = bytes + 4 * e;
      long got = ((long)b[0] << 24) | ((long)b[1] << 16) | ((long)b[2] << 8) | b[3];
      CHECK(got == want, "vector view: element %d is %ld, want %ld", e, got, want);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* the same layout from a pair resized to 2 size file elements (bytes, as
   * given: 8 size bytes), tiled three times */
  OK(MPI_Type_contiguous(2, MPI_LONG, &two));
  OK(MPI_Type_create_resized(two, 0, 2 * size * 4, &tile));
  OK(MPI_Type_commit(&tile));
  OK(MPI_File_set_view(fh, (MPI_Offset)rank * 2 * 4, MPI_LONG, tile, "external32", MPI_INFO_NULL));
  OK(MPI_File_get_type_extent(fh, tile, &ext));
  CHECK(ext == 2 * size * 4, "the resized type's extent in external32: %ld", (long)ext);
  for (int i = 0; i < 6; ++i) lv[i] = rank * 100 + 50 + i;
  OK(MPI_File_write_at_all(fh, 0, lv, 6, MPI_LONG, &st));
  MPI_Barrier(MPI_COMM_WORLD);
  memset(lb, 0, sizeof lb);
  OK(MPI_File_read_at(fh, 0, lb, 6, MPI_LONG, &st));
  for (int i = 0; i < 6; ++i) CHECK(lb[i] == lv[i], "tiled round trip %d: %ld", i, lb[i]);
  if (rank == 0) {
    long n = raw(p, bytes, sizeof bytes);
    CHECK(n == 24 * size, "raw size %ld after the tiled view", n);
    for (int e = 0; e < 6 * size; ++e) {
      int r = (e / 2) % size, i = (e / (2 * size)) * 2 + e % 2;
      unsigned char *b = bytes + 4 * e;
      long got = ((long)b[0] << 24) | ((long)b[1] << 16) | ((long)b[2] << 8) | b[3];
      CHECK(got == r * 100 + 50 + i, "tiled view: element %d is %ld", e, got);
    }
  }
  OK(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  /* a column of a 4 x size array of ints, 8 bytes each in the file */
  int gs[2] = {4, size}, ss[2] = {4, 1}, st0[2] = {0, rank}, v[4], back[4];
  OK(MPI_Type_create_subarray(2, gs, ss, st0, MPI_ORDER_C, MPI_INT, &col));
  OK(MPI_Type_commit(&col));
  path(p, "wide_cols.dat");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  OK(MPI_File_set_view(fh, 0, MPI_INT, col, "impi-test-wide", MPI_INFO_NULL));
  OK(MPI_File_get_type_extent(fh, col, &ext));
  CHECK(ext == 4 * size * 8, "the subarray's extent in the wide representation: %ld", (long)ext);
  for (int i = 0; i < 4; ++i) v[i] = -(rank * 10 + i);
  OK(MPI_File_write_all(fh, v, 4, MPI_INT, &st));
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
  OK(MPI_File_read_all(fh, back, 4, MPI_INT, &st));
  for (int i = 0; i < 4; ++i) CHECK(back[i] == v[i], "column round trip %d: %d", i, back[i]);
  OK(MPI_File_close(&fh));
  if (rank == 0) {
    long n = raw(p, bytes, sizeof bytes);
    CHECK(n == 32 * size, "wide columns: size %ld, want %d", n, 32 * size);
    for (int e = 0; e < 4 * size; ++e) {
      int64_t x;
      memcpy(&x, bytes + 8 * e, 8);
      CHECK(x == -((e % size) * 10 + e / size), "wide column element %d: %lld", e, (long long)x);
    }
  }
  MPI_Type_free(&vec);
  MPI_Type_free(&two);
  MPI_Type_free(&tile);
  MPI_Type_free(&col);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    OK(MPI_File_delete(p, MPI_INFO_NULL));
    path(p, "layouts.dat");
    OK(MPI_File_delete(p, MPI_INFO_NULL));
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Atomic mode: every rank writes the same overlapping range with its own
 * byte, many times; each read sees one writer's bytes, never a mix. */
static void test_atomic(void) {
  enum { N = 1 << 18, ROUNDS = 8 };
  char p[512];
  MPI_File fh;
  MPI_Status st;
  int flag, i, k;
  unsigned char *buf = malloc(N), *in = malloc(N);
  path(p, "atomic.dat");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  OK(MPI_File_get_atomicity(fh, &flag));
  CHECK(flag == 0, "non-atomic by default");
  OK(MPI_File_set_atomicity(fh, 1));
  OK(MPI_File_get_atomicity(fh, &flag));
  CHECK(flag == 1, "atomic after set_atomicity");
  memset(buf, 'A' + rank, N);
  /* a strided view too: every other 4 KiB block, offset by 1 KiB per rank mod 2 */
  for (k = 0; k < ROUNDS; ++k) {
    OK(MPI_File_write_at(fh, 0, buf, N, MPI_BYTE, &st));
    OK(MPI_File_read_at(fh, 0, in, N, MPI_BYTE, &st));
    CHECK(count_of(&st, MPI_BYTE) == N, "atomic read count");
    for (i = 1; i < N; ++i)
      CHECK(in[i] == in[0], "torn read at byte %d: %c vs %c", i, in[i], in[0]);
    CHECK(in[0] >= 'A' && in[0] < 'A' + size, "a writer's byte");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_File_read_at(fh, 0, in, N, MPI_BYTE, &st));
  for (i = 1; i < N; ++i) CHECK(in[i] == in[0], "final contents torn at %d", i);
  OK(MPI_File_set_atomicity(fh, 0));
  OK(MPI_File_close(&fh));
  free(buf);
  free(in);
}

/* Atomic mode through the aggregators (romio_cb_write=enable, an
 * aggregator per rank, small collective buffers: the overlaps cross domains
 * and steps): rank 0 writes blocks of B bytes every 2B, rank 1 one span
 * over them from B/2, the other ranks nothing. The overlaps must all hold
 * one rank's bytes, as if one wrote after the other (13.6.1): keeping the
 * piece that starts first in each window would give rank 0 the first
 * overlap and rank 1 the others. Then a collective read of the whole file
 * under the same settings, and 4 rounds while every rank also reads and
 * writes the file independently in atomic mode. */
static void test_atomic_collective(void) {
  enum { B = 1000, NB = 64, SPAN = 2 * B * NB, ROUNDS = 4 };
  char p[512], v[32];
  MPI_File fh;
  MPI_Status st;
  MPI_Info info;
  MPI_Datatype blocks;
  unsigned char *buf, *in;
  int i, k, r;
  if (size < 2) return;
  buf = malloc(SPAN);
  in = malloc(SPAN);
  path(p, "atomic_coll.dat");
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_cb_write", "enable");
  MPI_Info_set(info, "romio_cb_read", "enable");
  MPI_Info_set(info, "cb_buffer_size", "8192");
  snprintf(v, sizeof v, "%d", size);
  MPI_Info_set(info, "cb_nodes", v);
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
  MPI_Info_free(&info);
  OK(MPI_File_set_atomicity(fh, 1));
  MPI_Type_vector(NB, B, 2 * B, MPI_BYTE, &blocks);
  MPI_Type_commit(&blocks);
  for (r = 0; r < ROUNDS; ++r) {
    memset(buf, 'A' + rank + r, SPAN);
    OK(MPI_File_set_view(fh, 0, MPI_BYTE, rank == 0 ? blocks : MPI_BYTE, "native", MPI_INFO_NULL));
    if (rank == 0)
      OK(MPI_File_write_at_all(fh, 0, buf, NB * B, MPI_BYTE, &st));
    else if (rank == 1)
      OK(MPI_File_write_at_all(fh, B / 2, buf, SPAN - 2 * B, MPI_BYTE, &st));
    else
      OK(MPI_File_write_at_all(fh, 0, buf, 0, MPI_BYTE, &st));
    OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    if (r > 0 && rank >= 2) {
      /* an independent atomic access meanwhile, past the collective's bytes */
      memset(in, 'a' + rank, B);
      OK(MPI_File_write_at(fh, SPAN + (MPI_Offset)rank * B, in, B, MPI_BYTE, &st));
    }
    OK(MPI_File_read_at_all(fh, 0, in, SPAN, MPI_BYTE, &st));
    CHECK(count_of(&st, MPI_BYTE) >= SPAN - B, "atomic collective read count %d",
          count_of(&st, MPI_BYTE));
    {
      const unsigned char a = (unsigned char)('A' + r), b = (unsigned char)('A' + 1 + r);
      const unsigned char won = in[B / 2];
      CHECK(won == a || won == b, "round %d: the first overlap holds %d", r, won);
      for (k = 0; k < NB; ++k)
        for (i = 0; i < B; ++i) {
          const long at = 2L * B * k + i, gap = at + B;
          const int in_span = at >= B / 2 && at < B / 2 + SPAN - 2 * B;
          const unsigned char want = in_span ? won : a;
          CHECK(in[at] == want, "round %d: byte %ld of block %d is %d, not %d", r, at, k, in[at],
                want);
          if (gap >= B / 2 && gap < B / 2 + SPAN - 2 * B)
            CHECK(in[gap] == b, "round %d: byte %ld between blocks is %d", r, gap, in[gap]);
        }
    }
  }
  OK(MPI_File_set_atomicity(fh, 0));
  OK(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  /* Ranks 0 and 1 write so on a file of their own communicator while rank
   * 2, outside it, reads the whole span in atomic mode until they are
   * done: every read sees one round's result whole (the aggregators hold
   * their domains' locks until all have them), never a domain of one
   * round beside another's. */
  if (size >= 3) {
    MPI_Comm pair;
    int done = 0, reads = 0;
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
    if (rank < 2) {
      MPI_Info_create(&info);
      MPI_Info_set(info, "romio_cb_write", "enable");
      MPI_Info_set(info, "cb_buffer_size", "8192");
      MPI_Info_set(info, "cb_nodes", "2");
      OK(MPI_File_open(pair, p, MPI_MODE_RDWR, info, &fh));
      MPI_Info_free(&info);
      OK(MPI_File_set_atomicity(fh, 1));
      MPI_Barrier(MPI_COMM_WORLD);
      for (r = 0; r < 40; ++r) {
        memset(buf, 'a' + rank + r % 20, SPAN);
        OK(MPI_File_set_view(fh, 0, MPI_BYTE, rank == 0 ? blocks : MPI_BYTE, "native",
                             MPI_INFO_NULL));
        if (rank == 0)
          OK(MPI_File_write_at_all(fh, 0, buf, NB * B, MPI_BYTE, &st));
        else
          OK(MPI_File_write_at_all(fh, B / 2, buf, SPAN - 2 * B, MPI_BYTE, &st));
      }
      OK(MPI_File_close(&fh));
      MPI_Comm_free(&pair);
      if (rank == 0) MPI_Send(&r, 1, MPI_INT, 2, 77, MPI_COMM_WORLD);
    } else if (rank == 2) {
      OK(MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
      OK(MPI_File_set_atomicity(fh, 1));
      MPI_Barrier(MPI_COMM_WORLD);
      while (!done) {
        MPI_Iprobe(0, 77, MPI_COMM_WORLD, &done, MPI_STATUS_IGNORE);
        OK(MPI_File_read_at(fh, 0, in, SPAN, MPI_BYTE, &st));
        ++reads;
        /* one round's result: rank 0's first bytes say which round */
        const unsigned char a = in[0], won = in[B / 2], b = (unsigned char)(a + 1);
        CHECK(won == a || won == b, "read %d: the first overlap holds %d (round of %d)", reads, won,
              a);
        for (k = 0; k < NB; ++k)
          for (i = 0; i < B; ++i) {
            const long at = 2L * B * k + i, gap = at + B;
            const int in_span = at >= B / 2 && at < B / 2 + SPAN - 2 * B;
            CHECK(in[at] == (in_span ? won : a), "read %d: torn at byte %ld: %d in a round of %d",
                  reads, at, in[at], a);
            if (gap >= B / 2 && gap < B / 2 + SPAN - 2 * B)
              CHECK(in[gap] == b, "read %d: torn at byte %ld: %d in a round of %d", reads, gap,
                    in[gap], a);
          }
      }
      MPI_Recv(&r, 1, MPI_INT, 0, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      OK(MPI_File_close(&fh));
    } else {
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }
  MPI_Type_free(&blocks);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) OK(MPI_File_delete(p, MPI_INFO_NULL));
  free(buf);
  free(in);
}

/* Data sieving for writes (romio_ds_write=enable): every rank writes its
 * 3-byte blocks of an interleaved view at once, each a read-modify-write of
 * a span holding the others' blocks too, under a lock of the span. */
/* Sets a view of blocks of bl bytes interleaved by rank (its filetype in *ft). */
static void interleaved_view(MPI_File fh, int bl, MPI_Datatype *ft) {
  MPI_Datatype blk;
  MPI_Type_contiguous(bl, MPI_BYTE, &blk);
  MPI_Type_create_resized(blk, 0, (MPI_Aint)size * bl, ft);
  MPI_Type_commit(ft);
  MPI_Type_free(&blk);
  OK(MPI_File_set_view(fh, (MPI_Offset)rank * bl, MPI_BYTE, *ft, "native", MPI_INFO_NULL));
}

/* The file of blocks of bl bytes interleaved by rank, nbl per rank, byte
 * x of rank r's stream r * 50 + k * 7 + x (round k's). */
static void check_sieved_file(const char *p, int bl, int nbl, int k) {
  long n0 = (long)size * bl * nbl;
  unsigned char *all = malloc((size_t)n0);
  long n = raw(p, all, n0);
  CHECK(n == n0, "sieved file size %ld", n);
  for (long b = 0; b < n; ++b) {
    int r = (int)((b / bl) % size), x = (int)((b / bl) / size) * bl + (int)(b % bl);
    CHECK(all[b] == (unsigned char)(r * 50 + k * 7 + x), "sieved byte %ld: %d", b, all[b]);
  }
  free(all);
}

static void test_ds_write(void) {
  enum { BL = 3, NBL = 200, ROUNDS = 5 };
  char p[512];
  MPI_File fh;
  MPI_Status st;
  MPI_Info info;
  MPI_Datatype ftype;
  unsigned char out[BL * NBL];
  int i, k;
  path(p, "dswrite.dat");
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_ds_write", "enable");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
  MPI_Info_free(&info);
  interleaved_view(fh, BL, &ftype);
  for (k = 0; k < ROUNDS; ++k) {
    for (i = 0; i < BL * NBL; ++i) out[i] = (unsigned char)(rank * 50 + k * 7 + i);
    OK(MPI_File_write_at(fh, 0, out, BL * NBL, MPI_BYTE, &st));
    CHECK(count_of(&st, MPI_BYTE) == BL * NBL, "sieved write count");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) check_sieved_file(p, BL, NBL, ROUNDS - 1);
  OK(MPI_File_close(&fh));
  MPI_Type_free(&ftype);
}

/* The system calls data sieving takes for nbl blocks of bl bytes, stride
 * apart, in windows of at most `limit` bytes: a window holds the blocks
 * that end within `limit` of its first; it is one call when it holds
 * several and they are at least a quarter of it, else one per block. */
static long sieve_calls(long nbl, long bl, long stride, long limit) {
  long calls = 0, i = 0, m;
  while (i < nbl) {
    for (m = 1; i + m < nbl && m * stride + bl <= limit; ++m) {
    }
    calls += m > 1 && (m - 1) * stride + bl <= 4 * m * bl ? 1 : m;
    i += m;
  }
  return calls;
}

/* Data sieving in windows (ROMIO's ind_rd_buffer_size and
 * ind_wr_buffer_size): every rank writes its interleaved blocks of BL
 * bytes independently, all at once, ROUNDS times, each window a
 * read-modify-write under a lock of it (a lost update shows in the file);
 * each then reads its blocks back. The system calls are those of the
 * windows, though the span is larger than a window. Then a view whose data
 * reaches past its extent (its ranges out of file order): a sieved write
 * and read of a range that lies after the access's last one, and a read
 * stopped by the end of the file. */
static void test_sieve_windows(void) {
  enum { BL = 100, NBL = 200, ROUNDS = 3, RD = 4096, WR = 1500 };
  char p[512], q[32];
  MPI_File fh;
  MPI_Status st;
  MPI_Info info;
  MPI_Datatype blk, ftype;
  unsigned char out[BL * NBL], in[BL * NBL];
  int i, k;
  unsigned long long c0;
  path(p, "sieve.dat");
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_ds_write", "enable");
  MPI_Info_set(info, "ind_rd_buffer_size", "4096");
  MPI_Info_set(info, "ind_wr_buffer_size", "1500");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
  interleaved_view(fh, BL, &ftype);
  for (k = 0; k < ROUNDS; ++k) {
    for (i = 0; i < BL * NBL; ++i) out[i] = (unsigned char)(rank * 50 + k * 7 + i);
    c0 = counter("io_write_calls");
    OK(MPI_File_write_at(fh, 0, out, BL * NBL, MPI_BYTE, &st));
    CHECK(count_of(&st, MPI_BYTE) == BL * NBL, "windowed write count");
    if (size > 1)
      CHECK(counter("io_write_calls") - c0 ==
                (unsigned long long)sieve_calls(NBL, BL, (long)size * BL, WR),
            "windowed write: %llu write calls, want %ld", counter("io_write_calls") - c0,
            sieve_calls(NBL, BL, (long)size * BL, WR));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  memset(in, 0, sizeof in);
  c0 = counter("io_read_calls");
  OK(MPI_File_read_at(fh, 0, in, BL * NBL, MPI_BYTE, &st));
  if (size > 1)
    CHECK(counter("io_read_calls") - c0 ==
              (unsigned long long)sieve_calls(NBL, BL, (long)size * BL, RD),
          "windowed read: %llu read calls, want %ld", counter("io_read_calls") - c0,
          sieve_calls(NBL, BL, (long)size * BL, RD));
  CHECK(count_of(&st, MPI_BYTE) == BL * NBL, "windowed read count %d", count_of(&st, MPI_BYTE));
  CHECK(memcmp(in, out, sizeof in) == 0, "windowed read: the last round's blocks");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) check_sieved_file(p, BL, NBL, ROUNDS - 1);
  OK(MPI_File_close(&fh));
  MPI_Type_free(&ftype);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) OK(MPI_File_delete(p, MPI_INFO_NULL));

  /* runs at 0 and 24 of a filetype of extent 8: the stream's bytes 8..11
   * are the file's 8..11, after 24..27 */
  {
    int lens[2] = {4, 4};
    MPI_Aint disps[2] = {0, 24};
    unsigned char file[40];
    snprintf(q, sizeof q, "pastext.%d.dat", rank);
    path(p, q);
    OK(MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
    MPI_Type_create_hindexed(2, lens, disps, MPI_BYTE, &blk);
    MPI_Type_create_resized(blk, 0, 8, &ftype);
    MPI_Type_commit(&ftype);
    MPI_Type_free(&blk);
    OK(MPI_File_set_view(fh, 0, MPI_BYTE, ftype, "native", MPI_INFO_NULL));
    for (i = 0; i < 12; ++i) out[i] = (unsigned char)(rank * 20 + i + 1);
    OK(MPI_File_write_at(fh, 0, out, 12, MPI_BYTE, &st));
    CHECK(count_of(&st, MPI_BYTE) == 12, "past-extent write count %d", count_of(&st, MPI_BYTE));
    OK(MPI_File_sync(fh));
    CHECK(raw(p, file, sizeof file) == 28, "past-extent file size");
    for (i = 0; i < 28; ++i) {
      int want = i < 4 ? out[i] : i >= 24 ? out[i - 20] : i >= 8 && i < 12 ? out[i] : 0;
      CHECK(file[i] == want, "past-extent file byte %d: %d, want %d", i, file[i], want);
    }
    memset(in, 0, 16);
    OK(MPI_File_read_at(fh, 0, in, 16, MPI_BYTE, &st));
    CHECK(count_of(&st, MPI_BYTE) == 12, "past-extent read to the end: count %d",
          count_of(&st, MPI_BYTE));
    CHECK(memcmp(in, out, 12) == 0, "past-extent read");
    OK(MPI_File_close(&fh));
    MPI_Type_free(&ftype);
    OK(MPI_File_delete(p, MPI_INFO_NULL));
  }
  MPI_Info_free(&info);
}

/* A sieved read of large pieces (3000-byte blocks and holes) goes by
 * preadv, the pieces in place: a 4 MiB window of 699 blocks is 1397
 * segments, two system calls (IOV_MAX is 1024), the next window's 401
 * blocks one (a window read would make one call per window, 2). Then the
 * file is cut in the middle of block 1050: the read stops there. Every
 * rank reads its own file. */
static void test_vector_read(void) {
  enum { BL = 3000, NBL = 1100, CUT = 1050 };
  const long fsize = 2L * BL * NBL;
  char p[512], q[32];
  MPI_File fh;
  MPI_Status st;
  MPI_Datatype blk, ftype;
  unsigned char *file = malloc((size_t)fsize), *in = malloc((size_t)BL * NBL);
  long i, k, want;
  unsigned long long c0;
  CHECK(file && in, "malloc");
  snprintf(q, sizeof q, "vread.%d.dat", rank);
  path(p, q);
  for (i = 0; i < fsize; ++i) file[i] = (unsigned char)(i * 13 + rank + i / 4093);
  OK(MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  OK(MPI_File_write_at(fh, 0, file, (int)fsize, MPI_BYTE, &st));
  MPI_Type_contiguous(BL, MPI_BYTE, &blk);
  MPI_Type_create_resized(blk, 0, 2 * BL, &ftype);
  MPI_Type_commit(&ftype);
  MPI_Type_free(&blk);
  OK(MPI_File_set_view(fh, 0, MPI_BYTE, ftype, "native", MPI_INFO_NULL));
  memset(in, 0, (size_t)BL * NBL);
  c0 = counter("io_read_calls");
  OK(MPI_File_read_at(fh, 0, in, BL * NBL, MPI_BYTE, &st));
  CHECK(counter("io_read_calls") - c0 == 3, "vectored read: %llu read calls, want 3",
        counter("io_read_calls") - c0);
  CHECK(count_of(&st, MPI_BYTE) == BL * NBL, "vectored read count %d", count_of(&st, MPI_BYTE));
  for (k = 0; k < NBL; ++k)
    for (i = 0; i < BL; ++i)
      if (in[k * BL + i] != file[2 * BL * k + i]) {
        CHECK(0, "vectored read: block %ld byte %ld: %d, want %d", k, i, in[k * BL + i],
              file[2 * BL * k + i]);
        k = NBL;
        break;
      }
  /* the end of the file in the middle of a block, and a block at an odd offset */
  OK(MPI_File_set_size(fh, 2L * BL * CUT + 1000));
  memset(in, 0, (size_t)BL * NBL);
  OK(MPI_File_read_at(fh, 3, in, BL * NBL - 3, MPI_BYTE, &st));
  want = (long)BL * CUT + 1000 - 3;
  CHECK(count_of(&st, MPI_BYTE) == want, "vectored read to the end: count %d, want %ld",
        count_of(&st, MPI_BYTE), want);
  for (i = 0; i < want; ++i) {
    long s = i + 3, at = s / BL * 2 * BL + s % BL;
    if (in[i] != file[at]) {
      CHECK(0, "vectored read to the end: stream byte %ld: %d, want %d", s, in[i], file[at]);
      break;
    }
  }
  CHECK(in[want] == 0, "vectored read to the end: a byte past the count was written");
  OK(MPI_File_close(&fh));
  MPI_Type_free(&ftype);
  OK(MPI_File_delete(p, MPI_INFO_NULL));
  free(file);
  free(in);
}

/* MPI_File_set_view is collective even when it fails: a process whose
 * arguments are refused (a negative displacement, then an uncommitted
 * filetype) returns its error, the others an error too, and every view
 * stays as it was (no process waits for another in a later collective).
 * Type errors go to the file's handler (MPI_ERRORS_RETURN), not the
 * world's.
 * A filetype without data (PnetCDF gives one to a process with nothing
 * to write): collective accesses with no data work through it beside the
 * others' data; an access of data through it fails. */
static void test_view_agreement(void) {
  char p[512];
  MPI_File fh;
  MPI_Status st;
  MPI_Datatype empty, ft, et, raw_ft;
  MPI_Offset disp;
  char rep[MPI_MAX_DATAREP_STRING];
  int buf[4], in[4] = {0, 0, 0, 0}, rc, i, bad = size - 1;
  path(p, "agree.dat");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh));
  OK(MPI_File_set_view(fh, 16, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  rc = MPI_File_set_view(fh, rank == bad ? -8 : 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  CHECK(eclass(rc) == MPI_ERR_ARG, "set_view with a negative displacement at rank %d: class %d",
        bad, eclass(rc));
  MPI_Type_contiguous(2, MPI_INT, &raw_ft); /* never committed */
  rc = MPI_File_set_view(fh, 0, MPI_INT, rank == 0 ? raw_ft : MPI_INT, "native", MPI_INFO_NULL);
  CHECK(eclass(rc) == MPI_ERR_TYPE, "set_view with an uncommitted filetype at rank 0: class %d",
        eclass(rc));
  rc = MPI_File_write_at(fh, 0, buf, 1, raw_ft, &st);
  CHECK(eclass(rc) == MPI_ERR_TYPE, "a write of an uncommitted type: class %d (returned)",
        eclass(rc));
  MPI_Type_free(&raw_ft);
  OK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
  CHECK(disp == 16 && et == MPI_INT && ft == MPI_INT && strcmp(rep, "native") == 0,
        "the view after refused set_views: disp %lld", (long long)disp);

  /* rank 0's view holds nothing; rank r > 0 writes ints r*10.. at 4*(r-1) */
  MPI_Type_contiguous(0, MPI_INT, &empty);
  MPI_Type_commit(&empty);
  if (rank == 0)
    OK(MPI_File_set_view(fh, 0, MPI_INT, empty, "native", MPI_INFO_NULL));
  else
    OK(MPI_File_set_view(fh, (MPI_Offset)(rank - 1) * 16, MPI_INT, MPI_INT, "native",
                         MPI_INFO_NULL));
  for (i = 0; i < 4; ++i) buf[i] = rank * 10 + i;
  OK(MPI_File_write_at_all(fh, 0, buf, rank == 0 ? 0 : 4, MPI_INT, &st));
  CHECK(count_of(&st, MPI_INT) == (rank == 0 ? 0 : 4), "write count through the view");
  OK(MPI_File_read_at_all(fh, 0, in, rank == 0 ? 0 : 4, MPI_INT, &st));
  if (rank > 0)
    for (i = 0; i < 4; ++i) CHECK(in[i] == rank * 10 + i, "read back int %d: %d", i, in[i]);
  if (rank == 0) {
    rc = MPI_File_write_at(fh, 0, buf, 1, MPI_INT, &st);
    CHECK(eclass(rc) == MPI_ERR_ARG, "a write of data through a view of nothing: class %d",
          eclass(rc));
    rc = MPI_File_read_at(fh, 0, in, 1, MPI_INT, &st);
    CHECK(eclass(rc) == MPI_ERR_ARG, "a read of data through a view of nothing: class %d",
          eclass(rc));
    OK(MPI_File_get_byte_offset(fh, 3, &disp));
    CHECK(disp == 0, "byte offset through a view of nothing: %lld", (long long)disp);
  }
  OK(MPI_File_close(&fh));
  MPI_Type_free(&empty);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) OK(MPI_File_delete(p, MPI_INFO_NULL));
}

/* Two-phase collective buffering forced on, with up to 3 aggregators: a
 * view of BL-byte blocks interleaved by rank, NBL blocks per rank. Blocks of
 * 5 bytes and tiny buffers (cbs, many steps): 40 blocks (one aggregator's
 * domain holds it all), 3000 (each aggregator a domain of its own, in steps
 * of cbs bytes; the file of the first, rewritten), 60000 (domains of more
 * than an aggregator's 256 KiB chunk); blocks of 9000 bytes in
 * the default buffer (an aggregator reads the pieces of the procs of its
 * client one by one from their memory, small ones in one span). strided:
 * the memory is every other byte of a buffer (the data is packed first). */
/* Opens `p` with the aggregators on for reads and writes (cb_nodes: up to
 * 3), each rank's view its blocks of BL bytes, interleaved in rank order. */
static void open_two_phase(const char *p, int BL, const char *cbs, MPI_File *fh,
                           MPI_Datatype *ftype) {
  char nodes[16];
  MPI_Info info;
  MPI_Datatype blk;
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_cb_write", "enable");
  MPI_Info_set(info, "romio_cb_read", "enable");
  if (cbs) MPI_Info_set(info, "cb_buffer_size", cbs);
  snprintf(nodes, sizeof nodes, "%d", size < 3 ? size : 3);
  MPI_Info_set(info, "cb_nodes", nodes);
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, info, fh));
  MPI_Info_free(&info);
  MPI_Type_contiguous(BL, MPI_BYTE, &blk);
  MPI_Type_create_resized(blk, 0, (MPI_Aint)size * BL, ftype);
  MPI_Type_commit(ftype);
  MPI_Type_free(&blk);
  OK(MPI_File_set_view(*fh, (MPI_Offset)rank * BL, MPI_BYTE, *ftype, "native", MPI_INFO_NULL));
}

static void test_two_phase(int BL, int NBL, const char *cbs, int strided) {
  char p[512];
  MPI_File fh;
  MPI_Status st;
  MPI_Datatype ftype, ftype2, mem = MPI_BYTE;
  unsigned char *out = malloc((size_t)BL * NBL), *in = malloc((size_t)BL * NBL + 64);
  unsigned char *spread = malloc(2 * (size_t)BL * NBL);
  int i;
  path(p, "twophase.dat");
  open_two_phase(p, BL, cbs, &fh, &ftype);
  for (i = 0; i < BL * NBL; ++i) out[i] = (unsigned char)(rank * 31 + i);
  for (i = 0; i < BL * NBL; ++i) spread[2 * i] = out[i], spread[2 * i + 1] = 0xee;
  /* rank r writes r+1 fewer blocks at the end: ragged, and rank 0's half in two calls */
  int mine = BL * (NBL - rank % 3);
  /* every rank's blocks are one run (BL bytes, size * BL apart): told
   * with the range, no step exchanges piece lists */
  unsigned long long lists = counter("io_list_rounds");
  unsigned long long rounds = counter("io_memory_rounds");
  if (strided) {
    MPI_Type_vector(mine, 1, 2, MPI_BYTE, &mem);
    MPI_Type_commit(&mem);
    OK(MPI_File_write_all(fh, spread, 1, mem, &st));
    MPI_Type_free(&mem);
  } else {
    OK(MPI_File_write_all(fh, out, mine, MPI_BYTE, &st));
  }
  CHECK(count_of(&st, MPI_BYTE) == mine, "two-phase write count %d", count_of(&st, MPI_BYTE));
  CHECK(counter("io_list_rounds") == lists,
        "a regular view's write exchanged piece lists %llu times",
        counter("io_list_rounds") - lists);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    long max = (long)size * BL * NBL;
    unsigned char *all = calloc((size_t)max, 1);
    long n = raw(p, all, max);
    for (long b = 0; b < n; ++b) {
      int r = (int)((b / BL) % size), k = (int)((b / BL) / size) * BL + (int)(b % BL);
      if (k < BL * (NBL - r % 3))
        CHECK(all[b] == (unsigned char)(r * 31 + k), "two-phase file byte %ld: %d", b, all[b]);
      else
        CHECK(all[b] == 0, "two-phase hole byte %ld", b);
    }
    free(all);
  }
  /* read back, asking for more than there is */
  memset(in, 0xee, BL * NBL + 64);
  OK(MPI_File_read_at_all(fh, 0, in, BL * NBL + 64, MPI_BYTE, &st));
  int got = count_of(&st, MPI_BYTE);
  CHECK(got >= mine, "two-phase read count %d < %d", got, mine);
  for (i = 0; i < mine; ++i) CHECK(in[i] == out[i], "two-phase read byte %d", i);
  /* past the end of the file the memory stays as it was: the aggregators
   * write this read straight into `in` (the write agreed who may write
   * whose memory), and stop at the end they saw */
  for (i = got; i < BL * NBL + 64; ++i)
    if (in[i] != 0xee) {
      CHECK(0, "two-phase read wrote past the end of the file: byte %d of %d (count %d)", i,
            BL * NBL + 64, got);
      break;
    }
  if (rank == size - 1 && (NBL - rank % 3) == NBL)
    CHECK(got == mine, "the last rank reads to EOF: %d", got);
  /* across clients on one machine (a few procs, each able to write into
   * the others' memory) the write's closing round and both of the read's
   * go through memory, not as messages */
  {
    const char *want = getenv("FILE_TEST_MEMORY_ROUNDS");
    unsigned long long m = counter("io_memory_rounds") - rounds;
    if (want && atoi(want) == 1)
      CHECK(m >= 3, "two-phase accesses across clients: %llu rounds by memory", m);
    if (want && atoi(want) == 0)
      CHECK(m == 0, "two-phase accesses: %llu rounds by memory where messages were due", m);
  }
  OK(MPI_File_close(&fh));
  /* the same read as the file's first access (nobody has agreed on
   * memory yet: through a copy of the stream) */
  open_two_phase(p, BL, cbs, &fh, &ftype2);
  memset(in, 0xee, BL * NBL + 64);
  OK(MPI_File_read_at_all(fh, 0, in, BL * NBL + 64, MPI_BYTE, &st));
  CHECK(count_of(&st, MPI_BYTE) == got, "two-phase first read count %d, then %d",
        count_of(&st, MPI_BYTE), got);
  for (i = 0; i < mine; ++i) CHECK(in[i] == out[i], "two-phase first read byte %d", i);
  for (i = got; i < BL * NBL + 64; ++i)
    if (in[i] != 0xee) {
      CHECK(0, "two-phase first read wrote past the end of the file: byte %d", i);
      break;
    }
  OK(MPI_File_close(&fh));
  MPI_Type_free(&ftype2);
  MPI_Type_free(&ftype);
  free(out);
  free(in);
  free(spread);
}

/* Blocks of equal length at irregular distances (an indexed view: the
 * owner of each 8-byte slot is a quadratic hash of its number), written and
 * read through the aggregators: a piece list sent as runs of regular pieces
 * must break where the distance changes. */
static int slot_owner(int s) {
  return (int)((s + ((long)s * s / 7) % 3) % size);
}
static void test_two_phase_irregular(const char *cbs) {
  enum { BL = 8, SLOTS = 3000 };
  char p[512];
  MPI_File fh;
  MPI_Status st;
  MPI_Info info;
  MPI_Datatype ftype;
  int *disp = malloc(SLOTS * sizeof(int)), n = 0, s, j;
  unsigned char *out = malloc(SLOTS * BL), *in = malloc(SLOTS * BL);
  for (s = 0; s < SLOTS; ++s)
    if (slot_owner(s) == rank) {
      for (j = 0; j < BL; ++j) out[n * BL + j] = (unsigned char)(s * 5 + j + rank);
      disp[n++] = s * BL;
    }
  path(p, "twophase_irregular.dat");
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_cb_write", "enable");
  MPI_Info_set(info, "romio_cb_read", "enable");
  if (cbs) MPI_Info_set(info, "cb_buffer_size", cbs);
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
  MPI_Info_free(&info);
  MPI_Type_create_indexed_block(n, BL, disp, MPI_BYTE, &ftype);
  MPI_Type_commit(&ftype);
  OK(MPI_File_set_view(fh, 0, MPI_BYTE, ftype, "native", MPI_INFO_NULL));
  /* hundreds of runs: the steps exchange the piece lists */
  unsigned long long lists = counter("io_list_rounds");
  OK(MPI_File_write_at_all(fh, 0, out, n * BL, MPI_BYTE, &st));
  CHECK(count_of(&st, MPI_BYTE) == n * BL, "irregular write count %d", count_of(&st, MPI_BYTE));
  CHECK(size == 1 || counter("io_list_rounds") > lists, "an irregular view's write sent no lists");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    unsigned char *all = calloc(SLOTS * BL, 1);
    long got = raw(p, all, SLOTS * BL);
    CHECK(got == SLOTS * BL, "irregular file size %ld", got);
    for (long b = 0; b < got; ++b) {
      int sl = (int)(b / BL);
      CHECK(all[b] == (unsigned char)(sl * 5 + b % BL + slot_owner(sl)),
            "irregular file byte %ld: %d", b, all[b]);
    }
    free(all);
  }
  memset(in, 0xee, SLOTS * BL);
  OK(MPI_File_read_at_all(fh, 0, in, n * BL, MPI_BYTE, &st));
  CHECK(count_of(&st, MPI_BYTE) == n * BL, "irregular read count %d", count_of(&st, MPI_BYTE));
  for (j = 0; j < n * BL; ++j) CHECK(in[j] == out[j], "irregular read byte %d", j);
  OK(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) OK(MPI_File_delete(p, MPI_INFO_NULL));
  MPI_Type_free(&ftype);
  free(disp);
  free(out);
  free(in);
}

/* Views the aggregators cannot take (they go independently, whatever the
 * hints say): a filetype whose tiles are out of file order (blocks at 0
 * and far beyond its extent: the second block of tile k lies past the
 * first of tile k+1), written collectively; and, in a read-only file, one
 * whose blocks overlap, read collectively with steps of 4 KiB (the block
 * crossing a step boundary made the next one start below the next step's
 * window). Both lost or refused data through the aggregators before. */
static void test_two_phase_unordered(void) {
  enum { T = 4 };
  const long E = 8L * size, D = 1024 * E;
  char p[512];
  MPI_File fh;
  MPI_Status st;
  MPI_Info info;
  MPI_Datatype blocks, ft;
  int lens[2] = {8, 8}, i, k;
  MPI_Aint disps[2] = {0, D};
  unsigned char buf[16 * T], in[4108];
  path(p, "twophase_unordered.dat");
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_cb_write", "enable");
  MPI_Info_set(info, "romio_cb_read", "enable");
  MPI_Info_set(info, "cb_buffer_size", "4096");
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_CREATE, info, &fh));
  MPI_Type_create_hindexed(2, lens, disps, MPI_BYTE, &blocks);
  MPI_Type_create_resized(blocks, 0, E, &ft);
  MPI_Type_commit(&ft);
  OK(MPI_File_set_view(fh, (MPI_Offset)rank * 8, MPI_BYTE, ft, "native", MPI_INFO_NULL));
  for (i = 0; i < 16 * T; ++i) buf[i] = (unsigned char)(rank * 50 + i);
  OK(MPI_File_write_all(fh, buf, 16 * T, MPI_BYTE, &st));
  CHECK(count_of(&st, MPI_BYTE) == 16 * T, "unordered write count %d", count_of(&st, MPI_BYTE));
  OK(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    long max = D + E * T;
    unsigned char *all = calloc((size_t)max, 1);
    long got = raw(p, all, max);
    CHECK(got == D + E * (T - 1) + 8L * size, "unordered file size %ld", got);
    for (int r = 0; r < size; ++r)
      for (k = 0; k < T; ++k)
        for (i = 0; i < 8; ++i) {
          CHECK(all[r * 8 + E * k + i] == (unsigned char)(r * 50 + 16 * k + i),
                "unordered block 0 of rank %d tile %d byte %d", r, k, i);
          CHECK(all[r * 8 + D + E * k + i] == (unsigned char)(r * 50 + 16 * k + 8 + i),
                "unordered block 1 of rank %d tile %d byte %d", r, k, i);
        }
    /* the overlapping view's file: byte b is b * 7 + 3 */
    FILE *fp = fopen(p, "wb");
    for (i = 0; i < 12288; ++i) fputc((unsigned char)(i * 7 + 3), fp);
    fclose(fp);
    free(all);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Type_free(&ft);
  MPI_Type_free(&blocks);
  OK(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, info, &fh));
  lens[0] = 4100;
  disps[1] = 4094;
  MPI_Type_create_hindexed(2, lens, disps, MPI_BYTE, &ft);
  MPI_Type_commit(&ft);
  OK(MPI_File_set_view(fh, 0, MPI_BYTE, ft, "native", MPI_INFO_NULL));
  memset(in, 0, sizeof in);
  OK(MPI_File_read_all(fh, in, 4108, MPI_BYTE, &st));
  CHECK(count_of(&st, MPI_BYTE) == 4108, "overlapping read count %d", count_of(&st, MPI_BYTE));
  for (i = 0; i < 4108; ++i) {
    int at = i < 4100 ? i : 4094 + (i - 4100);
    CHECK(in[i] == (unsigned char)(at * 7 + 3), "overlapping read byte %d", i);
  }
  OK(MPI_File_close(&fh));
  MPI_Type_free(&ft);
  MPI_Info_free(&info);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) OK(MPI_File_delete(p, MPI_INFO_NULL));
}

/* The non-blocking collectives through the aggregators: each a
 * non-blocking collective on the file's communicator. iwrite_all returns
 * before the other processes start theirs (rank 0 then waits in a receive
 * that the last rank's synchronous send, made before its own iwrite_all,
 * satisfies: a blocking exchange there would hang); two in flight at once
 * complete in order; a blocking collective started while one is in flight
 * waits for it; statuses carry the counts. */
static void test_two_phase_nb(int BL, int NBL, const char *cbs) {
  char p[512];
  MPI_File fh;
  MPI_Status st[2];
  MPI_Request rq[2];
  MPI_Datatype ftype, mem;
  const int n = BL * NBL, half = BL * (NBL / 2);
  unsigned char *out = malloc((size_t)n), *in = malloc((size_t)n), *in2 = malloc((size_t)n);
  unsigned char *spread = malloc(2 * (size_t)n);
  int i, flag = 0, big = 1 << 20;
  char *msg = calloc((size_t)big, 1);
  path(p, "twophase_nb.dat");
  open_two_phase(p, BL, cbs, &fh, &ftype);
  for (i = 0; i < n; ++i) out[i] = (unsigned char)(rank * 37 + i / 7);
  /* the file's first two-phase accesses move nothing (they agree on
   * nothing: the later ones must) */
  OK(MPI_File_iwrite_at_all(fh, 0, out, 0, MPI_BYTE, &rq[0]));
  OK(MPI_Wait(&rq[0], &st[0]));
  OK(MPI_File_write_at_all(fh, 0, out, 0, MPI_BYTE, &st[0]));
  CHECK(count_of(&st[0], MPI_BYTE) == 0, "an empty write_at_all's count");
  /* two writes in flight, through the individual pointer; the last rank
   * starts its first after a synchronous send that rank 0 receives after
   * starting its own */
  if (size > 1 && rank == size - 1) MPI_Ssend(msg, big, MPI_CHAR, 0, 77, MPI_COMM_WORLD);
  OK(MPI_File_iwrite_all(fh, out, half, MPI_BYTE, &rq[0]));
  if (size > 1 && rank == 0)
    MPI_Recv(msg, big, MPI_CHAR, size - 1, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  /* through the aggregators: their exchange is messages (at least the
   * description of the pieces in the other aggregators' windows, one run
   * of 40 bytes when they are regular), or across clients on one machine
   * words written into the others' memory (io_memory_rounds: 2 an
   * access, but the first agrees on that after its range round); the
   * independent path sends nothing meanwhile */
  unsigned long long before = bytes_sent(), moved, by_memory = counter("io_memory_rounds");
  const char *memory_rounds = getenv("FILE_TEST_MEMORY_ROUNDS");
  OK(MPI_File_iwrite_all(fh, out + half, n - half, MPI_BYTE, &rq[1]));
  while (!flag) OK(MPI_Test(&rq[1], &flag, &st[1]));
  OK(MPI_Wait(&rq[0], &st[0]));
  moved = bytes_sent() - before;
  MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  by_memory = counter("io_memory_rounds") - by_memory;
  if (size > 1 && memory_rounds && atoi(memory_rounds) == 1)
    CHECK(by_memory >= 3, "iwrite_all x2 across clients: %llu rounds by memory", by_memory);
  else if (size > 1)
    CHECK(moved >= 40, "iwrite_all moved %llu bytes between processes", moved);
  CHECK(count_of(&st[0], MPI_BYTE) == half, "iwrite_all count %d", count_of(&st[0], MPI_BYTE));
  CHECK(count_of(&st[1], MPI_BYTE) == n - half, "iwrite_all count %d", count_of(&st[1], MPI_BYTE));
  MPI_Offset pos = -1;
  OK(MPI_File_get_position(fh, &pos));
  CHECK(pos == n, "the individual pointer after two iwrite_all: %lld", (long long)pos);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    long max = (long)size * n;
    unsigned char *all = calloc((size_t)max, 1);
    long got = raw(p, all, max);
    CHECK(got == max, "iwrite_all file size %ld", got);
    for (long b = 0; b < got; ++b) {
      int r = (int)((b / BL) % size), k = (int)((b / BL) / size) * BL + (int)(b % BL);
      CHECK(all[b] == (unsigned char)(r * 37 + k / 7), "iwrite_all file byte %ld: %d", b, all[b]);
    }
    free(all);
  }
  /* reads: into a strided memory type (converted after the exchange),
   * with a blocking collective read started while it is in flight */
  MPI_Type_vector(n, 1, 2, MPI_BYTE, &mem);
  MPI_Type_commit(&mem);
  memset(spread, 0xee, 2 * (size_t)n);
  memset(in2, 0xee, (size_t)n);
  OK(MPI_File_iread_at_all(fh, 0, spread, 1, mem, &rq[0]));
  OK(MPI_File_read_at_all(fh, 0, in2, n, MPI_BYTE, &st[1]));
  OK(MPI_Wait(&rq[0], &st[0]));
  CHECK(count_of(&st[0], mem) == 1, "iread_at_all count %d", count_of(&st[0], mem));
  for (i = 0; i < n; ++i) {
    CHECK(spread[2 * i] == out[i], "iread_at_all byte %d: %d", i, spread[2 * i]);
    CHECK(spread[2 * i + 1] == 0xee, "iread_at_all wrote a hole at %d", i);
    CHECK(in2[i] == out[i], "read_at_all after iread_at_all: byte %d", i);
  }
  MPI_Type_free(&mem);
  /* MPI_File_iread_all, completed by MPI_Waitall with another request */
  memset(in, 0xee, (size_t)n);
  OK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
  OK(MPI_File_iread_all(fh, in, n, MPI_BYTE, &rq[0]));
  MPI_Ibarrier(MPI_COMM_WORLD, &rq[1]);
  OK(MPI_Waitall(2, rq, st));
  CHECK(count_of(&st[0], MPI_BYTE) == n, "iread_all count %d", count_of(&st[0], MPI_BYTE));
  for (i = 0; i < n; ++i) CHECK(in[i] == out[i], "iread_all byte %d: %d", i, in[i]);
  OK(MPI_File_close(&fh));
  MPI_Type_free(&ftype);
  free(out);
  free(in);
  free(in2);
  free(spread);
  free(msg);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/impi-view-XXXXXX", t && *t ? t : "/tmp");
    CHECK(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
  }
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  test_interleaved();
  test_subarray();
  test_datareps();
  test_datarep_layouts();
  test_atomic();
  test_atomic_collective();
  test_two_phase(5, 40, "64", 0);
  test_two_phase(5, 3000, "1000", 0);
  test_two_phase(5, 3000, "1000", 1);
  test_two_phase(9000, 6, NULL, 0);
  test_two_phase(9000, 6, NULL, 1);
  test_two_phase(5, 60000, NULL, 0);
  test_two_phase_irregular(NULL);
  test_two_phase_irregular("4096");
  test_two_phase_unordered();
  test_two_phase_nb(5, 3000, "1000");
  test_two_phase_nb(9000, 6, NULL);
  test_ds_write();
  test_sieve_windows();
  test_vector_read();
  test_view_agreement();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    const char *names[] = {"interleaved.dat", "subarray.dat", "ext32.dat",       "user.dat",
                           "atomic.dat",      "twophase.dat", "twophase_nb.dat", "dswrite.dat"};
    char q[512];
    for (int i = 0; i < 8; ++i) {
      path(q, names[i]);
      CHECK(unlink(q) == 0, "unlink %s: %s", q, strerror(errno));
    }
    CHECK(rmdir(dir) == 0, "the directory is left empty: %s", strerror(errno));
  }
  printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return 0;
}
