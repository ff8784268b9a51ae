#include "model/call_memory.h"

#include <doctest/doctest.h>

#include "util/error.h"

namespace modrec {

TEST_CASE("a call's memory as JSON and back") {
  const CallMemory m{100, 250, 300};
  const nlohmann::json j = m;
  CHECK(j.dump() == R"({"peak_backward_bytes":300,"peak_forward_bytes":250,"saved_bytes":100})");
  const CallMemory back = call_memory_from_json(j, "stats.json");
  CHECK(back.saved_bytes == 100);
  CHECK(back.peak_forward_bytes == 250);
  CHECK(back.peak_backward_bytes == 300);
  CHECK_THROWS_AS(call_memory_from_json({{"saved_bytes", 1}}, "stats.json"), Error);
  CHECK_THROWS_AS(call_memory_from_json(nlohmann::json::array(), "stats.json"), Error);
}

TEST_CASE("the largest of two batches' figures, each on its own") {
  const CallMemory m = largest(CallMemory{1, 20, 3}, CallMemory{10, 2, 30});
  CHECK(m.saved_bytes == 10);
  CHECK(m.peak_forward_bytes == 20);
  CHECK(m.peak_backward_bytes == 30);
}

}  // namespace modrec
