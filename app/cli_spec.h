// The CLI's definition as plain data, read from CLI11's App: what the help formatter, the
// completion scripts and the man page are made from, so that all three follow the flags as they
// are defined (app/cmd_*.cpp) and never a copy of them.
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace modrec::cli {

// What a flag's value is, for a shell to complete it.
enum class ValueKind {
  none,    // a switch: no value
  choice,  // one of `choices` (comma-separated lists of them where the flag takes a list)
  file,    // a path to a file (FILE)
  dir,     // a directory (DIR)
  path,    // a file or a directory (PATH)
  other,   // a number, a selector, a shape...: nothing to complete
};

struct FlagSpec {
  std::vector<std::string> names;  // "-v", "--verbose"; a positional's one name, "MODEL"
  bool positional = false;
  ValueKind kind = ValueKind::none;
  std::string value_name;            // "INT", "FILE", "{table,json}"; "" for a switch
  std::vector<std::string> choices;  // kind choice
  std::string help;
};

struct CommandSpec {
  std::string name;  // "" for modrec itself
  std::string help;
  std::string footer;  // the examples
  std::vector<FlagSpec> flags;
  std::string usage;  // "modrec summary [OPTIONS] [MODEL]"
};

struct CliSpec {
  CommandSpec root;                   // the global flags
  std::vector<CommandSpec> commands;  // the subcommands, in their help's order
};

// The visible flags and subcommands (hidden ones, CLI11's empty group, are left out).
CliSpec describe(const CLI::App& app);

// A flag's names for help: "-v, --verbose", without CLI11's "{false}" marks of a negating flag.
std::string flag_names(const CLI::Option& option);
// A positional in a usage line: "RUN_DIR", "[RUN_DIR]" when optional, "RUN_DIR [RUN_DIR]" for one
// to two of them, "RUN..." for any number.
std::string positional_usage(const CLI::Option& option);
// The value a flag takes, as help shows it: "INT:>= 1", "{table,json}" (CLI11's "TEXT:{...}"
// without its "TEXT:"), "FILE"; "" for a switch.
std::string value_name(const CLI::Option& option);

}  // namespace modrec::cli
