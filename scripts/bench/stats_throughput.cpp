// Statistics kernel throughput for scripts/bench.sh: RunningStats over 16 M normal floats (the
// per-element work `record` does for every recorded value), one thread, best of 5. Prints JSON.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/float_kernels.h"
#include "stats/running_stats.h"

int main() {
  std::vector<float> data(1 << 24);
  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  for (float& v : data) v = normal(rng);
  double best = 1e9;
  for (int run = 0; run < 5; ++run) {
    modrec::RunningStats s;
    const auto t0 = std::chrono::steady_clock::now();
    s.add(data.data(), data.size());
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::cout << nlohmann::json{{"elements", data.size()},
                              {"ns_per_element", best * 1e9 / static_cast<double>(data.size())},
                              {"gb_per_s",
                               static_cast<double>(data.size() * sizeof(float)) / best / 1e9},
                              {"avx2", modrec::avx2_float_kernels() != nullptr}}
            << "\n";
}
