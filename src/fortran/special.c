/* special.c - the Fortran entry points tools/gen_fortran.py does not generate:
 * arrays of handles and statuses (their length is another argument), keyval
 * callbacks and attributes (Fortran's calling conventions and INTEGER(KIND=
 * MPI_ADDRESS_KIND) values), MPI_Init's argc/argv, MPI_Pcontrol's varargs;
 * the common blocks of MPI_BOTTOM & co. and the predefined callbacks.
 *
 * User functions of MPI_Op_create and MPI_*_create_errhandler are called by
 * the C library with pointers to C handles (8 bytes); a Fortran callback
 * reads an INTEGER (4 bytes) there. Handle values are below 2^31 (mpi.h's
 * encoding), so on a little-endian machine the first 4 bytes are the
 * Fortran handle: the generated wrappers pass those callbacks unchanged. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "impi_fortran.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "Fortran callbacks read C handles as INTEGER: little-endian only"
#endif
_Static_assert(sizeof(MPI_Fint) == 4, "MPI_Fint is a 4-byte INTEGER");

/* ---- common blocks (zero-initialised storage; only the addresses matter) */
IMPI_F_API MPI_Fint mpi_fortran_bottom_ __attribute__((aligned(16)));
IMPI_F_API MPI_Fint mpi_fortran_in_place_ __attribute__((aligned(16)));
IMPI_F_API MPI_Fint mpi_fortran_st_ign_[MPI_F_STATUS_SIZE] __attribute__((aligned(16)));
IMPI_F_API MPI_Fint mpi_fortran_sts_ign_[MPI_F_STATUS_SIZE] __attribute__((aligned(16)));
IMPI_F_API MPI_Fint mpi_fortran_errcodes_ign_ __attribute__((aligned(16)));
IMPI_F_API char mpi_fortran_argv_null_ __attribute__((aligned(16)));
IMPI_F_API char mpi_fortran_argvs_null_ __attribute__((aligned(16)));
IMPI_F_API MPI_Fint mpi_fortran_unweighted_ __attribute__((aligned(16)));
IMPI_F_API MPI_Fint mpi_fortran_weights_empty_ __attribute__((aligned(16)));

/* pmpi_x_, its weak alias mpi_x_, and impi_fx_mpi_x_ (what mpi_f08 calls). */
#define PROTO(ret, name, args)                                    \
  IMPI_F_API ret p##name##_ args;                                 \
  IMPI_F_API ret name##_ args IMPI_F_ALIAS(p##name##_);           \
  IMPI_F_API ret impi_fx_##name##_ args IMPI_F_ALIAS(p##name##_); \
  ret p##name##_ args

/* ---- MPI_Init, MPI_Init_thread, MPI_Pcontrol */
PROTO(void, mpi_init, (MPI_Fint * ierror)) {
  *ierror = MPI_Init(NULL, NULL);
}
PROTO(void, mpi_init_thread, (const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)) {
  *ierror = MPI_Init_thread(NULL, NULL, *required, provided);
}
PROTO(void, mpi_info_create_env, (MPI_Fint * info, MPI_Fint *ierror)) {
  MPI_Info i = MPI_INFO_NULL;
  *ierror = MPI_Info_create_env(0, NULL, &i);
  *info = IMPI_C2F(i);
}
PROTO(void, mpi_pcontrol, (const MPI_Fint *level, MPI_Fint *ierror)) {
  *ierror = MPI_Pcontrol(*level);
}

/* ---- arrays of requests and statuses */
enum { kStack = 32 };
typedef struct {
  MPI_Request *req;
  MPI_Status *st;
  MPI_Request req_stack[kStack];
  MPI_Status st_stack[kStack];
} ReqArrays;

static int req_arrays_init(ReqArrays *a, int n, const MPI_Fint *freq, const MPI_Fint *fst) {
  size_t m = n > 0 ? (size_t)n : 1;
  a->req = m <= kStack ? a->req_stack : (MPI_Request *)malloc(m * sizeof(MPI_Request));
  a->st = impi_f_status_ignored(fst) ? MPI_STATUSES_IGNORE
          : m <= kStack              ? a->st_stack
                                     : (MPI_Status *)malloc(m * sizeof(MPI_Status));
  if (!a->req || (!impi_f_status_ignored(fst) && !a->st)) return MPI_ERR_NO_MEM;
  for (int i = 0; i < n; ++i) a->req[i] = IMPI_F2C(MPI_Request, freq[i]);
  return MPI_SUCCESS;
}

/* Copies the requests back and the first nst statuses; frees. */
static void req_arrays_done(ReqArrays *a, int n, MPI_Fint *freq, MPI_Fint *fst, int nst) {
  for (int i = 0; i < n; ++i) freq[i] = IMPI_C2F(a->req[i]);
  if (a->st)
    for (int i = 0; i < nst; ++i)
      memcpy(fst + i * MPI_F_STATUS_SIZE, &a->st[i], sizeof(MPI_Status));
  if (a->req != a->req_stack) free(a->req);
  if (a->st && a->st != a->st_stack) free(a->st);
}

PROTO(void, mpi_waitall,
      (const MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *statuses, MPI_Fint *ierror)) {
  ReqArrays a;
  int rc = req_arrays_init(&a, *count, reqs, statuses);
  if (rc == MPI_SUCCESS) rc = MPI_Waitall(*count, a.req, a.st);
  req_arrays_done(&a, *count, reqs, statuses, *count);
  *ierror = rc;
}
PROTO(void, mpi_testall,
      (const MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *flag, MPI_Fint *statuses,
       MPI_Fint *ierror)) {
  ReqArrays a;
  int rc = req_arrays_init(&a, *count, reqs, statuses);
  *flag = 0;
  if (rc == MPI_SUCCESS) rc = MPI_Testall(*count, a.req, flag, a.st);
  req_arrays_done(&a, *count, reqs, statuses, *flag ? *count : 0);
  *ierror = rc;
}
PROTO(void, mpi_waitany,
      (const MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *index, MPI_Fint *status,
       MPI_Fint *ierror)) {
  ReqArrays a;
  int rc = req_arrays_init(&a, *count, reqs, mpi_fortran_sts_ign_);
  MPI_Status c, *pc = impi_f_status_in(status, &c);
  if (rc == MPI_SUCCESS) rc = MPI_Waitany(*count, a.req, index, pc);
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED) ++*index;
  IMPI_F_STATUS_OUT(pc, status);
  req_arrays_done(&a, *count, reqs, NULL, 0);
  *ierror = rc;
}
PROTO(void, mpi_testany,
      (const MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *index, MPI_Fint *flag, MPI_Fint *status,
       MPI_Fint *ierror)) {
  ReqArrays a;
  int rc = req_arrays_init(&a, *count, reqs, mpi_fortran_sts_ign_);
  MPI_Status c, *pc = impi_f_status_in(status, &c);
  if (rc == MPI_SUCCESS) rc = MPI_Testany(*count, a.req, index, flag, pc);
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED) ++*index;
  IMPI_F_STATUS_OUT(pc, status);
  req_arrays_done(&a, *count, reqs, NULL, 0);
  *ierror = rc;
}
static void some(int wait, const MPI_Fint *incount, MPI_Fint *reqs, MPI_Fint *outcount,
                 MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierror) {
  ReqArrays a;
  int rc = req_arrays_init(&a, *incount, reqs, statuses);
  *outcount = 0;
  if (rc == MPI_SUCCESS)
    rc = wait ? MPI_Waitsome(*incount, a.req, outcount, indices, a.st)
              : MPI_Testsome(*incount, a.req, outcount, indices, a.st);
  int n = *outcount == MPI_UNDEFINED ? 0 : *outcount;
  for (int i = 0; i < n; ++i) ++indices[i];
  req_arrays_done(&a, *incount, reqs, statuses, n);
  *ierror = rc;
}
PROTO(void, mpi_waitsome,
      (const MPI_Fint *incount, MPI_Fint *reqs, MPI_Fint *outcount, MPI_Fint *indices,
       MPI_Fint *statuses, MPI_Fint *ierror)) {
  some(1, incount, reqs, outcount, indices, statuses, ierror);
}
PROTO(void, mpi_testsome,
      (const MPI_Fint *incount, MPI_Fint *reqs, MPI_Fint *outcount, MPI_Fint *indices,
       MPI_Fint *statuses, MPI_Fint *ierror)) {
  some(0, incount, reqs, outcount, indices, statuses, ierror);
}
PROTO(void, mpi_startall, (const MPI_Fint *count, MPI_Fint *reqs, MPI_Fint *ierror)) {
  ReqArrays a;
  int rc = req_arrays_init(&a, *count, reqs, mpi_fortran_sts_ign_);
  if (rc == MPI_SUCCESS) rc = MPI_Startall(*count, a.req);
  req_arrays_done(&a, *count, reqs, NULL, 0);
  *ierror = rc;
}

/* MPI-4's MPI_Request_get_status_all/any/some: as Testall/any/some, but the
 * requests stay as they are. */
PROTO(void, mpi_request_get_status_all,
      (const MPI_Fint *count, const MPI_Fint *reqs, MPI_Fint *flag, MPI_Fint *statuses,
       MPI_Fint *ierror)) {
  ReqArrays a = {0};  // (gcc cannot tell that req_arrays_init fills it)
  int rc = req_arrays_init(&a, *count, reqs, statuses);
  *flag = 0;
  if (rc == MPI_SUCCESS) rc = MPI_Request_get_status_all(*count, a.req, flag, a.st);
  req_arrays_done(&a, 0, NULL, statuses, *flag ? *count : 0);
  *ierror = rc;
}
PROTO(void, mpi_request_get_status_any,
      (const MPI_Fint *count, const MPI_Fint *reqs, MPI_Fint *index, MPI_Fint *flag,
       MPI_Fint *status, MPI_Fint *ierror)) {
  ReqArrays a = {0};  // (gcc cannot tell that req_arrays_init fills it)
  int rc = req_arrays_init(&a, *count, reqs, mpi_fortran_sts_ign_);
  MPI_Status c, *pc = impi_f_status_in(status, &c);
  *flag = 0;
  if (rc == MPI_SUCCESS) rc = MPI_Request_get_status_any(*count, a.req, index, flag, pc);
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED) ++*index;
  IMPI_F_STATUS_OUT(pc, status);
  req_arrays_done(&a, 0, NULL, NULL, 0);
  *ierror = rc;
}
PROTO(void, mpi_request_get_status_some,
      (const MPI_Fint *incount, const MPI_Fint *reqs, MPI_Fint *outcount, MPI_Fint *indices,
       MPI_Fint *statuses, MPI_Fint *ierror)) {
  ReqArrays a = {0};  // (gcc cannot tell that req_arrays_init fills it)
  int rc = req_arrays_init(&a, *incount, reqs, statuses);
  *outcount = 0;
  if (rc == MPI_SUCCESS) rc = MPI_Request_get_status_some(*incount, a.req, outcount, indices, a.st);
  int n = *outcount == MPI_UNDEFINED ? 0 : *outcount;
  for (int i = 0; i < n; ++i) ++indices[i];
  req_arrays_done(&a, 0, NULL, statuses, n);
  *ierror = rc;
}

/* ---- arrays of datatypes */
static MPI_Datatype *types_in(const MPI_Fint *f, int n) {
  MPI_Datatype *c = (MPI_Datatype *)malloc((n > 0 ? (size_t)n : 1) * sizeof(MPI_Datatype));
  if (c)
    for (int i = 0; i < n; ++i) c[i] = IMPI_F2C(MPI_Datatype, f[i]);
  return c;
}

/* How many datatypes MPI_Alltoallw's arrays hold: the (remote) group size. */
static int w_counts(MPI_Comm comm, int neighbor, int *nsend, int *nrecv) {
  int rc, inter = 0;
  if (!neighbor) {
    rc = MPI_Comm_test_inter(comm, &inter);
    if (rc != MPI_SUCCESS) return rc;
    rc = inter ? MPI_Comm_remote_size(comm, nsend) : MPI_Comm_size(comm, nsend);
    *nrecv = *nsend;
    return rc;
  }
  int topo;
  rc = MPI_Topo_test(comm, &topo);
  if (rc != MPI_SUCCESS) return rc;
  if (topo == MPI_CART) {
    int nd;
    rc = MPI_Cartdim_get(comm, &nd);
    *nsend = *nrecv = 2 * nd;
  } else if (topo == MPI_GRAPH) {
    int r;
    rc = MPI_Comm_rank(comm, &r);
    if (rc == MPI_SUCCESS) rc = MPI_Graph_neighbors_count(comm, r, nsend);
    *nrecv = *nsend;
  } else if (topo == MPI_DIST_GRAPH) {
    int w;
    rc = MPI_Dist_graph_neighbors_count(comm, nrecv, nsend, &w);
  } else {
    *nsend = *nrecv = 0;  // the C call reports the missing topology
  }
  return rc;
}

/* `info`: the persistent form (MPI_Alltoallw_init, MPI_Neighbor_alltoallw_init). */
static void alltoallw(int neighbor, MPI_Request *req, const void *sendbuf, const MPI_Fint *scounts,
                      const void *sdispls, const MPI_Fint *stypes, void *recvbuf,
                      const MPI_Fint *rcounts, const void *rdispls, const MPI_Fint *rtypes,
                      const MPI_Fint *comm, const MPI_Fint *info, MPI_Fint *ierror) {
  MPI_Comm c = IMPI_F2C(MPI_Comm, *comm);
  int ns = 0, nr = 0;
  int rc = w_counts(c, neighbor, &ns, &nr);
  const void *sb = impi_f_buf(sendbuf);
  MPI_Datatype *st = sb == MPI_IN_PLACE ? NULL : types_in(stypes, ns);
  MPI_Datatype *rt = types_in(rtypes, nr);
  if (rc == MPI_SUCCESS && (!rt || (sb != MPI_IN_PLACE && !st))) rc = MPI_ERR_NO_MEM;
  if (rc == MPI_SUCCESS) {
    if (info && neighbor)
      rc = MPI_Neighbor_alltoallw_init(sb, scounts, (const MPI_Aint *)sdispls, st, recvbuf, rcounts,
                                       (const MPI_Aint *)rdispls, rt, c, IMPI_F2C(MPI_Info, *info),
                                       req);
    else if (info)
      rc = MPI_Alltoallw_init(sb, scounts, (const int *)sdispls, st, recvbuf, rcounts,
                              (const int *)rdispls, rt, c, IMPI_F2C(MPI_Info, *info), req);
    else if (neighbor && req)
      rc = MPI_Ineighbor_alltoallw(sb, scounts, (const MPI_Aint *)sdispls, st, recvbuf, rcounts,
                                   (const MPI_Aint *)rdispls, rt, c, req);
    else if (neighbor)
      rc = MPI_Neighbor_alltoallw(sb, scounts, (const MPI_Aint *)sdispls, st, recvbuf, rcounts,
                                  (const MPI_Aint *)rdispls, rt, c);
    else if (req)
      rc = MPI_Ialltoallw(sb, scounts, (const int *)sdispls, st, recvbuf, rcounts,
                          (const int *)rdispls, rt, c, req);
    else
      rc = MPI_Alltoallw(sb, scounts, (const int *)sdispls, st, recvbuf, rcounts,
                         (const int *)rdispls, rt, c);
  }
  /* The library keeps its own copies of the type arrays of a pending
   * nonblocking call (it does for the C binding's callers too). */
  free(st);
  free(rt);
  *ierror = rc;
}
PROTO(void, mpi_alltoallw,
      (const void *sendbuf, const MPI_Fint *sendcounts, const MPI_Fint *sdispls,
       const MPI_Fint *sendtypes, void *recvbuf, const MPI_Fint *recvcounts,
       const MPI_Fint *rdispls, const MPI_Fint *recvtypes, const MPI_Fint *comm,
       MPI_Fint *ierror)) {
  alltoallw(0, NULL, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
            recvtypes, comm, NULL, ierror);
}
PROTO(void, mpi_ialltoallw,
      (const void *sendbuf, const MPI_Fint *sendcounts, const MPI_Fint *sdispls,
       const MPI_Fint *sendtypes, void *recvbuf, const MPI_Fint *recvcounts,
       const MPI_Fint *rdispls, const MPI_Fint *recvtypes, const MPI_Fint *comm, MPI_Fint *request,
       MPI_Fint *ierror)) {
  MPI_Request r = MPI_REQUEST_NULL;
  alltoallw(0, &r, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
            comm, NULL, ierror);
  *request = IMPI_C2F(r);
}
PROTO(void, mpi_neighbor_alltoallw,
      (const void *sendbuf, const MPI_Fint *sendcounts, const MPI_Aint *sdispls,
       const MPI_Fint *sendtypes, void *recvbuf, const MPI_Fint *recvcounts,
       const MPI_Aint *rdispls, const MPI_Fint *recvtypes, const MPI_Fint *comm,
       MPI_Fint *ierror)) {
  alltoallw(1, NULL, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
            recvtypes, comm, NULL, ierror);
}
PROTO(void, mpi_ineighbor_alltoallw,
      (const void *sendbuf, const MPI_Fint *sendcounts, const MPI_Aint *sdispls,
       const MPI_Fint *sendtypes, void *recvbuf, const MPI_Fint *recvcounts,
       const MPI_Aint *rdispls, const MPI_Fint *recvtypes, const MPI_Fint *comm, MPI_Fint *request,
       MPI_Fint *ierror)) {
  MPI_Request r = MPI_REQUEST_NULL;
  alltoallw(1, &r, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
            comm, NULL, ierror);
  *request = IMPI_C2F(r);
}
PROTO(void, mpi_alltoallw_init,
      (const void *sendbuf, const MPI_Fint *sendcounts, const MPI_Fint *sdispls,
       const MPI_Fint *sendtypes, void *recvbuf, const MPI_Fint *recvcounts,
       const MPI_Fint *rdispls, const MPI_Fint *recvtypes, const MPI_Fint *comm,
       const MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierror)) {
  MPI_Request r = MPI_REQUEST_NULL;
  alltoallw(0, &r, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
            comm, info, ierror);
  *request = IMPI_C2F(r);
}
PROTO(void, mpi_neighbor_alltoallw_init,
      (const void *sendbuf, const MPI_Fint *sendcounts, const MPI_Aint *sdispls,
       const MPI_Fint *sendtypes, void *recvbuf, const MPI_Fint *recvcounts,
       const MPI_Aint *rdispls, const MPI_Fint *recvtypes, const MPI_Fint *comm,
       const MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierror)) {
  MPI_Request r = MPI_REQUEST_NULL;
  alltoallw(1, &r, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
            comm, info, ierror);
  *request = IMPI_C2F(r);
}

PROTO(void, mpi_type_create_struct,
      (const MPI_Fint *count, const MPI_Fint *blocklengths, const MPI_Aint *displacements,
       const MPI_Fint *types, MPI_Fint *newtype, MPI_Fint *ierror)) {
  MPI_Datatype *t = types_in(types, *count), nt = MPI_DATATYPE_NULL;
  int rc = t ? MPI_Type_create_struct(*count, blocklengths, displacements, t, &nt) : MPI_ERR_NO_MEM;
  free(t);
  *newtype = IMPI_C2F(nt);
  *ierror = rc;
}
PROTO(void, mpi_type_get_contents,
      (const MPI_Fint *datatype, const MPI_Fint *max_integers, const MPI_Fint *max_addresses,
       const MPI_Fint *max_datatypes, MPI_Fint *integers, MPI_Aint *addresses, MPI_Fint *types,
       MPI_Fint *ierror)) {
  int n = *max_datatypes;
  MPI_Datatype *t = (MPI_Datatype *)calloc(n > 0 ? (size_t)n : 1, sizeof(MPI_Datatype));
  int rc = t ? MPI_Type_get_contents(IMPI_F2C(MPI_Datatype, *datatype), *max_integers,
                                     *max_addresses, n, integers, addresses, t)
             : MPI_ERR_NO_MEM;
  if (rc == MPI_SUCCESS)
    for (int i = 0; i < n; ++i) types[i] = IMPI_C2F(t[i]);
  free(t);
  *ierror = rc;
}

/* ---- MPI-1's routines with INTEGER addresses (removed by MPI-3.0; MPICH and
 * Open MPI keep them with MPI-1's Fortran arguments): converted to and from
 * MPI_Aint. A value that does not fit in an INTEGER is an error (MPI_ERR_ARG
 * through MPI_COMM_WORLD's handler), never a truncated address. */
static int fint_of(MPI_Aint a, MPI_Fint *f, const char *fn) {
  *f = (MPI_Fint)a;
  if ((MPI_Aint)*f == a) return MPI_SUCCESS;
  fprintf(stderr, "impi: %s: %ld does not fit in a Fortran INTEGER (use the MPI-2 routine)\n", fn,
          (long)a);
  MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_ARG);
  return MPI_ERR_ARG;
}
static MPI_Aint *aints_in(const MPI_Fint *f, int n) {
  MPI_Aint *a = (MPI_Aint *)malloc((n > 0 ? (size_t)n : 1) * sizeof(MPI_Aint));
  if (a)
    for (int i = 0; i < n; ++i) a[i] = f[i];
  return a;
}
PROTO(void, mpi_address, (void *location, MPI_Fint *address, MPI_Fint *ierror)) {
  MPI_Aint a = 0;
  int rc = MPI_Get_address(impi_f_buf(location), &a);
  *ierror = rc == MPI_SUCCESS ? fint_of(a, address, "MPI_ADDRESS") : rc;
}
PROTO(void, mpi_type_extent, (const MPI_Fint *type, MPI_Fint *extent, MPI_Fint *ierror)) {
  MPI_Aint lb = 0, e = 0;
  int rc = MPI_Type_get_extent(IMPI_F2C(MPI_Datatype, *type), &lb, &e);
  *ierror = rc == MPI_SUCCESS ? fint_of(e, extent, "MPI_TYPE_EXTENT") : rc;
}
PROTO(void, mpi_type_lb, (const MPI_Fint *type, MPI_Fint *displacement, MPI_Fint *ierror)) {
  MPI_Aint lb = 0, e = 0;
  int rc = MPI_Type_get_extent(IMPI_F2C(MPI_Datatype, *type), &lb, &e);
  *ierror = rc == MPI_SUCCESS ? fint_of(lb, displacement, "MPI_TYPE_LB") : rc;
}
PROTO(void, mpi_type_ub, (const MPI_Fint *type, MPI_Fint *displacement, MPI_Fint *ierror)) {
  MPI_Aint lb = 0, e = 0;
  int rc = MPI_Type_get_extent(IMPI_F2C(MPI_Datatype, *type), &lb, &e);
  *ierror = rc == MPI_SUCCESS ? fint_of(lb + e, displacement, "MPI_TYPE_UB") : rc;
}
PROTO(void, mpi_type_hvector,
      (const MPI_Fint *count, const MPI_Fint *blocklength, const MPI_Fint *stride,
       const MPI_Fint *oldtype, MPI_Fint *newtype, MPI_Fint *ierror)) {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  *ierror = MPI_Type_create_hvector(*count, *blocklength, (MPI_Aint)*stride,
                                    IMPI_F2C(MPI_Datatype, *oldtype), &t);
  *newtype = IMPI_C2F(t);
}
PROTO(void, mpi_type_hindexed,
      (const MPI_Fint *count, const MPI_Fint *blocklengths, const MPI_Fint *displacements,
       const MPI_Fint *oldtype, MPI_Fint *newtype, MPI_Fint *ierror)) {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  MPI_Aint *d = aints_in(displacements, *count);
  *ierror =
      d ? MPI_Type_create_hindexed(*count, blocklengths, d, IMPI_F2C(MPI_Datatype, *oldtype), &t)
        : MPI_ERR_NO_MEM;
  free(d);
  *newtype = IMPI_C2F(t);
}
PROTO(void, mpi_type_struct,
      (const MPI_Fint *count, const MPI_Fint *blocklengths, const MPI_Fint *displacements,
       const MPI_Fint *types, MPI_Fint *newtype, MPI_Fint *ierror)) {
  MPI_Datatype t = MPI_DATATYPE_NULL, *ct = types_in(types, *count);
  MPI_Aint *d = aints_in(displacements, *count);
  *ierror = d && ct ? MPI_Type_create_struct(*count, blocklengths, d, ct, &t) : MPI_ERR_NO_MEM;
  free(d);
  free(ct);
  *newtype = IMPI_C2F(t);
}

/* ---- MPI_Info_get_string (MPI-4.1 10): in Fortran, buflen is the value's
 * length without a terminator, and at most buflen characters are stored,
 * blank-padded (none when buflen is 0). */
PROTO(void, mpi_info_get_string,
      (const MPI_Fint *info, const char *key, MPI_Fint *buflen, char *value, MPI_Fint *flag,
       MPI_Fint *ierror, size_t key_len, size_t value_len)) {
  MPI_Info i = IMPI_F2C(MPI_Info, *info);
  char *k = impi_f2c_string(key, key_len), probe = 0;
  int need = 0, f = 0, rc = k ? MPI_Info_get_string(i, k, &need, &probe, &f) : MPI_ERR_NO_MEM;
  *flag = 0;
  if (rc == MPI_SUCCESS && f) {
    char *c = (char *)calloc((size_t)need + 1, 1);
    int n = need;
    rc = c ? MPI_Info_get_string(i, k, &n, c, &f) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && f) {
      size_t len = strlen(c), m = *buflen > 0 ? (size_t)*buflen : 0;
      if (m > value_len) m = value_len;
      if (m > len) m = len;
      if (*buflen > 0) {
        memcpy(value, c, m);
        memset(value + m, ' ', value_len - m);
      }
      *buflen = (MPI_Fint)len;
      *flag = 1;
    }
    free(c);
  }
  free(k);
  *ierror = rc;
}

/* ---- keyvals: C callbacks calling the Fortran ones (MPI-3.1 17.2.7) */
typedef void (*FCopy)(const MPI_Fint *, const MPI_Fint *, const MPI_Aint *, const MPI_Aint *,
                      MPI_Aint *, MPI_Fint *, MPI_Fint *);
typedef void (*FDelete)(const MPI_Fint *, const MPI_Fint *, const MPI_Aint *, const MPI_Aint *,
                        MPI_Fint *);
typedef void (*FCopyOld)(const MPI_Fint *, const MPI_Fint *, const MPI_Fint *, const MPI_Fint *,
                         MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void (*FDeleteOld)(const MPI_Fint *, const MPI_Fint *, const MPI_Fint *, const MPI_Fint *,
                           MPI_Fint *);
/* One per Fortran keyval, the C keyval's extra_state. Kept for the life of
 * the process, on a list (attributes may outlive MPI_*_free_keyval, and
 * their delete callbacks need the record): a few bytes per keyval. */
typedef struct FKeyval {
  void (*copy)(void);
  void (*del)(void);
  MPI_Aint extra_state;
  int old;  // MPI_KEYVAL_CREATE: INTEGER values and extra_state
  struct FKeyval *next;
} FKeyval;
static FKeyval *g_fkeyvals;

/* ---- Fortran-set attribute values (MPI-3.1 17.2.7; Open MPI's table):
 * an attribute Fortran sets is stored in a cell the C attribute points to,
 * so C reads "a pointer to the value"; Fortran reads a cell's value, and a
 * C-set attribute as its address. The cells are registered so that any C
 * attribute value can be told from one without dereferencing it. A cell is
 * freed when the attribute is deleted through a Fortran keyval's delete
 * callback (or replaced there); one set with a C keyval stays. */
typedef struct FCell {
  MPI_Aint value;
  struct FCell *next;
} FCell;
enum { kCellBuckets = 1024 };
static FCell *g_cells[kCellBuckets];
static pthread_mutex_t g_cells_mu = PTHREAD_MUTEX_INITIALIZER;

static size_t cell_bucket(const void *p) {
  return ((uintptr_t)p >> 4) % kCellBuckets;
}
static FCell *cell_new(MPI_Aint value) {
  FCell *c = (FCell *)malloc(sizeof *c);
  if (!c) return NULL;
  c->value = value;
  pthread_mutex_lock(&g_cells_mu);
  c->next = g_cells[cell_bucket(c)];
  g_cells[cell_bucket(c)] = c;
  pthread_mutex_unlock(&g_cells_mu);
  return c;
}
/* The cell at p, or NULL if p is not one (p is never dereferenced). */
static FCell *cell_find(const void *p) {
  pthread_mutex_lock(&g_cells_mu);
  FCell *c = g_cells[cell_bucket(p)];
  while (c && (const void *)c != p) c = c->next;
  pthread_mutex_unlock(&g_cells_mu);
  return c;
}
static void cell_free(FCell *c) {
  pthread_mutex_lock(&g_cells_mu);
  FCell **pp = &g_cells[cell_bucket(c)];
  while (*pp && *pp != c) pp = &(*pp)->next;
  if (*pp) *pp = c->next;
  pthread_mutex_unlock(&g_cells_mu);
  free(c);
}
/* A C attribute value as Fortran sees it: a cell's value, else the address. */
static MPI_Aint fortran_value(void *v) {
  FCell *c = cell_find(v);
  return c ? c->value : (MPI_Aint)(intptr_t)v;
}

static int f_copy(MPI_Fint h, int keyval, FKeyval *k, void *in, void *out, int *flag) {
  MPI_Fint fk = keyval, fflag = 0, ierr = MPI_SUCCESS;
  MPI_Aint vin = fortran_value(in), vout = 0;
  if (k->old) {
    MPI_Fint es = (MPI_Fint)k->extra_state, fin = (MPI_Fint)vin, fout = 0;
    ((FCopyOld)k->copy)(&h, &fk, &es, &fin, &fout, &fflag, &ierr);
    vout = fout;
  } else {
    ((FCopy)k->copy)(&h, &fk, &k->extra_state, &vin, &vout, &fflag, &ierr);
  }
  *flag = fflag != 0;
  if (*flag) {
    FCell *c = cell_new(vout);
    if (!c) return MPI_ERR_NO_MEM;
    *(void **)out = c;
  }
  return ierr;
}
static int f_delete(MPI_Fint h, int keyval, FKeyval *k, void *val) {
  MPI_Fint fk = keyval, ierr = MPI_SUCCESS;
  FCell *c = cell_find(val);
  MPI_Aint v = c ? c->value : (MPI_Aint)(intptr_t)val;
  if (k->old) {
    MPI_Fint es = (MPI_Fint)k->extra_state, fv = (MPI_Fint)v;
    ((FDeleteOld)k->del)(&h, &fk, &fv, &es, &ierr);
  } else {
    ((FDelete)k->del)(&h, &fk, &v, &k->extra_state, &ierr);
  }
  if (c && ierr == MPI_SUCCESS) cell_free(c);
  return ierr;
}
#define TRAMPOLINES(T, t)                                                              \
  static int f_##t##_copy(T h, int keyval, void *es, void *in, void *out, int *flag) { \
    return f_copy(IMPI_C2F(h), keyval, (FKeyval *)es, in, out, flag);                  \
  }                                                                                    \
  static int f_##t##_delete(T h, int keyval, void *val, void *es) {                    \
    return f_delete(IMPI_C2F(h), keyval, (FKeyval *)es, val);                          \
  }
TRAMPOLINES(MPI_Comm, comm)
TRAMPOLINES(MPI_Datatype, type)
TRAMPOLINES(MPI_Win, win)

static FKeyval *new_fkeyval(void (*copy)(void), void (*del)(void), MPI_Aint es, int old) {
  FKeyval *k = (FKeyval *)malloc(sizeof *k);
  if (!k) return NULL;
  *k = (FKeyval){copy, del, es, old, __atomic_load_n(&g_fkeyvals, __ATOMIC_RELAXED)};
  while (!__atomic_compare_exchange_n(&g_fkeyvals, &k->next, k, 1, __ATOMIC_RELEASE,
                                      __ATOMIC_RELAXED)) {
  }
  return k;
}

PROTO(void, mpi_comm_create_keyval,
      (void (*copy)(void), void (*del)(void), MPI_Fint *keyval, const MPI_Aint *extra_state,
       MPI_Fint *ierror)) {
  FKeyval *k = new_fkeyval(copy, del, *extra_state, 0);
  *ierror = k ? MPI_Comm_create_keyval(f_comm_copy, f_comm_delete, keyval, k) : MPI_ERR_NO_MEM;
}
PROTO(void, mpi_keyval_create,
      (void (*copy)(void), void (*del)(void), MPI_Fint *keyval, const MPI_Fint *extra_state,
       MPI_Fint *ierror)) {
  FKeyval *k = new_fkeyval(copy, del, *extra_state, 1);
  *ierror = k ? MPI_Comm_create_keyval(f_comm_copy, f_comm_delete, keyval, k) : MPI_ERR_NO_MEM;
}
PROTO(void, mpi_type_create_keyval,
      (void (*copy)(void), void (*del)(void), MPI_Fint *keyval, const MPI_Aint *extra_state,
       MPI_Fint *ierror)) {
  FKeyval *k = new_fkeyval(copy, del, *extra_state, 0);
  *ierror = k ? MPI_Type_create_keyval(f_type_copy, f_type_delete, keyval, k) : MPI_ERR_NO_MEM;
}
PROTO(void, mpi_win_create_keyval,
      (void (*copy)(void), void (*del)(void), MPI_Fint *keyval, const MPI_Aint *extra_state,
       MPI_Fint *ierror)) {
  FKeyval *k = new_fkeyval(copy, del, *extra_state, 0);
  *ierror = k ? MPI_Win_create_keyval(f_win_copy, f_win_delete, keyval, k) : MPI_ERR_NO_MEM;
}

/* ---- attributes: the predefined ones (pointers to the library's values in
 * C) read as their values; see the cells above for the others. */
static MPI_Aint attr_value(int keyval, void *v, int win) {
  if (!win && keyval >= MPI_TAG_UB && keyval <= IMPI_HOST_COLOR) return *(int *)v;
  if (win && keyval == MPI_WIN_SIZE) return *(MPI_Aint *)v;
  if (win &&
      (keyval == MPI_WIN_DISP_UNIT || keyval == MPI_WIN_CREATE_FLAVOR || keyval == MPI_WIN_MODEL))
    return *(int *)v;
  if (win && keyval == MPI_WIN_BASE) return (MPI_Aint)(intptr_t)v;  // the address itself
  return fortran_value(v);
}
PROTO(void, mpi_comm_get_attr,
      (const MPI_Fint *comm, const MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag,
       MPI_Fint *ierror)) {
  void *v = NULL;
  *flag = 0;
  *ierror = MPI_Comm_get_attr(IMPI_F2C(MPI_Comm, *comm), *keyval, &v, flag);
  if (*ierror == MPI_SUCCESS && *flag) *value = attr_value(*keyval, v, 0);
}
PROTO(void, mpi_attr_get,
      (const MPI_Fint *comm, const MPI_Fint *keyval, MPI_Fint *value, MPI_Fint *flag,
       MPI_Fint *ierror)) {
  void *v = NULL;
  *flag = 0;
  *ierror = MPI_Comm_get_attr(IMPI_F2C(MPI_Comm, *comm), *keyval, &v, flag);
  if (*ierror == MPI_SUCCESS && *flag) *value = (MPI_Fint)attr_value(*keyval, v, 0);
}
PROTO(void, mpi_type_get_attr,
      (const MPI_Fint *type, const MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag,
       MPI_Fint *ierror)) {
  void *v = NULL;
  *flag = 0;
  *ierror = MPI_Type_get_attr(IMPI_F2C(MPI_Datatype, *type), *keyval, &v, flag);
  if (*ierror == MPI_SUCCESS && *flag) *value = fortran_value(v);
}
PROTO(void, mpi_win_get_attr,
      (const MPI_Fint *win, const MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag,
       MPI_Fint *ierror)) {
  void *v = NULL;
  *flag = 0;
  *ierror = MPI_Win_get_attr(IMPI_F2C(MPI_Win, *win), *keyval, &v, flag);
  if (*ierror == MPI_SUCCESS && *flag) *value = attr_value(*keyval, v, 1);
}
/* Sets a cell holding `value` with set(); frees it if that fails. */
#define SET_CELL(call)                             \
  do {                                             \
    FCell *c = cell_new(value);                    \
    *ierror = c ? (call) : MPI_ERR_NO_MEM;         \
    if (c && *ierror != MPI_SUCCESS) cell_free(c); \
  } while (0)
PROTO(void, mpi_comm_set_attr,
      (const MPI_Fint *comm, const MPI_Fint *keyval, const MPI_Aint *fvalue, MPI_Fint *ierror)) {
  MPI_Aint value = *fvalue;
  SET_CELL(MPI_Comm_set_attr(IMPI_F2C(MPI_Comm, *comm), *keyval, c));
}
PROTO(void, mpi_attr_put,
      (const MPI_Fint *comm, const MPI_Fint *keyval, const MPI_Fint *fvalue, MPI_Fint *ierror)) {
  MPI_Aint value = *fvalue;  // sign-extended, as Open MPI does
  SET_CELL(MPI_Comm_set_attr(IMPI_F2C(MPI_Comm, *comm), *keyval, c));
}
PROTO(void, mpi_type_set_attr,
      (const MPI_Fint *type, const MPI_Fint *keyval, const MPI_Aint *fvalue, MPI_Fint *ierror)) {
  MPI_Aint value = *fvalue;
  SET_CELL(MPI_Type_set_attr(IMPI_F2C(MPI_Datatype, *type), *keyval, c));
}
PROTO(void, mpi_win_set_attr,
      (const MPI_Fint *win, const MPI_Fint *keyval, const MPI_Aint *fvalue, MPI_Fint *ierror)) {
  MPI_Aint value = *fvalue;
  SET_CELL(MPI_Win_set_attr(IMPI_F2C(MPI_Win, *win), *keyval, c));
}

/* ---- predefined Fortran attribute callbacks (MPI_COMM_NULL_COPY_FN ...) */
#define NULL_COPY(name)                                                                       \
  IMPI_F_API void name(const MPI_Fint *h, const MPI_Fint *k, const MPI_Aint *es,              \
                       const MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierror) { \
    (void)h, (void)k, (void)es, (void)in, (void)out;                                          \
    *flag = 0;                                                                                \
    *ierror = MPI_SUCCESS;                                                                    \
  }
#define DUP(name)                                                                             \
  IMPI_F_API void name(const MPI_Fint *h, const MPI_Fint *k, const MPI_Aint *es,              \
                       const MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierror) { \
    (void)h, (void)k, (void)es;                                                               \
    *out = *in;                                                                               \
    *flag = 1;                                                                                \
    *ierror = MPI_SUCCESS;                                                                    \
  }
#define NULL_DELETE(name)                                                       \
  IMPI_F_API void name(const MPI_Fint *h, const MPI_Fint *k, const MPI_Aint *v, \
                       const MPI_Aint *es, MPI_Fint *ierror) {                  \
    (void)h, (void)k, (void)v, (void)es;                                        \
    *ierror = MPI_SUCCESS;                                                      \
  }
NULL_COPY(mpi_comm_null_copy_fn_)
NULL_COPY(mpi_type_null_copy_fn_)
NULL_COPY(mpi_win_null_copy_fn_)
DUP(mpi_comm_dup_fn_)
DUP(mpi_type_dup_fn_)
DUP(mpi_win_dup_fn_)
NULL_DELETE(mpi_comm_null_delete_fn_)
NULL_DELETE(mpi_type_null_delete_fn_)
NULL_DELETE(mpi_win_null_delete_fn_)
/* MPI_KEYVAL_CREATE's (INTEGER values). */
IMPI_F_API void mpi_null_copy_fn_(const MPI_Fint *h, const MPI_Fint *k, const MPI_Fint *es,
                                  const MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag,
                                  MPI_Fint *ierror) {
  (void)h, (void)k, (void)es, (void)in, (void)out;
  *flag = 0;
  *ierror = MPI_SUCCESS;
}
IMPI_F_API void mpi_dup_fn_(const MPI_Fint *h, const MPI_Fint *k, const MPI_Fint *es,
                            const MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierror) {
  (void)h, (void)k, (void)es;
  *out = *in;
  *flag = 1;
  *ierror = MPI_SUCCESS;
}
IMPI_F_API void mpi_null_delete_fn_(const MPI_Fint *h, const MPI_Fint *k, const MPI_Fint *v,
                                    const MPI_Fint *es, MPI_Fint *ierror) {
  (void)h, (void)k, (void)v, (void)es;
  *ierror = MPI_SUCCESS;
}

/* ---- MPI_F_SYNC_REG: does nothing, in a place the compiler cannot see. */
PROTO(void, mpi_f_sync_reg, (void *buf)) {
  (void)buf;
}

/* ---- generalized requests: C callbacks calling the Fortran ones */
typedef void (*FQuery)(const MPI_Aint *, MPI_Fint *, MPI_Fint *);
typedef void (*FFree)(const MPI_Aint *, MPI_Fint *);
typedef void (*FCancel)(const MPI_Aint *, const MPI_Fint *, MPI_Fint *);
typedef struct {
  FQuery query;
  FFree free;
  FCancel cancel;
  /* The program's own variable, as MPICH and Open MPI pass it: the
   * callbacks may update it (MPICH's f77/pt2pt/greqf relies on that). */
  MPI_Aint *extra_state;
} FGrequest;

static int f_grequest_query(void *es, MPI_Status *status) {
  FGrequest *g = (FGrequest *)es;
  MPI_Fint f[MPI_F_STATUS_SIZE], ierr = MPI_SUCCESS;
  memcpy(f, status, sizeof f);
  g->query(g->extra_state, f, &ierr);
  memcpy(status, f, sizeof f);
  return ierr;
}
static int f_grequest_free(void *es) {
  FGrequest *g = (FGrequest *)es;
  MPI_Fint ierr = MPI_SUCCESS;
  g->free(g->extra_state, &ierr);
  free(g);  // the free function is the request's last callback
  return ierr;
}
static int f_grequest_cancel(void *es, int complete) {
  FGrequest *g = (FGrequest *)es;
  MPI_Fint c = complete != 0, ierr = MPI_SUCCESS;
  g->cancel(g->extra_state, &c, &ierr);
  return ierr;
}
PROTO(void, mpi_grequest_start,
      (void (*query)(void), void (*free_fn)(void), void (*cancel)(void), MPI_Aint *extra_state,
       MPI_Fint *request, MPI_Fint *ierror)) {
  FGrequest *g = (FGrequest *)malloc(sizeof *g);
  MPI_Request r = MPI_REQUEST_NULL;
  if (!g) {
    *ierror = MPI_ERR_NO_MEM;
    return;
  }
  *g = (FGrequest){(FQuery)query, (FFree)free_fn, (FCancel)cancel, extra_state};
  *ierror = MPI_Grequest_start(f_grequest_query, f_grequest_free, f_grequest_cancel, g, &r);
  if (*ierror != MPI_SUCCESS) free(g);
  *request = IMPI_C2F(r);
}

/* ---- MPI_Register_datarep: C callbacks calling the Fortran ones. mpif.h's
 * conversion function takes its buffers as arrays (by reference), mpi_f08's
 * as TYPE(C_PTR), VALUE: both receive the address. The other arguments go by
 * reference; extra_state is a copy kept with the representation (which
 * lives until MPI_Finalize: it cannot be unregistered). */
typedef void (*FConversion)(void *, const MPI_Fint *, const MPI_Fint *, void *, const MPI_Offset *,
                            const MPI_Aint *, MPI_Fint *);
typedef void (*FExtent)(const MPI_Fint *, MPI_Aint *, const MPI_Aint *, MPI_Fint *);
typedef struct {
  FConversion read, write;
  FExtent extent;
  MPI_Aint extra_state;
} FDatarep;

/* MPI_CONVERSION_FN_NULL: only its address matters (the wrapper passes
 * MPI-IO a NULL conversion function for it). */
IMPI_F_API void mpi_conversion_fn_null_(void *userbuf, const MPI_Fint *type, const MPI_Fint *count,
                                        void *filebuf, const MPI_Offset *position,
                                        const MPI_Aint *es, MPI_Fint *ierror) {
  (void)userbuf, (void)type, (void)count, (void)filebuf, (void)position, (void)es;
  *ierror = MPI_ERR_CONVERSION;
}

static int f_datarep_convert(FConversion fn, void *userbuf, MPI_Datatype type, int count,
                             void *filebuf, MPI_Offset position, FDatarep *d) {
  MPI_Fint ft = IMPI_C2F(type), fc = count, ierr = MPI_SUCCESS;
  fn(userbuf, &ft, &fc, filebuf, &position, &d->extra_state, &ierr);
  return ierr;
}
static int f_datarep_read(void *userbuf, MPI_Datatype type, int count, void *filebuf,
                          MPI_Offset position, void *es) {
  FDatarep *d = (FDatarep *)es;
  return f_datarep_convert(d->read, userbuf, type, count, filebuf, position, d);
}
static int f_datarep_write(void *userbuf, MPI_Datatype type, int count, void *filebuf,
                           MPI_Offset position, void *es) {
  FDatarep *d = (FDatarep *)es;
  return f_datarep_convert(d->write, userbuf, type, count, filebuf, position, d);
}
static int f_datarep_extent(MPI_Datatype type, MPI_Aint *extent, void *es) {
  FDatarep *d = (FDatarep *)es;
  MPI_Fint ft = IMPI_C2F(type), ierr = MPI_SUCCESS;
  MPI_Aint e = 0;
  d->extent(&ft, &e, &d->extra_state, &ierr);
  *extent = e;
  return ierr;
}
PROTO(void, mpi_register_datarep,
      (const char *datarep, void (*read_fn)(void), void (*write_fn)(void), void (*extent_fn)(void),
       const MPI_Aint *extra_state, MPI_Fint *ierror, size_t datarep_len)) {
  void (*null_fn)(void) = (void (*)(void))mpi_conversion_fn_null_;
  char *name = impi_f2c_string(datarep, datarep_len);
  FDatarep *d = (FDatarep *)malloc(sizeof *d);
  if (!name || !d) {
    free(name);
    free(d);
    *ierror = MPI_ERR_NO_MEM;
    return;
  }
  *d = (FDatarep){read_fn == null_fn ? NULL : (FConversion)read_fn,
                  write_fn == null_fn ? NULL : (FConversion)write_fn, (FExtent)extent_fn,
                  *extra_state};
  *ierror = MPI_Register_datarep(name, d->read ? f_datarep_read : MPI_CONVERSION_FN_NULL,
                                 d->write ? f_datarep_write : MPI_CONVERSION_FN_NULL,
                                 extent_fn ? f_datarep_extent : NULL, d);
  if (*ierror != MPI_SUCCESS) free(d);
  free(name);
}

/* ---- spawn: CHARACTER arrays ended by a blank entry -> NULL-terminated argv */
static void free_argv(char **argv) {
  if (!argv) return;
  for (char **a = argv; *a; ++a) free(*a);
  free(argv);
}
/* Entries at f, f + stride, ... (each len characters) up to the first blank
 * one, without trailing blanks; leading blanks are dropped too unless `keep`
 * (MPICH's f77/f90 tests expect " Ss" to arrive as "Ss", its f08 ones as
 * " Ss": mpif.h and `use mpi` drop them, as Open MPI does, mpi_f08 keeps
 * them). */
static char **f2c_argv(const char *f, size_t len, size_t stride, int keep) {
  size_t n = 0;
  for (;; ++n) {
    const char *e = f + n * stride;
    size_t k = 0;
    while (k < len && e[k] == ' ') ++k;
    if (k == len) break;
  }
  char **argv = (char **)calloc(n + 1, sizeof(char *));
  if (!argv) return NULL;
  for (size_t i = 0; i < n; ++i)
    if (!(argv[i] = keep ? impi_f2c_string_keep_leading(f + i * stride, len)
                         : impi_f2c_string(f + i * stride, len))) {
      free_argv(argv);
      return NULL;
    }
  return argv;
}

static void spawn(int keep, const char *command, const char *argv, const MPI_Fint *maxprocs,
                  const MPI_Fint *info, const MPI_Fint *root, const MPI_Fint *comm,
                  MPI_Fint *intercomm, MPI_Fint *errcodes, MPI_Fint *ierror, size_t command_len,
                  size_t argv_len) {
  char *cmd = impi_f2c_string(command, command_len);
  char **cargv =
      argv == &mpi_fortran_argv_null_ ? MPI_ARGV_NULL : f2c_argv(argv, argv_len, argv_len, keep);
  MPI_Comm ic = MPI_COMM_NULL;
  if (!cmd || (argv != &mpi_fortran_argv_null_ && !cargv))
    *ierror = MPI_ERR_NO_MEM;
  else
    *ierror = MPI_Comm_spawn(cmd, cargv, *maxprocs, IMPI_F2C(MPI_Info, *info), *root,
                             IMPI_F2C(MPI_Comm, *comm), &ic, impi_f_ints(errcodes));
  *intercomm = IMPI_C2F(ic);
  free(cmd);
  free_argv(cargv);
}

static void spawn_multiple(int keep, const MPI_Fint *count, const char *commands, const char *argvs,
                           const MPI_Fint *maxprocs, const MPI_Fint *infos, const MPI_Fint *root,
                           const MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes,
                           MPI_Fint *ierror, size_t commands_len, size_t argvs_len) {
  int n = *count > 0 ? *count : 0, rc = MPI_SUCCESS;
  char **cmds = (char **)calloc((size_t)n + 1, sizeof(char *));
  char ***cargvs = argvs == &mpi_fortran_argvs_null_
                       ? MPI_ARGVS_NULL
                       : (char ***)calloc((size_t)n + 1, sizeof(char **));
  MPI_Info *cinfos = (MPI_Info *)calloc((size_t)n + 1, sizeof(MPI_Info));
  MPI_Comm ic = MPI_COMM_NULL;
  if (!cmds || !cinfos || (argvs != &mpi_fortran_argvs_null_ && !cargvs)) rc = MPI_ERR_NO_MEM;
  for (int i = 0; rc == MPI_SUCCESS && i < n; ++i) {
    cmds[i] = impi_f2c_string(commands + (size_t)i * commands_len, commands_len);
    cinfos[i] = IMPI_F2C(MPI_Info, infos[i]);
    /* array_of_argv(count, *): command i's arguments are row i. */
    if (cargvs)
      cargvs[i] = f2c_argv(argvs + (size_t)i * argvs_len, argvs_len, (size_t)n * argvs_len, keep);
    if (!cmds[i] || (cargvs && !cargvs[i])) rc = MPI_ERR_NO_MEM;
  }
  if (rc == MPI_SUCCESS)
    rc = MPI_Comm_spawn_multiple(n, cmds, cargvs, maxprocs, cinfos, *root,
                                 IMPI_F2C(MPI_Comm, *comm), &ic, impi_f_ints(errcodes));
  for (int i = 0; i < n; ++i) {
    if (cmds) free(cmds[i]);
    if (cargvs) free_argv(cargvs[i]);
  }
  free(cmds);
  free(cargvs);
  free(cinfos);
  *intercomm = IMPI_C2F(ic);
  *ierror = rc;
}

/* mpif.h / use mpi entry points (pmpi_, mpi_) and mpi_f08's (impi_fx_): see f2c_argv. */
#define SPAWN_ARGS                                                                        \
  (const char *command, const char *argv, const MPI_Fint *maxprocs, const MPI_Fint *info, \
   const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *intercomm, MPI_Fint *errcodes,   \
   MPI_Fint *ierror, size_t command_len, size_t argv_len)
#define SPAWN_CALL(keep)                                                                           \
  spawn(keep, command, argv, maxprocs, info, root, comm, intercomm, errcodes, ierror, command_len, \
        argv_len)
#define SPAWN_MULTIPLE_ARGS                                                                  \
  (const MPI_Fint *count, const char *commands, const char *argvs, const MPI_Fint *maxprocs, \
   const MPI_Fint *infos, const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *intercomm,   \
   MPI_Fint *errcodes, MPI_Fint *ierror, size_t commands_len, size_t argvs_len)
#define SPAWN_MULTIPLE_CALL(keep)                                                                \
  spawn_multiple(keep, count, commands, argvs, maxprocs, infos, root, comm, intercomm, errcodes, \
                 ierror, commands_len, argvs_len)
IMPI_F_API void pmpi_comm_spawn_ SPAWN_ARGS;
IMPI_F_API void mpi_comm_spawn_ SPAWN_ARGS IMPI_F_ALIAS(pmpi_comm_spawn_);
IMPI_F_API void impi_fx_mpi_comm_spawn_ SPAWN_ARGS;
void pmpi_comm_spawn_ SPAWN_ARGS {
  SPAWN_CALL(0);
}
void impi_fx_mpi_comm_spawn_ SPAWN_ARGS {
  SPAWN_CALL(1);
}
IMPI_F_API void pmpi_comm_spawn_multiple_ SPAWN_MULTIPLE_ARGS;
IMPI_F_API void mpi_comm_spawn_multiple_ SPAWN_MULTIPLE_ARGS
    IMPI_F_ALIAS(pmpi_comm_spawn_multiple_);
IMPI_F_API void impi_fx_mpi_comm_spawn_multiple_ SPAWN_MULTIPLE_ARGS;
void pmpi_comm_spawn_multiple_ SPAWN_MULTIPLE_ARGS {
  SPAWN_MULTIPLE_CALL(0);
}
void impi_fx_mpi_comm_spawn_multiple_ SPAWN_MULTIPLE_ARGS {
  SPAWN_MULTIPLE_CALL(1);
}
