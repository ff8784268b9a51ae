#include "merge/merged_stats.h"

#include <doctest/doctest.h>

#include <cmath>

#include "merge/test_fixtures.h"
#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::test::json;
using modrec::testing::error_of;

namespace {

// Rows of 3 values, far from zero and of growing magnitude, so that the shards' histogram
// ranges differ and the moments need the shifted merge.
std::vector<double> rows(int64_t from, int64_t to) {
  std::vector<double> v;
  for (int64_t i = from * 3; i < to * 3; ++i) v.push_back(1e3 + std::sin(double(i)) * double(i));
  return v;
}

RunCapture output_of(int64_t from, int64_t to) {
  return {"output", {test::tensor_of(rows(from, to), {to - from, 3})}, {}};
}

RunCapture params(const std::string& capture, double scale) {
  return {capture, {test::tensor_of({scale, -scale, 2 * scale}, {3}, "weight")}, {}};
}

ShardRun shard(int64_t index, std::vector<RunLayer> layers, const std::string& save = "npy") {
  json m = test::shard_manifest(index, 3, 10);
  m["options"]["save"] = save;
  return test::shard_run(m, std::move(layers));
}

// Shard i holds samples [i*10/3, (i+1)*10/3) of one output, and the module's parameters.
std::vector<ShardRun> three_shards(const std::string& save = "npy") {
  std::vector<ShardRun> shards;
  for (int64_t i = 0; i < 3; ++i) {
    const int64_t from = i * 10 / 3, to = (i + 1) * 10 / 3;
    shards.push_back(shard(i,
                           {test::layer_of("1-1", {output_of(from, to), params("param", 1),
                                                   params("param_grad", double(i + 1))})},
                           save));
  }
  return shards;
}

std::vector<const ShardRun*> pointers(const std::vector<ShardRun>& runs) {
  std::vector<const ShardRun*> out;
  for (const auto& r : runs) out.push_back(&r);
  return out;
}

void check_same_stats(const RunningStats& got, const RunningStats& want) {
  CHECK(got.count() == want.count());
  CHECK(got.finite_count() == want.finite_count());
  CHECK(got.mean() == doctest::Approx(want.mean()).epsilon(1e-12));
  CHECK(got.std() == doctest::Approx(want.std()).epsilon(1e-12));
  CHECK(got.min() == want.min());
  CHECK(got.max() == want.max());
  CHECK(got.l2_norm() == doctest::Approx(want.l2_norm()).epsilon(1e-12));
  CHECK(got.histogram().edges == want.histogram().edges);
  CHECK(got.histogram().counts == want.histogram().counts);
}

}  // namespace

TEST_CASE("per-sample statistics merge to those of all the samples, histograms exactly") {
  const auto shards = three_shards();
  const auto whole = merge_stats(pointers(shards));
  REQUIRE(whole.size() == 1);
  const RunTensor& out = whole[0].capture("output")->tensors.at(0);
  const RunTensor all = test::tensor_of(rows(0, 10), {10, 3});
  CHECK(out.shape == std::vector<int64_t>{10, 3});
  check_same_stats(out.stats, all.stats);
  // The shards' parts alone have other histogram ranges: the merge widened them exactly.
  CHECK(shards[0].run.layers[0].capture("output")->tensors[0].stats.histogram().edges !=
        all.stats.histogram().edges);
}

TEST_CASE("param and param_grad statistics stay the first shard's, shapes unchanged") {
  const auto shards = three_shards();
  const auto whole = merge_stats(pointers(shards));
  for (const char* capture : {"param", "param_grad"}) {
    const RunTensor& t = whole[0].capture(capture)->tensors.at(0);
    CHECK(t.name == "weight");
    CHECK(t.shape == std::vector<int64_t>{3});
    CHECK(t.stats.max() == 2.0);
    CHECK(t.stats.count() == 3);
  }
}

TEST_CASE("shards whose layers differ are refused naming the pair") {
  auto shards = three_shards();
  auto& changed = shards[2].run.layers[0].captures[0].tensors[0];
  changed.shape = {4, 2};
  auto e = error_of([&] { merge_stats(pointers(shards)); });
  CHECK(e.first == Exit::bad_input);
  CHECK(e.second.find("the recorded layers differ: 1-1 output tensor 0: float64 3x3 vs float64 4x2 "
                      "(s0 and s2)") != std::string::npos);

  shards = three_shards();
  shards[1].run.layers[0].ref.type = "Conv2d";
  e = error_of([&] { merge_stats(pointers(shards)); });
  CHECK(e.second.find(
            "1-1 features.1-1 (Linear) call 1 vs 1-1 features.1-1 (Conv2d) call 1 (s0 and s1)") !=
        std::string::npos);

  shards = three_shards();
  shards[1].run.layers.push_back(shards[1].run.layers[0]);
  e = error_of([&] { merge_stats(pointers(shards)); });
  CHECK(e.second.find("1 vs 2 layers (s0 and s1)") != std::string::npos);
}

TEST_CASE("param_grad over several shards without saved tensors is refused, naming the capture") {
  const auto shards = three_shards("none");
  const auto e = error_of([&] { merge_stats(pointers(shards)); });
  CHECK(e.first == Exit::bad_input);
  CHECK(e.second.find("cannot merge param_grad of layer 1-1") != std::string::npos);
  CHECK(e.second.find("(s0 and s1): record with --save pt or --save npy, or without param_grad") !=
        std::string::npos);
  // One shard's gradient is the whole's.
  CHECK(merge_stats({&shards[0]}).size() == 1);
}

TEST_CASE("no recording shard, no layers") { CHECK(merge_stats({}).empty()); }
