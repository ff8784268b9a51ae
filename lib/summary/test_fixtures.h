// Hand-built module trees and call traces for the summary tests, plus reference-file access.
#pragma once
#include <fstream>
#include <string>
#include <vector>

#include "model/call_trace.h"
#include "model/module_tree.h"

namespace modrec::testing {

inline Param param(const std::string& name, Shape shape, bool trainable = true) {
  int64_t numel = 1;
  for (int64_t d : shape) numel *= d;
  return Param{name, std::move(shape), numel, 4, trainable};
}

inline std::vector<Param> linear(int64_t in, int64_t out) {
  return {param("weight", {out, in}), param("bias", {out})};
}

inline std::vector<Param> conv2d(int64_t in, int64_t out, int64_t k) {
  return {param("weight", {out, in, k, k}), param("bias", {out})};
}

struct TreeBuilder {
  ModuleTree tree;

  explicit TreeBuilder(const std::string& root_type) {
    Module root;
    root.var_name = root.type = root_type;
    tree.modules.push_back(root);
  }

  // Modules must be added in preorder, children in definition order.
  int add(int parent, const std::string& var_name, const std::string& type,
          std::vector<Param> params = {}, std::optional<Kernel> kernel = std::nullopt) {
    Module m;
    const Module& p = tree.modules[parent];
    m.path = p.path.empty() ? var_name : p.path + "." + var_name;
    m.var_name = var_name;
    m.type = type;
    m.depth = p.depth + 1;
    m.parent = parent;
    m.params = std::move(params);
    m.kernel = std::move(kernel);
    const int index = static_cast<int>(tree.modules.size());
    tree.modules[parent].children.push_back(index);
    tree.modules.push_back(std::move(m));
    return index;
  }
};

inline ValueMeta value(const Shape& shape, const std::string& dtype = "float32") {
  const int64_t bytes = dtype == "int64" ? 8 : 4;
  return ValueMeta{shape, bytes, {TensorInfo{shape, dtype, bytes}}};
}

// Records calls the way forward pre-hooks and hooks see them.
struct TraceBuilder {
  CallTrace trace;
  std::vector<int> open;

  TraceBuilder() { trace.ran = true; }

  void enter(int module, ValueMeta inputs) {
    Call c;
    c.module = module;
    c.parent_call = open.empty() ? -1 : open.back();
    c.inputs = std::move(inputs);
    open.push_back(static_cast<int>(trace.calls.size()));
    trace.calls.push_back(std::move(c));
  }
  void exit(ValueMeta outputs) {
    Call& c = trace.calls[open.back()];
    c.outputs = std::move(outputs);
    c.finished = true;
    open.pop_back();
  }
  void leaf(int module, const Shape& in, const Shape& out) {
    enter(module, value(in));
    exit(value(out));
  }
};

// The static structure only: every module once, in preorder, nothing finished.
inline CallTrace static_trace(const ModuleTree& tree) {
  CallTrace trace;
  for (size_t i = 0; i < tree.modules.size(); ++i) {
    Call c;
    c.module = static_cast<int>(i);
    c.parent_call = tree.modules[i].parent;
    trace.calls.push_back(c);
  }
  return trace;
}

inline bool is_divider(const std::string& line) {
  return !line.empty() && line.find_first_not_of('=') == std::string::npos;
}

// The tables of a torchinfo reference output, each ending with its last divider and newline.
inline std::vector<std::string> reference_tables(const std::string& file) {
  std::ifstream in(std::string(MODREC_SOURCE_DIR) + "/tests/torchinfo-reference/" + file);
  std::vector<std::string> tables;
  std::string line, previous, current;
  while (std::getline(in, line)) {
    current += line + "\n";
    const bool last_footer = previous.rfind("Estimated Total Size", 0) == 0 ||
                             previous.rfind("Non-trainable params", 0) == 0;
    if (is_divider(line) && last_footer) {
      tables.push_back(current);
      current.clear();
    }
    previous = line;
  }
  return tables;
}

}  // namespace modrec::testing
