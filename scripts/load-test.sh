#!/usr/bin/env bash
# Load test of `spendlex serve`: POST /messages with a new SMS each request, on loopback.
#
#   scripts/load-test.sh [debug|release] [SECONDS] [CONNECTIONS]
#
# Builds the binary (release in its own scratch folder, .build-release), starts the server on a
# temporary ledger with the bundled rules on a free loopback port, creates an API key, runs wrk
# (Debian: apt-get install wrk) with scripts/load-test.lua for SECONDS (default 30) over
# CONNECTIONS connections (default 16) on 2 threads, prints wrk's report with the latency
# percentiles, and stops the server. Every request stores a new transaction (the amount and
# the merchant change), so the rate measured is parse + categorize + store with duplicate checks.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-release}
seconds=${2:-30}
connections=${3:-16}
command -v wrk >/dev/null 2>&1 || { echo "error: wrk is not installed (apt-get install wrk)" >&2; exit 69; }

case "$mode" in
  release) swift build -c release --scratch-path .build-release --product spendlex >&2
           binary=.build-release/release/spendlex ;;
  debug)   swift build --product spendlex >&2
           binary=.build/debug/spendlex ;;
  *) echo "usage: $0 [debug|release] [SECONDS] [CONNECTIONS]" >&2; exit 64 ;;
esac

work=$(mktemp -d)
server=""
cleanup() {
  if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

key=$("$binary" keys create --store "$work/ledger.sqlite" --name load-test 2>/dev/null)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
"$binary" serve --store "$work/ledger.sqlite" --host 127.0.0.1 --port "$port" --log-level "${LOG_LEVEL:-warning}" 2>"$work/serve.log" &
server=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -sf "http://127.0.0.1:$port/health" >/dev/null || { echo "error: the server did not start:" >&2; cat "$work/serve.log" >&2; exit 70; }

echo "spendlex serve ($mode) on 127.0.0.1:$port, $(nproc) cores; wrk -t2 -c$connections -d${seconds}s" >&2
# The WAL's largest size during the run, sampled every half second.
( max=0; while kill -0 "$server" 2>/dev/null; do
    size=$(stat -c %s "$work/ledger.sqlite-wal" 2>/dev/null || echo 0)
    (( size > max )) && { max=$size; echo "$max" > "$work/wal-max"; }
    sleep 0.5
  done ) &
SPENDLEX_KEY="$key" wrk -t2 -c"$connections" -d"${seconds}s" --latency -s scripts/load-test.lua "http://127.0.0.1:$port/messages"

# Every request stores a transaction: the ledger's count, to compare with wrk's (requests still in
# flight when wrk stops are stored too).
stored=$(curl -sf -H "X-API-Key: $key" "http://127.0.0.1:$port/transactions?days=36500&limit=1" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["total"])')
echo "transactions stored: $stored"
# The WAL stays bounded under load: the service checkpoints it past 16 MiB (ServiceConfiguration.walLimit).
wal=$(stat -c %s "$work/ledger.sqlite-wal" 2>/dev/null || echo 0)
echo "ledger: $(stat -c %s "$work/ledger.sqlite") bytes, WAL $wal bytes now, at most $(cat "$work/wal-max" 2>/dev/null || echo 0) during the run"
grep -i checkpoint "$work/serve.log" | tail -5 || true
