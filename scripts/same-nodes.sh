#!/usr/bin/env bash
# Proof that a code move kept the search: two builds of fanorona-cli search the ten bench positions to the same
# depth, each in a fresh engine process, and must print the same lines (nodes, scores, lines; times left out).
# Usage: scripts/same-nodes.sh OLD_CLI NEW_CLI [DEPTH=10]
set -euo pipefail
old=$1 new=$2 depth=${3:-10}
fens=$("$new" bench --depths --max-depth 1 | grep -oE '^  [^ ]+ [wb]' | sed 's/^  //')

search() { # $1 binary: each position's info lines up to bestmove, without nps and time
  while read -r fen; do
    coproc engine { "$1" engine 2>&1; }
    printf 'position fen %s\ngo depth %s\n' "$fen" "$depth" >&"${engine[1]}"
    while read -r line <&"${engine[0]}"; do
      sed -E 's/ nps [0-9]+ time [0-9]+//' <<<"$line"
      [[ $line == bestmove* ]] && break
    done
    echo quit >&"${engine[1]}"
    wait "$engine_PID" 2>/dev/null || true
  done <<<"$fens"
}

a=$(search "$old") b=$(search "$new")
if [[ "$a" == "$b" ]]; then
  total=$(grep "^info depth $depth " <<<"$b" | grep -oE 'nodes [0-9]+' | awk '{s += $2} END {print s}')
  echo "same: $(wc -l <<<"$fens") positions to depth $depth, $total nodes at depth $depth in all"
else
  diff <(echo "$a") <(echo "$b") | head -20
  echo "DIFFERENT" >&2
  exit 1
fi
