#include "startup/slurm.hpp"

#include "base/tunables.hpp"

namespace impi::startup {

namespace {

std::vector<std::string> split_top(const std::string &s) {  // at commas outside brackets
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

}  // namespace

std::optional<std::vector<std::string>> expand_slurm_hostlist(const std::string &list) {
  std::vector<std::string> out;
  for (const auto &item : split_top(list)) {
    if (item.empty()) return std::nullopt;
    auto open = item.find('[');
    if (open == std::string::npos) {
      if (item.find(']') != std::string::npos) return std::nullopt;
      out.push_back(item);
      continue;
    }
    auto close = item.find(']', open);
    if (close == std::string::npos) return std::nullopt;
    std::string prefix = item.substr(0, open), suffix = item.substr(close + 1);
    for (const auto &range : split_top(item.substr(open + 1, close - open - 1))) {
      auto dash = range.find('-');
      std::string lo = range.substr(0, dash);
      std::string hi = dash == std::string::npos ? lo : range.substr(dash + 1);
      auto a = base::parse_int(lo), b = base::parse_int(hi);
      if (lo.empty() || !a || !b || *a < 0 || *b < *a || *b - *a > 65536) return std::nullopt;
      for (auto n = *a; n <= *b; ++n) {
        std::string num = std::to_string(n);
        if (num.size() < lo.size()) num.insert(0, lo.size() - num.size(), '0');  // n[01-10]
        out.push_back(prefix + num + suffix);
      }
    }
  }
  return out;
}

std::optional<std::vector<int>> expand_slurm_counts(const std::string &counts) {
  std::vector<int> out;
  for (const auto &item : split_top(counts)) {
    auto paren = item.find("(x");
    auto n = base::parse_int(item.substr(0, paren));
    std::int64_t times = 1;
    if (paren != std::string::npos) {
      if (item.back() != ')') return std::nullopt;
      auto t = base::parse_int(item.substr(paren + 2, item.size() - paren - 3));
      if (!t) return std::nullopt;
      times = *t;
    }
    if (!n || *n < 0 || *n > 1 << 20 || times < 1 || times > 65536) return std::nullopt;
    out.insert(out.end(), static_cast<std::size_t>(times), static_cast<int>(*n));
  }
  return out;
}

std::optional<SlurmAllocation> slurm_allocation(const char *(*lookup_env)(const char *)) {
  const char *job = lookup_env("SLURM_JOB_ID");
  const char *nodes = lookup_env("SLURM_JOB_NODELIST");
  const char *per_node = lookup_env("SLURM_TASKS_PER_NODE");
  if (!job || !nodes || !per_node) return std::nullopt;
  // Inside a job step (srun started us), the step is the job: Slurm's
  // PMIx (srun --mpi=pmix) or our own singleton check handle it. A batch
  // script and salloc's shell have no step id.
  if (lookup_env("SLURM_STEP_ID")) return std::nullopt;
  auto names = expand_slurm_hostlist(nodes);
  auto counts = expand_slurm_counts(per_node);
  if (!names || !counts || names->size() != counts->size() || names->empty()) return std::nullopt;
  SlurmAllocation a;
  for (std::size_t i = 0; i < names->size(); ++i) {
    a.nodes.push_back({(*names)[i], (*counts)[i]});
    a.ntasks += (*counts)[i];
  }
  if (const char *n = lookup_env("SLURM_NTASKS")) {
    auto v = base::parse_int(n);
    if (v && *v > 0) a.ntasks = static_cast<int>(*v);
  }
  return a;
}

}  // namespace impi::startup
