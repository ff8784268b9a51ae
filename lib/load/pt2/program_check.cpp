#include "load/pt2/program_check.h"

#include <set>
#include <string>

namespace modrec::pt2 {
namespace {

using Defined = std::set<std::string>;

void check_reads(const Argument& argument, const Defined& defined, const std::string& where) {
  for (const std::string& name : value_names(argument))
    if (!defined.count(name))
      throw ProgramCheckFailed(where + " reads the value " + name +
                               ", which nothing before it defines");
}

std::string node_text(const Node& node) { return "node " + node.name + " (" + node.target + ")"; }

void check_nodes(const std::vector<Node>& nodes, Defined& defined);

void check_graph(const Graph& graph, const Node& owner) {
  Defined defined(graph.inputs.begin(), graph.inputs.end());
  check_nodes(graph.nodes, defined);
  for (const Argument& out : graph.outputs)
    check_reads(out, defined, node_text(owner) + ": an output of its subgraph");
}

void check_nodes(const std::vector<Node>& nodes, Defined& defined) {
  for (const Node& node : nodes) {
    for (const NodeArg& arg : node.inputs)
      check_reads(arg.value, defined, node_text(node) + ": its input " + arg.name);
    for (const Graph& graph : node.graphs) check_graph(graph, node);
    for (const Argument& out : node.outputs)
      for (const std::string& name : value_names(out)) defined.insert(name);
  }
}

}  // namespace

void check_program(const Program& program) {
  Defined defined;
  for (const InputSpec& in : program.inputs) defined.insert(in.value);
  check_nodes(program.nodes, defined);
  for (const OutputSpec& out : program.outputs)
    check_reads(out.value, defined, "the program's output");
}

}  // namespace modrec::pt2
