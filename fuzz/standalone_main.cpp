// A driver for the fuzz targets in builds without libFuzzer (gcc): replays
// every file of the given corpus directories, then N pseudo-random
// mutations of them (fixed seed, so a failure reproduces). CTest runs this
// as a regression test; scripts/fuzz.sh runs the real libFuzzer build.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

int main(int argc, char **argv) {
  std::vector<std::vector<std::uint8_t>> corpus;
  long mutations = 200000;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--mutations=", 0) == 0) {
      mutations = std::strtol(a.c_str() + 12, nullptr, 10);
      continue;
    }
    for (const auto &e : std::filesystem::directory_iterator(a)) {
      std::ifstream f(e.path(), std::ios::binary);
      corpus.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
  }
  for (auto &c : corpus) LLVMFuzzerTestOneInput(c.data(), c.size());
  std::mt19937_64 rng(0x1b2d3f);
  for (long m = 0; m < mutations && !corpus.empty(); ++m) {
    auto in = corpus[rng() % corpus.size()];
    int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits; ++e) {
      switch (rng() % 4) {
        case 0:  // flip a byte
          if (!in.empty()) in[rng() % in.size()] = static_cast<std::uint8_t>(rng());
          break;
        case 1:  // truncate
          if (!in.empty()) in.resize(rng() % in.size());
          break;
        case 2:  // insert a byte
          in.insert(in.begin() + static_cast<long>(in.empty() ? 0 : rng() % in.size()),
                    static_cast<std::uint8_t>(rng()));
          break;
        case 3:  // duplicate a slice
          if (in.size() > 8) {
            auto at = rng() % (in.size() - 8);
            in.insert(in.end(), in.begin() + static_cast<long>(at),
                      in.begin() + static_cast<long>(at) + 8);
          }
          break;
      }
    }
    LLVMFuzzerTestOneInput(in.data(), in.size());
  }
  std::printf("%zu corpus inputs and %ld mutations ran cleanly\n", corpus.size(), mutations);
  return 0;
}
