// merge_tensor_files on .npy files made here byte by byte and .pt files made by PyTorch itself
// (the oracle's Python), so that this test needs no LibTorch of its own.
#include "merge/tensor_files.h"

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "util/python_test_fixtures.h"
#include "util/error_test_fixtures.h"
#include "util/scratch_dir.h"

using namespace modrec;
using modrec::testing::error_of;

namespace {

// A version 1.0 .npy of float64 `values` (C order, or Fortran order as written).
void write_npy(const std::string& path, const std::string& shape, const std::vector<double>& values,
               bool fortran = false) {
  std::string dict =
      "{'descr': '<f8', 'fortran_order': " + std::string(fortran ? "True" : "False") +
      ", 'shape': " + shape + ", }";
  dict += std::string(63 - (10 + dict.size()) % 64, ' ') + "\n";
  std::string bytes = "\x93NUMPY\x01";
  bytes += '\0';
  bytes += static_cast<char>(dict.size() & 0xFF);
  bytes += static_cast<char>(dict.size() >> 8);
  bytes += dict;
  bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The header's dict and the float64 data of a .npy file modrec wrote.
std::pair<std::string, std::vector<double>> read_npy(const std::string& path) {
  const std::string bytes = read_file(path);
  const size_t header = static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9])
                                                                   << 8;
  std::vector<double> data((bytes.size() - 10 - header) / sizeof(double));
  std::memcpy(data.data(), bytes.data() + 10 + header, data.size() * sizeof(double));
  return {bytes.substr(10, header), data};
}

struct Shards {
  ScratchDir scratch;
  std::string path(const std::string& name) const { return (scratch.path / name).string(); }

  CaptureFiles files(Combine combine, const std::vector<std::string>& names,
                     std::vector<int64_t> samples = {}) const {
    const std::string out = path("merged" + ext(names[0]));
    std::filesystem::remove(out);  // a copy is never made over a file
    CaptureFiles c{"layer 1-1, output", combine, {}, std::move(samples), {out}};
    for (const auto& n : names) c.shard_files.push_back({path(n)});
    return c;
  }
  static std::string ext(const std::string& name) { return name.substr(name.rfind('.')); }
};

}  // namespace

TEST_CASE(".npy shards are concatenated along dim 0 in shard order, Fortran order read whole") {
  Shards s;
  write_npy(s.path("a.npy"), "(2, 3)", {0, 1, 2, 3, 4, 5});
  write_npy(s.path("b.npy"), "(1, 3)", {6, 7, 8});
  write_npy(s.path("c.npy"), "(2, 3)", {9, 12, 10, 13, 11, 14}, /*fortran=*/true);
  CHECK(merge_tensor_files(s.files(Combine::concatenate, {"a.npy", "b.npy", "c.npy"}), false)
            .empty());
  const auto [header, data] = read_npy(s.path("merged.npy"));
  CHECK(header.find("'shape': (5, 3)") != std::string::npos);
  CHECK(header.find("'fortran_order': False") != std::string::npos);
  CHECK(data == std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14});
}

TEST_CASE("reduced shards add up, or average weighted by their samples; statistics of the result") {
  Shards s;
  write_npy(s.path("a.npy"), "(3,)", {1, 2, 3});
  write_npy(s.path("b.npy"), "(3,)", {10, 20, 30});
  const auto stats = merge_tensor_files(s.files(Combine::sum, {"a.npy", "b.npy"}), true);
  CHECK(read_npy(s.path("merged.npy")).second == std::vector<double>{11, 22, 33});
  REQUIRE(stats.size() == 1);
  CHECK(stats[0].count() == 3);
  CHECK(stats[0].mean() == 22);
  CHECK(stats[0].max() == 33);

  merge_tensor_files(s.files(Combine::mean, {"a.npy", "b.npy"}, {1, 3}), false);
  CHECK(read_npy(s.path("merged.npy")).second == std::vector<double>{7.75, 15.5, 23.25});
}

TEST_CASE("the first shard's file is copied for param, and for any capture of a single shard") {
  Shards s;
  write_npy(s.path("a.npy"), "(2,)", {1, 2});
  write_npy(s.path("b.npy"), "(2,)", {3, 4});
  merge_tensor_files(s.files(Combine::first, {"a.npy", "b.npy"}), false);
  CHECK(read_file(s.path("merged.npy")) == read_file(s.path("a.npy")));
  const auto stats = merge_tensor_files(s.files(Combine::sum, {"b.npy"}), true);
  CHECK(read_file(s.path("merged.npy")) == read_file(s.path("b.npy")));
  CHECK(stats.at(0).mean() == 3.5);
}

TEST_CASE("shards that do not fit together are bad input naming the capture") {
  Shards s;
  write_npy(s.path("a.npy"), "(2, 3)", {0, 1, 2, 3, 4, 5});
  write_npy(s.path("b.npy"), "(1, 2)", {6, 7});
  write_npy(s.path("scalar.npy"), "()", {1});
  write_npy(s.path("vector.npy"), "(2,)", {1, 2});
  auto e = error_of([&] {
    merge_tensor_files(s.files(Combine::concatenate, {"a.npy", "b.npy"}), false);
  });
  CHECK(e.first == Exit::bad_input);
  CHECK(e.second.find("cannot concatenate float64 2x3 and float64 1x2 (layer 1-1, output)") !=
        std::string::npos);
  e = error_of([&] {
    merge_tensor_files(s.files(Combine::concatenate, {"scalar.npy", "scalar.npy"}), false);
  });
  CHECK(e.second.find("a 0-dim tensor has no dim 0") != std::string::npos);
  e = error_of([&] { merge_tensor_files(s.files(Combine::sum, {"a.npy", "vector.npy"}), false); });
  CHECK(e.second.find("cannot add float64 2x3 and float64 2") != std::string::npos);
  e = error_of([&] { merge_tensor_files(s.files(Combine::sum, {"a.npy", "gone.npy"}), false); });
  CHECK(e.first == Exit::bad_input);
  CHECK(e.second.find("gone.npy") != std::string::npos);
}

TEST_CASE(".pt shards keep their tuples and the values that are no tensors") {
  Shards s;
  const std::string dir = s.scratch.path.string();
  REQUIRE(test::python_ok(
      "import torch\n"
      "d = '" +
      dir +
      "'\n"
      "torch.save((torch.arange(6.).reshape(2, 3), True, None, torch.arange(2)), d + '/a.pt')\n"
      "torch.save((torch.arange(6., 9.).reshape(1, 3), True, None, torch.arange(2, 3)), d + "
      "'/b.pt')\n"));
  merge_tensor_files(s.files(Combine::concatenate, {"a.pt", "b.pt"}), false);
  CHECK(
      test::python_ok("import torch\n"
                      "x, flag, none, y = torch.load('" +
                      dir +
                      "/merged.pt')\n"
                      "assert torch.equal(x, torch.arange(9.).reshape(3, 3)), x\n"
                      "assert flag is True and none is None, (flag, none)\n"
                      "assert torch.equal(y, torch.arange(3)), y\n"));
}
