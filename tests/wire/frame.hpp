// frame.hpp - a byte stream through a PacketReader, fed `chunk` bytes at a
// time: every packet that comes out (each must decode), and nothing left.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <span>
#include <vector>

#include "transport/impi/packet.hpp"

namespace impi::test {

inline std::vector<transport::wire::PacketReader::Item> frame(const std::vector<std::byte> &stream,
                                                              std::size_t chunk,
                                                              std::uint32_t maxdatalen) {
  transport::wire::PacketReader r(maxdatalen);
  std::vector<transport::wire::PacketReader::Item> got;
  for (std::size_t at = 0; at < stream.size(); at += chunk) {
    r.feed(std::span(stream).subspan(at, std::min(chunk, stream.size() - at)));
    while (auto item = r.next()) {
      REQUIRE(item->ok());
      got.push_back(item->value());
    }
  }
  CHECK(r.buffered() == 0);
  return got;
}

}  // namespace impi::test
