#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "util/log.h"

namespace modrec::cli {

std::function<void(int, int)> progress_bar(bool quiet) {
  if (quiet || !isatty(STDERR_FILENO)) return nullptr;
  return [](int done, int total) {
    if (total <= 1) return;
    const int width = 30, filled = width * done / total;
    std::fprintf(stderr, "\r[%s%s] %d/%d batches", std::string(filled, '#').c_str(),
                 std::string(width - filled, '.').c_str(), done, total);
    if (done == total) std::fputc('\n', stderr);
    std::fflush(stderr);
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
