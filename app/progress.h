// A one-line progress bar on stderr, only when stderr is a terminal and not --quiet.
#pragma once
#include <functional>

namespace modrec::cli {

std::function<void(int done, int total)> progress_bar(bool quiet);

}  // namespace modrec::cli
