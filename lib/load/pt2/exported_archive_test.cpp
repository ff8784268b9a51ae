#include "load/pt2/exported_archive.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "files/file_kind.h"
#include "load/pt2/exported_tree.h"
#include "util/python_test_fixtures.h"
#include "util/error.h"

using namespace modrec;
using nlohmann::json;

namespace {

const std::string& fixtures() {
  static const test::TempDir dir("pt2", "/lib/load/pt2/test_fixtures.py");
  return dir.path;
}

std::string fixture(const std::string& name) { return fixtures() + "/" + name; }

const json& expected() {
  static const json doc = json::parse(test::slurp(fixture("expected.json")));
  return doc;
}

std::string load_error(const std::string& name) {
  try {
    pt2::read_exported(fixture(name));
  } catch (const Error& e) {
    CHECK(e.code() == Exit::bad_input);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a torch.export archive is told apart by its content") {
  CHECK(inspect_file(fixture("net.pt2")).kind == FileKind::exported);
  CHECK(inspect_file(fixture("truncated.pt2")).kind == FileKind::damaged);
}

TEST_CASE("the stored parameters and buffers are PyTorch's") {
  const pt2::ExportedArchive archive = pt2::read_exported(fixture("net.pt2"));
  CHECK(archive.program.schema_major == 8);
  for (const std::string kind : {"params", "buffers"})
    for (const json& t : expected().at(kind)) {
      const std::string name = t.at("name");
      INFO(name);
      REQUIRE(archive.state.count(name) == 1);
      const pt2::StoredTensor& stored = archive.state.at(name);
      CHECK(stored.is_param == (kind == "params"));
      CHECK(stored.value.sizes().vec() == t.at("shape").get<std::vector<int64_t>>());
      CHECK(stored.value.sum().item<double>() == doctest::Approx(t.at("sum").get<double>()));
    }
}

TEST_CASE("the module tree is named_modules() with the classes and parameters") {
  const ModuleTree tree = pt2::exported_tree(pt2::read_exported(fixture("net.pt2")));
  const json& modules = expected().at("modules");
  REQUIRE(tree.modules.size() == modules.size());
  for (size_t i = 0; i < modules.size(); ++i) {
    const Module& m = tree.modules[i];
    INFO(m.path);
    CHECK(m.path == modules[i].at("path").get<std::string>());
    // An Identity runs no op: its class is not in the archive.
    const std::string type = m.path == "b.id" ? pt2::kUnknownType : modules[i].at("type");
    CHECK(m.type == type);
  }
  const Module& bn = tree.modules[tree.find("b.bn")];
  CHECK(bn.parent == tree.find("b"));
  CHECK(bn.depth == 2);
  REQUIRE(bn.params.size() == 2);
  CHECK(bn.params[0].name == "weight");
  CHECK(bn.params[1].shape == Shape{4});
  const Module& fc = tree.modules[tree.find("fc")];
  REQUIRE(fc.params.size() == 2);
  CHECK_FALSE(fc.params[0].trainable);
  CHECK(fc.params[1].trainable);
}

TEST_CASE("a parametrized convolution's kernel is its computed weight's, as torchinfo shows it") {
  // test_fixtures.py's Reparametrized: conv (weight_norm) has no parameter `weight`, torchinfo
  // its kernel_size.
  const ModuleTree tree = pt2::exported_tree(pt2::read_exported(fixture("reparametrized.pt2")));
  const Module& conv = tree.modules.at(tree.find("conv"));
  CHECK(conv.type == "ParametrizedConv1d");
  REQUIRE(conv.kernel);
  CHECK(conv.kernel->dims == Shape{3});
  CHECK_FALSE(conv.kernel->is_int);
  CHECK_FALSE(tree.modules.at(tree.find("conv.parametrizations.weight.0")).kernel);
}

TEST_CASE("a bad archive is one bad_input error naming what is wrong") {
  CHECK(load_error("truncated.pt2").find("truncated") != std::string::npos);
  CHECK(load_error("no_weight.pt2").find("has no data/weights/weight_0") != std::string::npos);
  CHECK(load_error("schema99.pt2").find("schema version 99.") != std::string::npos);
  CHECK(load_error("bad_json.pt2").find("malformed JSON") != std::string::npos);
  for (const char* name : {"negative_size.pt2", "huge_strides.pt2"}) {
    CAPTURE(name);
    CHECK(load_error(name).find("stores stem.weight in fewer bytes than its shape needs") !=
          std::string::npos);
  }
}

TEST_CASE("Weights::meta gives the stored tensors' shapes and dtypes on the meta device") {
  const pt2::ExportedArchive read = pt2::read_exported(fixture("net.pt2"));
  const pt2::ExportedArchive meta =
      pt2::read_exported(Archive::open(fixture("net.pt2")), Weights::meta);
  REQUIRE(meta.state.size() == read.state.size());
  for (const auto& [fqn, stored] : read.state) {
    const std::string name = fqn;  // INFO cannot capture a binding
    INFO(name);
    const at::Tensor& t = meta.state.at(name).value;
    CHECK(t.is_meta());
    CHECK(t.sizes().vec() == stored.value.sizes().vec());
    CHECK(t.strides().vec() == stored.value.strides().vec());
    CHECK((t.scalar_type() == stored.value.scalar_type()));
    CHECK(t.requires_grad() == stored.value.requires_grad());
    CHECK(meta.state.at(name).is_param == stored.is_param);
  }
}
