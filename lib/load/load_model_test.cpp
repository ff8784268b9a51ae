#include "load/load_model.h"

#include <ATen/ATen.h>
#include <doctest/doctest.h>

#include <sstream>
#include <vector>

#include "load/test_fixtures.h"
#include "util/error.h"
#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::test::fixture;

namespace {
std::pair<Exit, std::string> load_error(const std::string& name) {
  return modrec::testing::error_of([&] { load_model(fixture(name)); });
}
}  // namespace

TEST_CASE("a scripted model loads and computes what Python computed") {
  torch::jit::Module m = load_model(fixture("model.pt"));
  at::Tensor out = m.forward({at::ones({2, 4})}).toTensor();
  std::istringstream expected(test::slurp(fixture("model_out.txt")));
  std::vector<float> want;
  for (double v; expected >> v;) want.push_back(static_cast<float>(v));
  REQUIRE(out.numel() == static_cast<int64_t>(want.size()));
  at::Tensor flat = out.flatten();
  for (size_t i = 0; i < want.size(); ++i)
    CHECK(flat[static_cast<int64_t>(i)].item<float>() == want[i]);
}

TEST_CASE("every bad model file is exit 3 with what it is and what to do") {
  struct Case {
    const char* file;
    const char* what;
    const char* hint;
  } cases[] = {
      {"missing.pt", "does not exist", "check the path"},
      {"folder.pt", "is a directory", "torch.jit.save"},
      {"empty.pt", "is empty", "torch.jit.script(model).save(path)"},
      {"random.bin", "is not a zip archive", "torch.jit.script(model).save(path)"},
      {"truncated.pt", "is truncated", "damaged"},
      {"flipped_header.pt", "bad local header", "damaged"},
      {"flipped_weight.pt", "archive entry model/data/0 is damaged (CRC-32 mismatch)", "again"},
      {"state_dict.pt", "is a state_dict, not a TorchScript model", "load_state_dict"},
      {"eager.pt", "is an eager pickled module (torch.save(model))",
       "torch.jit.script(model).save(path)"},
      {"eager_main.pt", "__main__.Net", "torch.jit.script(model).save(path)"},
      {"tensor.pt", "is a tensor file", "--input"},
      {"tuple.pt", "is a tensor file", "--input"},
      {"array.npy", "is a NumPy .npy array", "--input"},
      {"legacy.pt", "legacy (non-zip) torch.save pickle", "torch.jit.script(model).save(path)"},
      {"no_code.zip", "without TorchScript code", "torch.jit.script(model).save(path)"},
  };
  for (const auto& c : cases) {
    auto [code, line] = load_error(c.file);
    const std::string told = std::string(c.file) + ": " + line;  // INFO cannot capture a binding
    INFO(told);
    CHECK(code == Exit::bad_input);
    CHECK(line.find(c.what) != std::string::npos);
    CHECK(line.find(c.hint) != std::string::npos);
    CHECK(line.find(c.file) != std::string::npos);
    CHECK(line.find('\n') == std::string::npos);
  }
}

TEST_CASE("damaged compressed code fails the CRC check, naming the entry") {
  // LibTorch 1.13 inflates it unchecked and reports a bogus parse error instead.
  std::istringstream names(test::slurp(fixture("flipped_names.txt")));
  std::string weight, code_entry;
  names >> weight >> code_entry;
  auto [code, line] = load_error("flipped_code.pt");
  const std::string told = line;  // INFO cannot capture a binding
  INFO(told);
  CHECK(code == Exit::bad_input);
  CHECK(line.find("archive entry " + code_entry + " is damaged (CRC-32 mismatch)") !=
        std::string::npos);
}

TEST_CASE("Weights::meta gives the stored shapes and dtypes on the meta device, reading no data") {
  const std::string path = fixture("model.pt");
  const torch::jit::Module read = load_model(path);
  const torch::jit::Module meta = load_model(path, inspect_file(path), Weights::meta);
  std::vector<at::Tensor> want, got;
  for (const at::Tensor& p : read.parameters()) want.push_back(p);
  for (const at::Tensor& p : meta.parameters()) got.push_back(p);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].is_meta());
    CHECK(got[i].sizes().vec() == want[i].sizes().vec());
    CHECK(got[i].strides().vec() == want[i].strides().vec());
    CHECK((got[i].scalar_type() == want[i].scalar_type()));
    CHECK(got[i].requires_grad() == want[i].requires_grad());
  }
  // A damaged weight byte is refused when the weights are read, and never seen when they are not.
  const std::string flipped = fixture("flipped_weight.pt");
  CHECK_NOTHROW(load_model(flipped, inspect_file(flipped), Weights::meta));
}

TEST_CASE("a traced model's tensor constants import on the meta device too") {
  // TorchScript's import compares equal-shaped constants (constant pooling) with aten::equal,
  // which has no meta kernel outside the import.
  const std::string path = fixture("traced_constants.pt");
  const torch::jit::Module meta = load_model(path, inspect_file(path), Weights::meta);
  for (const at::Tensor& p : meta.parameters()) CHECK(p.is_meta());
  const at::Tensor x = at::ones({3}, at::kMeta);
  CHECK_THROWS(at::equal(x, x));
}
