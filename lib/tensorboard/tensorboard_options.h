// --tensorboard DIR and --tensorboard-run NAME of record and watch (torch-free): DIR is a
// TensorBoard log directory, and each recording writes into a run subdirectory of its own, so
// that `tensorboard --logdir DIR` shows the runs side by side rather than one run of mixed steps.
#pragma once
#include <optional>
#include <string>

namespace modrec {

// A run's name: one directory name (TensorBoard lists a log directory's runs by their
// subdirectories), parsed once.
class RunName {
 public:
  // Throws Error(usage, ..., "--tensorboard-run") for text that names no single directory: empty,
  // "." or "..", a '/' or NUL in it, or longer than a file name may be (255 bytes).
  static RunName parse(const std::string& text);
  // The name of the run directory `out` (--out's last component, "runs/a/" → "a"); Error(usage)
  // naming --tensorboard-run when it has none ("/").
  static RunName of_out(const std::string& out);
  const std::string& str() const { return text_; }

 private:
  explicit RunName(std::string text) : text_(std::move(text)) {}
  std::string text_;
};

struct TensorBoardOptions {
  std::string log_dir;         // --tensorboard DIR; empty: no event file
  std::optional<RunName> run;  // --tensorboard-run NAME; none: --out's name

  bool given() const { return !log_dir.empty(); }
  // --tensorboard-run, else the name of `out`.
  RunName run_name(const std::string& out) const { return run ? *run : RunName::of_out(out); }
  // DIR/NAME, where the run's event file goes.
  std::string run_dir(const std::string& out) const;
};

}  // namespace modrec
