#include "util/log.h"

#include <doctest/doctest.h>

using namespace modrec;

namespace {

std::vector<std::string> paths(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("blocks." + std::to_string(i) + ".attn.q_norm");
  return out;
}

}  // namespace

TEST_CASE("a long list in a warning is its first items and how many more") {
  const std::string text = log::listed(paths(111), ", ", false);
  CHECK(text == "blocks.0.attn.q_norm, blocks.1.attn.q_norm and 109 more (-v: all)");
  CHECK(log::listed(paths(3), ", ", false, 20) == "blocks.0.attn.q_norm and 2 more (-v: all)");
}

TEST_CASE("a list that fits, and the full list, are every item") {
  CHECK(log::listed(paths(2), ", ", false) == "blocks.0.attn.q_norm, blocks.1.attn.q_norm");
  const std::string all = log::listed(paths(111), ", ", true);
  CHECK(all.find("blocks.110.attn.q_norm") != std::string::npos);
  CHECK(all.find("more") == std::string::npos);
}

TEST_CASE("one item longer than the width is shown whole") {
  const std::vector<std::string> items = {std::string(50, 'a'), "b"};
  CHECK(log::listed(items, "; ", false) == std::string(50, 'a') + " and 1 more (-v: all)");
  CHECK(log::listed({}, ", ", false).empty());
}
