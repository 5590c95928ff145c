// launcher.hpp - impirun's local mode: run one job of N processes here.
//
// The launcher hosts an OpenPMIx server (the processes are its clients),
// forks the processes, forwards their output line by line, binds them to
// cores when asked, and decides the job's exit status (exit_policy.hpp).
// A process that fails or calls MPI_Abort ends the whole job: the others
// get SIGTERM, then SIGKILL after the kill_grace_ms tunable.
//
// Threading: run_local_job() owns the calling thread (a libevent loop).
// PMIx module callbacks run on PMIx's progress thread; they only post
// events to that loop.
#pragma once

#include "startup/impi_client.hpp"
#include "startup/launch_options.hpp"

namespace impi::startup {

// Runs the job to completion; returns the launcher's exit status. After a
// failed job PMIx may still run threads: the caller must leave with _exit().
int run_local_job(const LaunchOptions &opts);

// `impirun -client R HOST:PORT`: IMPI startup with the server, the dance,
// then the local procs as this client's part of MPI_COMM_WORLD, then the
// FINI exchanges. Returns the exit status.
// `close_channels`: how to end the host channels after the job (the host
// agent's HostChannels, given by impirun); startup's own FINI exchange if empty.
int run_client_job(const LaunchOptions &opts, const ImpiClient::ChannelCloser &close_channels = {});

// `impirun -np N --clients K`: a server and K clients on this machine.
int run_multi_client_job(const LaunchOptions &opts, const char *self_exe);

}  // namespace impi::startup
