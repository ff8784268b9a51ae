// What modrec.export (python/modrec/_export.py) writes beside a torch.export program, as plain
// types (torch-free): every named module's class, and every module call of one eager forward
// with its arguments and result, tensors numbered by identity. docs/export-notes.md is the format.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace modrec::pt2 {

// The archive entry torch.export.save writes for extra_files={"modrec-notes.json": ...}.
inline constexpr const char* kNotesEntry = "extra/modrec-notes.json";
inline constexpr const char* kNotesFormat = "modrec.export-notes";
inline constexpr int kNotesVersion = 1;

// A tensor of a noted value: the same `id` is the same Python object; `version` is its
// _version, which in-place operations advance.
struct NotedTensor {
  int64_t id = 0;
  std::vector<int64_t> shape;
  // "float32", as torch prints it without "torch.": text as the notes hold it, since they may
  // name any dtype torch has (nothing reads it yet: calls are matched by id and shape).
  std::string dtype;
  int64_t version = 0;
};

struct NotedValue;

// A constant: None (monostate), a bool, an int, a finite float or a string.
using NotedConstant = std::variant<std::monostate, bool, int64_t, double, std::string>;
struct NotedTuple {
  std::vector<NotedValue> items;
};
struct NotedList {
  std::vector<NotedValue> items;
};
struct NotedDict {
  std::vector<std::string> keys;   // in order
  std::vector<NotedValue> values;  // keys[i]'s is values[i]
};
struct NotedOther {
  std::string type;  // anything else (a non-finite float, a dtype, an object): its class
};

// A call's argument or result, as the notes write it ({"tensor": id, "shape", "dtype",
// "version"}, {"const": scalar or null}, {"tuple": [...]}, {"list": [...]}, {"dict": [[key,
// value], ...]}, {"other": "class"}), checked by parse_export_notes.
struct NotedValue {
  std::variant<NotedTensor, NotedConstant, NotedTuple, NotedList, NotedDict, NotedOther> held;
};

struct NotedCall {
  std::string path;
  int parent = -1;  // the enclosing call's index in ExportNotes::calls; -1 for the root
  std::vector<std::string> arg_names;  // forward's parameters, in order, defaults filled in
  std::vector<NotedValue> args;
  NotedValue output;
  // How many of `args` (the first ones) eager forward was given by position; nullopt in notes
  // of a modrec.export that did not write it.
  std::optional<size_t> positional;
};

struct ExportNotes {
  std::map<std::string, std::string> types;  // module path -> qualified class
  // A path whose module object named_modules(remove_duplicate=False) met at an earlier path ->
  // that object's first path (`self.b = self.a`: "b" -> "a").
  std::map<std::string, std::string> same_as;
  // Module stacks a strict export lent the subgraphs of a non-strict one (whose nodes have none):
  // top graph node -> per subgraph, its node -> the stack as the archive writes it.
  std::map<std::string, std::vector<std::map<std::string, std::string>>> subgraph_stacks;
  std::vector<NotedCall> calls;  // in the order they start; calls[0] is the root's
  // The operators the program calls that a Python package defines (torch.library: no shared
  // library has them): "ns::name" -> the package.
  std::map<std::string, std::string> python_operators;
};

struct NotesError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws NotesError saying what is wrong: not JSON, another format or version, a field missing
// or of another type, a value of a kind the format lacks, a call's parent that does not enclose
// it.
ExportNotes parse_export_notes(const std::string& text);

// The items of a noted tuple or list; nullptr for a value of another kind.
const std::vector<NotedValue>* noted_items(const NotedValue& value);

// The tensors inside a noted value, depth-first (dicts in their order).
std::vector<NotedTensor> noted_tensors(const NotedValue& value);

}  // namespace modrec::pt2
