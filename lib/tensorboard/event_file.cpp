#include "tensorboard/event_file.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>

#include "util/error.h"

namespace modrec {
namespace {

double wall_time() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

std::string host_name() {
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? name : "localhost";
}

HistogramValue histogram_of(const RunningStats& stats) {
  const Histogram h = stats.histogram();
  HistogramValue out;
  out.min = stats.min();
  out.max = stats.max();
  out.num = static_cast<double>(stats.finite_count());
  out.sum = stats.mean() * out.num;
  out.sum_squares = stats.l2_norm() * stats.l2_norm();
  out.bucket_limit.assign(h.edges.begin() + 1, h.edges.end());
  out.bucket.assign(h.counts.begin(), h.counts.end());
  return out;
}

}  // namespace

std::string statistics_tag(const std::string& path, const std::string& type,
                           const std::string& label, const std::string& element) {
  return (path.empty() ? type : path) + " (" + label + ")/" + element;
}

EventFile::EventFile(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const double now = wall_time();
  path_ = dir + "/events.out.tfevents." + std::to_string(static_cast<int64_t>(now)) + "." +
          host_name() + "." + std::to_string(getpid());
  out_.open(path_, std::ios::binary);
  if (ec || !out_) throw write_error("cannot write a TensorBoard event file", dir);
  write(file_version_event(now));
}

void EventFile::write(const std::string& event) { out_ << tfrecord(event); }

void EventFile::scalar(int64_t step, const std::string& tag, double value) {
  write(scalar_event(wall_time(), step, tag, static_cast<float>(value)));
}

void EventFile::histogram(int64_t step, const std::string& tag, const HistogramValue& histogram) {
  write(histogram_event(wall_time(), step, tag, histogram));
}

void EventFile::statistics(int64_t step, const std::string& tag, const RunningStats& stats) {
  scalar(step, tag + "/std", stats.std());
  scalar(step, tag + "/abs_max", stats.abs_max());
  scalar(step, tag + "/mean", stats.mean());
  scalar(step, tag + "/nonfinite", static_cast<double>(stats.nan_count() + stats.inf_count()));
  // TensorBoard's histograms hold finite values: none, no histogram.
  if (stats.finite_count() > 0) histogram(step, tag, histogram_of(stats));
}

void EventFile::flush() {
  out_.flush();
  if (!out_) throw write_error("cannot write the TensorBoard event file", path_);
}

}  // namespace modrec
