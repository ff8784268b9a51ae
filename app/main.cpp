// modrec's entry point: flags, logging, and the mapping of every failure to one stderr line and
// the exit code of the contract (docs/cli.md).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <regex>

#include "cli_common.h"
#include "commands.h"
#include "load/torch_warnings.h"
#include "load/version_line.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/log.h"

namespace {

struct Globals {
  int verbose = 0;
  bool quiet = false;
  modrec::log::Format log_format = modrec::log::Format::text;
};

void setup_logging(const Globals& g) {
  using modrec::log::Level;
  modrec::log::setup(g.quiet          ? Level::error
                     : g.verbose >= 2 ? Level::trace
                     : g.verbose == 1 ? Level::debug
                                      : Level::info,
                     g.log_format);
}

int fail(const std::string& line, int code) {
  std::cerr << line << std::endl;
  return code;
}

// CLI11's messages in the contract's one-line form, naming the flag and the help to read.
int usage_error(const CLI::ParseError& e, const CLI::App& app) {
  std::string text = e.what();
  std::smatch match;
  const bool named = std::regex_search(text, match, std::regex("--?[A-Za-z][A-Za-z0-9_-]*"));
  const std::string flag = named ? match.str() : "command line";
  // A validator's message comes as "--flag: what"; the flag is named once, in the parentheses.
  if (named && match.position() == 0 && text.compare(flag.size(), 2, ": ") == 0)
    text = text.substr(flag.size() + 2);
  const auto subcommands = app.get_subcommands();
  const std::string command = subcommands.empty() ? "" : " " + subcommands[0]->get_name();
  const modrec::Error error(modrec::Exit::usage, text, flag, "see modrec" + command + " --help");
  return fail(error.line(), static_cast<int>(error.code()));
}

// Ends the process without the static destructors. LibTorch's (operator registries and the like)
// take time and page in code and data at exit, which made the end of a run its peak RSS
// (docs/design-notes.md). By now every file modrec writes is closed; the streams are flushed here.
// Sanitizer builds exit normally, for LeakSanitizer's report at exit.
[[noreturn]] void exit_now(int code) {
  modrec::log::flush();
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
#if defined(__SANITIZE_ADDRESS__)
  std::exit(code);
#else
  std::_Exit(code);
#endif
}

int run(int argc, char** argv) {
  CLI::App app{
      "modrec: look inside TorchScript models and torch.export archives (.pt2): layer tables, "
      "recorded activations and gradients, CI checks",
      "modrec"};
  // A callback: asking LibTorch whether CUDA is usable is only for --version.
  app.set_version_flag("--version", [] { return modrec::version_line(); });
  app.require_subcommand(1);
  // Global flags are accepted after the subcommand too (`modrec record ... -q`): a subcommand hands
  // what it does not know to this parser. Set before the subcommands are added: they copy it.
  app.fallthrough();
  Globals g;
  app.add_flag("-v,--verbose", g.verbose, "more logging on stderr (repeatable)");
  app.add_flag("-q,--quiet", g.quiet, "errors only on stderr, no progress bar");
  static const modrec::EnumNames<modrec::log::Format> log_formats{
      {"text", modrec::log::Format::text}, {"json", modrec::log::Format::json}};
  modrec::cli::add_enum_option(app, "--log-format", g.log_format, log_formats, "text or json");
  modrec::cli::add_number(app, "--threads", modrec::cli::threads_flag(), 1, 4096,
                          "LibTorch intra-op threads (default: the number of cores)");
  const std::vector<modrec::cli::Command> commands{
      modrec::cli::add_summary(app), modrec::cli::add_record(app, g.quiet),
      modrec::cli::add_check(app),   modrec::cli::add_diff(app),
      modrec::cli::add_graph(app),   modrec::cli::add_watch(app, g.quiet),
      modrec::cli::add_report(app),  modrec::cli::add_merge(app)};

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e, app);
  }
  setup_logging(g);
  modrec::log_torch_warnings();
  try {
    for (const auto& command : commands)
      if (command.app->parsed()) return command.run();
    return 0;
  } catch (const modrec::Interrupted& e) {
    return fail(e.line(), e.exit_status());
  } catch (const modrec::Error& e) {
    return fail(e.line(), static_cast<int>(e.code()));
  } catch (const std::exception& e) {
    return fail("modrec: error: internal error: " + modrec::first_line(e.what()) +
                    ": please report this with the command line",
                static_cast<int>(modrec::Exit::internal));
  }
}

}  // namespace

int main(int argc, char** argv) { exit_now(run(argc, argv)); }
