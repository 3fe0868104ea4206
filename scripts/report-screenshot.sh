#!/usr/bin/env bash
# Renders an HTML report (spendlex report --format html) to a PNG with headless Chromium,
# to look at its charts without a browser: scripts/report-screenshot.sh report.html [out.png] [WIDTHxHEIGHT]
# Needs Chromium: apt-get install -y chromium
set -euo pipefail

if [[ $# -lt 1 || $# -gt 3 ]]; then
  echo "usage: $0 REPORT.html [OUT.png] [WIDTHxHEIGHT]" >&2
  exit 64
fi
html=$1
png=${2:-${html%.html}.png}
size=${3:-1200x1600}
[[ -f "$html" ]] || { echo "error: no file $html" >&2; exit 65; }

browser=""
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then browser=$candidate; break; fi
done
if [[ -z "$browser" ]]; then
  echo "error: Chromium not found; install it with: apt-get update && apt-get install -y chromium" >&2
  exit 69
fi

url="file://$(cd "$(dirname "$html")" && pwd)/$(basename "$html")"
mkdir -p "$(dirname "$png")"
png_abs="$(cd "$(dirname "$png")" && pwd)/$(basename "$png")"
# A throwaway profile: nothing read from or left in the user's.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --disable-gpu --no-sandbox --hide-scrollbars --user-data-dir="$profile" \
  --screenshot="$png_abs" --window-size="${size/x/,}" "$url" >/dev/null 2>&1
[[ -s "$png_abs" ]] || { echo "error: $browser wrote no screenshot" >&2; exit 70; }
echo "$png_abs"
