#include "util/interrupt.h"

#include <atomic>
#include <csignal>
#include <string>

namespace modrec {
namespace {
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");

struct sigaction g_old_int, g_old_term;

extern "C" void record_signal(int signo) { g_signal.store(signo, std::memory_order_relaxed); }

void install(int signo, struct sigaction* old) {
  struct sigaction action {};
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART | SA_RESETHAND;  // no EINTR in file I/O; a 2nd signal kills
  sigaction(signo, &action, old);
  // A signal the parent chose to ignore (a shell's `cmd &`) stays ignored.
  if (old->sa_handler == SIG_IGN) sigaction(signo, old, nullptr);
}

std::string signal_name(int signo) {
  if (signo == SIGINT) return "SIGINT";
  if (signo == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signo);
}
}  // namespace

InterruptGuard::InterruptGuard() {
  g_signal.store(0);
  install(SIGINT, &g_old_int);
  install(SIGTERM, &g_old_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

bool interrupted() { return g_signal.load(std::memory_order_relaxed) != 0; }

int interrupt_signal() { return g_signal.load(std::memory_order_relaxed); }

void throw_if_interrupted() {
  if (int signo = interrupt_signal()) throw Interrupted(signo);
}

Interrupted::Interrupted(int signal)
    : Error(Exit::write_failed, "interrupted by " + signal_name(signal), "",
            "the partial output was removed"),
      signal_(signal) {}

}  // namespace modrec
