#include "summary/untold_shapes.h"

#include <doctest/doctest.h>

#include "summary/test_fixtures.h"

using namespace modrec;
using namespace modrec::testing;

namespace {

// Net > enc (given x by keyword?, returns two tensors) > enc.attn (one tensor each way).
struct Untold {
  TreeBuilder b{"Net"};
  int enc = b.add(0, "enc", "Encoder");
  int attn = b.add(enc, "attn", "Attention");
  TraceBuilder t;

  Untold() {
    t.enter(0, value({1, 4}));
    t.enter(enc, value({1, 4}));
    t.leaf(attn, {1, 4}, {1, 4});
    ValueMeta two = value({1, 4});
    two.tensors.push_back(TensorInfo{{1, 2}, "float32", 4});
    t.exit(two);
    t.exit(value({1, 4}));
    for (int c : {1, 2})
      t.trace.calls[c].keywords_untold = t.trace.calls[c].structure_untold = true;
  }
};

SummaryOptions with(std::vector<Column> columns, int depth = 3) {
  SummaryOptions options;
  options.columns = std::move(columns);
  options.depth = depth;
  return options;
}

}  // namespace

TEST_CASE("Input Shape of a call without a signature is untold, given a tensor or not") {
  Untold u;
  u.t.trace.calls[2].inputs = ValueMeta{};  // an argument it does not read (a rotary's)
  const UntoldShapes untold =
      untold_shapes(u.t.trace, u.b.tree, with({Column::input_size, Column::output_size}));
  CHECK(untold.inputs == std::vector<std::string>{"enc", "enc.attn"});
  // Only a result of several tensors has a structure to lose.
  CHECK(untold.outputs == std::vector<std::string>{"enc"});
}

TEST_CASE("only the columns and rows the table shows") {
  Untold u;
  // torchinfo's default columns with an input: output_size, num_params.
  CHECK(untold_shapes(u.t.trace, u.b.tree, {}).inputs.empty());
  CHECK(untold_shapes(u.t.trace, u.b.tree, {}).outputs == std::vector<std::string>{"enc"});
  CHECK(untold_shapes(u.t.trace, u.b.tree, with({Column::input_size}, 1)).inputs ==
        std::vector<std::string>{"enc"});
  CHECK(untold_shapes(u.t.trace, u.b.tree, with({Column::input_size}, 0)).inputs.empty());
}

TEST_CASE("a call whose signature the file keeps is told, the root's always") {
  Untold u;
  for (Call& c : u.t.trace.calls) c.keywords_untold = c.structure_untold = false;
  const UntoldShapes untold =
      untold_shapes(u.t.trace, u.b.tree, with({Column::input_size, Column::output_size}));
  CHECK(untold.inputs.empty());
  CHECK(untold.outputs.empty());
}
