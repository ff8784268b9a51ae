// CallHooks that apply --edit to the calls' outputs: what downstream calls see, for the passes
// that record nothing (summary, and the calls check and diff do not record).
#pragma once
#include "edit/call_edits.h"
#include "instrument/call_hooks.h"

namespace modrec {

class EditingHooks : public CallHooks {
 public:
  explicit EditingHooks(CallEdits& edits) : edits_(edits) {}
  void enter(int call, int module, const std::vector<c10::IValue>&) override {
    edits_.on_call(call, module);
  }
  c10::IValue leave(int call, int, const c10::IValue& output) override {
    return edits_.apply(call, output);
  }

 private:
  CallEdits& edits_;
};

}  // namespace modrec
