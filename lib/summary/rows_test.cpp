// Row building and labels on structures with reused and never-called modules, checked against
// torchinfo 1.8.0's algorithm worked by hand (docs/torchinfo-format.md, "Rows" and "Labels").
#include "summary/rows.h"

#include <doctest/doctest.h>

#include <tuple>

#include "summary/summary.h"
#include "summary/test_fixtures.h"

using namespace modrec;
using namespace modrec::testing;

namespace {
std::vector<std::string> labels(const std::vector<LayerRow>& rows) {
  std::vector<std::string> out;
  for (const LayerRow& r : rows) out.push_back(r.label);
  return out;
}
}  // namespace

TEST_CASE("one counter per depth over the whole list, never reset per parent") {
  TreeBuilder b("Net");
  const int s1 = b.add(0, "a", "Sequential");
  const int a0 = b.add(s1, "0", "Linear", linear(2, 2));
  const int s2 = b.add(0, "b", "Sequential");
  const int b0 = b.add(s2, "0", "Linear", linear(2, 2));
  TraceBuilder t;
  t.enter(0, value({1, 2}));
  t.enter(s1, value({1, 2}));
  t.leaf(a0, {1, 2}, {1, 2});
  t.exit(value({1, 2}));
  t.enter(s2, value({1, 2}));
  t.leaf(b0, {1, 2}, {1, 2});
  t.exit(value({1, 2}));
  t.exit(value({1, 2}));
  const auto rows = build_rows(b.tree, t.trace);
  CHECK(labels(rows) == std::vector<std::string>{"0-1", "1-1", "2-1", "1-2", "2-2"});
  CHECK(rows[2].parent == 1);
  CHECK(rows[4].parent == 3);
}

TEST_CASE("a reused module: every call is a row, later calls recursive") {
  TreeBuilder b("Net");
  const int lin = b.add(0, "lin", "Linear", linear(3, 3));
  TraceBuilder t;
  t.enter(0, value({1, 3}));
  for (int i = 0; i < 3; ++i) t.leaf(lin, {1, 3}, {1, 3});
  t.exit(value({1, 3}));
  const Summary s = summarize(b.tree, t.trace, 12);
  CHECK(labels(s.rows) == std::vector<std::string>{"0-1", "1-1", "1-2", "1-3"});
  CHECK_FALSE(s.rows[1].is_recursive);
  CHECK(s.rows[2].is_recursive);
  CHECK(s.rows[3].is_recursive);
  CHECK(s.totals.total_params == 12);
  CHECK(s.totals.mult_adds == 3 * 12);            // every call counts: out[0] * params
  CHECK(s.totals.output_bytes == 3 * 2 * 3 * 4);  // every call's output, x2
}

// A ModuleList whose items are called with another depth-1 module in between: its fallback
// row is inserted twice as the same object, so both places show its last label (1-3) and the
// recursive mark the second insertion gave it.
TEST_CASE("a never-called container inserted twice shares one label and the recursive mark") {
  TreeBuilder b("Net");
  const int list = b.add(0, "items", "ModuleList");
  const int a = b.add(list, "0", "Linear", linear(2, 2));
  const int c = b.add(0, "mid", "ReLU");
  const int bb = b.add(list, "1", "Linear", linear(2, 2));
  TraceBuilder t;
  t.enter(0, value({1, 2}));
  t.leaf(a, {1, 2}, {1, 2});
  t.leaf(c, {1, 2}, {1, 2});
  t.leaf(bb, {1, 2}, {1, 2});
  t.exit(value({1, 2}));
  const Summary s = summarize(b.tree, t.trace, 8);
  CHECK(labels(s.rows) == std::vector<std::string>{"0-1", "1-3", "2-1", "1-2", "1-3", "2-2"});
  CHECK(s.rows[1].call == -1);
  CHECK(s.rows[1].is_recursive);
  CHECK(s.rows[4].is_recursive);
  CHECK(s.totals.total_params == 12);
}

TEST_CASE("an ancestor chain missing at several depths is inserted outermost first") {
  TreeBuilder b("Net");
  const int outer = b.add(0, "outer", "ModuleList");
  const int inner = b.add(outer, "0", "ModuleDict");
  const int leaf = b.add(inner, "x", "Linear", linear(2, 2));
  TraceBuilder t;
  t.enter(0, value({1, 2}));
  t.leaf(leaf, {1, 2}, {1, 2});
  t.exit(value({1, 2}));
  const auto rows = build_rows(b.tree, t.trace);
  CHECK(labels(rows) == std::vector<std::string>{"0-1", "1-1", "2-1", "3-1"});
  CHECK(rows[1].module == outer);
  CHECK(rows[2].module == inner);
  CHECK_FALSE(rows[1].is_recursive);
  CHECK(rows[1].num_params == 6);
  CHECK(rows[1].leftover_params == 0);
}

TEST_CASE("parameters of modules that never ran stay with their parent as leftover") {
  TreeBuilder b("Net");
  const int used = b.add(0, "used", "Linear", linear(2, 2));
  b.add(0, "unused", "Linear", linear(2, 3));
  TraceBuilder t;
  t.enter(0, value({1, 2}));
  t.leaf(used, {1, 2}, {1, 2});
  t.exit(value({1, 2}));
  const Summary s = summarize(b.tree, t.trace, 8);
  REQUIRE(s.rows.size() == 2);
  CHECK(s.rows[0].leftover_params == 9);
  CHECK(s.totals.total_params == 15);
  CHECK(s.totals.param_bytes == 6 * 4);  // only leaf rows' parameters count as bytes
}

TEST_CASE("a module re-entered inside its own call: the hook fills the newest row") {
  TreeBuilder b("Net");
  const int m = b.add(0, "block", "Linear", linear(2, 2));
  TraceBuilder t;
  t.enter(0, value({1, 2}));
  t.enter(m, value({1, 2}));
  t.leaf(m, {1, 2}, {3, 2});
  t.exit(value({4, 2}));
  t.exit(value({1, 2}));
  const auto rows = build_rows(b.tree, t.trace);
  REQUIRE(rows.size() == 3);
  CHECK_FALSE(rows[1].executed);
  CHECK(rows[1].macs == 0);
  CHECK(rows[2].outputs.size == Shape{4, 2});  // the outer call returned last
  CHECK(rows[2].macs == 3 * 6 + 4 * 6);
}

TEST_CASE("mult-adds: conv ignores channels, RNN weights use the first two output dims") {
  TreeBuilder b("Net");
  const int conv = b.add(0, "conv", "Conv2d", conv2d(3, 8, 3), Kernel{{3, 3}, false});
  const int gru =
      b.add(0, "gru", "GRU", {param("weight_ih_l0", {12, 8}), param("bias_ih_l0", {12})});
  TraceBuilder t;
  t.enter(0, value({2, 3, 10, 10}));
  t.leaf(conv, {2, 3, 10, 10}, {2, 8, 8, 8});
  t.leaf(gru, {2, 5, 8}, {2, 5, 4});
  t.exit(value({2, 5, 4}));
  const auto rows = build_rows(b.tree, t.trace);
  CHECK(rows[1].macs == (8 * 3 * 3 * 3 + 8) * (2 * 8 * 8));
  CHECK(rows[2].macs == (12 * 8 + 12) * (2 * 5));
}

TEST_CASE("verbose parameter rows: direct weight shape swapped, last one closes the branch") {
  TreeBuilder b("Net");
  const int seq = b.add(0, "seq", "Sequential");
  b.add(seq, "0", "Linear", linear(4, 3));
  const CallTrace trace = static_trace(b.tree);
  const auto rows = build_rows(b.tree, trace);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].param_rows.empty());  // the root lists only its direct parameters
  REQUIRE(rows[1].param_rows.size() == 2);
  CHECK(rows[1].param_rows[0].name == "0.weight");
  CHECK(rows[1].param_rows[0].kernel == "[3, 4]");
  CHECK(rows[1].param_rows[1].count == "└─3");
  CHECK(rows[2].param_rows[0].kernel == "[4, 3]");
  CHECK(rows[2].param_rows[0].count == "├─12");
}

// Hugging Face's T5 ties one embedding weight into `shared`, `encoder.embed_tokens` and
// `decoder.embed_tokens`; `shared` itself is never called. torchinfo's named_parameters() yields
// the weight once, so the root counts it once, its leftover goes negative and is taken as 0, and
// the embedding rows count it each (torchinfo on that model: 2,144, not 2,944).
TEST_CASE("a weight tied between modules counts once in each row that holds it") {
  static const int weight = 0;  // the one tensor's identity
  Param tied = param("weight", {50, 16});
  tied.tensor = &weight;
  TreeBuilder b("Net");
  b.add(0, "shared", "Embedding", {tied});
  const int enc = b.add(0, "encoder", "Stack");
  const int enc_embed = b.add(enc, "embed_tokens", "Embedding", {tied});
  const int enc_proj = b.add(enc, "proj", "Linear", linear(16, 16));
  const int dec = b.add(0, "decoder", "Stack");
  const int dec_embed = b.add(dec, "embed_tokens", "Embedding", {tied});
  const int dec_proj = b.add(dec, "proj", "Linear", linear(16, 16));
  TraceBuilder t;
  t.enter(0, value({2, 5}));
  for (auto [stack, embed, proj] :
       {std::tuple{enc, enc_embed, enc_proj}, {dec, dec_embed, dec_proj}}) {
    t.enter(stack, value({2, 5}));
    t.leaf(embed, {2, 5}, {2, 5, 16});
    t.leaf(proj, {2, 5, 16}, {2, 5, 16});
    t.exit(value({2, 5, 16}));
  }
  t.exit(value({2, 5, 16}));
  const Summary s = summarize(b.tree, t.trace, 12);
  CHECK(s.rows[0].num_params == 800 + 2 * 272);
  CHECK(s.rows[2].num_params == 800);
  CHECK(s.rows[5].num_params == 800);
  CHECK(s.totals.total_params == 2 * (800 + 272));
  // Without an input every module has a row: `shared` too, as torchinfo counts it.
  CHECK(summarize(b.tree, static_trace(b.tree), 12).totals.total_params == 3 * 800 + 2 * 272);
}

namespace {
std::vector<bool> recursive(const std::vector<LayerRow>& rows) {
  std::vector<bool> out;
  for (const LayerRow& r : rows) out.push_back(r.is_recursive);
  return out;
}
}  // namespace

// scripts/models.py's SharedModuleNet: `b` is `a`, a block (Linear, ReLU) at p1.0 and p2.1.
// torchinfo hooks each object under its last path (b, p2.1), compares objects as it inserts the
// containers missing from the chain, and marks an object's later rows recursive (its table on
// that model, with an input and without: 120 and 80 parameters).
TEST_CASE("one module object at several paths is one module to torchinfo's rows") {
  static const int tensors[3][2] = {};  // identities of a's, the block's, p1.1's weight and bias
  const auto held = [](int i) {
    std::vector<Param> params = linear(4, 4);
    for (size_t k = 0; k < params.size(); ++k) params[k].tensor = &tensors[i][k];
    return params;
  };
  TreeBuilder b("Net");
  const int a = b.add(0, "a", "Linear", held(0));
  const int b_ = b.add(0, "b", "Linear", held(0));
  const int p1 = b.add(0, "p1", "Sequential");
  const int block1 = b.add(p1, "0", "Sequential");
  const int lin1 = b.add(block1, "0", "Linear", held(1));
  const int relu1 = b.add(block1, "1", "ReLU");
  const int p1_1 = b.add(p1, "1", "Linear", held(2));
  const int p2 = b.add(0, "p2", "Sequential");
  const int tanh = b.add(p2, "0", "Tanh");
  const int block2 = b.add(p2, "1", "Sequential");
  const int lin2 = b.add(block2, "0", "Linear", held(1));
  const int relu2 = b.add(block2, "1", "ReLU");
  b.tree.modules[b_].same_as = a;
  b.tree.modules[block2].same_as = block1;
  b.tree.modules[lin2].same_as = lin1;
  b.tree.modules[relu2].same_as = relu1;
  CHECK(b.tree.hooked_path(a) == b_);
  CHECK(b.tree.hooked_path(relu2) == relu2);
  CHECK(b.tree.hooked_path(p1_1) == p1_1);
  CHECK(b.tree.object_of(lin2) == lin1);

  TraceBuilder t;  // calls as a .pt2's are reported: under the hooked paths
  t.enter(0, value({3, 4}));
  t.leaf(b_, {3, 4}, {3, 4});
  t.leaf(b_, {3, 4}, {3, 4});
  t.enter(p1, value({3, 4}));
  t.enter(block2, value({3, 4}));
  t.leaf(lin2, {3, 4}, {3, 4});
  t.leaf(relu2, {3, 4}, {3, 4});
  t.exit(value({3, 4}));
  t.leaf(p1_1, {3, 4}, {3, 4});
  t.exit(value({3, 4}));
  t.enter(p2, value({3, 4}));
  t.leaf(tanh, {3, 4}, {3, 4});
  t.enter(block2, value({3, 4}));
  t.leaf(lin2, {3, 4}, {3, 4});
  t.leaf(relu2, {3, 4}, {3, 4});
  t.exit(value({3, 4}));
  t.exit(value({3, 4}));
  t.exit(value({3, 4}));
  const Summary s = summarize(b.tree, t.trace, 12);
  CHECK(labels(s.rows) == std::vector<std::string>{"0-1", "1-1", "1-2", "1-3", "1-4", "2-1", "3-1",
                                                   "3-2", "1-5", "2-2", "1-6", "2-3", "2-4", "3-3",
                                                   "3-4"});
  CHECK(recursive(s.rows) == std::vector<bool>{false, false, true, false, true, false, false, false,
                                               true, false, false, false, true, true, true});
  CHECK(s.rows[4].module == p2);  // p2's container row, before the block hooked under p2.1
  CHECK(s.totals.total_params == 120);

  const Summary structure = summarize(b.tree, static_trace(b.tree), 12);
  CHECK(recursive(structure.rows) == std::vector<bool>{false, false, true, false, false, false,
                                                       false, false, false, false, true, true,
                                                       true});
  CHECK(structure.totals.total_params == 80);
}
