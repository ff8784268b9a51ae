// --layers selectors: each kind, and the usage errors with their hint.
#include <doctest/doctest.h>

#include "model/layer_match.h"
#include "util/error.h"

namespace modrec {
namespace {

const std::vector<LayerRef> kLayers{{"0-1", "", "ResNet"},
                                    {"1-1", "conv1", "Conv2d"},
                                    {"1-2", "layer1", "Sequential"},
                                    {"2-1", "layer1.0", "BasicBlock"},
                                    {"3-1", "layer1.0.conv1", "Conv2d"},
                                    {"3-2", "layer1.0.relu", "ReLU"},
                                    {"1-3", "fc", "Linear"}};

std::vector<size_t> pick(const std::string& selectors) {
  return LayerMatcher(selectors).select(kLayers);
}

Error usage_error(const std::string& selectors) {
  try {
    pick(selectors);
  } catch (const Error& e) {
    return e;
  }
  FAIL("no error for ", selectors);
  return Error(Exit::ok, "", "");
}

TEST_CASE("label_depth reads the depth of depth-idx labels only") {
  CHECK(label_depth("0-1") == 0);
  CHECK(label_depth("12-3") == 12);
  CHECK(label_depth("1-") == -1);
  CHECK(label_depth("conv1") == -1);
  CHECK(label_depth("a-1") == -1);
}

TEST_CASE("each selector kind") {
  using V = std::vector<size_t>;
  CHECK(pick("all") == V{0, 1, 2, 3, 4, 5, 6});
  CHECK(pick("1-3") == V{6});
  CHECK(pick("layer1.0.conv1") == V{4});
  CHECK(pick("type:Conv2d") == V{1, 4});
  CHECK(pick("re:^layer1\\.0\\.") == V{4, 5});
  CHECK(pick("re:conv") == V{1, 4});
  CHECK(pick("depth:1") == V{1, 2, 6});
  CHECK(pick("fc,type:ReLU,1-1") == V{1, 5, 6});  // a union, in the layers' order
  CHECK(LayerMatcher("type:Linear").matches(kLayers[6]));
  CHECK_FALSE(LayerMatcher("type:Linear").matches(kLayers[1]));
}

TEST_CASE("`all` selects nothing from nothing without an error") {
  CHECK(LayerMatcher("all").select({}).empty());
}

TEST_CASE("an unknown label is a usage error listing the closest labels first") {
  const Error e = usage_error("1-4");
  CHECK(e.code() == Exit::usage);
  CHECK(e.where() == "--layers");
  CHECK(std::string(e.what()) == "layer selector '1-4' matches no layer");
  // distance 1: 1-1, 1-2, 1-3 (in order), then 2-1, 3-1 ... at distance 2
  CHECK(e.hint().rfind("valid labels: 1-1 (conv1), 1-2 (layer1), 1-3 (fc), ", 0) == 0);
  CHECK(e.hint().find("0-1 (root)") != std::string::npos);
}

TEST_CASE("a module path that matches nothing is ranked by distance to paths") {
  const Error e = usage_error("layer1.0.relu1");
  CHECK(e.code() == Exit::usage);
  CHECK(e.hint().rfind("valid labels: 3-2 (layer1.0.relu)", 0) == 0);
}

TEST_CASE("malformed selectors are usage errors") {
  for (const char* s : {"", "1-1,,fc", "fc,", "depth:x", "re:(", "type:Conv3d", "depth:7"}) {
    INFO(s);
    CHECK(usage_error(s).code() == Exit::usage);
  }
}

}  // namespace
}  // namespace modrec
