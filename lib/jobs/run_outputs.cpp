#include "jobs/run_outputs.h"

namespace modrec {
namespace {

// The TensorBoard run's directory, once the usage checks pass; empty without --tensorboard.
std::string checked_events_dir(const std::string& out, const TensorBoardOptions& tensorboard,
                               const std::vector<FlagPath>& read) {
  refuse_output_over_inputs({out, "--out"}, read);
  if (!tensorboard.given()) return "";
  refuse_output_over_inputs({tensorboard.log_dir, "--tensorboard"}, read);
  refuse_outputs_together({tensorboard.log_dir, "--tensorboard"}, {out, "--out"});
  return tensorboard.run_dir(out);
}

}  // namespace

RunOutputs::RunOutputs(const std::string& out, bool force, const TensorBoardOptions& tensorboard,
                       const std::vector<FlagPath>& read)
    : RunOutputs(out, force, checked_events_dir(out, tensorboard, read)) {}

RunOutputs::RunOutputs(const std::string& out, bool force, const std::string& events_dir)
    : dir_(out, force) {
  if (!events_dir.empty()) events_.emplace(events_dir, force);
}

void RunOutputs::commit() {
  dir_.commit();
  if (events_) events_->commit();
}

}  // namespace modrec
