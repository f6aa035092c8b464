#!/usr/bin/env bash
# Fails when a file of core/ includes, or a module of web/ imports, a layer above its own
# (README "Layout"). Layers, lowest first; a file may use its own layer and those below it.
# Usage: check_layers.sh [root]   (root holds core/; default: the repository)
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
LAYERS=(base model measured steps parallel exercises api demos)
rank() { local i; for i in "${!LAYERS[@]}"; do [[ ${LAYERS[$i]} == "$1" ]] && { echo "$i"; return; }; done; echo -1; }
bad=0
while IFS= read -r file; do
  rel=${file#"$root"/core/}
  own=${rel%%/*}
  own_rank=$(rank "$own")
  if ((own_rank < 0)); then echo "$file: folder '$own' is not a layer (${LAYERS[*]})"; bad=1; continue; fi
  while IFS=: read -r line target; do
    [[ $target == */* ]] || { echo "$file:$line: include \"$target\" names no layer folder"; bad=1; continue; }
    to=${target%%/*}
    to_rank=$(rank "$to")
    if ((to_rank < 0)); then echo "$file:$line: \"$target\" is in no layer"; bad=1
    elif ((to_rank > own_rank)); then echo "$file:$line: layer '$own' includes \"$target\" from layer '$to' above it"; bad=1
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" | sed -E 's/^([0-9]+):.*"([^"]+)".*/\1:\2/')
done < <(find "$root/core" -mindepth 2 -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.in' \) | sort)

# The page: util (dom, math, units, i18n) < engine (the door to the wasm module) < views <
# card < app; boot.js at the top of web/ may import anything.
WEB_LAYERS=(util engine views card app)
web_rank() { local i; for i in "${!WEB_LAYERS[@]}"; do [[ ${WEB_LAYERS[$i]} == "$1" ]] && { echo "$i"; return; }; done; echo -1; }
if [[ -d $root/web ]]; then
  while IFS= read -r file; do
    rel=${file#"$root"/web/}
    own=${rel%%/*}
    own_rank=$(web_rank "$own")
    if ((own_rank < 0)); then echo "$file: folder '$own' is not a layer of web/ (${WEB_LAYERS[*]})"; bad=1; continue; fi
    while IFS=: read -r line spec; do
      target=$(realpath -m "$(dirname "$file")/$spec")
      trel=${target#"$root"/web/}
      to=${trel%%/*}
      [[ $own == engine && $trel == engine/commlab.js ]] && continue  # the wasm build, copied in by ./lab build
      to_rank=$(web_rank "$to")
      if ((to_rank < 0)); then echo "$file:$line: '$spec' is in no layer of web/"; bad=1
      elif ((to_rank > own_rank)); then echo "$file:$line: layer '$own' imports '$spec' from layer '$to' above it"; bad=1
      fi
    done < <(grep -noE "(from|import\()[[:space:]]*'\.{1,2}/[^']+'" "$file" | sed -E "s/^([0-9]+):.*'([^']+)'.*/\1:\2/")
  done < <(find "$root/web" -mindepth 2 -type f -name '*.js' -not -path "$root/web/tools/*" | sort)
fi

if ((bad)); then echo "layer check: a file reaches up a layer (core: ${LAYERS[*]}; web: ${WEB_LAYERS[*]})"; exit 1; fi
echo "layer check: core/ includes and web/ imports point to their own layer or below (core: ${LAYERS[*]}; web: ${WEB_LAYERS[*]})"
