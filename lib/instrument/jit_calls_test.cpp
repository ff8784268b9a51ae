#include "instrument/jit_calls.h"

#include <doctest/doctest.h>
#include <torch/script.h>

#include "util/python_test_fixtures.h"

namespace modrec {

TEST_CASE("a traced model's fixed devices become the device it runs on") {
  // torch.jit.trace records torch.tensor(0.5) as a constant moved to the CPU, and the arange's
  // device: both "cpu" in the code, whatever device forward later runs on.
  const std::string path = test::temp_dir("devices") + "/traced.pt";
  REQUIRE(test::python_ok(
      "import torch\n"
      "class M(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        return x * torch.tensor(0.5) + torch.arange(x.shape[1], device=x.device)\n"
      "torch.jit.trace(M(), torch.ones(2, 3)).save('" +
      path + "')"));
  torch::jit::Module module = torch::jit::load(path);
  const auto code = [&] { return module.get_method("forward").graph()->toString(); };
  CHECK(code().find("cpu") != std::string::npos);

  move_device_constants(module, at::kMeta);
  CHECK(code().find("cpu") == std::string::npos);
  const at::Tensor y = module.forward({at::ones({2, 3}, at::kMeta)}).toTensor();
  CHECK(y.is_meta());
  CHECK(y.sizes().vec() == std::vector<int64_t>{2, 3});

  // Unmoved, the same forward fails: a meta tensor cannot move to the CPU.
  torch::jit::Module unmoved = torch::jit::load(path);
  CHECK_THROWS(unmoved.forward({at::ones({2, 3}, at::kMeta)}));
}

}  // namespace modrec
