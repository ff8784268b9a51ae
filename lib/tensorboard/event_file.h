// A TensorBoard event file (torch-free): TFRecord framing (length, masked CRC-32C of the length,
// the event, masked CRC-32C of the event) around Event messages, in a new
// `events.out.tfevents.<seconds>.<host>.<pid>` file of a log directory. Flushed at every step's
// end, so that TensorBoard shows a run while it trains.
#pragma once
#include <cstdint>
#include <fstream>
#include <string>

#include "stats/running_stats.h"
#include "tensorboard/event_proto.h"

namespace modrec {

// Where one tensor of a recorded capture goes: "<path> (<label>)/<element>", the element as
// tables name it (rundir's tensor_element: "output", "output[1][0]", "param_grad.weight").
// TensorBoard groups tags by their part before the first '/', so each module gets a section;
// the label tells a module's calls apart.
std::string statistics_tag(const std::string& path, const std::string& type,
                           const std::string& label, const std::string& element);

class EventFile {
 public:
  // Creates `dir` when missing. Error(write_failed) naming it when it cannot.
  explicit EventFile(const std::string& dir);

  void scalar(int64_t step, const std::string& tag, double value);
  void histogram(int64_t step, const std::string& tag, const HistogramValue& histogram);
  // `tag`/std, /abs_max, /mean and /nonfinite (NaN and ±Inf counted) as scalars; the finite
  // values' histogram under `tag` itself.
  void statistics(int64_t step, const std::string& tag, const RunningStats& stats);
  // Error(write_failed) when what was written did not reach the file.
  void flush();
  const std::string& path() const { return path_; }

 private:
  void write(const std::string& event);

  std::string path_;
  std::ofstream out_;
};

}  // namespace modrec
