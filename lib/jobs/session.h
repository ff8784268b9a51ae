// A loaded, instrumented model and its inputs: the start of every job that runs a model.
#pragma once
#include "instrument/instrumented_model.h"
#include "load/load_options.h"

namespace modrec {

struct Session {
  InstrumentedModel model;
  std::vector<c10::IValue> inputs;
  int64_t input_bytes = 0;
};

Session open_session(const ModelOptions& model, const InputOptions& inputs,
                     const InstrumentOptions& instrument = {});

}  // namespace modrec
