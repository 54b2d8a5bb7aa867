// The pass/fail bookkeeping both C++ test programs share (wrapper_test.cpp with
// wrapper_blending_test.cpp, and unreal_logic_test.cpp): the counters, the current section and
// the summary line the Rust drivers read last.

#ifndef SINEW_TEST_COUNTS_HPP
#define SINEW_TEST_COUNTS_HPP

#include <cstdio>
#include <cstdlib>

inline int g_passed = 0;
inline int g_failed = 0;
inline const char* g_section = "";

/// Counts one check. A failure starts its stderr line, "FAIL [section] line N: expr", and the
/// caller finishes it (details, then the newline).
inline bool counted(bool ok, int line, const char* expr) {
  if (ok) {
    ++g_passed;
    return true;
  }
  ++g_failed;
  std::fprintf(stderr, "FAIL [%s] line %d: %s", g_section, line, expr);
  return false;
}

/// Prints "N passed, N failed" and exits, non-zero on any failure.
[[noreturn]] inline void summary_and_exit() {
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  std::exit(g_failed == 0 ? 0 : 1);
}

#endif  // SINEW_TEST_COUNTS_HPP
