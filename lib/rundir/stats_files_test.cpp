#include "rundir/stats_files.h"

#include <doctest/doctest.h>

#include <fstream>

#include "util/scratch_dir.h"

using namespace modrec;

namespace {

RunTensor tensor(std::vector<double> values, std::vector<int64_t> shape, std::string name = "") {
  RunTensor t;
  t.name = std::move(name);
  t.shape = std::move(shape);
  t.dtype = "float32";
  t.stats.add(values.data(), values.size());
  return t;
}

std::vector<RunLayer> layers() {
  return {
      {{"1-1", "fc", "Linear"},
       2,
       5,
       {{"output", {tensor({1, -2, 0.5}, {1, 3}), tensor({4}, {1})}, {}},
        {"param", {tensor({0.25, 0.75}, {2}, "bias")}, {}}}},
      {{"1-2", "a,b", "Seq"}, 1, 6, {{"output", {}, {}}, {"grad_output", {tensor({1}, {1})}, {}}}}};
}

}  // namespace

TEST_CASE("stats.json reads back as it was written") {
  ScratchDir dir;
  std::ofstream((dir.path / "stats.json").string()) << stats_json(layers()).dump(1);
  const RunDir back = read_run_dir(dir.path.string());
  REQUIRE(back.layers.size() == 2);
  const RunLayer& l = back.layers[0];
  CHECK(l.ref.label == "1-1");
  CHECK(l.ref.path == "fc");
  CHECK(l.call == 2);
  CHECK(l.returned == 5);
  REQUIRE(l.captures.size() == 2);
  CHECK(l.captures[0].name == "output");
  CHECK(l.captures[0].tensors[1].shape == std::vector<int64_t>{1});
  CHECK(l.captures[1].tensors[0].name == "bias");
  CHECK(l.captures[1].tensors[0].stats.to_json() ==
        layers()[0].captures[1].tensors[0].stats.to_json());
  CHECK(back.layers[1].captures[0].tensors.empty());
  CHECK(back.layers[1].ref.path == "a,b");
}

TEST_CASE("places in nested values and refused gradients read back, named as Python indexes") {
  std::vector<RunLayer> written = layers();
  RunCapture& out = written[0].captures[0];
  out.tensors[0].at = "0";
  out.tensors[1].at = "1.cls.0";
  RunCapture& grad = written[1].captures[1];
  grad.no_gradient = {{"1", {"aten::quantized_lstm", "quantized::linear_dynamic"}},
                      {"0", {}, "its argument and result are one value"}};
  ScratchDir dir;
  std::ofstream((dir.path / "stats.json").string()) << stats_json(written).dump(1);
  const RunDir back = read_run_dir(dir.path.string());
  const RunCapture& o = back.layers[0].captures[0];
  CHECK(o.element(o.tensors[0]) == "output[0]");
  CHECK(o.element(o.tensors[1]) == "output[1]['cls'][0]");
  const RunCapture& param = back.layers[0].captures[1];
  CHECK(param.element(param.tensors[0]) == "param.bias");
  const RunCapture& g = back.layers[1].captures[1];
  CHECK(g.element(g.tensors[0]) == "grad_output");  // a lone tensor
  REQUIRE(g.no_gradient.size() == 2);
  CHECK(g.element(g.no_gradient[0]) == "grad_output[1]");
  CHECK(g.no_gradient[0].through ==
        std::vector<std::string>{"aten::quantized_lstm", "quantized::linear_dynamic"});
  CHECK(g.no_gradient[0].why() ==
        "no gradient flows back through aten::quantized_lstm, quantized::linear_dynamic");
  CHECK(g.no_gradient[1].through.empty());
  CHECK(g.no_gradient[1].why() == "its argument and result are one value");
  CHECK(back.layers[0].captures[0].no_gradient.empty());
}

TEST_CASE("stats.csv has a row per tensor, fields quoted where they hold a comma") {
  const std::string csv = stats_csv(layers());
  CHECK(csv.rfind("label,path,type,call,capture,tensor,element,shape,dtype,count,finite_count,",
                  0) == 0);
  CHECK(csv.find("\n1-1,fc,Linear,2,output,0,output[0],1x3,float32,3,3,") != std::string::npos);
  CHECK(csv.find("\n1-1,fc,Linear,2,output,1,output[1],1,float32,1,1,4,") != std::string::npos);
  CHECK(csv.find("\n1-1,fc,Linear,2,param,0,param.bias,2,float32,2,2,0.5,") != std::string::npos);
  CHECK(csv.find("\n1-2,\"a,b\",Seq,1,grad_output,0,grad_output,1,float32,") != std::string::npos);
  CHECK(csv.find("1-2,\"a,b\",Seq,1,output") == std::string::npos);  // no tensor, no row
}
