#include "tensors/sample_source.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "load/test_python.h"
#include "tensors/input_batches.h"
#include "tensors/read_inputs.h"
#include "tensors/tensors_test_fixtures.h"
#include "tensors/write_tensors.h"
#include "util/error_of_test.h"
#include "util/sha256.h"

using namespace modrec;
using modrec::testing::error_of;

namespace {

// 0, 1, 2, ... as `rows` samples of 3 values.
at::Tensor counting(int64_t first_row, int64_t rows, at::ScalarType type = at::kFloat) {
  return at::arange(first_row * 3, (first_row + rows) * 3).reshape({rows, 3}).to(type);
}

// A folder holding a.npy (rows 0-3), b.pt (rows 4-6), c.npy (rows 7-8) and a file to ignore.
std::string sequence_dir() {
  static const std::string dir = [] {
    const std::string d = test::temp_dir("sources");
    write_npy(d + "/a.npy", counting(0, 4));
    write_pt(d + "/b.pt", counting(4, 3));
    write_npy(d + "/c.npy", counting(7, 2));
    std::ofstream(d + "/notes.txt") << "not a tensor";
    return d;
  }();
  return dir;
}

}  // namespace

TEST_CASE("a .npy is one memory-mapped source read a range at a time") {
  const std::string path = test::temp_dir("npy") + "/x.npy";
  write_npy(path, counting(0, 10));
  auto sources = open_input(path);
  REQUIRE(sources.size() == 1);
  SampleSource& s = *sources[0];
  CHECK(s.kind() == "npy");
  CHECK(s.samples() == 10);
  CHECK((s.sizes() == std::vector<int64_t>{10, 3}));
  CHECK(at::equal(s.rows({2, 5}), counting(2, 3)));
  CHECK(at::equal(s.rows({2, 5}), counting(2, 3)));  // pages given back are read again
  CHECK(at::equal(s.all(), counting(0, 10)));
  const auto files = s.files();
  REQUIRE(files.size() == 1);
  CHECK(files[0].bytes == static_cast<int64_t>(std::filesystem::file_size(path)));
  CHECK(files[0].head_sha256 == sha256_file(path));  // smaller than the 64 KiB head
}

TEST_CASE("big-endian, fortran-order and 0-dim .npy files read as read_inputs reads them") {
  for (const std::string name :
       {"big_endian.npy", "big_endian_f8.npy", "fortran.npy", "scalar.npy"}) {
    INFO(name);
    const std::string path = test::fixture(name);
    auto sources = open_input(path);
    REQUIRE(sources.size() == 1);
    CHECK(sources[0]->kind() == "npy");
    CHECK(at::equal(sources[0]->all(), read_inputs(path)[0]));
  }
}

TEST_CASE("a torch.save tuple gives one source per tensor") {
  auto sources = open_input(test::fixture("tuple.pt"));
  REQUIRE(sources.size() == 2);
  CHECK(sources[0]->kind() == "tensor_file");
  CHECK(at::equal(sources[1]->all(), read_inputs(test::fixture("tuple.pt"))[1]));
}

TEST_CASE("a directory is one source of its .pt/.npy files in sorted order") {
  auto sources = open_input(sequence_dir());
  REQUIRE(sources.size() == 1);
  SampleSource& s = *sources[0];
  CHECK(s.kind() == "file_sequence");
  CHECK((s.sizes() == std::vector<int64_t>{9, 3}));
  CHECK(at::equal(s.rows({3, 8}), counting(3, 5)));  // across all three files
  CHECK(at::equal(s.rows({5, 6}), counting(5, 1)));
  CHECK(at::equal(s.all(), counting(0, 9)));
  CHECK(s.files().size() == 3);
}

TEST_CASE("a quoted glob names the files it matches") {
  auto sources = open_input(sequence_dir() + "/*.npy");
  REQUIRE(sources.size() == 1);
  CHECK(sources[0]->samples() == 6);
  CHECK(at::equal(sources[0]->rows({3, 5}), at::cat({counting(3, 1), counting(7, 1)})));
}

TEST_CASE("files that do not make one sequence are bad input naming the file") {
  const std::string dir = test::temp_dir("badseq");
  write_npy(dir + "/a.npy", counting(0, 2));
  write_npy(dir + "/b.npy", counting(0, 2, at::kDouble));
  auto [code, line] = error_of([&] { open_input(dir); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find(dir + "/b.npy") != std::string::npos);
  CHECK(line.find("float64") != std::string::npos);
  std::filesystem::remove(dir + "/b.npy");
  write_pt(dir + "/b.pt", c10::ivalue::Tuple::create({counting(0, 1), counting(0, 1)}));
  std::tie(code, line) = error_of([&] { open_input(dir); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("one tensor") != std::string::npos);
  const std::string empty = test::temp_dir("emptyseq");
  std::tie(code, line) = error_of([&] { open_input(empty); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("no .pt or .npy files found") != std::string::npos);
}

TEST_CASE("batches cover the shard's range, batch by batch") {
  const ForwardArguments inputs =
      positional_arguments({memory_source(counting(0, 10)), memory_source(counting(100, 10))});
  const InputBatches batches(inputs, memory_source(at::arange(10)), 4, Shard{1, 2}, at::kCPU);
  CHECK(batches.range().start == 5);
  CHECK(batches.range().end == 10);
  CHECK(batches.total_samples() == 10);
  REQUIRE(batches.count() == 2);
  const InputBatch first = batches.get(0), last = batches.get(1);
  CHECK(at::equal(first.inputs[1].toTensor(), counting(105, 4)));
  CHECK(at::equal(last.inputs[0].toTensor(), counting(9, 1)));
  CHECK(at::equal(last.targets, at::arange(9, 10)));
  const InputBatches unbatched(inputs, nullptr, 0, Shard{0, 3}, at::kCPU);
  CHECK(unbatched.count() == 1);
  CHECK(unbatched.get(0).inputs[0].toTensor().size(0) == 3);
}

TEST_CASE("without batching or sharding every input goes whole, whatever its shape") {
  const ForwardArguments inputs =
      positional_arguments({memory_source(counting(0, 4)), memory_source(at::ones({2})),
                            memory_source(at::scalar_tensor(1.5))});
  const InputBatches whole(inputs, nullptr, 0, std::nullopt, at::kCPU);
  CHECK(whole.count() == 1);
  CHECK(whole.get(0).inputs[2].toTensor().dim() == 0);
  auto [code, line] = error_of([&] { InputBatches(inputs, nullptr, 2, std::nullopt, at::kCPU); });
  CHECK(code == Exit::usage);
  CHECK(line.find("--batch-size") != std::string::npos);
  std::tie(code, line) = error_of([&] { InputBatches(inputs, nullptr, 0, Shard{0, 2}, at::kCPU); });
  CHECK(code == Exit::usage);
  CHECK(line.find("--shard") != std::string::npos);
  std::tie(code, line) = error_of([&] {
    InputBatches({inputs[0]}, memory_source(at::arange(3)), 0, std::nullopt, at::kCPU, "y.pt");
  });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("y.pt") != std::string::npos);
}

TEST_CASE("batching cuts the tensors and passes the other arguments to every batch") {
  ForwardArguments inputs = positional_arguments({memory_source(counting(0, 5))});
  inputs.push_back({"steps", nullptr, c10::IValue(int64_t{3})});
  inputs.push_back({"mask", nullptr, c10::IValue()});
  const InputBatches batches(inputs, nullptr, 2, std::nullopt, at::kCPU);
  REQUIRE(batches.count() == 3);
  CHECK(batches.sources().size() == 1);
  for (int64_t i = 0; i < batches.count(); ++i) {
    const InputBatch batch = batches.get(i);
    REQUIRE(batch.inputs.size() == 3);
    CHECK(batch.inputs[1].toInt() == 3);
    CHECK(batch.inputs[2].isNone());
  }
  CHECK(at::equal(batches.get(2).inputs[0].toTensor(), counting(4, 1)));
}
