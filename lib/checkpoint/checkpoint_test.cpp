#include "checkpoint/checkpoint.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "checkpoint/checkpoint_diff.h"
#include "checkpoint/checkpoint_table.h"
#include "checkpoint/tensor_stats.h"
#include "checkpoint/test_fixtures.h"
#include "util/error.h"

using namespace modrec;
using modrec::test::checkpoint_fixture;
using modrec::test::slurp;

namespace {

nlohmann::json expected() {
  return nlohmann::json::parse(slurp(checkpoint_fixture("expected.json")));
}

// Names, shapes and dtypes as safetensors' own reader gives them.
void check_against_safetensors(const Checkpoint& c, const std::string& prefix = "") {
  const nlohmann::json want = expected();
  REQUIRE(c.tensors.size() == want.size());
  for (const CheckpointTensor& t : c.tensors) {
    INFO(t.name);
    const std::string name = t.name.substr(prefix.size());
    REQUIRE(want.contains(name));
    CHECK(t.shape == want[name]["shape"].get<std::vector<int64_t>>());
    CHECK(std::string(dtype_name(t.dtype)) == want[name]["dtype"].get<std::string>());
    CHECK(t.numel() == want[name]["numel"].get<int64_t>());
  }
}

// What read_checkpoint says refusing the fixture `name`: bad input naming the file.
std::string refusal(const std::string& name) {
  try {
    read_checkpoint(checkpoint_fixture(name));
  } catch (const Error& e) {
    CHECK(e.code() == Exit::bad_input);
    CHECK(e.where() == checkpoint_fixture(name));
    return e.what();
  }
  FAIL("no error");
  return "";
}

// Reading fixture `name` is bad input naming the file and, in its message, `named`.
void check_refused(const std::string& name, const std::string& named) {
  CHECK(refusal(name).find(named) != std::string::npos);
}

}  // namespace

TEST_CASE(
    "a safetensors file, its shards' index and a torch.save'd dict read as safetensors reads "
    "them") {
  check_against_safetensors(read_checkpoint(checkpoint_fixture("model.safetensors")));
  check_against_safetensors(read_checkpoint(checkpoint_fixture("state_dict.pt")));
  const Checkpoint sharded = read_checkpoint(checkpoint_fixture("model.safetensors.index.json"));
  CHECK(sharded.format == CheckpointFormat::sharded);
  CHECK(sharded.files.size() == 2);
  check_against_safetensors(sharded);
  // A training checkpoint's nested state_dict: its tensors under the key that holds it.
  check_against_safetensors(read_checkpoint(checkpoint_fixture("training.pt")), "model.");
}

TEST_CASE("layers sort by their numbers, as the model defines them") {
  const Checkpoint c = read_checkpoint(checkpoint_fixture("model.safetensors"));
  CHECK(c.tensors[0].name == "encoder.layers.2.weight");
  CHECK(c.tensors[1].name == "encoder.layers.10.weight");
  CHECK(c.metadata["format"] == "pt");
}

TEST_CASE("statistics of every dtype match torch's in float64") {
  for (const char* file : {"model.safetensors", "state_dict.pt"}) {
    const Checkpoint c = read_checkpoint(checkpoint_fixture(file));
    const std::vector<RunningStats> stats = tensor_stats(c, 2);
    const nlohmann::json want = expected();
    for (size_t i = 0; i < c.tensors.size(); ++i) {
      INFO(file, " ", c.tensors[i].name);
      const auto& w = want[c.tensors[i].name];
      CHECK(stats[i].count() == w["numel"].get<int64_t>());
      CHECK(stats[i].mean() == doctest::Approx(w["mean"].get<double>()).epsilon(1e-12));
      CHECK(stats[i].min() == w["min"].get<double>());
      CHECK(stats[i].max() == w["max"].get<double>());
    }
  }
}

TEST_CASE("float8, half and bfloat16 widen to torch's floats, bit pattern by bit pattern") {
  for (const char* name : {"float8_e4m3fn", "float8_e5m2", "float16", "bfloat16"}) {
    INFO(name);
    DType type{};
    REQUIRE(dtype_from_torch(name, type));
    const std::string raw = slurp(checkpoint_fixture(std::string(name) + ".raw"));
    const std::string want = slurp(checkpoint_fixture(std::string(name) + ".float"));
    const size_t n = raw.size() / static_cast<size_t>(dtype_bytes(type));
    std::vector<float> got(n);
    widen(type, raw.data(), n, got.data());
    for (size_t i = 0; i < n; ++i) {
      float w;
      std::memcpy(&w, want.data() + i * 4, 4);
      if (std::isnan(w) ? !std::isnan(got[i]) : got[i] != w)
        FAIL_CHECK("pattern " << i << ": " << got[i] << " != " << w);
    }
  }
}

TEST_CASE("the table's rows are the names' prefixes, with torchinfo's depth-idx labels") {
  const Checkpoint c = read_checkpoint(checkpoint_fixture("model.safetensors"));
  const CheckpointSummary s = summarize(c);
  std::vector<std::string> rows;
  for (const CheckpointRow& r : s.rows) rows.push_back(r.label + " " + r.path);
  CHECK(rows == std::vector<std::string>{"0-1 ", "1-1 encoder", "2-1 encoder.layers",
                                         "3-1 encoder.layers.2", "3-2 encoder.layers.10",
                                         "2-2 encoder.norm", "1-2 head"});
  int64_t total = 0;
  const nlohmann::json want = expected();
  for (const auto& [name, w] : want.items()) total += w["numel"].get<int64_t>();
  CHECK(s.params == total);
  CHECK(s.rows[0].params == total);
  CHECK(s.rows[0].tensors.size() == 2);  // steps, mask: names without a module
}

TEST_CASE("a safetensors file and its torch.save copy differ nowhere") {
  const Checkpoint a = read_checkpoint(checkpoint_fixture("model.safetensors"));
  const Checkpoint b = read_checkpoint(checkpoint_fixture("state_dict.pt"));
  const CheckpointDiff diff = diff_checkpoints(a, b, {}, 2);
  CHECK(diff.passed());
  for (const TensorChange& t : diff.tensors) CHECK(t.max_abs == 0);
}

TEST_CASE("damaged headers are bad input naming the file, never a crash") {
  for (const char* name :
       {"truncated_header.safetensors", "huge_header.safetensors", "out_of_range.safetensors",
        "overlap.safetensors", "not_utf8.safetensors", "wrong_size.safetensors",
        "unknown_dtype.safetensors", "cut_pickle.pt", "missing_shard.index.json"}) {
    INFO(name);
    check_refused(name, "");
  }
}

TEST_CASE("a tensor subclass is its inner tensors under its name, its class named") {
  const Checkpoint c = read_checkpoint(checkpoint_fixture("subclass.pt"));
  REQUIRE(c.subclasses.size() == 1);
  CHECK(c.subclasses[0].name == "fc.weight");
  CHECK(c.subclasses[0].type == "__main__.Wrapped");
  CHECK(c.subclasses[0].shape == std::vector<int64_t>{2, 3});
  std::vector<std::string> names, subclasses;
  for (const CheckpointTensor& t : c.tensors)
    names.push_back(t.name), subclasses.push_back(t.subclass);
  CHECK(names == std::vector<std::string>{"fc.weight.qdata", "fc.weight.scale", "fc.bias"});
  CHECK(subclasses == std::vector<std::string>{"__main__.Wrapped", "__main__.Wrapped", ""});
  CHECK(c.held == 3);
  CHECK(c.tensors[0].dtype == DType::int8);
  const CheckpointSummary s = summarize(c);
  const auto row = std::find_if(s.rows.begin(), s.rows.end(),
                                [](const CheckpointRow& r) { return r.path == "fc.weight"; });
  REQUIRE(row != s.rows.end());
  CHECK(row->subclass == 0);
  CHECK(row->params == 6 + 2);
}

TEST_CASE("tensors in lists and tuples are listed; an object holding none is named") {
  const Checkpoint c = read_checkpoint(checkpoint_fixture("lists.pt"));
  std::vector<std::string> names;
  for (const CheckpointTensor& t : c.tensors) names.push_back(t.name);
  CHECK(names == std::vector<std::string>{"w", "buffers.0", "buffers.1.0"});
}

TEST_CASE("an object holding tensors, or a value holding itself, refuses the file naming it") {
  check_refused("holder.pt", "extra.h");
  check_refused("loop.pt", "holds a value inside itself");
}

TEST_CASE("damaged files named as checkpoints are read as such, their defect named") {
  struct Case {
    const char* file;
    const char* defect;
  } cases[] = {
      {"three_bytes.safetensors", "safetensors header is cut off"},
      {"array_header.bin", "safetensors header is not a JSON object"},
      {"not_json.index.json", "checkpoint index is not JSON"},
      {"deep_metadata.safetensors", "nests its JSON more than 512 deep"},
  };
  for (const auto& c : cases) {
    INFO(c.file);
    CHECK(refusal(c.file).find(c.defect) != std::string::npos);
  }
}

TEST_CASE("an index's shards are file names in its folder: no path leaves it") {
  for (const char* name : {"escape.index.json", "absolute.index.json", "subfolder.index.json"}) {
    INFO(name);
    const std::string what = refusal(name);
    CHECK(what.find("tensor a ") != std::string::npos);
    CHECK(what.find("elsewhere/x.safetensors\"") != std::string::npos);
    CHECK(what.find("not a file name in the index's folder") != std::string::npos);
  }
}

TEST_CASE("a shard's tensor its index does not name is left out, as transformers leaves it") {
  const Checkpoint c = read_checkpoint(checkpoint_fixture("partial.index.json"));
  CHECK(c.tensors.size() == expected().size() - 1);
  for (const CheckpointTensor& t : c.tensors) CHECK(t.name != "head.bias");
}

TEST_CASE("a save_pretrained folder is the checkpoint from_pretrained reads in it") {
  Checkpoint c = read_checkpoint(checkpoint_fixture("pretrained"));
  CHECK(c.path == checkpoint_fixture("pretrained"));
  CHECK(c.format == CheckpointFormat::safetensors);
  CHECK(c.files == std::vector<std::string>{checkpoint_fixture("pretrained/model.safetensors")});
  check_against_safetensors(c);
  CHECK(summarize(c).rows[0].name == "pretrained");
  c.path += "/";  // as a shell completes it
  CHECK(summarize(c).rows[0].name == "pretrained");
}

TEST_CASE("a bool's bytes other than 0 and 1 are true, as torch reads them") {
  const Checkpoint c = read_checkpoint(checkpoint_fixture("bool_bytes.safetensors"));
  const nlohmann::json want = nlohmann::json::parse(slurp(checkpoint_fixture("bool_bytes.json")));
  const RunningStats stats = tensor_stats(c, 1)[0];
  CHECK(stats.mean() == want["mean"].get<double>());
  CHECK(stats.max() == want["max"].get<double>());
  CHECK(stats.min() == want["min"].get<double>());
  const CheckpointDiff diff = diff_checkpoints(c, c, {}, 1);
  CHECK(diff.passed());
  CHECK(diff.tensors[0].max_abs == 0);
}
