// Ctrl-C / SIGTERM as an exception at a safe point, so that unwinding destructors (AtomicDir)
// remove partial output before the process exits.
#pragma once
#include "util/error.h"

namespace modrec {

// While alive, SIGINT and SIGTERM only record the signal (async-signal-safe); long-running code
// polls throw_if_interrupted() between steps. A second signal of the same kind gets the default
// action (SA_RESETHAND), so a stuck run can still be killed. Restores the previous handlers.
// One guard at a time: the previous handlers are kept in process-wide state.
// The CLI catches Interrupted after the stack has unwound and exits 128 + signal
// (130 for SIGINT, 143 for SIGTERM).
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
};

bool interrupted();
int interrupt_signal();  // the signal number received under the guard, 0 if none
void throw_if_interrupted();

class Interrupted : public Error {
 public:
  explicit Interrupted(int signal);
  int signal() const { return signal_; }
  int exit_status() const { return 128 + signal_; }

 private:
  int signal_;
};

}  // namespace modrec
