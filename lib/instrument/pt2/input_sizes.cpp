#include "instrument/pt2/input_sizes.h"

#include "util/error.h"

namespace modrec::pt2 {
namespace {

std::string range_text(const SymbolRange& range) {
  const auto bound = [](const std::optional<int64_t>& b) {
    return b ? std::to_string(*b) : std::string("inf");
  };
  return "[" + bound(range.min) + ", " + bound(range.max) + "]";
}

std::string dimension_is(size_t d, int64_t size) {
  return "dimension " + std::to_string(d) + " is " + std::to_string(size);
}

}  // namespace

std::string size_mismatch(const TensorMeta& exported,
                          const std::map<std::string, SymbolRange>& ranges,
                          const std::vector<int64_t>& sizes) {
  if (sizes.size() != exported.sizes.size())
    return std::to_string(sizes.size()) + " dimensions, where the program was exported for " +
           std::to_string(exported.sizes.size());
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (exported.sizes[d] >= 0) {  // static: exported as a number
      if (sizes[d] != exported.sizes[d])
        return dimension_is(d, sizes[d]) + ", where the program was exported for " +
               std::to_string(exported.sizes[d]);
      continue;
    }
    const std::string& symbol = d < exported.size_symbols.size() ? exported.size_symbols[d] : "";
    auto range = ranges.find(symbol);
    if (range == ranges.end()) continue;
    const SymbolRange& r = range->second;
    if ((r.min && sizes[d] < *r.min) || (r.max && sizes[d] > *r.max))
      return dimension_is(d, sizes[d]) + ", outside the range " + range_text(r) +
             " the program was exported for";
  }
  return "";
}

void check_input_sizes(const Program& program, const std::vector<c10::IValue>& inputs,
                       const std::string& path) {
  size_t next = 0;
  for (const InputSpec& in : program.inputs) {
    if (in.kind != InputSpec::Kind::user_input) continue;
    const c10::IValue& input = inputs[next++];
    auto meta = program.tensor_values.find(in.value);
    if (!input.isTensor() || meta == program.tensor_values.end()) continue;
    const std::string wrong =
        size_mismatch(meta->second, program.range_constraints, input.toTensor().sizes().vec());
    if (!wrong.empty())
      throw Error(Exit::usage, "input " + in.value + ": " + wrong, path,
                  "give an input of the sizes the program was exported for (torch.export's "
                  "dynamic_shapes lets a dimension vary)");
  }
}

}  // namespace modrec::pt2
