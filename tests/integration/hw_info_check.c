/* MPI-4.1's MPI_Get_hw_resource_info against hwloc: one key per hwloc
 * object type of this machine (and "mpi_shared_memory"), each the number of
 * instances the process may run on now; and MPI_COMM_TYPE_HW_GUIDED with
 * each key: the procs restricted to one instance split by it (all members
 * of a part on the same instance and host), the others get MPI_COMM_NULL. */
#include <hwloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, rank, size;
#define CHECK(c, ...)                                    \
  do {                                                   \
    if (!(c)) {                                          \
      fprintf(stderr, "rank %d: ", rank);                \
      fprintf(stderr, __VA_ARGS__);                      \
      fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__); \
      ++failures;                                        \
    }                                                    \
  } while (0)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  hwloc_topology_t topo;
  hwloc_topology_init(&topo);
  hwloc_topology_load(topo);
  hwloc_bitmap_t bound = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_PROCESS) != 0 || hwloc_bitmap_iszero(bound))
    hwloc_bitmap_copy(bound, hwloc_topology_get_topology_cpuset(topo));

  MPI_Info info = MPI_INFO_NULL;
  CHECK(MPI_Get_hw_resource_info(&info) == MPI_SUCCESS && info != MPI_INFO_NULL, "call");
  int nkeys = 0, flag = 0;
  char v[MPI_MAX_INFO_VAL + 1];
  MPI_Info_get_nkeys(info, &nkeys);
  MPI_Info_get(info, "mpi_shared_memory", MPI_MAX_INFO_VAL, v, &flag);
  CHECK(flag && strcmp(v, "1") == 0, "mpi_shared_memory: %d '%s'", flag, v);

  /* Every hwloc type present is a key, its value what hwloc says. */
  const hwloc_obj_type_t types[] = {HWLOC_OBJ_MACHINE, HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE,
                                    HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE,
                                    HWLOC_OBJ_CORE,    HWLOC_OBJ_PU};
  int present = 1; /* (mpi_shared_memory) */
  for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
    const char *name = hwloc_obj_type_string(types[t]);
    int all = hwloc_get_nbobjs_by_type(topo, types[t]), n = 0, first = -1;
    for (int i = 0; i < all; ++i) {
      hwloc_obj_t o = hwloc_get_obj_by_type(topo, types[t], (unsigned)i);
      if (o->cpuset && hwloc_bitmap_intersects(o->cpuset, bound) && n++ == 0)
        first = (int)o->logical_index;
    }
    flag = 0;
    MPI_Info_get(info, name, MPI_MAX_INFO_VAL, v, &flag);
    if (all <= 0) {
      CHECK(!flag, "%s: not on this machine, yet a key", name);
      continue;
    }
    ++present;
    CHECK(flag && atoi(v) == n && n > 0, "%s: %d '%s', hwloc says %d", name, flag, v, n);

    /* HW_GUIDED with it (every process the same type: collective). */
    MPI_Info hint;
    MPI_Info_create(&hint);
    MPI_Info_set(hint, "mpi_hw_resource_type", name);
    MPI_Comm part = MPI_COMM_NULL;
    int rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, hint, &part);
    MPI_Info_free(&hint);
    CHECK(rc == MPI_SUCCESS, "%s: split rc %d", name, rc);
    CHECK((part != MPI_COMM_NULL) == (n == 1), "%s: %d instances, part %s", name, n,
          part == MPI_COMM_NULL ? "null" : "made");
    if (part != MPI_COMM_NULL) {
      int psize = 0, me[2], *all_ids;
      char host[MPI_MAX_PROCESSOR_NAME];
      int len;
      MPI_Get_processor_name(host, &len);
      MPI_Comm_size(part, &psize);
      me[0] = first;
      me[1] = (int)strlen(host);
      all_ids = malloc(sizeof(int) * 2 * (size_t)psize);
      MPI_Allgather(me, 2, MPI_INT, all_ids, 2, MPI_INT, part);
      for (int i = 0; i < psize; ++i)
        CHECK(all_ids[2 * i] == first, "%s: member %d on instance %d, I on %d", name, i,
              all_ids[2 * i], first);
      free(all_ids);
      MPI_Info used;
      MPI_Comm_get_info(part, &used);
      flag = 0;
      MPI_Info_get(used, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, v, &flag);
      CHECK(flag && strcmp(v, name) == 0, "%s: the part's hint '%s'", name, v);
      MPI_Info_free(&used);
      MPI_Comm_free(&part);
    }
  }
  CHECK(nkeys == present, "%d keys, %d expected", nkeys, present);
  MPI_Info_free(&info);

  /* mpi_shared_memory, as before: the procs of one host. */
  {
    MPI_Info hint;
    MPI_Info_create(&hint);
    MPI_Info_set(hint, "mpi_hw_resource_type", "mpi_shared_memory");
    MPI_Comm part = MPI_COMM_NULL, shm = MPI_COMM_NULL;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, hint, &part);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shm);
    int result = -1;
    CHECK(part != MPI_COMM_NULL, "mpi_shared_memory split");
    if (part != MPI_COMM_NULL) MPI_Comm_compare(part, shm, &result);
    CHECK(result == MPI_CONGRUENT, "mpi_shared_memory split vs SHARED: %d", result);
    if (part != MPI_COMM_NULL) MPI_Comm_free(&part);
    /* MPI-4.1's RESOURCE_GUIDED: the same. */
    int rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, rank, hint, &part);
    result = -1;
    if (part != MPI_COMM_NULL) MPI_Comm_compare(part, shm, &result);
    CHECK(rc == MPI_SUCCESS && result == MPI_CONGRUENT, "RESOURCE_GUIDED: rc %d, %d", rc, result);
    MPI_Info_free(&hint);
    if (part != MPI_COMM_NULL) MPI_Comm_free(&part);
    MPI_Comm_free(&shm);
  }
  CHECK(MPI_Get_hw_resource_info(NULL) != MPI_SUCCESS, "NULL argument");

  hwloc_bitmap_free(bound);
  hwloc_topology_destroy(topo);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  if (failures) return 1;
  printf("rank %d of %d ok\n", rank, size);
  return 0;
}
