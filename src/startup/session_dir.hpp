// session_dir.hpp - impirun's session directory: PMIx's files, the job's
// description and the host agent's socket live under $TMPDIR (or /tmp) in
// directories named impirun.<pid>.*, and leave with the session. What an
// impirun killed outright (SIGKILL: no cleanup ran) left there and in
// /dev/shm is removed by the next impirun, once that pid is gone.
#pragma once

#include <string>

namespace impi::startup {

// $TMPDIR, or /tmp when it is unset or empty.
std::string session_root();

// Removes the session directories (impirun.<pid>.*) under `root` and the
// shared-memory segments in /dev/shm of impiruns that are gone.
void sweep_dead_sessions(const std::string &root);

// Sweeps session_root(), then creates this session's directory there;
// "" (reported) when it cannot.
std::string create_session_dir();

// Removes `dir` and everything in it, retrying while something still adds
// to it.
void remove_session_dir(const std::string &dir);

// Removes what is left of namespace `nspace`'s shared-memory segments.
void remove_shm_segments(const std::string &nspace);

}  // namespace impi::startup
