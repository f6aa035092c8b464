#!/usr/bin/env bash
# Fails when a file of core/ includes, or a module of web/ imports, a layer above its own
# (web/README.md "Roles"). Layers, lowest first; a file may use its own layer and those below it.
# Usage: check_layers.sh [root]   (root holds core/; default: the repository)
# One grep a tree and lookups in bash (no process a file or an include): it runs in ctest,
# in ./lab test and under the sanitizers.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
LAYERS=(base model measured steps parallel exercises api demos)
declare -A RANK=()
for i in "${!LAYERS[@]}"; do RANK[${LAYERS[$i]}]=$i; done
bad=0

# Every core/ file lies in a layer folder.
while IFS= read -r file; do
  rel=${file#"$root"/core/}
  own=${rel%%/*}
  [[ -n ${RANK[$own]+x} ]] || { echo "$file: folder '$own' is not a layer (${LAYERS[*]})"; bad=1; }
done < <(find "$root/core" -mindepth 2 -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.in' \) | sort)

# file:line:#include "target"
include_re='^([^:]+):([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)"'
while IFS= read -r hit; do
  [[ $hit =~ $include_re ]] || continue
  file=${BASH_REMATCH[1]} line=${BASH_REMATCH[2]} target=${BASH_REMATCH[3]}
  rel=${file#"$root"/core/}
  own=${rel%%/*}
  [[ $rel == */* && -n ${RANK[$own]+x} ]] || continue  # said above
  [[ $target == */* ]] || { echo "$file:$line: include \"$target\" names no layer folder"; bad=1; continue; }
  to=${target%%/*}
  if [[ -z ${RANK[$to]+x} ]]; then echo "$file:$line: \"$target\" is in no layer"; bad=1
  elif ((RANK[$to] > RANK[$own])); then echo "$file:$line: layer '$own' includes \"$target\" from layer '$to' above it"; bad=1
  fi
done < <(find "$root/core" -mindepth 2 -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.in' \) -print0 | sort -z |
  xargs -0 -r grep -nH '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' || true)

# The page: util (dom, math, units, i18n) < engine (the door to the wasm module) < views <
# card < app; boot.js at the top of web/ may import anything.
WEB_LAYERS=(util engine views card app)
declare -A WEB_RANK=()
for i in "${!WEB_LAYERS[@]}"; do WEB_RANK[${WEB_LAYERS[$i]}]=$i; done

# "a/b/../c/./d" -> "a/c/d" (the import's path inside web/).
normalize() {
  local IFS=/ part
  local -a out=()
  for part in $1; do
    case $part in
      "" | .) ;;
      ..) ((${#out[@]})) && unset 'out[${#out[@]}-1]' ;;
      *) out+=("$part") ;;
    esac
  done
  NORMALIZED="${out[*]}"
}

if [[ -d $root/web ]]; then
  while IFS= read -r file; do
    rel=${file#"$root"/web/}
    own=${rel%%/*}
    [[ -n ${WEB_RANK[$own]+x} ]] || { echo "$file: folder '$own' is not a layer of web/ (${WEB_LAYERS[*]})"; bad=1; }
  done < <(find "$root/web" -mindepth 2 -type f -name '*.js' -not -path "$root/web/tools/*" | sort)
  import_re="^([^:]+):([0-9]+):(from|import\\()[[:space:]]*'([^']+)'"
  while IFS= read -r hit; do
    [[ $hit =~ $import_re ]] || continue
    file=${BASH_REMATCH[1]} line=${BASH_REMATCH[2]} spec=${BASH_REMATCH[4]}
    rel=${file#"$root"/web/}
    own=${rel%%/*}
    [[ $rel == */* && -n ${WEB_RANK[$own]+x} ]] || continue  # said above
    normalize "${rel%/*}/$spec"
    trel=$NORMALIZED
    to=${trel%%/*}
    [[ $own == engine && $trel == engine/commlab.js ]] && continue  # the wasm build, copied in by ./lab build
    if [[ -z ${WEB_RANK[$to]+x} ]]; then echo "$file:$line: '$spec' is in no layer of web/"; bad=1
    elif ((WEB_RANK[$to] > WEB_RANK[$own])); then echo "$file:$line: layer '$own' imports '$spec' from layer '$to' above it"; bad=1
    fi
  done < <(find "$root/web" -mindepth 2 -type f -name '*.js' -not -path "$root/web/tools/*" -print0 | sort -z |
    xargs -0 -r grep -noHE "(from|import\()[[:space:]]*'\.{1,2}/[^']+'" || true)
fi

if ((bad)); then echo "layer check: a file reaches up a layer (core: ${LAYERS[*]}; web: ${WEB_LAYERS[*]})"; exit 1; fi
echo "layer check: core/ includes and web/ imports point to their own layer or below (core: ${LAYERS[*]}; web: ${WEB_LAYERS[*]})"
