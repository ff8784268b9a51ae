// Test helper: the exit code and one-line message of the Error a call throws (Exit::ok if none).
#pragma once
#include <string>
#include <utility>

#include "util/error.h"

namespace modrec::testing {

template <class Fn>
std::pair<Exit, std::string> error_of(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return {e.code(), e.line()};
  }
  return {Exit::ok, ""};
}

}  // namespace modrec::testing
