#include "merge/combine_rule.h"

#include <doctest/doctest.h>

using namespace modrec;

TEST_CASE("per-sample captures concatenate, or add up under --reduce") {
  for (const char* capture : {"input", "output", "grad_input", "grad_output"}) {
    CHECK(combine_rule(capture, Reduce::none) == Combine::concatenate);
    CHECK(combine_rule(capture, Reduce::sum) == Combine::sum);
    CHECK(combine_rule(capture, Reduce::mean) == Combine::mean);
    CHECK(stats_rule(capture) == StatsRule::merge);
  }
}

TEST_CASE("a module's parameters are shared; their gradients add up, whatever --reduce says") {
  for (Reduce reduce : {Reduce::none, Reduce::sum, Reduce::mean}) {
    CHECK(combine_rule("param", reduce) == Combine::first);
    CHECK(combine_rule("param_grad", reduce) == Combine::sum);
  }
  CHECK(stats_rule("param") == StatsRule::first);
  CHECK(stats_rule("param_grad") == StatsRule::from_tensors);
}
