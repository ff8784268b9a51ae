#include "util/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>

#include "util/error.h"

extern char** environ;

namespace modrec {
namespace {

struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw write_error("cannot make a pipe", "run_process");
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() { close_both(); }
  void close_both() {
    close_end(read);
    close_end(write);
  }
  static void close_end(int& fd) {
    if (fd >= 0) close(fd);
    fd = -1;
  }
};

// A write to a pipe whose reader has gone raises SIGPIPE: blocked here, so the write fails with
// EPIPE instead; a pending one is taken back before the mask is restored.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlocked() {
    const timespec now{0, 0};
    while (sigtimedwait(&pipe_, nullptr, &now) == SIGPIPE) {
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }

 private:
  sigset_t pipe_, old_;
};

// Feeds `input` to `in` and drains `out` and `err` until both reach end of file.
void serve(Pipe& in, Pipe& out, Pipe& err, const std::string& input, ProcessResult& result) {
  SigpipeBlocked blocked;
  fcntl(in.write, F_SETFL, O_NONBLOCK);
  size_t sent = 0;
  if (input.empty()) Pipe::close_end(in.write);
  while (out.read >= 0 || err.read >= 0) {
    pollfd fds[3] = {{in.write, POLLOUT, 0}, {out.read, POLLIN, 0}, {err.read, POLLIN, 0}};
    if (poll(fds, 3, -1) < 0 && errno != EINTR) throw write_error("poll failed", "run_process");
    if (in.write >= 0 && fds[0].revents) {
      const ssize_t n = write(in.write, input.data() + sent, input.size() - sent);
      if (n > 0) sent += static_cast<size_t>(n);
      if (n < 0 && errno != EAGAIN) sent = input.size();  // the program stopped reading
      if (sent == input.size()) Pipe::close_end(in.write);
    }
    std::string* sinks[2] = {&result.out, &result.err};
    int* fds_read[2] = {&out.read, &err.read};
    for (int k = 0; k < 2; ++k) {
      if (*fds_read[k] < 0 || !fds[k + 1].revents) continue;
      char buffer[65536];
      const ssize_t n = read(*fds_read[k], buffer, sizeof buffer);
      if (n > 0) sinks[k]->append(buffer, static_cast<size_t>(n));
      if (n == 0 || (n < 0 && errno != EINTR)) Pipe::close_end(*fds_read[k]);
    }
  }
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

}  // namespace

std::optional<ProcessResult> run_process(const std::vector<std::string>& argv,
                                         const std::string& input) {
  Pipe in, out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.read, 0);
  posix_spawn_file_actions_adddup2(&actions, out.write, 1);
  posix_spawn_file_actions_adddup2(&actions, err.write, 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int failed = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (failed) return std::nullopt;
  Pipe::close_end(in.read);
  Pipe::close_end(out.write);
  Pipe::close_end(err.write);
  ProcessResult result;
  serve(in, out, err, input, result);
  result.status = wait_for(pid);
  return result;
}

}  // namespace modrec
