// What summary, check and diff do with a checkpoint once read, run over one read from fuzzed
// bytes: the table in every format, each tensor's statistics (which read its bytes), check's rules
// and the diff of the checkpoint with itself in every format.
#pragma once
#include "check/check_report.h"
#include "check/check_rules.h"
#include "checkpoint/checkpoint.h"
#include "checkpoint/checkpoint_diff.h"
#include "checkpoint/checkpoint_table.h"
#include "checkpoint/tensor_stats.h"
#include "summary/exports.h"
#include "summary/options.h"

namespace modrec::fuzz {

inline void use_checkpoint(const Checkpoint& c) {
  const CheckpointSummary summary = summarize(c);
  for (SummaryFormat f :
       {SummaryFormat::table, SummaryFormat::json, SummaryFormat::csv, SummaryFormat::markdown})
    format_checkpoint(c, summary, SummaryOptions{}, f);
  CheckRules rules;
  rules.no_dead = rules.no_constant = true;
  rules.max_abs = 1.0;
  const CheckResult result = check_run(as_run(c, summary, tensor_stats(c, 1)), rules, RunScope{});
  const CheckpointDiff diff = diff_checkpoints(c, c, {}, 1);
  for (ReportFormat f : {ReportFormat::table, ReportFormat::json, ReportFormat::markdown}) {
    format_check(result, c.path, f);
    format_checkpoint_diff(diff, c.path, c.path, {}, f);
  }
}

}  // namespace modrec::fuzz
