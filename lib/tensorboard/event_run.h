// One run of a TensorBoard log directory (torch-free): the run's own subdirectory and a new event
// file in it, complete or not at all, as AtomicDir makes --out. The log directory itself may hold
// other runs; nothing outside the run's subdirectory, and nothing in it but event files, is ever
// removed.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tensorboard/event_file.h"

namespace modrec {

class EventRun {
 public:
  // Creates `run_dir` (and the log directory above it when missing) and an event file in it.
  // Error(write_failed) when `run_dir` exists and !force, or exists and is no directory (never
  // replaced), or cannot be made. With force, the event files directly in `run_dir` (TensorBoard
  // reads every file with "tfevents" in its name) are renamed out of TensorBoard's sight until
  // commit() deletes them; subdirectories (other runs, to TensorBoard) and other files stay.
  EventRun(const std::string& run_dir, bool force);
  // Not committed (an error, an interrupt): removes the new event file, puts back the event files
  // set aside, and removes the directories it made. Never throws.
  ~EventRun();
  EventRun(const EventRun&) = delete;
  EventRun& operator=(const EventRun&) = delete;

  EventFile& events() { return *events_; }
  // Deletes the event files set aside: the run now holds the new one only. Never throws.
  void commit();

 private:
  void set_aside_event_files();
  void roll_back() noexcept;

  std::filesystem::path dir_;
  std::vector<std::filesystem::path> made_;  // directories it created, innermost first
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> aside_;  // name, hidden
  std::optional<EventFile> events_;
  bool committed_ = false;
};

}  // namespace modrec
