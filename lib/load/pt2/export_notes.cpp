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

NotedValue noted_value(const json& value, int depth = 0);

std::vector<NotedValue> parsed_items(const json& items, int depth) {
  if (!items.is_array()) bad("a tuple or list that is no array");
  std::vector<NotedValue> out;
  for (const json& item : items) out.push_back(noted_value(item, depth + 1));
  return out;
}

NotedTensor noted_tensor(const json& value) {
  if (value.size() != 4 || !field(value, "tensor").is_number_integer() ||
      !field(value, "version").is_number_integer() || !field(value, "dtype").is_string() ||
      !field(value, "shape").is_array())
    bad("a tensor without its id, shape, dtype and version");
  for (const json& d : value["shape"])
    if (!d.is_number_integer()) bad("a tensor shape that is not integers");
  return {value["tensor"].get<int64_t>(), value["shape"].get<std::vector<int64_t>>(),
          value["dtype"].get<std::string>(), value["version"].get<int64_t>()};
}

NotedConstant noted_constant(const json& c) {
  if (c.is_boolean()) return c.get<bool>();
  if (c.is_number_integer()) return c.get<int64_t>();
  if (c.is_number()) return c.get<double>();
  if (c.is_string()) return c.get<std::string>();
  if (!c.is_null()) bad("a constant that is no JSON scalar");
  return std::monostate{};
}

NotedDict noted_dict(const json& items, int depth) {
  if (!items.is_array()) bad("a dict that is no array");
  NotedDict out;
  for (const json& item : items) {
    if (!item.is_array() || item.size() != 2 || !item[0].is_string())
      bad("a dict item that is no [key, value]");
    out.keys.push_back(item[0].get<std::string>());
    out.values.push_back(noted_value(item[1], depth + 1));
  }
  return out;
}

// One value of a kind the format has; a NotesError naming any other.
NotedValue noted_value(const json& value, int depth) {
  if (depth > 100) bad("a value nested too deep");
  if (!value.is_object() || value.empty())
    bad("a value that is no {\"tensor\"|\"const\"|\"tuple\"|\"list\"|\"dict\"|\"other\": ...}");
  if (value.contains("tensor")) return {noted_tensor(value)};
  if (value.size() != 1) bad("a value of several kinds");
  const std::string& kind = value.begin().key();
  const json& held = value.front();
  if (kind == "const") return {noted_constant(held)};
  if (kind == "tuple") return {NotedTuple{parsed_items(held, depth)}};
  if (kind == "list") return {NotedList{parsed_items(held, depth)}};
  if (kind == "dict") return {noted_dict(held, depth)};
  if (kind == "other" && held.is_string()) return {NotedOther{held.get<std::string>()}};
  if (kind == "other") bad("an \"other\" value whose class is no string");
  bad("a value of unknown kind \"" + kind + "\"");
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
    call.args.push_back(noted_value(arg[1]));
  }
  if (j.contains("positional")) {
    if (!j["positional"].is_number_unsigned())
      bad("a count of positional arguments that is no count");
    call.positional = j["positional"].get<size_t>();
  }
  call.output = noted_value(field(j, "output"));
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

void collect(const NotedValue& value, std::vector<NotedTensor>& out) {
  if (const auto* tensor = std::get_if<NotedTensor>(&value.held)) out.push_back(*tensor);
  if (const std::vector<NotedValue>* items = noted_items(value))
    for (const NotedValue& item : *items) collect(item, out);
  if (const auto* dict = std::get_if<NotedDict>(&value.held))
    for (const NotedValue& item : dict->values) collect(item, out);
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

const std::vector<NotedValue>* noted_items(const NotedValue& value) {
  if (const auto* tuple = std::get_if<NotedTuple>(&value.held)) return &tuple->items;
  if (const auto* list = std::get_if<NotedList>(&value.held)) return &list->items;
  return nullptr;
}

std::vector<NotedTensor> noted_tensors(const NotedValue& value) {
  std::vector<NotedTensor> out;
  collect(value, out);
  return out;
}

}  // namespace modrec::pt2
