// modrec's own work inside a measured pass (record's captures and the clones it routes tensors
// through, their statistics): what is allocated under an OwnWork is not the model's, and the
// memory meter (memory_meter.h) leaves it out, its frees included. Torch-free; a thread's count.
#pragma once

namespace modrec {

class OwnWork {
 public:
  OwnWork() { ++depth(); }
  ~OwnWork() { --depth(); }
  OwnWork(const OwnWork&) = delete;
  OwnWork& operator=(const OwnWork&) = delete;
  // Whether this thread is inside an OwnWork now.
  static bool active() { return depth() > 0; }

 private:
  static int& depth() {
    thread_local int d = 0;
    return d;
  }
};

}  // namespace modrec
