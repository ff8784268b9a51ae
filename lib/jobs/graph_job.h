// `modrec graph`: the module calls of a TorchScript model or .pt2 archive and the tensors flowing
// between them, as DOT, SVG or JSON.
#pragma once
#include <ostream>

#include "graph/graph_formats.h"
#include "arguments/input_options.h"
#include "load/model_options.h"

namespace modrec {

struct GraphJob {
  ModelOptions model;
  InputOptions inputs;
  int depth = 3;        // --depth: deeper calls are drawn as their ancestor at this depth
  bool params = false;  // --params: parameter counts in the labels
  GraphFormat format = GraphFormat::dot;
};

void run_graph_job(const GraphJob& job, std::ostream& out);

}  // namespace modrec
