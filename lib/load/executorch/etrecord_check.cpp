#include "load/executorch/etrecord_check.h"

#include <set>

#include "load/pt2/schema_enums.h"
#include "util/error.h"

namespace modrec {
namespace {

std::string sizes_text(const std::vector<int64_t>& sizes) {
  std::string out = "[";
  for (size_t i = 0; i < sizes.size(); ++i)
    out += (i ? ", " : "") + (sizes[i] < 0 ? std::string("?") : std::to_string(sizes[i]));
  return out + "]";
}

std::string value_text(const std::optional<pt2::TensorMeta>& meta) {
  if (!meta) return "a value that is no tensor";
  const auto dtype = pt2::scalar_type(meta->dtype);
  return std::string(dtype ? c10::toString(*dtype) : "?") + " " + sizes_text(meta->sizes);
}

std::string value_text(const PteValue& value) {
  if (!value.tensor()) return "a value that is no tensor";
  return std::string(c10::toString(static_cast<c10::ScalarType>(value.dtype))) + " " +
         sizes_text(value.sizes);
}

// The edge program's value against forward's: the dtype, and every size it fixes (a symbolic
// size is -1; forward's is then its upper bound).
bool same(const std::optional<pt2::TensorMeta>& meta, const PteValue& value) {
  if (!meta || !value.tensor()) return !meta && !value.tensor();
  const auto dtype = pt2::scalar_type(meta->dtype);
  if (!dtype || static_cast<int>(*dtype) != value.dtype) return false;
  if (meta->sizes.size() != value.sizes.size()) return false;
  for (size_t d = 0; d < value.sizes.size(); ++d)
    if (meta->sizes[d] >= 0 && meta->sizes[d] != value.sizes[d]) return false;
  return true;
}

Error mismatch(const EtRecord& record, const std::string& what) {
  return Error(Exit::bad_input, "ETRecord does not describe this program: " + what, record.path,
               kEtRecordHint);
}

void check_values(const EtRecord& record, const char* kind,
                  const std::vector<std::optional<pt2::TensorMeta>>& told,
                  const std::vector<PteValue>& values) {
  if (told.size() != values.size())
    throw mismatch(record, std::string("its edge program has ") + std::to_string(told.size()) +
                               " " + kind + "s, the program's forward " +
                               std::to_string(values.size()));
  for (size_t i = 0; i < told.size(); ++i)
    if (!same(told[i], values[i]))
      throw mismatch(record, std::string("its edge program's ") + kind + " " + std::to_string(i) +
                                 " is " + value_text(told[i]) + ", the program's " +
                                 value_text(values[i]));
}

}  // namespace

void check_etrecord(const EtRecord& record, const PteMethod& method) {
  std::set<int64_t> handles;
  for (const EtRecordNode& node : record.nodes) handles.insert(node.debug_handle);
  for (const auto& [instruction, told] : record.handles) {
    if (instruction < 0 || instruction >= method.instructions)
      throw mismatch(record, "its debug_handle_map names instruction " +
                                 std::to_string(instruction) + " of forward, which has " +
                                 std::to_string(method.instructions));
    for (int64_t h : told)
      if (h < 0 || !handles.count(h))
        throw mismatch(record, "its debug_handle_map gives instruction " +
                                   std::to_string(instruction) + " the debug handle " +
                                   std::to_string(h) + ", which no node of its edge program has");
  }
  check_values(record, "input", record.inputs, method.inputs);
  check_values(record, "output", record.outputs, method.outputs);
}

}  // namespace modrec
