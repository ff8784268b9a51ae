#include "load/torch_warnings.h"

#include <c10/util/Exception.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <string>

#include "util/log.h"

namespace modrec {
namespace {

class LogWarnings final : public c10::WarningHandler {
 public:
  void process(const c10::Warning& warning) override {
    std::string message = warning.msg();
    std::replace(message.begin(), message.end(), '\n', ' ');  // one line, whatever LibTorch wrote
    std::lock_guard<std::mutex> lock(mutex_);
    if (seen_.insert(message).second) log::warn(message);
  }

 private:
  std::mutex mutex_;
  std::set<std::string> seen_;
};

}  // namespace

void log_torch_warnings() {
  static LogWarnings handler;  // outlives every use: c10 keeps a plain pointer
  c10::WarningUtils::set_warning_handler(&handler);
}

}  // namespace modrec
