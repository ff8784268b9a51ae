#include "load/aoti/input_match.h"

namespace modrec::aoti {
namespace {

const char* const kCompiled = ", where the package was compiled for ";

std::string dim_mismatch(size_t d, const CompiledDim& dim, int64_t size) {
  const std::string is = "dimension " + std::to_string(d) + " is " + std::to_string(size);
  if (dim.size && size != *dim.size) return is + kCompiled + std::to_string(*dim.size);
  if ((dim.min && size < *dim.min) || (dim.max && size > *dim.max))
    return is + ", outside the range [" + (dim.min ? std::to_string(*dim.min) : "0") + ", " +
           (dim.max ? std::to_string(*dim.max) : "inf") + "] the package was compiled for";
  return "";
}

}  // namespace

std::string input_mismatch(const CompiledInput& compiled, const std::string& dtype,
                           const std::vector<int64_t>& sizes) {
  if (!compiled.dtype.empty() && dtype != compiled.dtype)
    return "dtype " + dtype + kCompiled + compiled.dtype;
  if (!compiled.dims.empty() && sizes.size() != compiled.dims.size())
    return std::to_string(sizes.size()) + " dimensions" + kCompiled +
           std::to_string(compiled.dims.size());
  for (size_t d = 0; d < compiled.dims.size(); ++d)
    if (std::string wrong = dim_mismatch(d, compiled.dims[d], sizes[d]); !wrong.empty())
      return wrong;
  return "";
}

}  // namespace modrec::aoti
