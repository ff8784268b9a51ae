#include "sources/shard.h"

#include <cctype>

#include "util/error.h"

namespace modrec {
namespace {

// A non-negative decimal below 2^62 (products with a sample count stay in int64), or -1.
int64_t parse_count(const std::string& text) {
  if (text.empty() || text.size() > 18) return -1;
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
  return std::stoll(text);
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const size_t slash = text.find('/');
  const Shard shard{parse_count(text.substr(0, slash)),
                    slash == std::string::npos ? -1 : parse_count(text.substr(slash + 1))};
  if (shard.index < 0 || shard.count < 1 || shard.index >= shard.count)
    throw Error(Exit::usage, "bad shard '" + text + "'", "--shard",
                "give K/N with 0 <= K < N, e.g. --shard 0/4 for the first of four");
  return shard;
}

SampleRange shard_range(const std::optional<Shard>& shard, int64_t samples) {
  if (!shard) return {0, samples};
  // K*S/N without overflow for S, N < 2^62: split S into quotient and remainder by N.
  auto bound = [&](int64_t k) {
    return k * (samples / shard->count) + k * (samples % shard->count) / shard->count;
  };
  const SampleRange range{bound(shard->index), bound(shard->index + 1)};
  if (range.size() == 0)
    throw Error(Exit::usage,
                "shard " + std::to_string(shard->index) + "/" + std::to_string(shard->count) +
                    " of " + std::to_string(samples) + " samples is empty",
                "--shard", "use at most as many shards as there are samples");
  return range;
}

}  // namespace modrec
