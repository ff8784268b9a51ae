#include "tensor_files/read_inputs.h"

#include <doctest/doctest.h>

#include <map>
#include <sstream>

#include "files/scalar_type.h"
#include "tensor_files/test_fixtures.h"
#include "tensor_files/write_tensors.h"
#include "util/error.h"
#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::test::fixture;

namespace {

struct Expected {
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<double> values;
};

// expected.txt: "file index dtype shape values..." as Python saw the tensors it saved.
std::map<std::string, std::vector<Expected>> expected_tensors() {
  std::map<std::string, std::vector<Expected>> out;
  std::istringstream lines(test::slurp(fixture("expected.txt")));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::string file, shape;
    size_t index = 0;
    Expected e;
    in >> file >> index >> e.dtype >> shape;
    std::istringstream dims(shape == "-" ? "" : shape);
    for (std::string d; std::getline(dims, d, ',');) e.shape.push_back(std::stoll(d));
    for (double v; in >> v;) e.values.push_back(v);
    out[file].push_back(e);
  }
  return out;
}

std::pair<Exit, std::string> read_error(const std::string& name) {
  return modrec::testing::error_of([&] { read_inputs(fixture(name)); });
}

}  // namespace

TEST_CASE("read_inputs returns what Python saved, for every dtype and container") {
  auto expected = expected_tensors();
  REQUIRE(expected.size() >= 25);
  for (const auto& entry : expected) {  // not a structured binding: INFO captures it
    const auto& file = entry.first;
    const auto& want = entry.second;
    INFO(file);
    std::vector<at::Tensor> got = read_inputs(fixture(file));
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      CHECK(dtype_name(got[i].scalar_type()) == want[i].dtype);
      CHECK(got[i].sizes().vec() == want[i].shape);
      at::Tensor flat = got[i].to(at::kDouble).contiguous().flatten();
      REQUIRE(flat.numel() == static_cast<int64_t>(want[i].values.size()));
      for (size_t k = 0; k < want[i].values.size(); ++k)
        CHECK(flat[static_cast<int64_t>(k)].item<double>() == want[i].values[k]);
    }
  }
}

TEST_CASE("every unreadable input is exit 3 with what the file is and what to do") {
  struct Case {
    const char* file;
    const char* what;
    const char* hint;
  } cases[] = {
      {"model.pt", "is a TorchScript model, not a tensor file", "give the model as MODEL"},
      {"state_dict.pt", "is a state_dict", "torch.save(x, path)"},
      {"eager.pt", "torch.nn.modules.container.Sequential", "torch.save(x, path)"},
      {"dict1.pt", "is a dict", "forward's argument order"},
      {"dict2.pt", "is a dict", "forward's argument order"},
      {"parameter.pt", "is an nn.Parameter", "p.detach()"},
      {"legacy.pt", "legacy (non-zip) torch.save file", "torch.save(x, path)"},
      {"protocol4.pt", "pickle protocol 4", "default protocol"},
      {"int.pt", "holds a value of type Int", "tuple of tensors"},
      {"mixed.pt", "holds a value of type Int among its items", "tuple of tensors"},
      {"unicode.npy", "dtype '<U3'", "astype"},
      {"truncated.pt", "is truncated or not a valid zip archive", "torch.save(x, path)"},
      {"truncated.npy", "truncated .npy", "numpy.save"},
      {"empty.pt", "is empty", "torch.save(x, path)"},
      {"random.bin", "neither a torch.save file nor a .npy array", "torch.save(x, path)"},
      {"folder", "is a directory", "torch.save(x, path)"},
      {"missing.pt", "does not exist", "check the path"},
  };
  for (const auto& c : cases) {
    auto [code, line] = read_error(c.file);
    const std::string told = std::string(c.file) + ": " + line;  // INFO cannot capture a binding
    INFO(told);
    CHECK(code == Exit::bad_input);
    CHECK(line.find(std::string("modrec: error: input file ")) == 0);
    CHECK(line.find(c.what) != std::string::npos);
    CHECK(line.find(c.hint) != std::string::npos);
    CHECK(line.find(c.file) != std::string::npos);
    CHECK(line.find('\n') == std::string::npos);
  }
}

// Found by tests/fuzz/tensor_file_fuzz.cpp: this zip's directory records make miniz read before
// the start of the file's bytes, which LibTorch's in-memory reader did without a bounds check
// (ASan: a 4096-byte read outside the buffer). It must be one clean error.
TEST_CASE("a zip that points miniz outside the file is a clean error") {
  const std::string path =
      std::string(MODREC_SOURCE_DIR) + "/tests/fuzz/regressions/tensor_zip_read_before_buffer.pt";
  try {
    read_inputs(path);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::bad_input);
    CHECK(std::string(e.what()).find("is truncated or not a valid zip archive") !=
          std::string::npos);
  }
}

// Found by tests/fuzz/tensor_file_fuzz.cpp: data.pkl's BINUNICODE claims 0xFFFF0007 bytes, which
// LibTorch's unpickler allocated and zero-filled (4 GB) before finding the file ends.
TEST_CASE("a pickled string longer than the file is refused before LibTorch allocates it") {
  const std::string path =
      std::string(MODREC_SOURCE_DIR) + "/tests/fuzz/regressions/tensor_pickle_4gb_string.pt";
  try {
    read_inputs(path);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::bad_input);
    CHECK(
        std::string(e.what()) ==
        "input file is damaged: its data.pkl claims 4294901767 bytes at offset 39 but ends before");
  }
}

// 5,000 nested lists: LibTorch's unpickler builds them, and freeing them recursed 5,000 deep
// (200,000 overflowed the stack: SIGSEGV). Refused before LibTorch reads the pickle.
TEST_CASE(
    "a pickle nesting values deeper than torch.save does is refused before LibTorch reads it") {
  const std::string path =
      std::string(MODREC_SOURCE_DIR) + "/tests/fuzz/regressions/tensor_pickle_deep_lists.pt";
  try {
    read_inputs(path);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::bad_input);
    CHECK(std::string(e.what()) == "input file's data.pkl nests values more than 1000 deep");
  }
}

TEST_CASE("read_saved_value keeps a saved tuple's structure and the values that are no tensors") {
  const std::string path = fixture("saved_value.pt");
  const auto x = at::arange(4.0);
  write_pt(path, c10::ivalue::Tuple::create({x, true, c10::IValue(), int64_t{3}}));
  const c10::IValue v = read_saved_value(path);
  REQUIRE(v.isTuple());
  const auto& items = v.toTupleRef().elements();
  REQUIRE(items.size() == 4);
  CHECK(at::equal(items[0].toTensor(), x));
  CHECK(items[1].toBool());
  CHECK(items[2].isNone());
  CHECK(items[3].toInt() == 3);
  CHECK(at::equal(read_saved_value(fixture("v2.npy")).toTensor(), at::arange(4.0)));
}
