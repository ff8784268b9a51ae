#include "util/parallel_parts.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace modrec;

TEST_CASE("every part runs once, and all have run when run_parts returns") {
  for (int parts : {0, 1, 2, 3, 8}) {
    CAPTURE(parts);
    std::vector<std::atomic<int>> runs(static_cast<size_t>(parts));
    run_parts(parts, [&](int p) {
      std::this_thread::sleep_for(std::chrono::milliseconds(p == 0 ? 0 : 5));
      ++runs[static_cast<size_t>(p)];
    });
    for (const auto& r : runs) CHECK(r == 1);
  }
}

TEST_CASE("the parts run at once on as many threads as parts") {
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::atomic<int> arrived{0};
  run_parts(3, [&](int) {
    {
      std::lock_guard lock(mutex);
      threads.insert(std::this_thread::get_id());
    }
    // Each part waits for the other two: this returns only if all three run concurrently.
    ++arrived;
    while (arrived < 3) std::this_thread::yield();
  });
  CHECK(threads.size() == 3);
  CHECK(threads.count(std::this_thread::get_id()) == 1);  // part 0 on the caller
}
