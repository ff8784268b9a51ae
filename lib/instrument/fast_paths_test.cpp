#include "instrument/fast_paths.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "instrument/script_model.h"
#include "util/python_test_fixtures.h"

namespace modrec {
namespace {

// Records which modules were called, by index.
struct Calls : CallHooks {
  std::vector<int> modules;
  void enter(int, int module, const std::vector<c10::IValue>&) override {
    modules.push_back(module);
  }
  c10::IValue leave(int, int, const c10::IValue& output) override { return output; }
};

}  // namespace

TEST_CASE(
    "a scripted TransformerEncoder calls its layers' submodules under no-grad, as eager does under "
    "hooks") {
  const std::string dir = test::temp_dir("fastpath");
  const std::string path = dir + "/enc.pt";
  REQUIRE(
      test::python_ok("import torch; torch.manual_seed(0); "
                      "layer = torch.nn.TransformerEncoderLayer(16, 2, 32, batch_first=True); "
                      "torch.jit.script(torch.nn.TransformerEncoder(layer, 2).eval()).save('" +
                      path + "')"));
  torch::jit::Module module = torch::jit::load(path);
  module.eval();
  ScriptModel model(module);  // leaves the fast paths
  CHECK(model.module()
            .attr("layers")
            .toModule()
            .attr("0")
            .toModule()
            .attr("activation_relu_or_gelu")
            .toInt() == 0);
  CHECK(leave_fast_paths(model.module()) == std::vector<std::string>{"layers.0", "layers.1"});

  Calls calls;
  torch::NoGradGuard no_grad;
  model.forward({torch::randn({2, 5, 16})}, calls);
  std::vector<std::string> called;
  for (int m : calls.modules) called.push_back(model.tree().modules[m].path);
  // Each layer's self_attn, linear1, dropout, linear2, norm1, norm2, dropout1, dropout2 run.
  CHECK(std::count(called.begin(), called.end(), "layers.0.linear1") == 1);
  CHECK(std::count(called.begin(), called.end(), "layers.1.self_attn") == 1);
  CHECK(called.size() == 1 + 2 * 9);  // the root, then per layer: itself and its 8 children
}

}  // namespace modrec
