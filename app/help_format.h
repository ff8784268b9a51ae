// --help without CLI11's layout marks: a negating flag's "{false}" (`--no-backward{false}`), a
// positional's "(1x)" (`RUN_DIR(1x)`) and a choice's "TEXT:" (`TEXT:{table,json}`).
#pragma once
#include <CLI/CLI.hpp>

namespace modrec::cli {

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* option, bool positional) const override;
  std::string make_option_usage(const CLI::Option* option) const override;
  std::string make_option_opts(const CLI::Option* option) const override;
};

}  // namespace modrec::cli
