/* tool_check.c - the MPI tool interface (MPI-3.1 chapter 14): control
 * variables (impi's tunables) listed, found by name, read, written before
 * MPI_Init and refused after; categories covering every variable; and
 * performance variables that count real traffic (messages and bytes per
 * transport, the unexpected queue). Prints "rank r of n ok". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static int rank, size, failures;

static int pvar(MPI_T_pvar_session s, const char *name, int cls, MPI_T_pvar_handle *h) {
  int i, count;
  if (MPI_T_pvar_get_index(name, cls, &i) != MPI_SUCCESS) return -1;
  MPI_T_pvar_handle_alloc(s, i, NULL, h, &count);
  return i;
}
static unsigned long long read_pvar(MPI_T_pvar_session s, MPI_T_pvar_handle h) {
  unsigned long long v = 0;
  MPI_T_pvar_read(s, h, &v);
  return v;
}

int main(int argc, char **argv) {
  int provided, ncvar, npvar, ncat, i, idx, count, rc;
  MPI_T_cvar_handle ch;
  long long eager = 0;
  /* before MPI_Init: a control variable written takes effect */
  CHECK(MPI_T_cvar_get_num(&ncvar) == MPI_T_ERR_NOT_INITIALIZED,
        "cvar_get_num before MPI_T_init_thread");
  CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T_init_thread");
  CHECK(MPI_T_cvar_get_index("shm_eager_limit", &idx) == MPI_SUCCESS, "cvar shm_eager_limit");
  MPI_T_cvar_handle_alloc(idx, NULL, &ch, &count);
  CHECK(count == 1, "shm_eager_limit count %d", count);
  MPI_T_cvar_read(ch, &eager);
  CHECK(eager == 65536, "shm_eager_limit default %lld", eager);
  eager = 4096;
  CHECK(MPI_T_cvar_write(ch, &eager) == MPI_SUCCESS, "cvar_write before MPI_Init");

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  eager = 0;
  MPI_T_cvar_read(ch, &eager);
  CHECK(eager == 4096, "shm_eager_limit after the write: %lld", eager);
  CHECK(MPI_T_cvar_write(ch, &eager) == MPI_T_ERR_CVAR_SET_NOT_NOW, "cvar_write after MPI_Init");
  MPI_T_cvar_handle_free(&ch);
  CHECK(ch == MPI_T_CVAR_HANDLE_NULL, "cvar_handle_free");

  /* every control variable: named, found again by its name, in one category */
  MPI_T_cvar_get_num(&ncvar);
  CHECK(ncvar > 30, "%d control variables", ncvar);
  for (i = 0; i < ncvar; ++i) {
    char name[128], desc[512];
    int nl = sizeof name, dl = sizeof desc, verb, bind, scope, back = -1;
    MPI_Datatype dt;
    MPI_T_enum en;
    MPI_T_cvar_get_info(i, name, &nl, &verb, &dt, &en, desc, &dl, &bind, &scope);
    CHECK(nl > 1 && (int)strlen(name) == nl - 1 && dl > 1, "cvar %d name/desc lengths %d %d", i, nl,
          dl);
    CHECK(dt == MPI_LONG_LONG_INT || dt == MPI_CHAR, "cvar %s type", name);
    MPI_T_cvar_get_index(name, &back);
    CHECK(back == i, "cvar %s index %d, want %d", name, back, i);
  }
  {
    char s[8];
    int nl = sizeof s;
    MPI_T_cvar_get_info(0, s, &nl, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    CHECK((int)strlen(s) <= 7, "a short name buffer is NUL-terminated");
  }
  CHECK(MPI_T_cvar_get_index("no_such_variable", &idx) == MPI_T_ERR_INVALID_NAME,
        "unknown cvar name");
  MPI_T_category_get_num(&ncat);
  {
    int total = 0, nc, np, nsub, back;
    char name[64];
    for (i = 0; i < ncat; ++i) {
      int nl = sizeof name;
      MPI_T_category_get_info(i, name, &nl, NULL, NULL, &nc, &np, &nsub);
      MPI_T_category_get_index(name, &back);
      CHECK(back == i, "category %s index %d", name, back);
      total += nc;
    }
    CHECK(total == ncvar, "categories hold %d of %d control variables", total, ncvar);
  }

  /* performance variables count what this process sends */
  MPI_T_pvar_get_num(&npvar);
  CHECK(npvar >= 8, "%d performance variables", npvar);
  {
    MPI_T_pvar_session s;
    MPI_T_pvar_handle shm_m, shm_b, impi_m, impi_b, unexp;
    int buf[100] = {0}, got[100], next = (rank + 1) % size, prev = (rank - 1 + size) % size;
    unsigned long long v;
    MPI_T_pvar_session_create(&s);
    CHECK(pvar(s, "shm_messages_sent", MPI_T_PVAR_CLASS_COUNTER, &shm_m) >= 0, "shm_messages_sent");
    pvar(s, "shm_bytes_sent", MPI_T_PVAR_CLASS_COUNTER, &shm_b);
    pvar(s, "impi_messages_sent", MPI_T_PVAR_CLASS_COUNTER, &impi_m);
    pvar(s, "impi_bytes_sent", MPI_T_PVAR_CLASS_COUNTER, &impi_b);
    CHECK(pvar(s, "unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL, &unexp) >= 0,
          "unexpected_queue_length");
    CHECK(MPI_T_pvar_start(s, shm_m) == MPI_T_ERR_PVAR_NO_STARTSTOP,
          "pvar_start of a continuous variable");
    CHECK(MPI_T_pvar_write(s, shm_m, &v) == MPI_T_ERR_PVAR_NO_WRITE,
          "pvar_write of a read-only variable");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES);
    if (size > 1) {
      MPI_Request sends[6];
      for (i = 0; i < 5; ++i) MPI_Isend(buf, 100, MPI_INT, next, 7, MPI_COMM_WORLD, &sends[i]);
      MPI_Isend(buf, 0, MPI_INT, next, 8, MPI_COMM_WORLD, &sends[5]);
      /* prev's tag-8 message is here: its five before it are too, unreceived */
      MPI_Probe(prev, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      v = read_pvar(s, unexp);
      CHECK(v >= 6, "unexpected_queue_length %llu with 6 messages waiting", v);
      for (i = 0; i < 5; ++i)
        MPI_Recv(got, 100, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(got, 0, MPI_INT, prev, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Waitall(6, sends, MPI_STATUSES_IGNORE);
      unsigned long long m = read_pvar(s, shm_m) + read_pvar(s, impi_m),
                         b = read_pvar(s, shm_b) + read_pvar(s, impi_b);
      CHECK(m == 6, "messages sent %llu, want 6", m);
      CHECK(b >= 2000, "bytes sent %llu, want at least 2000", b);
      {
        /* across clients, some rank's next is in another client */
        MPI_Comm host;
        int hsize;
        unsigned long long mine = read_pvar(s, impi_m), most = 0;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
        MPI_Comm_size(host, &hsize);
        MPI_Allreduce(&mine, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
        CHECK((most > 0) == (hsize < size), "impi_messages_sent %llu with %d of %d on this host",
              most, hsize, size);
        MPI_Comm_free(&host);
      }
    }
    MPI_T_pvar_readreset(s, shm_m, &v);
    CHECK(read_pvar(s, shm_m) == 0, "readreset");
    MPI_T_pvar_handle_free(s, &shm_m);
    CHECK(shm_m == MPI_T_PVAR_HANDLE_NULL, "pvar_handle_free");
    MPI_T_pvar_session_free(&s);
    CHECK(MPI_T_pvar_read(s, unexp, &v) == MPI_T_ERR_INVALID_SESSION, "read in a freed session");
  }
  rc = MPI_T_finalize();
  CHECK(rc == MPI_SUCCESS, "MPI_T_finalize");
  CHECK(MPI_T_cvar_get_num(&ncvar) == MPI_T_ERR_NOT_INITIALIZED,
        "cvar_get_num after MPI_T_finalize");
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return failures != 0;
}
