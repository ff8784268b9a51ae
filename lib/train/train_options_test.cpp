#include "train/train_options.h"

#include <doctest/doctest.h>

#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::testing::error_of;

namespace {

TrainOptions valid() {
  TrainOptions o;
  o.loss = TrainLoss::sum;
  return o;
}

}  // namespace

TEST_CASE("valid settings pass") {
  CHECK(error_of([] { valid().validate(); }).first == Exit::ok);
  TrainOptions o = valid();
  o.loss = TrainLoss::mse;
  o.targets_file = "y.pt";
  CHECK(error_of([&] { o.validate(); }).first == Exit::ok);
}

TEST_CASE("each setting that cannot work is a usage error naming its flag") {
  struct Case {
    const char* flag;
    void (*spoil)(TrainOptions&);
  };
  const Case cases[] = {
      {"--targets", [](TrainOptions& o) { o.loss = TrainLoss::cross_entropy; }},
      {"--targets", [](TrainOptions& o) { o.targets_file = "y.pt"; }},
      {"--lr", [](TrainOptions& o) { o.lr = 0; }},
      {"--momentum", [](TrainOptions& o) { o.momentum = -1; }},
      {"--weight-decay", [](TrainOptions& o) { o.weight_decay = -1; }},
      {"--momentum", [](TrainOptions& o) { o.optimizer = OptimizerKind::adam, o.momentum = 0.9; }},
      {"--steps", [](TrainOptions& o) { o.steps = -1; }},
      {"--batch-size", [](TrainOptions& o) { o.batch_size = -1; }},
      {"--every", [](TrainOptions& o) { o.every = 0; }},
  };
  for (const Case& c : cases) {
    TrainOptions o = valid();
    c.spoil(o);
    const auto [code, line] = error_of([&] { o.validate(); });
    const std::string told = line;  // INFO cannot capture a binding
    INFO(told);
    CHECK(code == Exit::usage);
    CHECK(line.find(c.flag) != std::string::npos);
  }
}
