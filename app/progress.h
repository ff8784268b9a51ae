// Progress on stderr, drawn only when it is a terminal, without --quiet, and its lines are text
// (under --log-format json every stderr line is JSON): one line, redrawn in place, cleared when
// its phase ends.
#pragma once
#include <functional>
#include <string>

#include "tensorboard/tensorboard_options.h"

namespace modrec::cli {

// From main, once the command line is parsed: whether progress is drawn; installs the drawer of
// lib's phases (util/progress.h: loading a model, diff's runs of two models, merge's shards).
void draw_progress(bool quiet, bool json_lines);

// record's batches and watch's steps, "modrec: recording [####......] 3/10 batches", left on
// screen when done; nullptr when not drawn.
std::function<void(int done, int total)> progress_bar(const std::string& what,
                                                      const std::string& unit);

// On a terminal (not --quiet): "open it with: modrec report RUN_DIR", and the TensorBoard command
// when an event file was written too: its log directory, which shows the run beside the others.
void suggest_viewers(bool quiet, const std::string& run_dir, const TensorBoardOptions& tensorboard);

}  // namespace modrec::cli
