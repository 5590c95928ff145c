/* tool_events_check.c - MPI_T events (MPI-4.0 15.3.8).
 *
 * Registers callbacks for unexpected_message (one at
 * MPI_T_CB_REQUIRE_MPI_RESTRICTED, called in the engine, and one at
 * MPI_T_CB_REQUIRE_NONE only, delivered later with no lock held, which
 * calls MPI_Comm_rank to show it may) and impi_flow_stall; rank 0 sends
 * rank 1 three messages before rank 1 posts their receives, and both
 * check the event data. With the argument "stall" (ranks 0 and 1 in
 * different IMPI clients), rank 0 then sends 100 messages of 8 KiB while
 * rank 1 makes no MPI call until rank 0 saw a flow-control stall event
 * (a file tells rank 1 to go on), and checks that event's data. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int rank, size, failures;

struct Seen {
  int source, tag, context;
  MPI_Count bytes;
  MPI_Count stamp;
  int src_index;
  int copy_ok;
};
enum { kMax = 256 };
static struct Seen g_unexp[kMax];
static volatile int g_nunexp;
static int g_deferred, g_deferred_bad;
static struct {
  int host, local, remote;
  MPI_Count pending;
} g_stall[kMax];
static volatile int g_nstall;
static int g_freed;

static void on_unexpected(MPI_T_event_instance ev, MPI_T_event_registration reg,
                          MPI_T_cb_safety safety, void *user) {
  (void)reg;
  (void)user;
  (void)safety;
  if (g_nunexp >= kMax) return;
  struct Seen *s = &g_unexp[g_nunexp];
  MPI_T_event_read(ev, 0, &s->source);
  MPI_T_event_read(ev, 1, &s->tag);
  MPI_T_event_read(ev, 2, &s->context);
  MPI_T_event_read(ev, 3, &s->bytes);
  MPI_T_event_get_timestamp(ev, &s->stamp);
  MPI_T_event_get_source(ev, &s->src_index);
  unsigned char raw[24];
  MPI_T_event_copy(ev, raw);
  int tag = 0;
  MPI_Count bytes = 0;
  memcpy(&tag, raw + 4, 4);
  memcpy(&bytes, raw + 16, 8);
  s->copy_ok = tag == s->tag && bytes == s->bytes;
  ++g_nunexp;
}

static void on_unexpected_later(MPI_T_event_instance ev, MPI_T_event_registration reg,
                                MPI_T_cb_safety safety, void *user) {
  (void)reg;
  int tag = -1, r = -1;
  MPI_T_event_read(ev, 1, &tag);
  MPI_Comm_rank(MPI_COMM_WORLD, &r); /* (any MPI call: no lock held here) */
  if (safety != MPI_T_CB_REQUIRE_NONE || r != rank || user != &g_deferred) ++g_deferred_bad;
  if (tag >= 40 && tag < 43) ++g_deferred;
}

static void on_stall(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety safety,
                     void *user) {
  (void)reg;
  (void)safety;
  (void)user;
  if (g_nstall >= kMax) return;
  MPI_T_event_read(ev, 0, &g_stall[g_nstall].host);
  MPI_T_event_read(ev, 1, &g_stall[g_nstall].local);
  MPI_T_event_read(ev, 2, &g_stall[g_nstall].remote);
  MPI_T_event_read(ev, 3, &g_stall[g_nstall].pending);
  ++g_nstall;
}

static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user) {
  (void)reg;
  (void)safety;
  ++*(int *)user;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int stall = argc > 1 && strcmp(argv[1], "stall") == 0;
  int provided = 0;
  CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T_init_thread");

  int num = 0, nsrc = 0;
  MPI_T_event_get_num(&num);
  MPI_T_source_get_num(&nsrc);
  CHECK(num >= 2 && nsrc == 1, "%d events, %d sources", num, nsrc);
  char name[64];
  int len = sizeof name;
  MPI_T_source_order order;
  MPI_Count tps = 0, maxt = 0, t0 = 0;
  MPI_T_source_get_info(0, name, &len, NULL, NULL, &order, &tps, &maxt, NULL);
  CHECK(tps > 0 && maxt > 0 && order == MPI_T_SOURCE_ORDERED, "source info");
  MPI_T_source_get_timestamp(0, &t0);

  int iu = -1, is = -1;
  CHECK(MPI_T_event_get_index("unexpected_message", &iu) == MPI_SUCCESS, "no unexpected_message");
  CHECK(MPI_T_event_get_index("impi_flow_stall", &is) == MPI_SUCCESS, "no impi_flow_stall");
  CHECK(MPI_T_event_get_index("no_such_event", &is) == MPI_T_ERR_INVALID_NAME, "bad name found");
  MPI_T_event_get_index("impi_flow_stall", &is);
  MPI_Datatype types[8];
  MPI_Aint displs[8];
  int nel = 8, verb = 0, bind = 0;
  len = sizeof name;
  MPI_T_event_get_info(iu, name, &len, &verb, types, displs, &nel, NULL, NULL, NULL, NULL, &bind);
  CHECK(nel == 4 && types[0] == MPI_INT && types[3] == MPI_COUNT && displs[3] == 16 &&
            strcmp(name, "unexpected_message") == 0 && bind == MPI_T_BIND_NO_OBJECT,
        "unexpected_message info: %d elements, name %s", nel, name);

  MPI_T_event_registration ru, rl, rs;
  MPI_T_event_handle_alloc(iu, NULL, MPI_INFO_NULL, &ru);
  MPI_T_event_handle_alloc(iu, NULL, MPI_INFO_NULL, &rl);
  MPI_T_event_handle_alloc(is, NULL, MPI_INFO_NULL, &rs);
  MPI_T_event_register_callback(ru, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_INFO_NULL, NULL,
                                on_unexpected);
  MPI_T_event_register_callback(rl, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &g_deferred,
                                on_unexpected_later);
  MPI_T_event_register_callback(rs, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL, NULL, on_stall);
  MPI_Info used;
  CHECK(MPI_T_event_handle_get_info(ru, &used) == MPI_SUCCESS, "handle_get_info");
  MPI_Info_free(&used);
  CHECK(MPI_T_event_callback_get_info(ru, MPI_T_CB_REQUIRE_MPI_RESTRICTED, &used) == MPI_SUCCESS,
        "callback_get_info");
  MPI_Info_free(&used);

  /* Unexpected messages: sent before the receives, then a barrier; the
   * marker (tag 49) comes after them from the same sender. */
  if (rank == 0) {
    char buf[300];
    memset(buf, 7, sizeof buf);
    for (int i = 0; i < 3; ++i) MPI_Send(buf, 100 * (i + 1), MPI_BYTE, 1, 40 + i, MPI_COMM_WORLD);
    MPI_Send(buf, 1, MPI_BYTE, 1, 49, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    char buf[300];
    MPI_Recv(buf, 1, MPI_BYTE, 0, 49, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int found = 0;
    for (int i = 0; i < g_nunexp; ++i) {
      struct Seen *s = &g_unexp[i];
      if (s->tag < 40 || s->tag > 42) continue;
      ++found;
      CHECK(s->source == 0 && s->context == 0 && s->bytes == 100 * (s->tag - 39) &&
                s->src_index == 0 && s->stamp >= t0 && s->copy_ok,
            "unexpected event: source %d tag %d context %d bytes %lld", s->source, s->tag,
            s->context, (long long)s->bytes);
    }
    CHECK(found == 3, "%d unexpected-message events for tags 40..42, not 3", found);
    for (int i = 0; i < 3; ++i) {
      MPI_Status st;
      MPI_Recv(buf, 300, MPI_BYTE, 0, 40 + i, MPI_COMM_WORLD, &st);
      int n = 0;
      MPI_Get_count(&st, MPI_BYTE, &n);
      CHECK(n == 100 * (i + 1) && buf[0] == 7, "message %d: %d bytes", i, n);
    }
    /* The REQUIRE_NONE callback: delivered from a later progress pass. */
    for (int i = 0; i < 1000 && g_deferred < 3; ++i) {
      int flag;
      MPI_Iprobe(0, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    CHECK(g_deferred == 3 && g_deferred_bad == 0, "deferred callback: %d events, %d bad",
          g_deferred, g_deferred_bad);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  if (stall && size >= 2) {
    enum { n = 100, len8k = 8192 };
    char path[128];
    if (rank == 0) snprintf(path, sizeof path, "/tmp/impi-tool-events-%d", (int)getpid());
    MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      static char out[n][len8k];
      MPI_Request reqs[n];
      for (int i = 0; i < n; ++i) {
        memset(out[i], i, len8k);
        MPI_Isend(out[i], len8k, MPI_BYTE, 1, 60, MPI_COMM_WORLD, &reqs[i]);
      }
      for (int i = 0; i < 100000 && g_nstall == 0; ++i) {
        int flag;
        MPI_Testall(n, reqs, &flag, MPI_STATUSES_IGNORE);
        if (flag) break;
        usleep(100);
      }
      CHECK(g_nstall > 0, "no flow-control stall event (pvar-counted stalls happen at hiwater)");
      for (int i = 0; i < g_nstall; ++i)
        CHECK(g_stall[i].host >= 0 && g_stall[i].remote >= 0 && g_stall[i].pending >= len8k,
              "stall event: host %d local %d remote %d pending %lld", g_stall[i].host,
              g_stall[i].local, g_stall[i].remote, (long long)g_stall[i].pending);
      FILE *f = fopen(path, "w");
      if (f) fclose(f);
      MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    } else if (rank == 1) {
      /* No MPI call (no PROTOACK) until rank 0 saw its stall. */
      for (int i = 0; i < 600000 && access(path, F_OK) != 0; ++i) usleep(100);
      unlink(path);
      static char in[len8k];
      int bad = 0;
      for (int i = 0; i < n; ++i) {
        MPI_Recv(in, len8k, MPI_BYTE, 0, 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        bad += in[0] != (char)i || in[len8k - 1] != (char)i;
      }
      CHECK(bad == 0, "%d stalled messages with wrong data", bad);
    }
  }

  MPI_T_event_handle_free(ru, &g_freed, on_free);
  MPI_T_event_handle_free(rl, &g_freed, on_free);
  MPI_T_event_handle_free(rs, &g_freed, on_free);
  CHECK(g_freed == 3, "%d free callbacks, not 3", g_freed);
  MPI_T_finalize();
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (failures == 0) printf("rank %d of %d ok\n", rank, size);
  MPI_Finalize();
  return total > 0;
}
