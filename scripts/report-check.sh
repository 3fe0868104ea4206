#!/usr/bin/env bash
# The HTML report, rendered and checked: a ledger filled from Tests/Fixtures/report/alerts.jsonl
# (six months of card alerts, salaries and bills), `spendlex report --format html`, rendered by
# headless Chromium (scripts/report-screenshot.sh) into Tests/Output/report.png, then checked:
# a self-contained page (no network), rupees written with their symbol and lakh grouping, the
# period-over-period chart and its scale cut above the spending (one salary must not flatten it),
# the category trend, and a screenshot of the page's size. Look at the PNG after a change.
#
#   scripts/report-check.sh [SPENDLEX_BINARY]      (default .build/debug/spendlex)
# Needs Chromium (apt-get install -y chromium; .ci/run installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/spendlex}
out=Tests/Output
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$binary" parse Tests/Fixtures/report/alerts.jsonl --store "$work/ledger.sqlite" --quiet -o /dev/null
"$binary" report --store "$work/ledger.sqlite" --format html --output "$out/report.html"
scripts/report-screenshot.sh "$out/report.html" "$out/report.png" 1200x2600 >/dev/null

fail() { echo "report-check: $*" >&2; exit 1; }
html="$out/report.html"
grep -q '₹11,10,000.00' "$html" || fail "income not written as ₹11,10,000.00 (symbol, lakh grouping)"
grep -q 'Period over period' "$html" || fail "no period-over-period chart"
grep -q 'cut at the top' "$html" || fail "the salary months do not cut the scale above the spending"
grep -q 'Category trend' "$html" || fail "no category trend"
if grep -Eo '(src|href)="[^"]*' "$html" | grep -q .; then fail "the page loads something (src or href): not self-contained"; fi
python3 - "$out/report.png" <<'PY' || fail "the screenshot is not a rendered page"
import struct, sys
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
width, height = struct.unpack('>II', data[16:24])
assert (width, height) == (1200, 2600), (width, height)
# A blank page compresses to a few kilobytes; charts and tables take far more.
assert len(data) > 60_000, f'{len(data)} bytes: nearly blank'
print(f'report-check: {sys.argv[1]}: {width}x{height}, {len(data)} bytes')
PY
echo "report-check: $html and its screenshot pass; look at $out/report.png"
