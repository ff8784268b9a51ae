// modrec's entry point: flags, logging, and the mapping of every failure to one stderr line and
// the exit code of the contract (docs/cli.md).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <regex>

#include "cli_common.h"
#include "cli_spec.h"
#include "commands.h"
#include "help_format.h"
#include "man_page.h"
#include "progress.h"
#include "load/torch_warnings.h"
#include "load/version.h"
#include "load/version_line.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "util/nearest.h"

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

// --log-format as the command line gives it, read before the command line is parsed: an error in
// parsing it is a log line too (JSON with --log-format json). The last one given counts, as
// CLI11's parse does.
modrec::log::Format log_format_given(int argc, char** argv) {
  modrec::log::Format format = modrec::log::Format::text;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::string value = arg == "--log-format" && i + 1 < argc ? argv[i + 1]
                              : arg.rfind("--log-format=", 0) == 0  ? arg.substr(13)
                                                                    : "";
    if (value == "json") format = modrec::log::Format::json;
    if (value == "text") format = modrec::log::Format::text;
  }
  return format;
}

// The error's one line, through the log: "modrec: error: ..." or a JSON line whose message is
// what follows "modrec: error: ".
int fail(const modrec::Error& error, int code) {
  const std::string line = error.line(), prefix = "modrec: error: ";
  modrec::log::error(line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : line);
  return code;
}

// A word CLI11 did not know, when it is a misspelt subcommand or flag: the line suggests the
// nearest one ("did you mean 'summary'?").
std::optional<modrec::Error> unknown_word(const CLI::App& app, const CLI::App* command) {
  const std::vector<std::string> rest = app.remaining(true);
  if (rest.empty()) return std::nullopt;
  const std::string word = rest[0];
  const std::string help = command ? "modrec " + command->get_name() + " --help" : "modrec --help";
  if (word.rfind("-", 0) == 0) {
    const std::string flag = word.substr(0, word.find('='));
    std::vector<std::string> flags;
    for (const CLI::App* a : {&app, command})
      for (const auto& f :
           a ? modrec::cli::describe(*a).root.flags : std::vector<modrec::cli::FlagSpec>{})
        if (!f.positional) flags.insert(flags.end(), f.names.begin(), f.names.end());
    const std::string near = modrec::nearest(flag, flags);
    return modrec::Error(modrec::Exit::usage, "unknown flag", flag,
                         (near.empty() ? "" : "did you mean '" + near + "'? ") + "see " + help);
  }
  if (command) return std::nullopt;  // a word too many for the subcommand: CLI11's message
  std::vector<std::string> names;
  for (const auto& c : modrec::cli::describe(app).commands) names.push_back(c.name);
  const std::string near = modrec::nearest(word, names);
  return modrec::Error(
      modrec::Exit::usage, "unknown subcommand", word,
      near.empty() ? "see " + help + " for the subcommands" : "did you mean '" + near + "'?");
}

// CLI11's messages in the contract's one-line form, naming the flag and the help to read.
int usage_error(const CLI::ParseError& e, const CLI::App& app) {
  const auto subcommands = app.get_subcommands();
  const CLI::App* command = subcommands.empty() ? nullptr : subcommands[0];
  // CLI11 leaves a word it does not know in remaining() and says "not expected" (ExtrasError) or,
  // before any subcommand, that one is required.
  const bool unknown_words =
      dynamic_cast<const CLI::ExtrasError*>(&e) || dynamic_cast<const CLI::RequiredError*>(&e);
  if (auto unknown = unknown_words ? unknown_word(app, command) : std::nullopt)
    return fail(*unknown, static_cast<int>(unknown->code()));
  std::string text = e.what();
  std::smatch match;
  const bool named = std::regex_search(text, match, std::regex("--?[A-Za-z][A-Za-z0-9_-]*"));
  const std::string flag = named ? match.str() : "command line";
  // A validator's message comes as "--flag: what"; the flag is named once, in the parentheses.
  if (named && match.position() == 0 && text.compare(flag.size(), 2, ": ") == 0)
    text = text.substr(flag.size() + 2);
  const std::string name = command ? " " + command->get_name() : "";
  const modrec::Error error(modrec::Exit::usage, text, flag, "see modrec" + name + " --help");
  return fail(error, static_cast<int>(error.code()));
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

// The kinds of MODEL every subcommand that takes one reads (docs/cli.md, "The model and its
// inputs"), under the top-level help and in the man page's description.
constexpr const char* kModelKinds =
    "MODEL is a TorchScript file (.pt, torch.jit.save), a torch.export archive (.pt2, "
    "torch.export.save or modrec.export), an AOTInductor package (.pt2, "
    "aoti_compile_and_package), an ExecuTorch program (.pte), or a checkpoint without code: "
    ".safetensors, a sharded checkpoint's *.index.json, a torch.save'd state_dict, or a folder "
    "save_pretrained wrote (summary, check and diff read checkpoints).\n"
    "Shell completion: source <(modrec completion bash); the man page: man modrec.";

int run(int argc, char** argv) {
  Globals g;
  g.log_format = log_format_given(argc, argv);
  setup_logging(g);
  CLI::App app{
      "modrec: look inside PyTorch models without their Python source: layer tables, recorded "
      "activations and gradients, CI checks",
      "modrec"};
  // Before the subcommands are added: they copy it.
  app.formatter(std::make_shared<modrec::cli::HelpFormatter>());
  app.footer(kModelKinds);
  // A callback: asking LibTorch whether CUDA is usable is only for --version.
  app.set_version_flag("--version", [] { return modrec::version_line(); });
  // Hidden: the man page, written at build time (app/CMakeLists.txt).
  app.add_flag_callback("--man",
                        [&app] {
                          std::cout << modrec::cli::man_page(modrec::cli::describe(app),
                                                             modrec::modrec_version());
                          throw CLI::Success();
                        })
      ->group("");
  app.require_subcommand(1);
  // Global flags are accepted after the subcommand too (`modrec record ... -q`): a subcommand hands
  // what it does not know to this parser. Set before the subcommands are added: they copy it.
  app.fallthrough();
  app.add_flag("-v,--verbose", g.verbose, "more logging on stderr (repeatable)");
  app.add_flag("-q,--quiet", g.quiet, "errors only on stderr, no progress bar");
  static const modrec::EnumNames<modrec::log::Format> log_formats{
      {"text", modrec::log::Format::text}, {"json", modrec::log::Format::json}};
  modrec::cli::add_enum_option(app, "--log-format", g.log_format, log_formats, "text or json");
  modrec::cli::add_number(app, "--threads", modrec::cli::threads_flag(), 1, 4096,
                          "LibTorch intra-op threads (default: the number of cores)");
  const std::vector<modrec::cli::Command> commands{
      modrec::cli::add_summary(app),   modrec::cli::add_record(app, g.quiet),
      modrec::cli::add_check(app),     modrec::cli::add_diff(app),
      modrec::cli::add_graph(app),     modrec::cli::add_watch(app, g.quiet),
      modrec::cli::add_report(app),    modrec::cli::add_merge(app),
      modrec::cli::add_completion(app)};

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::Success& e) {
    return 0;
  } catch (const CLI::ParseError& e) {
    return usage_error(e, app);
  }
  setup_logging(g);
  modrec::cli::draw_progress(g.quiet, g.log_format == modrec::log::Format::json);
  modrec::log_torch_warnings();
  try {
    for (const auto& command : commands)
      if (command.app->parsed()) return command.run();
    return 0;
  } catch (const modrec::Interrupted& e) {
    return fail(e, e.exit_status());
  } catch (const modrec::Error& e) {
    return fail(e, static_cast<int>(e.code()));
  } catch (const std::exception& e) {
    const modrec::Error internal(modrec::Exit::internal,
                                 "internal error: " + modrec::first_line(e.what()), "",
                                 "please report this with the command line");
    return fail(internal, static_cast<int>(internal.code()));
  }
}

}  // namespace

int main(int argc, char** argv) { exit_now(run(argc, argv)); }
