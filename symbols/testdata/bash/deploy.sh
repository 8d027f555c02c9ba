#!/usr/bin/env bash
# Deploys the shop.
set -euo pipefail

source ./lib/common.sh
. "$HOME/.shoprc"

readonly VERSION="1.0"
export TARGET=prod
declare -x REGION=eu
LOG_DIR=/var/log/shop
local_only=1

# Builds the bundle.
build() {
  local out="$1"
  echo "building $out"
}

function deploy {
  build dist
  _cleanup
}

_cleanup() { rm -rf tmp; }

export -f build

if [[ "${1:-}" == "deploy" ]]; then
  deploy
fi
