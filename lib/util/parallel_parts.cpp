#include "util/parallel_parts.h"

#include <dlfcn.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace modrec {
namespace {

// Workers wait on one queue of parts; a job counts its unfinished parts down to zero.
class WorkerPool {
 public:
  ~WorkerPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  void run(int parts, const std::function<void(int)>& body) {
    int left = parts - 1;
    std::condition_variable done;
    {
      std::lock_guard lock(mutex_);
      while (static_cast<int>(threads_.size()) < parts - 1)
        threads_.emplace_back([this] { work(); });
      for (int p = 1; p < parts; ++p)
        queue_.push_back([&, p] {
          body(p);
          std::lock_guard finished(mutex_);
          if (--left == 0) done.notify_one();
        });
    }
    wake_.notify_all();
    body(0);
    std::unique_lock lock(mutex_);
    done.wait(lock, [&] { return left == 0; });
  }

 private:
  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      std::function<void()> part = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      part();
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  std::vector<std::thread> threads_;
  bool stopping_ = false;
};

// libgomp's entry points (its stable ABI, the one GCC's `#pragma omp parallel` calls), found in
// the process: LibTorch's OpenMP runtime when LibTorch is loaded, else none.
struct Gomp {
  void (*parallel)(void (*)(void*), void*, unsigned, unsigned) = nullptr;
  int (*thread_num)() = nullptr;
  int (*num_threads)() = nullptr;

  static const Gomp& find() {
    static const Gomp gomp = [] {
      Gomp g;
      g.parallel = reinterpret_cast<decltype(g.parallel)>(dlsym(RTLD_DEFAULT, "GOMP_parallel"));
      g.thread_num =
          reinterpret_cast<decltype(g.thread_num)>(dlsym(RTLD_DEFAULT, "omp_get_thread_num"));
      g.num_threads =
          reinterpret_cast<decltype(g.num_threads)>(dlsym(RTLD_DEFAULT, "omp_get_num_threads"));
      if (!g.thread_num || !g.num_threads) g.parallel = nullptr;
      return g;
    }();
    return gomp;
  }
};

struct GompJob {
  const Gomp* gomp;
  int parts;
  const std::function<void(int)>* body;
};

// Each thread of the team takes the parts of its number modulo the team's size: a team smaller
// than asked (nested in another parallel region) still runs every part.
void run_team_member(void* data) {
  const auto& job = *static_cast<const GompJob*>(data);
  const int team = job.gomp->num_threads();
  for (int p = job.gomp->thread_num(); p < job.parts; p += team) (*job.body)(p);
}

}  // namespace

void run_parts(int parts, const std::function<void(int)>& body) {
  if (parts < 2) {
    if (parts == 1) body(0);
    return;
  }
  const Gomp& gomp = Gomp::find();
  if (gomp.parallel) {
    GompJob job{&gomp, parts, &body};
    gomp.parallel(run_team_member, &job, static_cast<unsigned>(parts), 0);
    return;
  }
  static WorkerPool pool;
  pool.run(parts, body);
}

}  // namespace modrec
