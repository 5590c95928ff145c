// intercomm_create.cpp - see intercomm_create.hpp. A round (IMPI 4.8): the
// offers' MAX to the local leader; the leaders swap (MAX, group size) and
// then their groups over the peer communicator; the local leader
// broadcasts both. When either group holds a proc of another job, the
// groups travel as cards, which every member registers.
#include "collectives/intercomm_create.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "collectives/collectives.hpp"
#include "collectives/context_id.hpp"
#include "collectives/nonblocking.hpp"
#include "core/dyn_card.hpp"
#include "core/runtime.hpp"
#include "pack/predefined.hpp"

namespace impi::collectives {

namespace {

// The group size field (bits 0-39), and above it: set when the groups swap
// cards, not world ranks (procs of other jobs have no world rank in common);
// set when the sender's group, its procs of other jobs aside, spans IMPI
// clients; that group's one IMPI client + 1 (0: none, or several).
constexpr std::uint64_t kCardsFlag = std::uint64_t{1} << 40;
constexpr std::uint64_t kSpansFlag = std::uint64_t{1} << 41;
constexpr int kClientShift = 44;
constexpr std::uint64_t kSizeMask = (std::uint64_t{1} << 40) - 1;
// In the header a leader broadcasts: the two groups may not be joined.
constexpr std::uint64_t kRefusedFlag = std::uint64_t{1} << 42;

// The IMPI clients of `local`'s procs of this job (procs of other jobs
// count as the caller's own client in a view): kSpansFlag, or the one
// client's field.
std::uint64_t clients_field(const CommView &local) {
  int one = -1;
  for (int r = 0; r < local.size; ++r) {
    if (core::P2P::dyn(local.world[static_cast<std::size_t>(r)])) continue;
    const int c = local.client[static_cast<std::size_t>(r)];
    if (one >= 0 && c != one) return kSpansFlag;
    one = c;
  }
  return one < 0 ? 0 : static_cast<std::uint64_t>(one + 1) << kClientShift;
}

// The leader's part of a round: swaps (MAX, group size) into `hdr` and, when
// no cards travel, the groups' world ranks into `remote`.
base::Status leaders_swap(const CommView &local, const CommView &peer, int remote_leader, int tag,
                          std::uint64_t maxcid, std::uint64_t (&hdr)[2], std::vector<int> &remote) {
  const auto &u8 = pack::Datatype::predefined(pack::dt::uint64);
  const auto &ints = pack::Datatype::predefined(pack::dt::int_);
  bool cards = core::P2P::dyn(peer.world[static_cast<std::size_t>(remote_leader)]) ||
               std::any_of(local.world.begin(), local.world.end(), core::P2P::dyn);
  const std::uint64_t mine = clients_field(local);
  std::uint64_t out[2] = {maxcid,
                          static_cast<std::uint64_t>(local.size) | (cards ? kCardsFlag : 0) | mine};
  if (auto s = peer.sendrecv(out, 2, u8, remote_leader, hdr, 2, u8, remote_leader, tag); !s.ok())
    return s;
  cards |= (hdr[1] & kCardsFlag) != 0;
  const std::uint64_t theirs = hdr[1] & ~(kSizeMask | kCardsFlag);
  hdr[1] &= kSizeMask;
  if (hdr[1] == 0 || hdr[1] > 1u << 24)
    return {base::Errc::protocol_error, "the remote leader sent a bad group size"};
  hdr[0] = std::max(hdr[0], maxcid);
  // Procs of another job and procs of several IMPI clients in one
  // intercommunicator: IMPI 0.0 has no dynamic processes between clients,
  // and the two sides would not agree on whom the IMPI wire joins (each
  // counts the other job's procs in its own client). Both leaders see both
  // headers, so both refuse. (Client numbers compare only within one job:
  // when the remote leader is of this job.)
  if (cards) {
    const bool same_job = !core::P2P::dyn(peer.world[static_cast<std::size_t>(remote_leader)]);
    const bool several = mine == kSpansFlag || theirs == kSpansFlag ||
                         (same_job && mine != 0 && theirs != 0 && mine != theirs);
    if (several) {
      hdr[1] |= kRefusedFlag;
      return {};
    }
  }
  remote.resize(static_cast<std::size_t>(hdr[1]));
  if (!cards) {
    if (auto s = peer.sendrecv(local.world.data(), local.size, ints, remote_leader, remote.data(),
                               static_cast<std::int64_t>(remote.size()), ints, remote_leader, tag);
        !s.ok())
      return s;
  }
  hdr[1] |= cards ? kCardsFlag : 0;
  return {};
}

base::Status round(const CommView &local, int local_leader, const CommView *peer, int remote_leader,
                   int tag, std::uint64_t offer, std::uint64_t &agreed, std::vector<int> &remote) {
  const auto &u8 = pack::Datatype::predefined(pack::dt::uint64);
  const auto &ints = pack::Datatype::predefined(pack::dt::int_);
  std::uint64_t maxcid = 0;
  if (auto s = reduce(local, &offer, &maxcid, 1, u8, max_u64(), local_leader); !s.ok()) return s;
  std::uint64_t hdr[2] = {0, 0};  // (maxcid, remote group size [| kCardsFlag])
  if (local.rank == local_leader)
    if (auto s = leaders_swap(local, *peer, remote_leader, tag, maxcid, hdr, remote); !s.ok())
      return s;
  if (auto s = bcast(local, hdr, 2, u8, local_leader); !s.ok()) return s;
  if (hdr[1] & kRefusedFlag)
    return {base::Errc::not_supported,
            "the new intercommunicator would join processes of another job (dynamic "
            "processes) with processes of several IMPI clients; IMPI 0.0 defines no dynamic "
            "processes between clients"};
  agreed = hdr[0];
  const bool cards = (hdr[1] & kCardsFlag) != 0;
  remote.resize(static_cast<std::size_t>(hdr[1] & ~kCardsFlag));
  if (cards) return swap_group_cards(local, local_leader, peer, remote_leader, tag, remote);
  if (auto s =
          bcast(local, remote.data(), static_cast<std::int64_t>(remote.size()), ints, local_leader);
      !s.ok())
    return s;
  const int nworld = core::Runtime::instance().world().size;
  for (int w : remote)
    if (w < 0 || w >= nworld)
      return {base::Errc::protocol_error, "the remote group names an unknown process"};
  return {};
}

}  // namespace

base::Result<int> intercomm_create(const core::Communicator &local, int local_leader,
                                   const core::Communicator *peer_comm, int remote_leader, int tag,
                                   std::vector<int> &remote) {
  auto &p2p = core::Runtime::instance().p2p();
  drain(&local, p2p);  // (its non-blocking collectives first, as on every process)
  const CommView lv = view_of(local);
  std::optional<CommView> peer;
  if (peer_comm) {
    peer = peer_comm->inter ? remote_view_of(*peer_comm) : view_of(*peer_comm);
    peer->context = peer_comm->context_id;  // the user's tag on its point-to-point context
  }
  return agree_in_rounds(p2p, lv.context, 0, [&](std::uint64_t offer, std::uint64_t &agreed) {
    return round(lv, local_leader, peer ? &*peer : nullptr, remote_leader, tag, offer, agreed,
                 remote);
  });
}

base::Status swap_group_cards(const CommView &local, int leader, const CommView *peer,
                              int remote_leader, int tag, std::vector<int> &remote) {
  auto &p2p = core::Runtime::instance().p2p();
  const auto &bytes = pack::Datatype::predefined(pack::dt::byte);
  char mine[kCardSlot] = {};
  if (auto card = p2p.jobs().listen()) {
    std::string e = card->encode();
    std::memcpy(mine, e.data(), std::min(e.size(), kCardSlot - 1));
  }
  const auto n = static_cast<std::int64_t>(local.size) * static_cast<std::int64_t>(kCardSlot);
  const auto m = static_cast<std::int64_t>(remote.size()) * static_cast<std::int64_t>(kCardSlot);
  std::vector<char> ours(local.rank == leader ? static_cast<std::size_t>(n) : 0),
      theirs(static_cast<std::size_t>(m));
  if (auto s = gather(local, mine, kCardSlot, bytes, ours.data(), kCardSlot, bytes, leader);
      !s.ok())
    return s;
  if (peer) {
    if (auto s = peer->sendrecv(ours.data(), n, bytes, remote_leader, theirs.data(), m, bytes,
                                remote_leader, tag);
        !s.ok())
      return s;
  }
  if (auto s = bcast(local, theirs.data(), m, bytes, leader); !s.ok()) return s;
  for (std::size_t i = 0; i < remote.size(); ++i) {
    const char *slot = theirs.data() + i * kCardSlot;
    auto card = core::DynCard::decode(std::string_view(slot, strnlen(slot, kCardSlot)));
    remote[i] = card ? p2p.jobs().register_card(*card) : -1;
    if (remote[i] < 0)
      return {base::Errc::protocol_error,
              fmt::format("rank {} of the other group cannot be reached (it "
                          "has no card: it cannot listen for other jobs)",
                          i)};
  }
  return {};
}

}  // namespace impi::collectives
