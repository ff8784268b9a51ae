// One recorded layer call (a label) with its captures, accumulated over every batch.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "record/accumulate/capture_sink.h"
#include "model/call_memory.h"
#include "model/captures.h"

namespace modrec {

struct CaptureRecording {
  Capture capture;
  CaptureSink sink;
  std::vector<std::string> files;  // relative to the run directory, once written
};

struct LayerRecording {
  std::string label;
  std::string path;
  std::string type;
  int call = 1;              // which call of this module instance, from 1
  bool traced_away = false;  // the call passed no data (Call::traced_away): nothing recorded
  std::vector<CaptureRecording> captures;
  // With param_grad: the labels of every call of the module (in the last pass), whose
  // contributions its parameters' gradients sum.
  std::vector<std::string> param_calls;
  // Position among the pass's calls in the order they returned (innermost first), for diff to
  // find where two runs part; -1 until known.
  int returned = -1;
  // With --columns saved_bytes,peak_bytes: its call's memory, the largest over the kept batches.
  std::optional<CallMemory> memory;

  CaptureSink& sink(Capture capture);
};

}  // namespace modrec
