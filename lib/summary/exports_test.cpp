#include "summary/exports.h"

#include <doctest/doctest.h>

#include "summary/test_fixtures.h"

using namespace modrec;
using namespace modrec::testing;

namespace {
struct Small {
  ModuleTree tree;
  Summary summary;
};

// Net -> seq (Sequential) -> Linear(3, 2), input 1x3.
Small small_net() {
  TreeBuilder b("Net");
  const int seq = b.add(0, "seq", "Sequential");
  const int lin = b.add(seq, "0", "Linear", linear(3, 2));
  TraceBuilder t;
  t.enter(0, value({1, 3}));
  t.enter(seq, value({1, 3}));
  t.leaf(lin, {1, 3}, {1, 2});
  t.exit(value({1, 2}));
  t.exit(value({1, 2}));
  Small s{b.tree, {}};
  s.summary = summarize(s.tree, t.trace, 12);
  return s;
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
