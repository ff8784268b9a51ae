// Running a helper program (Graphviz's dot) with text on its stdin, collecting what it prints.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace modrec {

struct ProcessResult {
  int status = 0;  // the exit code; 128 + N when killed by signal N
  std::string out, err;
};

// Runs argv[0], looked up on PATH, with `input` on its stdin; nullopt when no such program can
// be started. stdin, stdout and stderr are served together, so no pipe's buffer can stall it.
std::optional<ProcessResult> run_process(const std::vector<std::string>& argv,
                                         const std::string& input);

}  // namespace modrec
