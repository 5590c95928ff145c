// collective.hpp - two-phase collective buffering for MPI-IO's collective
// reads and writes (collective.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "io/file.hpp"

namespace impi::io {

// Agrees on what the processes' new views are like (for two_phase_wanted)
// and on whether every process has one: `next` is this process's, or
// nullptr with `err` the error class its MPI_File_set_view arguments gave.
// Returns MPI_SUCCESS (every process may install its view) or the
// largest error class some process had. Collective (MPI_File_set_view).
int agree_on_views(FileObject &f, const View *next, int err);

// Whether a collective access of `f` goes through the aggregators (the
// romio_cb_read/write hints; "automatic": when some process's view is not
// contiguous). Every process of the file calls it; no messages.
bool two_phase_wanted(FileObject &f, bool write);

// The collective access of (buf, count, type) at etype `off` of each
// process's view, through the aggregators. Collective. Returns an error
// class (the same at every process) or MPI_SUCCESS; `native`: bytes of
// memory moved (the status's count).
int two_phase(FileObject &f, bool write, std::int64_t off, const void *buf, std::int64_t count,
              MPI_Datatype th, const pack::TypePtr &type, std::int64_t &native, std::string &why);

// The same as a non-blocking collective (MPI_File_iwrite_all...): queued
// on the file's communicator behind its other collectives and advanced by
// the progress engine (the MPI_Test/MPI_Wait calls and every other pass);
// `done` gets the error class, the bytes of memory moved and the reason
// when it ends (called from the progress engine). MPI_SUCCESS, or an
// error class when it could not start.
int two_phase_start(FileObject &f, bool write, std::int64_t off, const void *buf,
                    std::int64_t count, MPI_Datatype th, const pack::TypePtr &type,
                    std::function<void(int, std::int64_t, const std::string &)> done);

}  // namespace impi::io
