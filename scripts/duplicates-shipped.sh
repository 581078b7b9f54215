#!/bin/sh
# Duplicate pairs over shipped source only: packages/<role>/<dir>/src of every role but tooling, without tests
# (*.test.ts(x)), test cases and harnesses (*.case.ts(x)), fixtures and the screenshot script; dist and bench are not
# under src. The files are copied from the working tree to a temporary folder (not a git checkout, so `duplicates`
# reads every file there) and the line count is printed beside the pairs, so the figure can be compared per 10 k lines.
# Usage: sh scripts/duplicates-shipped.sh [--most N] [--seconds N]   (defaults: --most 200 --seconds 120)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/aalis-shipped.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM
cd "$root"
find packages/contracts packages/plugins packages/host packages/shared packages/pling \
  -path '*/node_modules' -prune -o -type f -path 'packages/*/*/src/*' -print |
  grep -E '\.(ts|tsx|js|mjs|css|html|vue)$' |
  grep -vE '\.(test|case)\.tsx?$|/src/(.*/)?fixtures/|/take-screenshots\.ts$' |
  while IFS= read -r file; do
    mkdir -p "$out/$(dirname "$file")"
    cp "$file" "$out/$file"
  done
files=$(find "$out" -type f | wc -l)
lines=$(find "$out" -type f -exec cat {} + | grep -cv '^[[:space:]]*$')
echo "shipped source: $files files, $lines non-blank lines"
most=200
seconds=120
while [ $# -gt 0 ]; do
  case "$1" in
    --most) most=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
duplicates --most "$most" --seconds "$seconds" --repo "$out"
