#include "merge/shard_run.h"

#include <doctest/doctest.h>

#include <fstream>

#include "merge/test_fixtures.h"
#include "util/error_test_fixtures.h"
#include "util/scratch_dir.h"

using namespace modrec;
using modrec::test::json;
using modrec::testing::error_of;

namespace {

std::string write_run(const ScratchDir& scratch, const std::string& name,
                      const std::string& manifest, const std::string& stats = R"({"layers": []})") {
  const std::string dir = (scratch.path / name).string();
  std::filesystem::create_directory(dir);
  if (!manifest.empty()) std::ofstream(dir + "/manifest.json") << manifest;
  if (!stats.empty()) std::ofstream(dir + "/stats.json") << stats;
  return dir;
}

}  // namespace

TEST_CASE("a shard run's manifest is parsed once into its part, options and batches") {
  ScratchDir scratch;
  json m = test::shard_manifest(2, 4, 10, 2);  // samples [5, 7)
  m["kept_batches"] = {1};
  const ShardRun r = read_shard_run(write_run(scratch, "s2", m.dump()));
  CHECK(r.sharded);
  CHECK(r.part.index == 2);
  CHECK(r.part.count == 4);
  CHECK(r.part.start == 5);
  CHECK(r.part.end == 7);
  CHECK(r.samples() == 2);
  CHECK(r.total_samples == 10);
  CHECK(r.save == SaveFormat::npy);
  CHECK(r.reduce == Reduce::none);
  CHECK(r.batches_formed() == 1);
  CHECK(r.recorded());
}

TEST_CASE("batches formed count the partial last batch; a run that kept none recorded nothing") {
  json m = test::shard_manifest(0, 2, 10, 2);  // 5 samples in batches of 2
  m["kept_batches"] = json::array();
  const ShardRun r = test::shard_run(m);
  CHECK(r.batches_formed() == 3);
  CHECK_FALSE(r.recorded());
  m["options"]["batch_size"] = nullptr;
  CHECK(test::shard_run(m).batches_formed() == 1);
}

TEST_CASE("a run recorded without --shard is the whole, part 0 of 1") {
  json m = test::shard_manifest(0, 1, 6);
  m["shard"] = nullptr;
  m.erase("total_samples");  // as runs recorded before --shard
  const ShardRun r = test::shard_run(m, {}, "whole");
  CHECK_FALSE(r.sharded);
  CHECK(r.part.count == 1);
  CHECK(r.part.end == 6);
  CHECK(r.total_samples == 6);
}

TEST_CASE("incomplete or foreign directories are bad input naming the run") {
  ScratchDir scratch;
  const auto no_manifest = error_of([&] { read_shard_run(write_run(scratch, "a", "")); });
  CHECK(no_manifest.first == Exit::bad_input);
  CHECK(no_manifest.second.find("incomplete run: no manifest.json") != std::string::npos);
  CHECK(no_manifest.second.find("/a") != std::string::npos);

  const auto no_stats = error_of([&] { read_shard_run(write_run(scratch, "b", "{}", "")); });
  CHECK(no_stats.first == Exit::bad_input);
  CHECK(no_stats.second.find("stats.json") != std::string::npos);

  const auto broken = error_of([&] { read_shard_run(write_run(scratch, "c", "{\"shard\": ")); });
  CHECK(broken.first == Exit::bad_input);
  CHECK(broken.second.find("not valid JSON") != std::string::npos);

  const auto fields = error_of([&] { read_shard_run(write_run(scratch, "d", "{}")); });
  CHECK(fields.first == Exit::bad_input);
  CHECK(fields.second.find("not in the recording format") != std::string::npos);
}

TEST_CASE("samples that are not the shard's range are refused") {
  json m = test::shard_manifest(1, 2, 10);
  m["samples"] = 4;
  const auto e = error_of([&] { test::shard_run(m); });
  CHECK(e.first == Exit::bad_input);
  CHECK(e.second.find("\"samples\" is 4, its shard holds 5") != std::string::npos);
}

TEST_CASE("a shard index outside its count is refused") {
  json m = test::shard_manifest(1, 2, 10);
  m["shard"]["index"] = 2;
  const auto e = error_of([&] { test::shard_run(m); });
  CHECK(e.first == Exit::bad_input);
  CHECK(e.second.find("is no part of 2") != std::string::npos);
}
