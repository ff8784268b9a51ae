// Cell texts torchinfo 1.8.0 prints for cases the reference outputs do not cover.
#include "summary/cells.h"

#include <doctest/doctest.h>

#include "summary/test_fixtures.h"
#include "summary/text.h"

using namespace modrec;
using namespace modrec::testing;

namespace {
// Net with a frozen conv, a half-frozen Linear and a Sequential holding one of each.
struct Frozen {
  ModuleTree tree;
  Summary summary;
};

Frozen frozen_net() {
  TreeBuilder b("Net");
  const int conv =
      b.add(0, "conv", "Conv2d", {param("weight", {64, 3, 7, 7}, false)}, Kernel{{3}, true});
  const int lin = b.add(0, "fc", "Linear", {param("weight", {2, 4}, false), param("bias", {2})});
  TraceBuilder t;
  t.enter(0, value({1, 3, 8, 8}));
  t.leaf(conv, {1, 3, 8, 8}, {1, 64, 2, 2});
  t.leaf(lin, {1, 4}, {1, 2});
  t.exit(value({1, 2}));
  Frozen f{b.tree, {}};
  f.summary = summarize(f.tree, t.trace, 0);
  return f;
}
}  // namespace

TEST_CASE("non-trainable counts in parentheses; Trainable True/False/Partial/--") {
  const Frozen f = frozen_net();
  SummaryOptions o;
  CHECK(cell(f.summary, 1, Column::num_params, o) == "(9,408)");
  CHECK(cell(f.summary, 1, Column::trainable, o) == "False");
  CHECK(cell(f.summary, 2, Column::trainable, o) == "Partial");
  CHECK(cell(f.summary, 0, Column::trainable, o) == "Partial");
  CHECK(cell(f.summary, 1, Column::kernel_size, o) == "3");
  CHECK(cell(f.summary, 0, Column::kernel_size, o) == "--");
  CHECK(f.summary.totals.trainable_params == 2);
}

TEST_CASE("names and prefixes per row setting") {
  const Frozen f = frozen_net();
  SummaryOptions o;
  o.row_settings = {RowSetting::var_names, RowSetting::depth};
  CHECK(layer_name(f.summary.rows[0], f.tree, o) == "Net (Net)");
  CHECK(layer_name(f.summary.rows[2], f.tree, o) == "Linear (fc): 1-2");
  CHECK(tree_prefix(1, false) == "├─");
  CHECK(tree_prefix(3, false) == "│    │    └─");
  CHECK(tree_prefix(2, true) == "|    + ");
}

TEST_CASE("python number formats") {
  CHECK(text::with_commas(-1234567) == "-1,234,567");
  CHECK(text::with_commas(999) == "999");
  CHECK(text::percent7(0.0119) == "  1.19%");
  CHECK(text::percent7(1.0) == "100.00%");
  CHECK(text::fixed2_commas(1234.567) == "1,234.57");
  CHECK(text::pad_right("├─x", 5) == "├─x  ");
}
