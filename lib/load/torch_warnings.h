// LibTorch's warnings (TORCH_WARN, TorchScript's warnings.warn) in modrec's log: one
// "modrec: warning: ..." line per distinct message, as --log-format writes lines, instead of
// c10's raw "[W... file.cpp:N] Warning: ..." lines on stderr. Torch-free header for app/main.cpp.
#pragma once

namespace modrec {

// Installs the handler for the calling thread, the one that runs the model (c10's handler is
// per thread; the autograd engine replays its workers' warnings on the thread that called
// backward). Once, from main, after log::setup.
void log_torch_warnings();

}  // namespace modrec
