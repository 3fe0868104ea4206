#!/usr/bin/env bash
# The rule playground (playground/, served by `spendlex playground`) driven in a real browser:
# headless Chromium through Selenium (scripts/playground_check.py) types messages and bank files,
# waits for diagnostics, extracted fields, the nearest parser, a catastrophic pattern (answered
# within a second while GET /health keeps answering), saves through the diff dialog, and walks
# the controls with Tab. The service works on copies of rules/ and grammars/ in a temporary
# folder, so a save never touches the repository. Screenshots: Tests/Output/playground-*.png,
# and docs/playground.png (the working page) for the README.
#
#   scripts/playground-check.sh [BINARY]      (default .build/debug/spendlex)
# Needs chromium and chromium-driver (apt) and selenium (pip); .ci/run installs them.
set -euo pipefail
# A BINARY given relative to where the script is run from, before moving to the repository's root.
if [[ $# -ge 1 && $1 != /* && -e $1 ]]; then set -- "$PWD/$1" "${@:2}"; fi
cd "$(dirname "$0")/.."

binary=${1:-.build/debug/spendlex}
[[ $# -le 1 ]] || { echo "usage: scripts/playground-check.sh [BINARY]" >&2; exit 64; }
[[ -x $binary ]] || { echo "playground-check: no binary at $binary (swift build first)" >&2; exit 64; }
[[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]] || { echo "playground-check: apt-get install -y chromium chromium-driver" >&2; exit 64; }
python3 -c 'import selenium' 2>/dev/null || { echo "playground-check: pip install selenium" >&2; exit 64; }

work=$(mktemp -d "${TMPDIR:-/tmp}/spendlex-playground.XXXXXX")
server=
cleanup() {
  if [[ -n $server ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

cp -R rules "$work/rules"
cp -R grammars "$work/grammars"
: >"$work/playground.log"
"$binary" playground --rules "$work/rules" --rules "$work/grammars" --port 0 2>"$work/playground.log" &
server=$!
url=
# Up to 60 s: a debug build compiles the whole rule pack before it listens.
for _ in $(seq 1 600); do
  url=$(sed -n 's|^spendlex playground on \(http://127\.0\.0\.1:[0-9]*/playground#key=.*\)$|\1|p' "$work/playground.log")
  [[ -n $url ]] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
[[ -n $url ]] || { echo "playground-check: the service did not start:" >&2; cat "$work/playground.log" >&2; exit 70; }
echo "playground-check: $url (rules in $work/rules)"

status=0
python3 scripts/playground_check.py "$url" "$work/rules" || status=$?
if [[ $status -ne 0 ]]; then
  echo "playground-check: failed (exit $status); the service's log:" >&2
  tail -n 40 "$work/playground.log" >&2
  exit 1
fi
echo "playground-check: every step passed; look at Tests/Output/playground-*.png and docs/playground.png"
