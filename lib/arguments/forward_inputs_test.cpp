#include "arguments/forward_inputs.h"

#include <doctest/doctest.h>
#include <torch/csrc/jit/api/module.h>

#include "util/python_test_fixtures.h"
#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::testing::error_of;

namespace {

// The arguments of a forward that takes one of each kind --arg parses (self left out).
std::vector<c10::Argument> args_module() {
  torch::jit::Module m("ArgsModule");
  m.define(R"(
def forward(self, x: Tensor, size: List[int], mask: Optional[Tensor] = None, scale: float = 1.0,
            mode: str = "mean", relu: bool = False, repeat: int = 1,
            weights: Optional[List[float]] = None) -> Tensor:
    return x
)");
  const auto& all = m.get_method("forward").function().getSchema().arguments();
  return {all.begin() + 1, all.end()};
}

InputOptions with_args(std::vector<NamedText> args) {
  InputOptions options;
  options.sizes = {"2x3"};
  options.args = std::move(args);
  return options;
}

}  // namespace

TEST_CASE("the signature as Python writes it") {
  const ForwardSchema schema(args_module());
  CHECK(schema.signature().text() ==
        "forward(x: Tensor, size: List[int], mask: Optional[Tensor] = None, scale: float = 1.0, "
        "mode: str = 'mean', relu: bool = False, repeat: int = 1, "
        "weights: Optional[List[float]] = None)");
  CHECK(schema.signature().params[2].takes_tensor);
  CHECK_FALSE(schema.signature().params[1].takes_tensor);
}

TEST_CASE("--arg text parsed by the declared type") {
  const ForwardSchema schema(args_module());
  CHECK(schema.parse(1, "[2, 3]").toIntVector() == std::vector<int64_t>{2, 3});
  CHECK(schema.parse(1, "[]").toIntVector().empty());
  CHECK(schema.parse(3, "0.5").toDouble() == 0.5);
  CHECK(schema.parse(3, "2").toDouble() == 2.0);
  CHECK(schema.parse(4, "max").toStringRef() == "max");
  CHECK(schema.parse(5, "true").toBool());
  CHECK_FALSE(schema.parse(5, "0").toBool());
  CHECK(schema.parse(6, "-4").toInt() == -4);
  CHECK(schema.parse(7, "None").isNone());
  CHECK(schema.parse(7, "[0.5,1]").toDoubleVector() == std::vector<double>{0.5, 1.0});
  for (const auto& [i, text] : std::vector<std::pair<size_t, std::string>>{
           {1, "2,3"}, {1, "[2,x]"}, {3, "half"}, {5, "yes"}, {6, "2.5"}, {6, ""}}) {
    auto [code, line] = error_of([&, i = i, &text = text] { schema.parse(i, text); });
    CHECK(code == Exit::usage);
    CHECK(line.find("'" + text + "'") != std::string::npos);
    CHECK(line.find(schema.signature().params[i].type) != std::string::npos);
  }
}

TEST_CASE("binding: places, names, defaults") {
  const ForwardSchema schema(args_module());
  const ForwardArguments bound =
      OpenedInputs(with_args({{"size", "[1]"}, {"mode", "max"}})).bind(schema);
  REQUIRE(bound.size() == 8);
  CHECK(bound[0].source);
  CHECK(bound[0].positional);
  CHECK(bound[1].value.toIntVector() == std::vector<int64_t>{1});
  CHECK(bound[2].value.isNone());  // the default
  CHECK(bound[4].value.toStringRef() == "max");
  CHECK(bound[6].value.toInt() == 1);
  CHECK(tensor_sources(bound).size() == 1);
}

TEST_CASE("the values given by position are the positional inputs' alone") {
  const ForwardSchema schema(args_module());
  const ForwardArguments bound = OpenedInputs(with_args({{"size", "[1]"}})).bind(schema);
  std::vector<c10::IValue> values;
  for (const ForwardArgument& a : bound) values.push_back(a.source ? a.source->all() : a.value);
  const std::vector<c10::IValue> given = given_by_position(bound, values);
  REQUIRE(given.size() == 1);  // x, from --input-size; size by --arg and the defaults are not
  CHECK(given[0].toTensor().sizes().vec() == std::vector<int64_t>{2, 3});
}

TEST_CASE("a file holding a list is one List[Tensor] argument, a tuple one argument per item") {
  torch::jit::Module m("Detector");
  m.define(R"(
def forward(self, images: List[Tensor], scale: Optional[Tensor] = None) -> Tensor:
    return images[0]
)");
  const auto& all = m.get_method("forward").function().getSchema().arguments();
  const ForwardSchema schema({all.begin() + 1, all.end()});
  CHECK(schema.signature().params[0].takes_tensor_list);
  CHECK_FALSE(schema.signature().params[1].takes_tensor_list);
  const std::string dir = test::temp_dir("list-input");
  REQUIRE(test::python_ok("import torch; d = '" + dir +
                          "'; a = [torch.rand(3, 4, 5), "
                          "torch.rand(3, 2, 2)]; torch.save(a, d + '/list.pt'); "
                          "torch.save(tuple(a), d + '/tuple.pt')"));
  InputOptions options;
  options.files = {dir + "/list.pt"};
  ForwardArguments bound = OpenedInputs(options).bind(schema);
  REQUIRE(bound[0].items.size() == 2);
  CHECK(bound[0].positional);
  CHECK(bound[0].items[1]->sizes() == std::vector<int64_t>{3, 2, 2});
  CHECK(bound[1].value.isNone());
  options.files.clear();
  options.named_files = {{"images", dir + "/list.pt"}};
  CHECK(OpenedInputs(options).bind(schema)[0].items.size() == 2);
  options.named_files.clear();
  options.files = {dir + "/tuple.pt"};  // images would get a tensor
  auto [code, line] = error_of([&] { OpenedInputs(options).bind(schema); });
  CHECK(code == Exit::usage);
  CHECK(line.find("torch.save([t1, t2], path)") != std::string::npos);
  std::error_code ec;
  std::filesystem::remove(dir + "/list.pt", ec);
  std::filesystem::remove(dir + "/tuple.pt", ec);
  std::filesystem::remove(dir, ec);
}

TEST_CASE("binding errors end with the signature") {
  const ForwardSchema schema(args_module());
  const std::string signature = schema.signature().text();
  for (const auto& [args, words] : std::vector<std::pair<std::vector<NamedText>, std::string>>{
           {{}, "required argument 'size'"},
           {{{"size", "[1]"}, {"sizes", "1"}}, "no argument 'sizes'"},
           {{{"size", "[1]"}, {"size", "[2]"}}, "given twice"},
           {{{"size", "[1]"}, {"x", "1"}}, "--input x=FILE"},
           {{{"size", "[1]"}, {"repeat", "x"}}, "'x' is no value of type int"}}) {
    auto [code, line] = error_of([&, &args = args] { OpenedInputs(with_args(args)).bind(schema); });
    CHECK(code == Exit::usage);
    CHECK(line.find(words) != std::string::npos);
    CHECK(line.find(signature) != std::string::npos);
  }
  InputOptions two = with_args({{"size", "[1]"}});
  two.sizes.push_back("2x3");
  auto [code, line] = error_of([&] { OpenedInputs(two).bind(schema); });
  CHECK(code == Exit::usage);
  CHECK(line.find("'size' is a List[int], not a tensor") != std::string::npos);
}

TEST_CASE("--input NAME=FILE is named only where NAME is an identifier") {
  const auto named = split_named("mask=data/m.pt");
  REQUIRE(named);
  CHECK(named->name == "mask");
  CHECK(named->text == "data/m.pt");
  CHECK_FALSE(split_named("./mask=m.pt"));
  CHECK_FALSE(split_named("data/a=b.pt"));
  CHECK_FALSE(split_named("x.pt"));
  CHECK(parse_arg_flag("size=[2,3]").text == "[2,3]");
  auto [code, line] = error_of([] { parse_arg_flag("size"); });
  CHECK(code == Exit::usage);
  CHECK(line.find("--arg") != std::string::npos);
}
