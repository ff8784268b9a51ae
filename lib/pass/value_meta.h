// Shapes and dtypes of call arguments and results, read the way torchinfo reads them.
#pragma once
#include <ATen/core/ivalue.h>

#include <functional>
#include <string>
#include <vector>

#include "values/ivalue_walk.h"  // the walks over a value that rows and recordings use
#include "model/call_trace.h"

namespace modrec {

// A forward hook's `inputs`: the positional arguments as one tuple.
ValueMeta args_meta(const std::vector<c10::IValue>& args);
// A forward hook's `outputs`: the value the call returned.
ValueMeta result_meta(const c10::IValue& value);

}  // namespace modrec
