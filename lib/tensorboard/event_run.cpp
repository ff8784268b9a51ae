#include "tensorboard/event_run.h"

#include "util/error.h"

namespace modrec {
namespace fs = std::filesystem;
namespace {

// TensorBoard reads every file whose name holds "tfevents" (io_wrapper.IsTensorFlowEventsFile).
constexpr std::string_view kEventMark = "tfevents";

bool is_event_file(const fs::directory_entry& entry) {
  std::error_code ec;
  return entry.path().filename().string().find(kEventMark) != std::string::npos &&
         !entry.is_directory(ec);
}

// Where an event file waits for commit(): hidden, and without the mark TensorBoard reads by.
fs::path aside_name(const fs::path& file) {
  std::string name = file.filename().string();
  for (size_t at; (at = name.find(kEventMark)) != std::string::npos;)
    name.replace(at, kEventMark.size(), "modrec-old");
  return file.parent_path() / ("." + name);
}

[[noreturn]] void fail(const std::string& what, const fs::path& where, const std::string& hint) {
  throw Error(Exit::write_failed, what, where.string(), hint);
}

// `dir` and those of its parents that do not exist, innermost first.
std::vector<fs::path> missing_directories(fs::path dir) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (dir = fs::absolute(dir).lexically_normal(); dir.has_relative_path();
       dir = dir.parent_path()) {
    if (!dir.has_filename()) continue;  // "tb/" names "tb"
    if (fs::exists(fs::symlink_status(dir, ec))) break;
    missing.push_back(dir);
  }
  return missing;
}

}  // namespace

EventRun::EventRun(const std::string& run_dir, bool force) : dir_(run_dir) {
  const fs::path log_dir = dir_.parent_path();
  std::error_code ec;
  const auto status = fs::symlink_status(dir_, ec);
  if (fs::exists(status) && !fs::is_directory(status))
    fail(
        "the TensorBoard run exists and is not a directory", dir_,
        "remove it or choose another --tensorboard-run; --force replaces a run's event files only");
  const std::vector<fs::path> missing = missing_directories(log_dir);
  fs::create_directories(log_dir, ec);
  if (ec)
    fail("cannot create the TensorBoard log directory: " + ec.message(), log_dir,
         "check write permission, or choose another --tensorboard");
  made_ = missing;
  try {
    if (fs::create_directory(dir_, ec)) {
      made_.insert(made_.begin(), dir_);
    } else if (ec) {
      fail("cannot create the TensorBoard run directory: " + ec.message(), dir_,
           "check write permission on " + log_dir.string());
    } else if (!force) {
      fail("the TensorBoard run already exists", dir_,
           "pass --force to replace its event files, or choose another --tensorboard-run");
    } else {
      set_aside_event_files();
    }
    events_.emplace(dir_.string());
  } catch (...) {
    roll_back();
    throw;
  }
}

EventRun::~EventRun() {
  if (!committed_) roll_back();
}

void EventRun::set_aside_event_files() {
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir_, ec))
    if (is_event_file(entry)) files.push_back(entry.path());
  if (ec) fail("cannot read the TensorBoard run: " + ec.message(), dir_, "check its permissions");
  for (const fs::path& file : files) {
    const fs::path aside = aside_name(file);
    fs::rename(file, aside, ec);
    if (ec)
      fail("cannot move the run's earlier event file aside: " + ec.message(), file,
           "check write permission on " + dir_.string() + ", or choose another --tensorboard-run");
    aside_.emplace_back(file, aside);
  }
}

void EventRun::commit() {
  std::error_code ec;
  for (const auto& [file, aside] : aside_) fs::remove(aside, ec);  // a leftover is harmless
  committed_ = true;
}

void EventRun::roll_back() noexcept {
  std::error_code ec;
  if (events_) {
    const fs::path file = events_->path();
    events_.reset();  // closed before it is removed
    fs::remove(file, ec);
  }
  for (const auto& [file, aside] : aside_) fs::rename(aside, file, ec);
  for (const fs::path& dir : made_) fs::remove(dir, ec);  // empty ones only: rmdir
}

}  // namespace modrec
