#include "merge/merged_manifest.h"

#include <doctest/doctest.h>

#include "merge/test_fixtures.h"

using namespace modrec;
using modrec::test::json;

namespace {

// Part `index` of 3 over 10 samples in batches of 2 (2, 2 and 2 batches formed), keeping
// `kept`, with one layer whose output has the shard's samples.
ShardRun part(int64_t index, std::vector<int64_t> kept, json nonfinite = nullptr,
              const std::string& reduce = "") {
  json m = test::shard_manifest(index, 3, 10, 2);
  m["kept_batches"] = kept;
  m["batches"] = kept.size();
  m["first_nonfinite"] = nonfinite;
  if (!reduce.empty()) m["options"]["reduce"] = reduce;
  const int64_t samples = m["samples"].get<int64_t>();
  std::vector<RunLayer> layers;
  if (!kept.empty())
    layers.push_back(test::layer_of(
        "1-1", {{"output", {test::tensor_of({}, {samples, 4}), test::tensor_of({}, {samples})}, {}},
                {"param", {test::tensor_of({}, {4, 4}, "weight")}, {}}}));
  return test::shard_run(m, layers);
}

}  // namespace

TEST_CASE("the merged manifest is the whole's: no shard, every sample, batches numbered in order") {
  const json nonfinite = {{"batch", 2}, {"label", "1-1"}, {"path", "fc"}, {"capture", "output"}};
  const json m = merged_manifest({part(0, {1, 2}), part(1, {}), part(2, {2}, nonfinite)}).fields;
  CHECK(m.at("shard").is_null());
  CHECK(m.at("merged_from") == json{"s0", "s1", "s2"});
  CHECK(m.at("samples") == 10);
  CHECK(m.at("total_samples") == 10);
  CHECK(m.at("batches") == 3);
  // Shards 0 and 1 formed 2 batches each: shard 2's batch 2 is the whole's batch 6.
  CHECK(m.at("kept_batches") == json{1, 2, 6});
  CHECK(m.at("first_nonfinite").at("batch") == 6);
  CHECK(m.at("first_nonfinite").at("label") == "1-1");
  CHECK(m.at("options") == part(0, {1}).run.manifest.at("options"));
}

TEST_CASE("concatenated captures' shapes add up along dim 0, from the shards that recorded") {
  const json m = merged_manifest({part(0, {1}), part(1, {}), part(2, {1})}).fields;
  const json& captures = m.at("layers").at(0).at("captures");
  CHECK(captures.at("output").at("shapes") == json{{7, 4}, {7}});  // shards 0 and 2: 3 + 4
  CHECK(captures.at("param").at("shapes") == json{{4, 4}});
}

TEST_CASE("reduced captures keep their shape") {
  const json m =
      merged_manifest({part(0, {1}, nullptr, "sum"), part(1, {1}, nullptr, "sum")}).fields;
  CHECK(m.at("layers").at(0).at("captures").at("output").at("shapes") == json{{3, 4}, {3}});
}

TEST_CASE("shards that all kept nothing merge to no layers") {
  const json m = merged_manifest({part(0, {}), part(1, {}), part(2, {})}).fields;
  CHECK(m.at("layers").empty());
  CHECK(m.at("batches") == 0);
  CHECK(m.at("first_nonfinite").is_null());
}
