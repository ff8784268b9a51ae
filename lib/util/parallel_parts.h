// Runs the parts of one job at once on modrec's own worker threads, and waits for all of them.
//
// Why not at::parallel_for: with LibTorch's OpenMP backend it is inlined into its caller and runs
// in parallel only in code compiled with the same OpenMP as LibTorch's (GCC's libgomp); another
// compiler would link a second OpenMP runtime beside torch's or run every part on one thread.
#pragma once
#include <functional>

namespace modrec {

// Calls body(p) for every p in [0, parts): part 0 on the calling thread, the others on a pool of
// threads started on first need and kept for the process's life. Returns when all have returned.
// body must not throw, nor call run_parts itself.
void run_parts(int parts, const std::function<void(int)>& body);

}  // namespace modrec
