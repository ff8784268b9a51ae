// Long phases (a model's loading, one model's run of `diff`, `merge`'s shards) told to whoever
// draws them: the CLI installs a drawer when stderr is a terminal (app/progress.cpp); without one
// nothing is drawn and a phase costs nothing.
#pragma once
#include <functional>
#include <string>

namespace modrec::progress {

// Draws `what`, `done` of `total` steps (total 0: a phase without a count); an empty `what`
// clears what was drawn.
using Drawer = std::function<void(const std::string& what, int done, int total)>;
void set_drawer(Drawer drawer);

// Clears the line a phase drew, before a log line is written over it (util/log.cpp); the phase
// is drawn again at its next step.
void clear();

// A phase in scope: drawn when made, at each step, cleared when it ends (on every exit path).
class Phase {
 public:
  explicit Phase(std::string what, int total = 0);
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;
  ~Phase();
  void step(int done, int total);

 private:
  std::string what_;
};

}  // namespace modrec::progress
