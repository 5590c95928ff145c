// attr.hpp - attribute caching hooks for the constructors and destructors
// of communicators and datatypes (attr.cpp). They return MPI error codes.
#pragma once

#include "mpi.h"

namespace impi::api {

// Runs every copy callback of `from`'s attributes; those that say so are set on `to`.
int copy_comm_attrs(MPI_Comm from, MPI_Comm to);
// Runs every delete callback (before the communicator goes away).
int delete_comm_attrs(MPI_Comm comm);
int copy_type_attrs(MPI_Datatype from, MPI_Datatype to);
int delete_type_attrs(MPI_Datatype type);
// Windows: keyvals (their copy callbacks never run: windows are not
// duplicated), attributes, and the delete callbacks at MPI_Win_free.
int create_win_keyval(void *copy, void *del, int *keyval, void *extra);
int free_win_keyval(int *keyval);
int set_win_attr(MPI_Win win, int keyval, void *value);
int delete_win_attr(MPI_Win win, int keyval);
int get_win_attr(MPI_Win win, int keyval, void **value,
                 int *flag);  // MPI_ERR_KEYVAL: not a window keyval
int delete_win_attrs(MPI_Win win);

}  // namespace impi::api
