// The table must equal torchinfo 1.8.0's reference outputs byte for byte, for traces that follow
// the PyTorch call order and shapes of the reference networks.
#include "summary/table.h"

#include <doctest/doctest.h>

#include "summary/test_fixtures.h"

using namespace modrec;
using namespace modrec::testing;

namespace {

int64_t bytes_of(const Shape& shape, int64_t elem_bytes = 4) {
  int64_t n = elem_bytes;
  for (int64_t d : shape) n *= d;
  return n;
}

struct Net {
  ModuleTree tree;
  CallTrace trace;
  int64_t input_bytes = 0;
};

std::string table(const Net& net, const SummaryOptions& options) {
  return format_table(summarize(net.tree, net.trace, net.input_bytes), net.tree, options);
}

ModuleTree single_input_tree() {
  TreeBuilder b("SingleInputNet");
  b.add(0, "conv1", "Conv2d", conv2d(1, 10, 5), Kernel{{5, 5}, false});
  b.add(0, "conv2", "Conv2d", conv2d(10, 20, 5), Kernel{{5, 5}, false});
  b.add(0, "conv2_drop", "Dropout2d");
  b.add(0, "fc1", "Linear", linear(320, 50));
  b.add(0, "fc2", "Linear", linear(50, 10));
  return b.tree;
}

// relu(pool(conv1(x))), relu(pool(drop(conv2(x)))), view(-1, 320), relu(fc1(x)), fc2(x)
Net single_input_net(int64_t batch) {
  Net net{single_input_tree(), {}, bytes_of({batch, 1, 28, 28})};
  TraceBuilder t;
  t.enter(0, value({batch, 1, 28, 28}));
  t.leaf(1, {batch, 1, 28, 28}, {batch, 10, 24, 24});
  t.leaf(2, {batch, 10, 12, 12}, {batch, 20, 8, 8});
  t.leaf(3, {batch, 20, 8, 8}, {batch, 20, 8, 8});
  t.leaf(4, {batch, 320}, {batch, 50});
  t.leaf(5, {batch, 50}, {batch, 10});
  t.exit(value({batch, 10}));
  net.trace = t.trace;
  return net;
}

Net linear_model() {
  TreeBuilder b("LinearModel");
  const int seq = b.add(0, "layers", "Sequential");
  b.add(seq, "0", "Linear", linear(128, 128));
  b.add(seq, "1", "ReLU");
  b.add(seq, "2", "Linear", linear(128, 128));
  b.add(seq, "3", "ReLU");
  b.add(seq, "4", "Linear", linear(128, 1));
  TraceBuilder t;
  t.enter(0, value({64, 128}));
  t.enter(seq, value({64, 128}));
  for (int i = 0; i < 4; ++i) t.leaf(seq + 1 + i, {64, 128}, {64, 128});
  t.leaf(seq + 5, {64, 128}, {64, 1});
  t.exit(value({64, 1}));
  t.exit(value({64, 1}));
  return {b.tree, t.trace, bytes_of({64, 128})};
}

// ModuleList [Linear, Child, Linear] walked in a loop; Child calls its Sequential, a Linear,
// loops over the Sequential, calls it again and loops over it again.
Net container_module(const Shape& x) {
  TreeBuilder b("ContainerModule");
  const int list = b.add(0, "_layers", "ModuleList");
  const int first = b.add(list, "0", "Linear", linear(5, 5));
  const int child = b.add(list, "1", "ContainerChildModule");
  const int seq = b.add(child, "_sequential", "Sequential");
  const int s0 = b.add(seq, "0", "Linear", linear(5, 5));
  const int s1 = b.add(seq, "1", "Linear", linear(5, 5));
  const int between = b.add(child, "_between", "Linear", linear(5, 5));
  const int last = b.add(list, "2", "Linear", linear(5, 5));
  TraceBuilder t;
  auto sequential = [&] {
    t.enter(seq, value(x));
    t.leaf(s0, x, x);
    t.leaf(s1, x, x);
    t.exit(value(x));
  };
  t.enter(0, value(x));
  t.leaf(first, x, x);
  t.enter(child, value(x));
  sequential();
  t.leaf(between, x, x);
  t.leaf(s0, x, x);
  t.leaf(s1, x, x);
  sequential();
  t.leaf(s0, x, x);
  t.leaf(s1, x, x);
  t.exit(value(x));
  t.leaf(last, x, x);
  t.exit(value(x));
  return {b.tree, t.trace, bytes_of(x)};
}

// An LSTMCell and a Tanh called 4 times in a loop; the Linear is never used.
Net simple_rnn() {
  TreeBuilder b("SimpleRNN");
  const int cell = b.add(0, "lstm", "LSTMCell",
                         {param("weight_ih", {8, 3}), param("weight_hh", {8, 2}),
                          param("bias_ih", {8}), param("bias_hh", {8})});
  const int tanh = b.add(0, "activation", "Tanh");
  b.add(0, "projection", "Linear", linear(2, 3));
  TraceBuilder t;
  t.enter(0, value({2, 3}));
  for (int i = 0; i < 4; ++i) {
    ValueMeta in = value({2, 3});
    in.tensors.push_back({{2, 2}, "float32", 4});
    in.tensors.push_back({{2, 2}, "float32", 4});
    t.enter(cell, in);
    ValueMeta out = value({2, 2});
    out.tensors.push_back({{2, 2}, "float32", 4});
    t.exit(out);
    t.leaf(tanh, {2, 2}, {2, 2});
  }
  t.exit(value({2, 2}));
  return {b.tree, t.trace, bytes_of({2, 3})};
}

std::vector<Param> lstm_params(int64_t input, int64_t hidden, int layers) {
  std::vector<Param> out;
  for (int l = 0; l < layers; ++l) {
    const std::string s = "_l" + std::to_string(l);
    out.push_back(param("weight_ih" + s, {4 * hidden, l == 0 ? input : hidden}));
    out.push_back(param("weight_hh" + s, {4 * hidden, hidden}));
    out.push_back(param("bias_ih" + s, {4 * hidden}));
    out.push_back(param("bias_hh" + s, {4 * hidden}));
  }
  return out;
}

// Embedding(20, 300) -> LSTM(300, 512, 2 layers, batch_first) -> Linear(512, 20), input 1x100.
Net lstm_net() {
  TreeBuilder b("LSTMNet");
  const int emb = b.add(0, "embedding", "Embedding", {param("weight", {20, 300})});
  const int enc = b.add(0, "encoder", "LSTM", lstm_params(300, 512, 2));
  const int dec = b.add(0, "decoder", "Linear", linear(512, 20));
  TraceBuilder t;
  t.enter(0, value({1, 100}, "int64"));
  t.enter(emb, value({1, 100}, "int64"));
  t.exit(value({1, 100, 300}));
  ValueMeta out = value({1, 100, 512});
  out.tensors.push_back({{2, 1, 512}, "float32", 4});
  out.tensors.push_back({{2, 1, 512}, "float32", 4});
  t.enter(enc, value({1, 100, 300}));
  t.exit(out);
  t.leaf(dec, {1, 100, 512}, {1, 100, 20});
  ValueMeta result = value({100, 20});
  result.tensors.push_back({{2, 1, 512}, "float32", 4});
  result.tensors.push_back({{2, 1, 512}, "float32", 4});
  t.exit(result);
  return {b.tree, t.trace, bytes_of({1, 100}, 8)};
}

std::vector<Param> conv(int64_t in, int64_t out, int64_t k) {
  return {param("weight", {out, in, k, k})};
}
std::vector<Param> batch_norm(int64_t c) { return {param("weight", {c}), param("bias", {c})}; }

// torchvision's BasicBlock: conv1, bn1, relu, conv2, bn2, [downsample], relu (called twice).
void basic_block(TreeBuilder& b, TraceBuilder& t, int parent, const std::string& name, int64_t in,
                 int64_t out, int64_t in_hw) {
  const int64_t hw = in == out ? in_hw : in_hw / 2;
  const Shape x{1, in, in_hw, in_hw}, y{1, out, hw, hw};
  const int block = b.add(parent, name, "BasicBlock");
  const int c1 = b.add(block, "conv1", "Conv2d", conv(in, out, 3), Kernel{{3, 3}, false});
  const int n1 = b.add(block, "bn1", "BatchNorm2d", batch_norm(out));
  const int relu = b.add(block, "relu", "ReLU");
  const int c2 = b.add(block, "conv2", "Conv2d", conv(out, out, 3), Kernel{{3, 3}, false});
  const int n2 = b.add(block, "bn2", "BatchNorm2d", batch_norm(out));
  t.enter(block, value(x));
  t.leaf(c1, x, y);
  t.leaf(n1, y, y);
  t.leaf(relu, y, y);
  t.leaf(c2, y, y);
  t.leaf(n2, y, y);
  if (in != out) {
    const int down = b.add(block, "downsample", "Sequential");
    const int dc = b.add(down, "0", "Conv2d", conv(in, out, 1), Kernel{{1, 1}, false});
    const int dn = b.add(down, "1", "BatchNorm2d", batch_norm(out));
    t.enter(down, value(x));
    t.leaf(dc, x, y);
    t.leaf(dn, y, y);
    t.exit(value(y));
  }
  t.leaf(relu, y, y);
  t.exit(value(y));
}

// torchvision resnet18 on a 1x3x64x64 input.
Net resnet18() {
  TreeBuilder b("ResNet");
  TraceBuilder t;
  t.enter(0, value({1, 3, 64, 64}));
  t.leaf(b.add(0, "conv1", "Conv2d", conv(3, 64, 7), Kernel{{7, 7}, false}), {1, 3, 64, 64},
         {1, 64, 32, 32});
  t.leaf(b.add(0, "bn1", "BatchNorm2d", batch_norm(64)), {1, 64, 32, 32}, {1, 64, 32, 32});
  t.leaf(b.add(0, "relu", "ReLU"), {1, 64, 32, 32}, {1, 64, 32, 32});
  t.leaf(b.add(0, "maxpool", "MaxPool2d", {}, Kernel{{3}, true}), {1, 64, 32, 32}, {1, 64, 16, 16});
  int64_t in = 64, hw = 16;
  for (int i = 0; i < 4; ++i) {
    const int64_t out = int64_t{64} << i;
    const int layer = b.add(0, "layer" + std::to_string(i + 1), "Sequential");
    t.enter(layer, value({1, in, hw, hw}));
    basic_block(b, t, layer, "0", in, out, hw);
    hw = in == out ? hw : hw / 2;
    basic_block(b, t, layer, "1", out, out, hw);
    t.exit(value({1, out, hw, hw}));
    in = out;
  }
  t.leaf(b.add(0, "avgpool", "AdaptiveAvgPool2d"), {1, 512, 2, 2}, {1, 512, 1, 1});
  t.leaf(b.add(0, "fc", "Linear", linear(512, 1000)), {1, 512}, {1, 1000});
  t.exit(value({1, 1000}));
  return {b.tree, t.trace, bytes_of({1, 3, 64, 64})};
}

}  // namespace

TEST_CASE("single_input.out: SingleInputNet with defaults") {
  CHECK(table(single_input_net(2), {}) == reference_tables("single_input.out").at(0));
}

TEST_CASE("basic_summary.out: no input, structure only") {
  Net net{single_input_tree(), {}, 0};
  net.trace = static_trace(net.tree);
  CHECK(table(net, {}) == reference_tables("basic_summary.out").at(0));
}

TEST_CASE("single_input_all_cols.out: every column, col_width 20, depth 1") {
  SummaryOptions options;
  options.columns = {Column::kernel_size, Column::input_size,     Column::output_size,
                     Column::num_params,  Column::params_percent, Column::mult_adds,
                     Column::trainable};
  options.col_width = 20;
  options.depth = 1;
  CHECK(table(single_input_net(7), options) == reference_tables("single_input_all_cols.out").at(0));
}

TEST_CASE("jit.out: LinearModel as torchinfo shows the eager model") {
  CHECK(table(linear_model(), {}) == reference_tables("jit.out").at(0));
}

TEST_CASE("container.out: inserted container rows, recursive rows, depth 4 then 3") {
  const auto reference = reference_tables("container.out");
  SummaryOptions deep;
  deep.depth = 4;
  CHECK(table(container_module({1, 5}), deep) == reference.at(0));
  CHECK(table(container_module({5}), {}) == reference.at(1));
}

TEST_CASE("hide_recursive_layers.out: repeated calls shown, then hidden") {
  const auto reference = reference_tables("hide_recursive_layers.out");
  CHECK(table(simple_rnn(), {}) == reference.at(0));
  SummaryOptions hide;
  hide.row_settings = {RowSetting::depth, RowSetting::hide_recursive_layers};
  CHECK(table(simple_rnn(), hide) == reference.at(1));
}

TEST_CASE("lstm.out: var_names, per-parameter rows, kernel and mult-adds columns") {
  SummaryOptions options;
  options.columns = {Column::kernel_size, Column::output_size, Column::num_params,
                     Column::mult_adds};
  options.col_width = 20;
  options.row_settings = {RowSetting::var_names};
  options.verbose_params = true;
  CHECK(table(lstm_net(), options) == reference_tables("lstm.out").at(0));
}

TEST_CASE("mult-adds footer: whole numbers print without decimals, units by size") {
  CHECK(readable_mult_adds(0) == std::pair<std::string, std::string>{"M", "0"});
  CHECK(readable_mult_adds(240) == std::pair<std::string, std::string>{"M", "0.00"});
  CHECK(readable_mult_adds(2121792) == std::pair<std::string, std::string>{"M", "2.12"});
  CHECK(readable_mult_adds(3000000000) == std::pair<std::string, std::string>{"G", "3"});
  CHECK(readable_mult_adds(1234567890123456) ==
        std::pair<std::string, std::string>{"T", "1,234.57"});
}

TEST_CASE("resnet18_depth_consistency.out: params_percent at depth 1 and 2") {
  const auto reference = reference_tables("resnet18_depth_consistency.out");
  SummaryOptions options;
  options.columns = {Column::output_size, Column::num_params, Column::params_percent};
  options.depth = 1;
  CHECK(table(resnet18(), options) == reference.at(0));
  options.depth = 2;
  CHECK(table(resnet18(), options) == reference.at(1));
}
