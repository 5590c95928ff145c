// agent_fini.hpp - the end of a client's host channels through the host
// agent's own channel code (transport/impi): FINI packets both ways, ACKs
// for anything still in flight, errors naming the host (IMPI 3.8).
#pragma once

#include <event2/event.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "startup/impi_client.hpp"
#include "startup/impi_job.hpp"
#include "transport/impi/router.hpp"

namespace impi::startup {

inline base::Status close_host_channels(std::vector<base::Fd> &channels, const ImpiJob &job,
                                        net::Clock::time_point deadline) {
  namespace tw = transport::wire;
  tw::JobLayout layout;
  for (const auto &p : job.procs) {
    tw::ProcId id;
    std::copy(p.id.address.begin(), p.id.address.end(), id.host.begin());
    id.pid = p.id.pid;
    layout.procs.push_back(id);
    layout.host_of.push_back(p.host);
  }
  layout.nhosts = static_cast<int>(job.hosts.size());
  layout.my_host = job.first_host_of(job.my_client);
  std::unique_ptr<event_base, void (*)(event_base *)> base(event_base_new(), event_base_free);
  std::optional<base::Status> error;
  {
    tw::AgentRouter router(base.get(), tw::ChannelConfig{job.maxdatalen, job.ackmark, job.hiwater, ""},
                           layout, [&](const base::Status &s) {
                             if (!error) error = s;
                           });
    for (std::size_t h = 0; h < channels.size(); ++h)
      if (channels[h]) router.add_channel(static_cast<int>(h), std::move(channels[h]));
    router.finish();
    while (!router.all_closed() && !error) {
      if (net::Clock::now() > deadline) {
        error = base::Status{base::Errc::timeout, "the host channels did not close in time (no FINI)"};
        break;
      }
      timeval slice{0, 50000};
      event_base_loopexit(base.get(), &slice);
      event_base_dispatch(base.get());
    }
  }
  return error ? *error : base::Status{};
}

}  // namespace impi::startup
