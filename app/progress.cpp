#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "util/log.h"
#include "util/progress.h"

namespace modrec::cli {
namespace {

bool drawn = false;

// "\r" then the line, "\033[K" clearing what a longer line before it left: `what`, and
// "[####......] 3/10 <unit>" when it counts, or an ellipsis while it does not; an empty `what`
// clears.
void draw_line(const std::string& what, int done, int total, const std::string& unit = "") {
  std::string line = "\r\033[K";
  if (!what.empty()) line += "modrec: " + what;
  if (!what.empty() && total > 0) {
    const int width = 30, filled = width * std::min(done, total) / total;
    line += " [" + std::string(filled, '#') + std::string(width - filled, '.') + "] " +
            std::to_string(done) + "/" + std::to_string(total) + (unit.empty() ? "" : " " + unit);
  } else if (!what.empty()) {
    line += " ...";
  }
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace

void draw_progress(bool quiet, bool json_lines) {
  drawn = !quiet && !json_lines && isatty(STDERR_FILENO);
  if (drawn)
    progress::set_drawer(
        [](const std::string& what, int done, int total) { draw_line(what, done, total); });
}

std::function<void(int, int)> progress_bar(const std::string& what, const std::string& unit) {
  if (!drawn) return nullptr;
  return [what, unit](int done, int total) {
    if (total <= 1) return;
    draw_line(what, done, total, unit);
    if (done == total) std::fputc('\n', stderr);
  };
}

void suggest_viewers(bool quiet, const std::string& run_dir,
                     const TensorBoardOptions& tensorboard) {
  if (quiet || !isatty(STDERR_FILENO)) return;
  log::info("open it with: modrec report ", run_dir,
            tensorboard.given() ? "; tensorboard --logdir " + tensorboard.log_dir + " (run " +
                                      tensorboard.run_name(run_dir).str() + ")"
                                : "");
}

}  // namespace modrec::cli
