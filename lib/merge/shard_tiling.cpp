#include "merge/shard_tiling.h"

#include <algorithm>

#include "util/error.h"

namespace modrec {
namespace {

const char* const kHint = "merge each of the N shards once: modrec merge S0 … S(N-1) --out DIR";

std::string part_text(const ShardRun& r) {
  return std::to_string(r.part.index) + "/" + std::to_string(r.part.count);
}

std::string range_text(const ShardRun& r) {
  return "[" + std::to_string(r.part.start) + ", " + std::to_string(r.part.end) + ")";
}

[[noreturn]] void refuse(const std::string& what, const std::string& where) {
  throw Error(Exit::bad_input, "cannot merge: " + what, where, kHint);
}

// Between two runs adjacent in index order.
void check_adjacent(const ShardRun& a, const ShardRun& b) {
  const std::string pair = a.dir() + " and " + b.dir();
  if (a.part.index == b.part.index) refuse("shard " + part_text(a) + " given twice", pair);
  if (b.part.index != a.part.index + 1)
    refuse("shard " + std::to_string(a.part.index + 1) + "/" + std::to_string(a.part.count) +
               " is missing between shards " + part_text(a) + " and " + part_text(b),
           pair);
  if (a.part.end != b.part.start)
    refuse(std::string("sample ranges ") + (a.part.end > b.part.start ? "overlap" : "leave a gap") +
               ": " + range_text(a) + " then " + range_text(b),
           pair);
}

// Each run on its own, and the ends of the whole.
void check_ends(const std::vector<ShardRun>& runs) {
  const ShardRun& first = runs.front();
  const ShardRun& last = runs.back();
  const std::string ends = runs.size() == 1 ? first.dir() : first.dir() + " and " + last.dir();
  if (first.part.index != 0)
    refuse("shard 0/" + std::to_string(first.part.count) + " is missing", ends);
  if (last.part.index != last.part.count - 1)
    refuse("shard " + std::to_string(last.part.count - 1) + "/" + std::to_string(last.part.count) +
               " is missing",
           ends);
  if (first.part.start != 0 || last.part.end != last.total_samples)
    refuse("the shards' samples " + std::to_string(first.part.start) + " to " +
               std::to_string(last.part.end) + " do not cover the input's " +
               std::to_string(last.total_samples),
           ends);
}

}  // namespace

std::vector<ShardRun> in_shard_order(std::vector<ShardRun> runs) {
  std::stable_sort(runs.begin(), runs.end(), [](const ShardRun& a, const ShardRun& b) {
    return a.part.index < b.part.index;
  });
  for (size_t i = 1; i < runs.size(); ++i) check_adjacent(runs[i - 1], runs[i]);
  if (!runs.empty()) check_ends(runs);
  return runs;
}

}  // namespace modrec
