#ifndef SPENDLEX_CLIBFUZZER_H
#define SPENDLEX_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (libclang_rt.fuzzer, linked by `-sanitize=fuzzer`): parses libFuzzer's
/// flags from argv and runs the fuzzing loop or the given inputs, calling `callback` per input.
/// SwiftPM renames an executable's `main` on Linux (`--defsym main=SpendlexFuzz_main`), so the
/// harness cannot use libFuzzer's own `main` and calls this from its entry point instead.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
