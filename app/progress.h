// A one-line progress bar on stderr, only when stderr is a terminal and not --quiet.
#pragma once
#include <functional>
#include <string>

#include "tensorboard/tensorboard_options.h"

namespace modrec::cli {

std::function<void(int done, int total)> progress_bar(bool quiet);

// On a terminal (not --quiet): "open it with: modrec report RUN_DIR", and the TensorBoard command
// when an event file was written too: its log directory, which shows the run beside the others.
void suggest_viewers(bool quiet, const std::string& run_dir, const TensorBoardOptions& tensorboard);

}  // namespace modrec::cli
