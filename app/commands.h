// Each subcommand registers its flags and returns what to run once parsing succeeded.
#pragma once
#include <CLI/CLI.hpp>

#include <functional>

namespace modrec::cli {

struct Command {
  CLI::App* app;
  std::function<int()> run;  // returns the exit code
};

Command add_summary(CLI::App& app);
Command add_record(CLI::App& app, const bool& quiet);
Command add_check(CLI::App& app);
Command add_diff(CLI::App& app);
Command add_graph(CLI::App& app);
Command add_watch(CLI::App& app, const bool& quiet);
Command add_report(CLI::App& app);
Command add_merge(CLI::App& app);
// `completion bash|zsh|fish`: the script for the whole of `app`, read when it runs.
Command add_completion(CLI::App& app);

}  // namespace modrec::cli
