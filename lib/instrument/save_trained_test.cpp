#include "instrument/save_trained.h"

#include <doctest/doctest.h>

#include <fstream>
#include <set>

#include "instrument/open_model.h"
#include "util/python_test_fixtures.h"

namespace modrec {
namespace {

struct NoHooks : CallHooks {
  void enter(int, int, const std::vector<c10::IValue>&) override {}
  c10::IValue leave(int, int, const c10::IValue& output) override { return output; }
};

// Two Linear layers sharing one weight, and a BatchNorm (buffers).
const char* kNet =
    "import torch, sys\n"
    "class Net(torch.nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.a = torch.nn.Linear(3, 3)\n"
    "        self.b = torch.nn.Linear(3, 3)\n"
    "        self.b.weight = self.a.weight\n"
    "        self.bn = torch.nn.BatchNorm1d(3)\n"
    "    def forward(self, x):\n"
    "        return self.bn(self.b(self.a(x)))\n"
    "torch.manual_seed(0)\n";

// Runs kNet and then `tail` as a script file (torch.jit.script reads the class's source).
bool make_net(const std::string& dir, const std::string& tail) {
  const std::string script = dir + "/make_net.py";
  std::ofstream(script) << kNet << tail << "\n";
  return test::run_python(script, "");
}

// The model with its weights, as watch opens it.
std::unique_ptr<InstrumentedModel> open_read(const std::string& path,
                                             const InstrumentOptions& options = {}) {
  return open_model(path, inspect_file(path), Weights::read, {}, options);
}

}  // namespace

TEST_CASE(
    "a trained TorchScript model is saved as loaded, with its trained values, mode and ties") {
  const std::string dir = test::temp_dir("save-trained");
  const std::string path = dir + "/net.pt", out = dir + "/trained.pt";
  REQUIRE(make_net(dir, "torch.jit.script(Net()).save('" + path + "')"));
  auto model = open_read(path, {.savable = true});
  model->train(true);
  NoHooks hooks;
  model->forward({torch::randn({4, 3})}, hooks);  // the instrumented graphs run
  {
    torch::NoGradGuard no_grad;
    std::set<const c10::TensorImpl*> stepped;  // a step that changes every parameter once
    for (at::Tensor& p : model->parameters())
      if (stepped.insert(p.unsafeGetTensorImpl()).second) p.add_(1);
  }
  model->train(false);
  model->save(out);
  // Python, which has no modrec operators, loads it: every parameter the original's plus one,
  // still a shared leaf that requires grad, the buffers as the forward left them, eval mode.
  CHECK(
      test::python_ok("import torch\n"
                      "orig, saved = torch.jit.load('" +
                      path + "'), torch.jit.load('" + out +
                      "')\n"
                      "for name, p in orig.named_parameters():\n"
                      "    q = dict(saved.named_parameters())[name]\n"
                      "    assert torch.equal(q, p + 1) and q.requires_grad and q.is_leaf, name\n"
                      "assert saved.a.weight.data_ptr() == saved.b.weight.data_ptr()\n"
                      "assert saved.bn.num_batches_tracked.item() == 1\n"
                      "assert not saved.training and not saved.bn.training\n"
                      "saved(torch.randn(2, 3))\n"));
}

TEST_CASE("a .pt2 cannot be opened to be saved: a usage error") {
  const std::string dir = test::temp_dir("save-pt2");
  const std::string path = dir + "/net.pt2";
  REQUIRE(make_net(dir,
                   "torch.export.save(torch.export.export(Net(), "
                   "(torch.randn(4, 3),)), '" +
                       path + "')"));
  CHECK(open_read(path)->tree().modules.size() == 4);
  try {
    open_read(path, {.savable = true});
    FAIL("opened");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::usage);
    CHECK(std::string(e.what()).find("--save-model") != std::string::npos);
  }
}

}  // namespace modrec
