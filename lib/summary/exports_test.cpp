#include "summary/exports.h"

#include <doctest/doctest.h>

#include <functional>

#include "summary/table.h"
#include "summary/test_fixtures.h"

using namespace modrec;
using namespace modrec::testing;

namespace {
struct Small {
  ModuleTree tree;
  Summary summary;
};

// Net -> seq (Sequential) -> Linear(3, 2), input 1x3; `measure` gives the trace memory figures.
Small small_net(const std::function<void(CallTrace&)>& measure = {}) {
  TreeBuilder b("Net");
  const int seq = b.add(0, "seq", "Sequential");
  const int lin = b.add(seq, "0", "Linear", linear(3, 2));
  TraceBuilder t;
  t.enter(0, value({1, 3}));
  t.enter(seq, value({1, 3}));
  t.leaf(lin, {1, 3}, {1, 2});
  t.exit(value({1, 2}));
  t.exit(value({1, 2}));
  if (measure) measure(t.trace);
  Small s{b.tree, {}};
  s.summary = summarize(s.tree, t.trace, 12);
  return s;
}

// The Linear (call 2) saved 12 bytes and peaked at 8 forward, 40 backward.
void measured(CallTrace& trace) {
  trace.calls[2].memory = {12, 8, 40};
  trace.calls[1].memory = {12, 8, 40};
  trace.calls[0].memory = {12, 2000000, 3000000};
  trace.memory = {true, 2000000, 5000000, 12, 2, 0};
}
}  // namespace

TEST_CASE("json holds every row with its fields and the totals") {
  const Small s = small_net();
  SummaryOptions o;
  o.depth = 1;
  const auto j = to_json(s.summary, s.tree, o);
  REQUIRE(j["rows"].size() == 3);
  const auto& lin = j["rows"][2];
  CHECK(lin["label"] == "2-1");
  CHECK(lin["path"] == "seq.0");
  CHECK(lin["type"] == "Linear");
  CHECK(lin["parent"] == "1-1");
  CHECK(lin["shown"] == false);
  CHECK(lin["outputs"][0]["shape"] == std::vector<int64_t>{1, 2});
  CHECK(lin["outputs"][0]["dtype"] == "float32");
  CHECK(lin["num_params"] == 8);
  CHECK(lin["mult_adds"] == 8);
  CHECK(j["rows"][0]["parent"].is_null());
  CHECK(j["totals"]["total_params"] == 8);
  CHECK(j["totals"]["forward_backward_bytes"] == 16);
  CHECK(j["totals"]["total_bytes"] == 12 + 16 + 32);
}

TEST_CASE("csv: header and one quoted line per shown row") {
  const Small s = small_net();
  const std::string csv = format_csv(s.summary, s.tree, {});
  CHECK(csv.rfind("label,path,type,var_name,depth,idx,parent,is_recursive,", 0) == 0);
  CHECK(csv.find("\n2-1,seq.0,Linear,0,2,1,1-1,false,\"[1, 3]\",float32,\"[1, 2]\",float32,--,8,8,"
                 "True,8\n") != std::string::npos);
  CHECK(csv.find(",(root),Net,") != std::string::npos);  // not an empty field: NaN to pandas
  SummaryOptions shallow;
  shallow.depth = 0;
  CHECK(format_csv(s.summary, s.tree, shallow).find("seq") == std::string::npos);
}

TEST_CASE("markdown: the table's rows and cells, then the totals") {
  const Small s = small_net();
  const std::string md = format_markdown(s.summary, s.tree, {});
  CHECK(md.rfind("| Layer | Output Shape | Param # |\n| --- | --- | --- |\n| Net | [1, 2] | -- |\n",
                 0) == 0);
  CHECK(md.find("| │    └─Linear: 2-1 | [1, 2] | 8 |\n") != std::string::npos);
  CHECK(md.find("| Total mult-adds (M) | 0.00 |\n") != std::string::npos);
}

TEST_CASE("measured memory: columns, rows' and totals' fields, the footer's block") {
  const Small s = small_net(measured);
  SummaryOptions o;
  o.columns = {Column::saved_bytes, Column::peak_bytes};
  const auto j = to_json(s.summary, s.tree, o);
  CHECK(j["rows"][2]["memory"]["saved_bytes"] == 12);
  CHECK(j["rows"][2]["memory"]["peak_backward_bytes"] == 40);
  CHECK(j["totals"]["memory"]["peak_bytes"] == 5000000);
  CHECK(j["totals"]["memory"]["forward_peak_at"] == "2-1 seq.0 (Linear)");
  CHECK(j["totals"]["memory"]["backward_peak_at"] == "Net");
  const std::string md = format_markdown(s.summary, s.tree, o);
  CHECK(md.find("| Layer | Saved for Backward | Peak Memory |") == 0);
  CHECK(md.find("| Measured forward/backward peak (MB) | 5.00 |") != std::string::npos);
  CHECK(md.find("| Forward peak in | 2-1 seq.0 (Linear) |") != std::string::npos);
  const std::string csv = format_csv(s.summary, s.tree, o);
  CHECK(csv.find(",saved_bytes,peak_forward_bytes,peak_backward_bytes\n") != std::string::npos);
  CHECK(csv.find(",12,8,40\n") != std::string::npos);
  // The table: torchinfo's footer whole, then the measured block between dividers.
  const std::string table = format_table(s.summary, s.tree, o);
  const std::string divider(2 * 25 + 40, '=');
  CHECK(table.find("Estimated Total Size (MB): 0.00\n" + divider +
                   "\nMeasured forward peak (MB): 2.00\nMeasured forward/backward peak (MB): 5.00\n"
                   "Saved for backward (MB): 0.00\nForward peak in: 2-1 seq.0 (Linear)\n"
                   "Backward peak in: Net\n" +
                   divider + "\n") != std::string::npos);
  // Without measuring, none of it.
  CHECK(to_json(small_net().summary, s.tree, {})["totals"].count("memory") == 0);
}
