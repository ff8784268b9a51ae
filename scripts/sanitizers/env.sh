# Sanitizer runtime options shared by scripts/sanitize.sh and scripts/fuzz.sh (sourced).
# exitcode=99: a sanitizer report must never pass for one of modrec's own exit codes (0-5), which
# the end-to-end tests assert. UBSan checks are built recoverable (so that its suppression file can
# work) and made fatal here with halt_on_error. print_suppressions=0 keeps stderr, which the e2e
# tests compare, free of LSan's "Suppressions used" table.
sanitizer_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export ASAN_OPTIONS="exitcode=99:detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1:strict_string_checks=1:suppressions=$sanitizer_dir/asan.supp${ASAN_EXTRA:+:$ASAN_EXTRA}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$sanitizer_dir/ubsan.supp"
export LSAN_OPTIONS="print_suppressions=0:suppressions=$sanitizer_dir/lsan.supp"
