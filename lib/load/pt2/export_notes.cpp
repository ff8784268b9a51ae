#include "load/pt2/export_notes.h"

#include "load/pt2/program_json.h"  // json_depth

namespace modrec::pt2 {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& what) { throw NotesError(what); }

const json& field(const json& object, const char* name) {
  if (!object.is_object() || !object.contains(name)) bad(std::string("no \"") + name + "\" field");
  return object[name];
}

void check_value(const json& value, int depth = 0) {
  if (depth > 100) bad("a value nested too deep");
  if (!value.is_object() || value.size() != (value.contains("tensor") ? 4u : 1u))
    bad("a value that is no {\"tensor\"|\"const\"|\"tuple\"|\"list\"|\"dict\"|\"other\": ...}");
  if (value.contains("tensor")) {
    if (!field(value, "tensor").is_number_integer() ||
        !field(value, "version").is_number_integer() || !field(value, "dtype").is_string() ||
        !field(value, "shape").is_array())
      bad("a tensor without its id, shape, dtype and version");
    for (const json& d : value["shape"])
      if (!d.is_number_integer()) bad("a tensor shape that is not integers");
  } else if (value.contains("const")) {
    if (value["const"].is_structured()) bad("a constant that is no JSON scalar");
  } else if (value.contains("tuple") || value.contains("list")) {
    const json& items = value.contains("tuple") ? value["tuple"] : value["list"];
    if (!items.is_array()) bad("a tuple or list that is no array");
    for (const json& item : items) check_value(item, depth + 1);
  } else if (value.contains("dict")) {
    if (!value["dict"].is_array()) bad("a dict that is no array");
    for (const json& item : value["dict"]) {
      if (!item.is_array() || item.size() != 2 || !item[0].is_string())
        bad("a dict item that is no [key, value]");
      check_value(item[1], depth + 1);
    }
  } else if (!field(value, "other").is_string()) {
    bad("a value of no known kind");
  }
}

NotedCall noted_call(const json& j, size_t index) {
  NotedCall call;
  call.path = field(j, "path").get<std::string>();
  call.parent = field(j, "parent").get<int>();
  if (index == 0 ? call.parent != -1 || !call.path.empty()
                 : call.parent < 0 || static_cast<size_t>(call.parent) >= index)
    bad("call " + std::to_string(index) + " (" + call.path + ") has no enclosing call before it");
  for (const json& arg : field(j, "args")) {
    if (!arg.is_array() || arg.size() != 2) bad("an argument that is no [name, value]");
    call.arg_names.push_back(arg[0].get<std::string>());
    check_value(arg[1]);
    call.args.push_back(arg[1]);
  }
  if (j.contains("positional")) {
    if (!j["positional"].is_number_unsigned())
      bad("a count of positional arguments that is no count");
    call.positional = j["positional"].get<size_t>();
  }
  call.output = field(j, "output");
  check_value(call.output);
  return call;
}

ExportNotes notes_of(const json& doc) {
  if (field(doc, "format") != kNotesFormat) bad("another format than " + std::string(kNotesFormat));
  if (field(doc, "version") != kNotesVersion)
    bad("version " + doc["version"].dump() + ", not " + std::to_string(kNotesVersion) +
        " (written by another modrec: export again with this one's modrec.export)");
  ExportNotes notes;
  for (const json& m : field(doc, "modules")) {
    notes.types[m.at(0).get<std::string>()] = m.at(1).get<std::string>();
    if (m.size() > 2) notes.same_as[m[0].get<std::string>()] = m[2].get<std::string>();
  }
  if (doc.contains("subgraph_stacks"))
    notes.subgraph_stacks =
        doc["subgraph_stacks"]
            .get<std::map<std::string, std::vector<std::map<std::string, std::string>>>>();
  if (doc.contains("python_operators"))
    notes.python_operators = doc["python_operators"].get<std::map<std::string, std::string>>();
  const json& calls = field(doc, "calls");
  if (!calls.is_array() || calls.empty()) bad("no calls");
  for (size_t i = 0; i < calls.size(); ++i) notes.calls.push_back(noted_call(calls[i], i));
  return notes;
}

void collect(const json& value, std::vector<NotedTensor>& out) {
  if (value.contains("tensor")) {
    out.push_back({value["tensor"].get<int64_t>(), value["shape"].get<std::vector<int64_t>>(),
                   value["dtype"].get<std::string>(), value["version"].get<int64_t>()});
  } else if (value.contains("tuple") || value.contains("list")) {
    for (const json& item : value.contains("tuple") ? value["tuple"] : value["list"])
      collect(item, out);
  } else if (value.contains("dict")) {
    for (const json& item : value["dict"]) collect(item[1], out);
  }
}

}  // namespace

ExportNotes parse_export_notes(const std::string& text) {
  if (json_depth(text) > kMaxJsonDepth)  // its values are walked recursively
    throw NotesError("nests its JSON more than " + std::to_string(kMaxJsonDepth) + " deep");
  try {
    return notes_of(read_json(text));
  } catch (const json::exception& e) {
    throw NotesError(e.what());
  }
}

std::vector<NotedTensor> noted_tensors(const NotedValue& value) {
  std::vector<NotedTensor> out;
  collect(value, out);
  return out;
}

}  // namespace modrec::pt2
