#!/usr/bin/env bash
# Times spendlex against the reference yardsticks on one mailbox, in one run:
#
#   spendlex parse, 1 job and $(nproc) jobs     (release build of the repository)
#   spendlex parse --store, $(nproc) jobs        (into a new ledger each run)
#   python_baseline.py (sender mode)            (../shared/bench: stdlib mailbox + email + re)
#   rg -c 'Rs\.?\s?[\d,]+\.\d{2}'               (ripgrep: one amount regex, no MIME)
#   cat > /dev/null                             (the I/O floor)
#
# Each is the median of 3 runs (RUNS=n to change) with the file in the page cache; wall time
# and peak RSS come from /usr/bin/time. Then spendlex's output is checked against the corpus's
# labels (CORPUS.labels.tsv) with Benchmarks/scripts/check_labels.py, and the PCRE2 searches
# and bytes searched per message are counted (SPENDLEX_PATTERN_PROFILE=1, one job): figures that
# do not move with the machine's load, where callgrind's instruction counts would be (valgrind
# 3.19 stops with an internal error on the release binary here).
#
# Usage: Benchmarks/compare.sh [CORPUS.mbox] [MESSAGES]
#   CORPUS    default /tmp/spendlex-corpus.mbox, generated with gen_mbox.py (100,000 mails,
#             seed 42) when absent. Any mbox with a gen_mbox-style labels file works: the
#             corpora of `spendlex-corpus alerts` and `spendlex-corpus realistic` too.
#   MESSAGES  the message count for messages/s; default: the number of `^From ` lines.
# Environment: RUNS (default 3), PYTHON_RUNS (default 3, or 1 when one run takes over 30 s),
#   SKIP_BUILD=1 to use the existing .build/release/spendlex.
set -euo pipefail
export LC_ALL=C  # a decimal point in every number printed, parsed and sorted
[[ -n ${EPOCHREALTIME:-} ]] || { echo "error: needs bash 5 or later (EPOCHREALTIME)" >&2; exit 70; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
shared="$repo/../shared/bench"
default_corpus=/tmp/spendlex-corpus.mbox
corpus=${1:-$default_corpus}
runs=${RUNS:-3}
jobs=$(nproc)
spendlex="$repo/.build/release/spendlex"
work=$(mktemp -d /tmp/spendlex-compare.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "nproc:   $jobs"
echo "command: $0 $*"
echo

# --- Inputs -----------------------------------------------------------------------------
if [[ ! -f $corpus ]]; then
    if [[ $corpus != "$default_corpus" ]]; then
        echo "error: no such corpus: $corpus" >&2
        exit 64
    fi
    echo "generating the reference corpus: python3 $shared/gen_mbox.py 100000 $corpus 42"
    python3 "$shared/gen_mbox.py" 100000 "$corpus" 42
fi
corpus=$(cd "$(dirname "$corpus")" && pwd)/$(basename "$corpus")
labels="$corpus.labels.tsv"
bytes=$(stat -c %s "$corpus")
messages=${2:-$(grep -c '^From ' "$corpus" || true)}

# --- Tools ------------------------------------------------------------------------------
cd "$repo"
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
    echo "building: swift build -c release --product spendlex"
    swift build -c release --product spendlex 2>&1 | tail -1
fi
[[ -x $spendlex ]] || { echo "error: $spendlex not built" >&2; exit 70; }
command -v rg > /dev/null || { echo "error: ripgrep not installed (apt-get install -y ripgrep)" >&2; exit 70; }

echo "corpus:  $corpus ($(awk -v b="$bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }'), $messages messages)"
echo "tools:   $("$spendlex" --version 2>/dev/null || echo spendlex), $(rg --version | head -1), $(python3 --version)"
echo

# Warm the page cache: every run reads the file from memory.
cat "$corpus" > /dev/null

# measure NAME RUNS COMMAND...: runs the command RUNS times under /usr/bin/time; records the
# median wall time and the largest peak RSS in $work/NAME.result ("seconds kilobytes").
# /usr/bin/time's %e has 10 ms steps, too coarse for ripgrep and cat on small files, so the
# wall time is taken with bash's microsecond EPOCHREALTIME around it (which adds the fork of
# /usr/bin/time, well under a millisecond); %M gives the peak RSS.
# A non-zero exit status stops the script, except 1 from rg (nothing matched); stderr goes to
# $work/NAME.log.
measure() {
    local name=$1 count=$2 accepted=0
    shift 2
    [[ $1 == rg ]] && accepted=1
    local i status start end rss
    : > "$work/$name.times"
    for ((i = 0; i < count; i++)); do
        status=0
        start=$EPOCHREALTIME
        /usr/bin/time -f '%e %M' -o "$work/$name.time" "$@" > /dev/null 2> "$work/$name.log" || status=$?
        end=$EPOCHREALTIME
        if ((status > accepted)); then
            echo "error: $name failed (exit $status): $*" >&2
            cat "$work/$name.log" >&2
            exit 70
        fi
        read -r _ rss < <(tail -1 "$work/$name.time")
        awk -v a="$start" -v b="$end" -v m="$rss" 'BEGIN { printf "%.4f %d\n", b - a, m }' >> "$work/$name.times"
    done
    sort -n -k1,1 "$work/$name.times" | awk '
        { t[NR] = $1; if ($2 > m) m = $2 }
        END { printf "%s %d\n", (NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2), m }' > "$work/$name.result"
}

rules=(--rules Benchmarks/rules --rules grammars)
names=(spendlex-1 "spendlex-$jobs" "spendlex-store-$jobs" python ripgrep cat)
titles=([0]="spendlex parse --jobs 1" [1]="spendlex parse --jobs $jobs" [2]="spendlex parse --store, $jobs jobs"
            [3]="python_baseline.py (sender)" [4]="ripgrep, one amount regex" [5]="cat > /dev/null")

echo "timing (median of $runs runs)..."
measure spendlex-1 "$runs" "$spendlex" parse "${rules[@]}" "$corpus" -o /dev/null --quiet --jobs 1
measure "spendlex-$jobs" "$runs" "$spendlex" parse "${rules[@]}" "$corpus" -o /dev/null --quiet --jobs "$jobs"
# A new ledger each run (a run into the same ledger would skip every message as stored).
measure "spendlex-store-$jobs" "$runs" sh -c 'rm -f "$1" "$1-wal" "$1-shm"; shift; exec "$@"' sh "$work/ledger.sqlite" \
    "$spendlex" parse "${rules[@]}" "$corpus" --store "$work/ledger.sqlite" --quiet --jobs "$jobs"
python_runs=${PYTHON_RUNS:-}
if [[ -z $python_runs ]]; then
    measure python 1 python3 "$shared/python_baseline.py" "$corpus"
    read -r first _ < "$work/python.result"
    if awk -v t="$first" 'BEGIN { exit !(t > 30) }'; then
        python_runs=1
    else
        python_runs=$runs
        measure python "$runs" python3 "$shared/python_baseline.py" "$corpus"
    fi
else
    measure python "$python_runs" python3 "$shared/python_baseline.py" "$corpus"
fi
python_summary=$(tail -1 "$work/python.log")
measure ripgrep "$runs" rg -c 'Rs\.?\s?[\d,]+\.\d{2}' "$corpus"
measure cat "$runs" sh -c 'cat "$1" > /dev/null' sh "$corpus"

# --- Table --------------------------------------------------------------------------------
read -r python_seconds _ < "$work/python.result"
read -r rg_seconds _ < "$work/ripgrep.result"
echo
printf '%-30s %9s %10s %12s %9s %9s %9s\n' tool seconds MB/s messages/s "peak MiB" "x Python" "x rg"
for i in "${!names[@]}"; do
    read -r seconds kilobytes < "$work/${names[$i]}.result"
    awk -v name="${titles[$i]}" -v s="$seconds" -v kb="$kilobytes" -v b="$bytes" -v n="$messages" \
        -v py="$python_seconds" -v rg="$rg_seconds" 'BEGIN {
        printf "%-30s %9.3f %10.1f %12.0f %9.1f %9.1f %9.2f\n", name, s, b / s / 1e6, n / s, kb / 1024, py / s, rg / s
    }'
done
echo
echo "x Python, x rg: how many times faster than python_baseline.py and ripgrep (their seconds / this tool's)."
model_dir=${SPENDLEX_MODEL_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/spendlex/model}
if [[ -n $(ls "$model_dir" 2> /dev/null) ]]; then
    echo "parse --store ends by embedding the transactions' meanings: the embedding model is installed ($model_dir)."
else
    echo "parse --store: no embedding model installed, so no meanings embedded."
fi
echo "Python: $python_runs run(s)$( ((python_runs < runs)) && echo " (one run took over 30 s)"); its summary: $python_summary"

# --- Searches per message ------------------------------------------------------------------
# The profile's first line: "pattern profile: P patterns, N matches run, B bytes searched, T ms".
SPENDLEX_PATTERN_PROFILE=1 "$spendlex" parse "${rules[@]}" "$corpus" -o /dev/null --quiet --jobs 1 2> "$work/profile.log"
awk -v n="$messages" '/^pattern profile:/ {
    gsub(",", ""); printf "PCRE2 per message (one job): %.2f searches, %.0f bytes searched\n", $5 / n, $8 / n; exit }' "$work/profile.log"

# --- Correctness --------------------------------------------------------------------------
echo
if [[ -f $labels ]]; then
    echo "check: spendlex parse ${rules[*]} CORPUS -o OUTPUT --jobs $jobs; check_labels.py"
    "$spendlex" parse "${rules[@]}" "$corpus" -o "$work/transactions.jsonl" --quiet --jobs "$jobs"
    if python3 "$here/scripts/check_labels.py" "$labels" "$work/transactions.jsonl"; then
        echo "labels: PASS"
    else
        echo "labels: FAIL"
        exit 1
    fi
else
    echo "labels: not checked ($labels not found)"
fi
