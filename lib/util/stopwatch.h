// Wall-clock phases for -v timing logs (benchmarks read them to separate load, passes and I/O).
#pragma once
#include <chrono>

namespace modrec {

class Stopwatch {
 public:
  // Seconds since construction or the previous lap().
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return s;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace modrec
