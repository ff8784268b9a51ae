#include "load/pt2/export_notes.h"

#include <doctest/doctest.h>

using namespace modrec::pt2;

namespace {

// What python/modrec/_export.py writes for nn.Sequential(nn.Identity()) called on one tensor.
const char* const kSound = R"({"format": "modrec.export-notes", "version": 1, "torch": "2.14.1",
  "modules": [["", "torch.nn.modules.container.Sequential"],
              ["0", "torch.nn.modules.linear.Identity"]],
  "calls": [
    {"path": "", "parent": -1,
     "args": [["input", {"tensor": 0, "shape": [2, 3], "dtype": "float32", "version": 0}]],
     "output": {"tensor": 0, "shape": [2, 3], "dtype": "float32", "version": 0}},
    {"path": "0", "parent": 0, "positional": 1,
     "args": [["input", {"tensor": 0, "shape": [2, 3], "dtype": "float32", "version": 0}],
              ["hx", {"const": null}]],
     "output": {"tuple": [{"tensor": 0, "shape": [2, 3], "dtype": "float32", "version": 0},
                          {"dict": [["k", {"const": 1.5}]]}, {"other": "torch.dtype"}]}}]})";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

}  // namespace

TEST_CASE("the notes' classes, calls, arguments and results") {
  const ExportNotes notes = parse_export_notes(kSound);
  CHECK(notes.types.at("0") == "torch.nn.modules.linear.Identity");
  REQUIRE(notes.calls.size() == 2);
  CHECK(notes.calls[1].parent == 0);
  CHECK(notes.calls[1].arg_names == std::vector<std::string>{"input", "hx"});
  const std::vector<NotedTensor> out = noted_tensors(notes.calls[1].output);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == 0);
  CHECK(out[0].shape == std::vector<int64_t>{2, 3});
  CHECK(noted_tensors(notes.calls[1].args[1]).empty());
  CHECK(notes.calls[1].positional == 1);
  CHECK_FALSE(notes.calls[0].positional);  // notes of before the count was written
}

TEST_CASE("the notes' values are typed: constants, containers and other objects") {
  const ExportNotes notes = parse_export_notes(kSound);
  CHECK(std::get<NotedConstant>(notes.calls[1].args[1].held) == NotedConstant{});  // hx=None
  const auto& out = std::get<NotedTuple>(notes.calls[1].output.held).items;
  REQUIRE(out.size() == 3);
  CHECK(std::get<NotedTensor>(out[0].held).dtype == "float32");
  const NotedDict& dict = std::get<NotedDict>(out[1].held);
  CHECK(dict.keys == std::vector<std::string>{"k"});
  REQUIRE(dict.values.size() == 1);
  CHECK(std::get<NotedConstant>(dict.values[0].held) == NotedConstant{1.5});
  CHECK(std::get<NotedOther>(out[2].held).type == "torch.dtype");
  CHECK(noted_items(out[0]) == nullptr);
  CHECK(noted_items(notes.calls[1].output) == &out);
}

TEST_CASE("a path whose module object is another's names that object's first path") {
  const ExportNotes notes = parse_export_notes(replaced(
      kSound, R"(["0", "torch.nn.modules.linear.Identity"]])",
      R"(["0", "torch.nn.modules.linear.Identity"], ["1", "torch.nn.modules.linear.Identity", "0"]])"));
  CHECK(notes.types.at("1") == "torch.nn.modules.linear.Identity");
  CHECK(notes.same_as == std::map<std::string, std::string>{{"1", "0"}});
  CHECK(parse_export_notes(kSound).same_as.empty());
}

TEST_CASE("the module stacks lent to a non-strict export's subgraphs, by node names") {
  const ExportNotes notes = parse_export_notes(replaced(
      kSound, R"("calls": [)",
      R"("subgraph_stacks": {"cond": [{"linear": "L__self__,,Net;7,_export_root.a,Linear"}, {}]},
  "calls": [)"));
  REQUIRE(notes.subgraph_stacks.count("cond") == 1);
  REQUIRE(notes.subgraph_stacks.at("cond").size() == 2);
  CHECK(notes.subgraph_stacks.at("cond")[0].at("linear") ==
        "L__self__,,Net;7,_export_root.a,Linear");
  CHECK(parse_export_notes(kSound).subgraph_stacks.empty());
}

TEST_CASE("damaged, foreign or inconsistent notes are refused with what is wrong") {
  const auto refusal = [](const std::string& text) {
    try {
      parse_export_notes(text);
    } catch (const NotesError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(refusal(std::string(kSound).substr(0, 200)).find("parse error") != std::string::npos);
  CHECK(refusal(replaced(kSound, "\"version\": 1", "\"version\": 2")).find("version 2") == 0);
  CHECK(refusal(replaced(kSound, "modrec.export-notes", "other")).find("another format") == 0);
  CHECK(refusal(replaced(kSound, "\"parent\": 0", "\"parent\": 1")).find("no enclosing") !=
        std::string::npos);
  CHECK(refusal(replaced(kSound, "{\"const\": null}", "{\"const\": [1]}")) ==
        "a constant that is no JSON scalar");
  CHECK(refusal(replaced(kSound, "{\"other\": \"torch.dtype\"}", "{\"set\": [1]}")) ==
        "a value of unknown kind \"set\"");
  CHECK(refusal(replaced(kSound, "{\"const\": null}", "{\"const\": null, \"list\": []}")) ==
        "a value of several kinds");
  CHECK(refusal(replaced(kSound, "\"shape\": [2, 3]", "\"shape\": [\"2\"]")) ==
        "a tensor shape that is not integers");
  CHECK(refusal(replaced(kSound, "\"output\": {\"tuple\"", "\"outputs\": {\"tuple\"")) ==
        "no \"output\" field");
  CHECK(refusal(replaced(kSound, "\"positional\": 1", "\"positional\": -1")) ==
        "a count of positional arguments that is no count");
  // a result nested 100,000 deep: refused before it is parsed, as its walk would recurse as deep
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "{\"tuple\": [";
  for (int i = 0; i < 100000; ++i) deep += "]}";
  CHECK(refusal(replaced(kSound, "{\"const\": null}", deep)).find("nests its JSON more than") == 0);
}
