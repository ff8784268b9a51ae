#include "man_page.h"

#include <sstream>

#include "util/text.h"

namespace modrec::cli {
namespace {

// Text for roff: a backslash as \e, a hyphen as \- (a minus sign, so that `man` searches and
// copies flags as typed), and a line that would start with a control character ('.' or ''')
// guarded by \&.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
    line_start = c == '\n';
  }
  return out;
}

void flags(std::ostream& out, const std::vector<FlagSpec>& specs) {
  for (const auto& f : specs) {
    std::vector<std::string> names;
    for (const auto& name : f.names) names.push_back("\\fB" + roff(name) + "\\fR");
    out << ".TP\n" << join(names, ", ");
    if (!f.positional && !f.value_name.empty()) out << " \\fI" << roff(f.value_name) << "\\fR";
    out << "\n" << roff(f.help) << "\n";
  }
}

void command(std::ostream& out, const CommandSpec& c) {
  out << ".SS \"" << roff(c.usage) << "\"\n" << roff(c.help) << "\n";
  flags(out, c.flags);
  if (!c.footer.empty()) out << ".PP\n.nf\n" << roff(c.footer) << "\n.fi\n";
}

// docs/cli.md's exit codes, the contract.
constexpr const char* kExitCodes[][2] = {
    {"0", "success"},
    {"1", "a check failed: check found a violation, diff a difference beyond tolerance"},
    {"2",
     "usage: a bad or missing flag, a bad layer selector, options that cannot work together, "
     "a number out of range, an output over an input, a forward argument unknown, missing "
     "or of another type"},
    {"3", "an input file is unreadable or not what it must be: model, tensor file, run directory"},
    {"4", "the model failed on the given input (the line names the call that was running)"},
    {"5",
     "an output could not be written (permissions, disk full, an existing --out); nothing "
     "partial is left"},
    {"6",
     "the pip-installed modrec command cannot run here: torch is missing or of another minor "
     "release than the binary was built against"},
    {"70", "internal error: a bug in modrec; please report it with the command line"},
    {"130, 143", "interrupted by SIGINT, SIGTERM; partial output removed"},
};

}  // namespace

std::string man_page(const CliSpec& spec, const std::string& version) {
  std::ostringstream out;
  out << ".TH MODREC 1 \"\" \"modrec " << version << "\" \"User Commands\"\n"
      << ".SH NAME\nmodrec \\- " << roff(spec.root.help) << "\n"
      << ".SH SYNOPSIS\n.B modrec\n[\\fIOPTIONS\\fR] \\fISUBCOMMAND\\fR [\\fIOPTIONS\\fR] "
         "[\\fIARGUMENTS\\fR]\n"
      << ".SH DESCRIPTION\n"
      << roff(spec.root.footer) << "\n"
      << ".PP\nEach subcommand's \\fB\\-\\-help\\fR lists its flags as below. Data goes to "
         "stdout or files, logs and errors to stderr: every error is one line, "
         "\\fBmodrec: error: \\fIwhat\\fB (\\fIwhere\\fB): \\fIwhat to do\\fR.\n"
      << ".SH OPTIONS\nGlobal options, before or after the subcommand:\n";
  flags(out, spec.root.flags);
  out << ".SH SUBCOMMANDS\n";
  for (const auto& c : spec.commands) command(out, c);
  out << ".SH EXIT STATUS\n";
  for (const auto& [code, meaning] : kExitCodes)
    out << ".TP\n.B " << code << "\n" << roff(meaning) << "\n";
  out << ".SH ENVIRONMENT\n"
         ".TP\n.B MODREC_MODEL\nthe model, when neither MODEL nor \\fB\\-\\-model\\fR gives one\n"
         ".TP\n.B MODREC_LOAD_LIBRARY\noperator libraries to load, ':'\\-separated, when no "
         "\\fB\\-\\-load\\-library\\fR is given\n"
         ".SH SEE ALSO\n"
         "The documentation in the source tree, docs/README.md; docs/cli.md is the contract of "
         "the command line.\n";
  return out.str();
}

}  // namespace modrec::cli
