// stdin_fanout.hpp - the launcher's stdin for several readers (--stdin all).
//
// One proc reading our stdin simply inherits the descriptor. For several,
// a thread of their own copies every byte to each of their pipes and
// closes the pipes at end of file, so each reader sees the whole stream.
#pragma once

#include <vector>

#include "base/fd.hpp"

namespace impi::startup {

// Starts the copy from `source` (not taken over) to `targets` (the write
// ends of blocking pipes, taken over). A reader that has gone (EPIPE) is
// dropped; the others go on. The thread ends at end of file or on a read
// error; it is detached, as the launcher may end while a terminal is open.
void start_stdin_fanout(int source, std::vector<base::Fd> targets);

}  // namespace impi::startup
