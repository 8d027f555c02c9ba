#!/usr/bin/env bash
set -euo pipefail

dir=$(dirname "$0")
name="${1:-world}"

greet() {
  local who=$1
  echo "hello $who"
}

if [ -d "$dir/build" ]; then
  rm -rf "$dir/build"
fi

for f in "$dir"/*.txt; do
  echo "file: $f"
  cat "$f" | grep -v '^#' > /dev/null
done

greet "$name"
echo done
export PATH="$dir/bin:$PATH"
