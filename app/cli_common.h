// Flags shared by subcommands, bound to the torch-free job structs of lib/jobs.
#pragma once
#include <CLI/CLI.hpp>

#include "check/run_dir.h"
#include "jobs/job_options.h"

namespace modrec::cli {

// MODEL positional, --model, $MODREC_MODEL (in that order of precedence), --mode, --device.
struct ModelFlags {
  std::string positional, flag;
  std::string mode = "eval";
  std::string device = "cpu";
  // Also adds the input flags (add_input_flags).
  void add(CLI::App& cmd, InputOptions& inputs);
  // Resolves the model path into `options`; throws a usage Error when none is given.
  void resolve(ModelOptions& options) const;
};

void add_input_flags(CLI::App& cmd, InputOptions& inputs);

// --layers and --captures of check and diff.
void add_scope_flags(CLI::App& cmd, RunScope& scope);

// --threads N (global), from main.
int& threads_flag();

}  // namespace modrec::cli
