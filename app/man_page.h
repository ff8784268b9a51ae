// modrec.1, the man page, made from the CLI's definition (cli_spec.h): every subcommand with its
// flags and examples as --help shows them, the exit codes of docs/cli.md and the environment.
// Written at build time (`modrec --man`, app/CMakeLists.txt) and installed with the wheel.
#pragma once
#include <string>

#include "cli_spec.h"

namespace modrec::cli {

// The page in roff (man(7)); `version` names the release in its header.
std::string man_page(const CliSpec& spec, const std::string& version);

}  // namespace modrec::cli
