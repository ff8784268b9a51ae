// What record and watch write: the run directory (--out) and, with --tensorboard, the run's own
// subdirectory of the TensorBoard log directory. Both are checked and claimed before any pass
// runs, and appear complete or not at all.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tensorboard/event_run.h"
#include "tensorboard/tensorboard_options.h"
#include "util/atomic_dir.h"
#include "util/path_overlap.h"

namespace modrec {

class RunOutputs {
 public:
  // Error(usage) when --out or --tensorboard is, lies in or holds one of `read` or the other, or
  // no run name resolves; Error(write_failed) when --out or the TensorBoard run exists and !force.
  RunOutputs(const std::string& out, bool force, const TensorBoardOptions& tensorboard,
             const std::vector<FlagPath>& read);

  const std::string& dir() const { return dir_.path(); }  // where to write the run directory
  EventFile* events() { return events_ ? &events_->events() : nullptr; }  // null: no --tensorboard
  void commit();

 private:
  RunOutputs(const std::string& out, bool force, const std::string& events_dir);

  AtomicDir dir_;
  std::optional<EventRun> events_;
};

}  // namespace modrec
