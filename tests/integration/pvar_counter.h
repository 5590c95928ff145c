/* pvar_counter.h - counter(NAME): a counter of the MPI tool interface (a
 * performance variable of class COUNTER) by name, read through one pvar
 * session of the program. The includer defines CHECK(cond, fmt, ...),
 * `rank`, and has called MPI_Init. */
#ifndef IMPI_TESTS_PVAR_COUNTER_H
#define IMPI_TESTS_PVAR_COUNTER_H

#include <mpi.h>
#include <string.h>

static unsigned long long counter(const char *name) {
  static MPI_T_pvar_session s = MPI_T_PVAR_SESSION_NULL;
  static MPI_T_pvar_handle h[8];
  static const char *names[8];
  static int n;
  unsigned long long v = 0;
  int i, idx, cnt, provided;
  if (s == MPI_T_PVAR_SESSION_NULL) {
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T_init_thread");
    MPI_T_pvar_session_create(&s);
  }
  for (i = 0; i < n && strcmp(names[i], name) != 0; ++i) {
  }
  if (i == n) {
    CHECK(n < 8 && MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx) == MPI_SUCCESS, "%s",
          name);
    MPI_T_pvar_handle_alloc(s, idx, NULL, &h[i], &cnt);
    names[n++] = name;
  }
  MPI_T_pvar_read(s, h[i], &v);
  return v;
}

#endif
