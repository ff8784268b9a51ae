#include "jobs/graph_job.h"

#include <spdlog/spdlog.h>

#include "graph/flow_collector.h"
#include "graph/svg.h"
#include "jobs/session.h"
#include "run/forward.h"
#include "util/stopwatch.h"

namespace modrec {
namespace {

// One pass with autograd on: the data flow is read off autograd's graph (FlowCollector).
std::pair<CallTrace, DataFlow> traced(Session& session) {
  FlowCollector flow;
  TraceCollector trace;
  run_forward(session.model, flow.take_inputs(session.whole_inputs()), {true}, flow, trace);
  return {trace.take(), flow.take()};
}

// Without an input: the static call structure, its calls chained in static order.
std::pair<CallTrace, DataFlow> static_structure(const Session& session) {
  CallTrace trace = session.model.static_trace();
  DataFlow flow = static_flow(trace);
  return {std::move(trace), std::move(flow)};
}

void write(const Graph& graph, const GraphJob& job, std::ostream& out) {
  switch (job.format) {
    case GraphFormat::dot: out << to_dot(graph, job.params); return;
    case GraphFormat::svg: out << render_svg(to_dot(graph, job.params)); return;
    case GraphFormat::json: out << to_json(graph).dump(2) << "\n"; return;
  }
}

}  // namespace

void run_graph_job(const GraphJob& job, std::ostream& out) {
  validate_graph_depth(job.depth);
  Stopwatch clock;
  Session session = open_session(job.model, job.inputs);
  spdlog::debug("timing: load {:.6f} s", clock.lap());
  const ModuleTree& tree = session.model.tree();
  const auto [trace, flow] = job.inputs.given() ? traced(session) : static_structure(session);
  spdlog::debug("timing: pass {:.6f} s", clock.lap());
  const Graph graph = build_graph(tree, trace, flow, job.depth);
  spdlog::debug("graph: {} nodes, {} clusters, {} edges", graph.nodes.size(),
                graph.clusters.size(), graph.edges.size());
  write(graph, job, out);
  spdlog::debug("timing: format {:.6f} s", clock.lap());
}

}  // namespace modrec
