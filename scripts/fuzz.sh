#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer and AddressSanitizer (LeakSanitizer on).
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer arguments…]
#   scripts/fuzz.sh all SECONDS          # every target in turn, SECONDS each
#   scripts/fuzz.sh build                # only build .build-fuzz/…/spendlex-fuzz
#
# TARGET: mime mbox mbox-ranges sms-backup jsonl rules amount date time message-body statements imap (see Tests/Fuzz/README.md).
# Seeds: Tests/Fuzz/TARGET/corpus (committed, read only). New inputs go to
# .build-fuzz/corpus/TARGET; crashes, hangs and leaks to Tests/Fuzz/TARGET/crashes (ignored by git).
# To replay one input: scripts/fuzz.sh TARGET 0 Tests/Fuzz/TARGET/crashes/crash-…
# Exit status: 0 clean, 1 when libFuzzer found a crash, hang (-timeout) or leak, 64 bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(mime mbox mbox-ranges sms-backup jsonl rules amount date time message-body statements imap)
usage() { echo "usage: scripts/fuzz.sh TARGET|all|build SECONDS [libFuzzer args…]; targets: ${targets[*]}" >&2; exit 64; }
[[ $# -ge 1 ]] || usage
target=$1
[[ $target == build ]] || [[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || usage

scratch=.build-fuzz
# Testing enabled: the harness reads with small chunks and in byte ranges through internal
# initializers (@testable import). Debug by default (quicker to build, exact line numbers in
# reports); SPENDLEX_FUZZ_CONFIGURATION=release builds faster-running code (not tried yet).
configuration=${SPENDLEX_FUZZ_CONFIGURATION:-debug}
build() {
  # The manifest with the fuzz target stays out of the shared manifest cache.
  SPENDLEX_FUZZ=1 swift build --scratch-path "$scratch" --manifest-cache local -c "$configuration" --product spendlex-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing >&2
}
build
binary=$scratch/$configuration/spendlex-fuzz
[[ $target == build ]] && { echo "$binary"; exit 0; }

seconds=$2
shift 2
fuzz_one() {
  local name=$1; shift
  local seeds=Tests/Fuzz/$name/corpus crashes=Tests/Fuzz/$name/crashes work=$scratch/corpus/$name
  [[ -d $seeds ]] || { echo "fuzz.sh: unknown target $name (no $seeds)" >&2; exit 64; }
  mkdir -p "$crashes" "$work"
  local args=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -detect_leaks=1 -print_final_stats=1
              -artifact_prefix="$crashes/")
  [[ -f Tests/Fuzz/$name/dictionary ]] && args+=(-dict="Tests/Fuzz/$name/dictionary")
  # ASan and libFuzzer print the stack; the Swift backtracer only gets in their way.
  export SWIFT_BACKTRACE=enable=no
  # LeakSanitizer suppressions for Swift runtime noise, if any (see Tests/Fuzz/lsan.supp).
  local lsan="suppressions=$PWD/Tests/Fuzz/lsan.supp:print_suppressions=0"
  # A file as the last extra argument is replayed instead of fuzzing.
  if [[ $# -gt 0 && -f ${!#} ]]; then
    SPENDLEX_FUZZ_TARGET=$name LSAN_OPTIONS=$lsan "$binary" "${args[@]}" "$@"
  else
    echo "== fuzzing $name for ${seconds}s" >&2
    SPENDLEX_FUZZ_TARGET=$name LSAN_OPTIONS=$lsan "$binary" "${args[@]}" -max_total_time="$seconds" "$@" \
      "$work" "$seeds"
  fi
}

status=0
if [[ $target == all ]]; then
  for name in "${targets[@]}"; do fuzz_one "$name" "$@" || status=1; done
else
  fuzz_one "$target" "$@" || status=1
fi
exit $status
