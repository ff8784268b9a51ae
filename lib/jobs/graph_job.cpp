#include "jobs/graph_job.h"

#include "graph/flow_collector.h"
#include "graph/svg.h"
#include "jobs/session.h"
#include "pass/forward.h"
#include "util/log.h"
#include "util/stopwatch.h"

namespace modrec {
namespace {

// One pass with autograd on: the data flow is read off autograd's graph (FlowCollector).
std::pair<CallTrace, DataFlow> traced(Session& session) {
  FlowCollector flow;
  TraceCollector trace;
  run_forward(*session.model, flow.take_inputs(session.whole_inputs()), {true}, flow, trace);
  return {trace.take(), flow.take()};
}

// Without an input: the static call structure, its calls chained in static order.
std::pair<CallTrace, DataFlow> static_structure(const Session& session) {
  CallTrace trace = session.model->static_trace();
  DataFlow flow = static_flow(trace);
  return {std::move(trace), std::move(flow)};
}

void write(const Graph& graph, const GraphJob& job, std::ostream& out) {
  switch (job.format) {
    case GraphFormat::dot:
      out << to_dot(graph, job.params);
      return;
    case GraphFormat::svg:
      out << render_svg(to_dot(graph, job.params));
      return;
    case GraphFormat::json:
      out << to_json(graph).dump(2) << "\n";
      return;
  }
}

}  // namespace

void run_graph_job(const GraphJob& job, std::ostream& out) {
  validate_graph_depth(job.depth);
  Stopwatch clock;
  // The graph needs shapes and autograd's graph, not values: its pass runs on the meta device,
  // the weights unread, unless it cannot there (pass_on_shapes).
  Session session = open_session(job.model, job.inputs, {}, Weights::meta);
  log::debug("timing: load ", log::seconds(clock.lap()), " s");
  const auto [trace, flow] =
      job.inputs.given() ? pass_on_shapes(session, job.model, [&] { return traced(session); })
                         : static_structure(session);
  log::debug("timing: pass ", log::seconds(clock.lap()), " s");
  const ModuleTree& tree = session.model->tree();  // after a fallback, the reloaded model's
  const Graph graph = build_graph(tree, trace, flow, job.depth);
  log::debug("graph: ", graph.nodes.size(), " nodes, ", graph.clusters.size(), " clusters, ",
             graph.edges.size(), " edges");
  write(graph, job, out);
  log::debug("timing: format ", log::seconds(clock.lap()), " s");
}

}  // namespace modrec
