#include "sources/sample_source.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "util/python_test_fixtures.h"
#include "tensor_files/read_inputs.h"
#include "tensor_files/test_fixtures.h"
#include "tensor_files/write_tensors.h"
#include "util/error_test_fixtures.h"
#include "util/sha256.h"

using namespace modrec;
using modrec::test::counting;
using modrec::testing::error_of;

namespace {

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
