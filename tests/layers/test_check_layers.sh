#!/usr/bin/env bash
# The layer check passes on the repository and fails on a copy with an include reaching up.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
"$here/check_layers.sh" "$repo" >/dev/null || { echo "FAIL: the repository itself breaks its layers"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect_fail() {  # $1: file under the root, $2: line to add, $3: text the report must hold
  rm -rf "$tmp/core" "$tmp/web" && cp -r "$repo/core" "$repo/web" "$tmp/"
  printf '%s\n' "$2" >>"$tmp/$1"
  if out=$("$here/check_layers.sh" "$tmp" 2>&1); then echo "FAIL: '$2' in core/$1 was accepted"; exit 1; fi
  grep -qF "$3" <<<"$out" || { echo "FAIL: report lacks '$3':"; echo "$out"; exit 1; }
}
expect_fail core/base/units.hpp '#include "api/api.hpp"' "layer 'base' includes \"api/api.hpp\" from layer 'api' above it"
expect_fail core/model/links.cpp '#include "steps/schedule.hpp"' "layer 'model' includes \"steps/schedule.hpp\""
expect_fail core/api/api.cpp '#include "demos/demo_table.hpp"' "layer 'api' includes \"demos/demo_table.hpp\""
expect_fail core/steps/executor.cpp '#include "links.hpp"' 'names no layer folder'
expect_fail web/util/units.js "import { Card } from '../card/card.js';" "layer 'util' imports '../card/card.js' from layer 'card' above it"
expect_fail web/views/bars.js "const m = await import('../app/main.js');" "layer 'views' imports '../app/main.js'"
echo "layer check: passes on the repository, fails on 6 deliberately wrong includes and imports"
