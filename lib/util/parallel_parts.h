// Runs the parts of one job at once, and waits for all of them.
//
// Why not at::parallel_for: with LibTorch's OpenMP backend it is inlined into its caller and runs
// in parallel only in code compiled with the same OpenMP as LibTorch's (GCC's libgomp); clang
// would link a second OpenMP runtime beside torch's. So the parts go to libgomp's own entry point
// when the process has it (LibTorch's intra-op threads: no extra thread competes with them while
// they spin between operators), else to a small pool of modrec's own threads.
#pragma once
#include <functional>

namespace modrec {

// Calls body(p) for every p in [0, parts), at once where threads allow. Returns when all have
// returned. body must not throw, nor call run_parts itself.
void run_parts(int parts, const std::function<void(int)>& body);

}  // namespace modrec
