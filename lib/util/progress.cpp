#include "util/progress.h"

#include <mutex>

namespace modrec::progress {
namespace {

std::mutex mutex;
Drawer drawer;
bool drawn = false;

void draw(const std::string& what, int done, int total) {
  const std::lock_guard<std::mutex> lock(mutex);
  if (!drawer) return;
  drawer(what, done, total);
  drawn = !what.empty();
}

}  // namespace

void set_drawer(Drawer d) {
  const std::lock_guard<std::mutex> lock(mutex);
  drawer = std::move(d);
}

void clear() {
  const std::lock_guard<std::mutex> lock(mutex);
  if (drawer && drawn) drawer("", 0, 0);
  drawn = false;
}

Phase::Phase(std::string what, int total) : what_(std::move(what)) { draw(what_, 0, total); }

Phase::~Phase() { clear(); }

void Phase::step(int done, int total) { draw(what_, done, total); }

}  // namespace modrec::progress
